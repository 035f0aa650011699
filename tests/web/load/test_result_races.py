"""Two tablets sending the same meeting at once never make two results (on PostgreSQL).

The services check for an existing result before inserting, but two submissions can both pass
that check; the unique constraints of the migration are what make the second one fail, and the
service then answers as if it had arrived second. Each race runs in two threads with their own
database connections, released together by a barrier. "Interleaved" races also hold both
threads just after the service's own check, so the database constraint decides every time,
not only when the timing happens to collide.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from tests.web.conftest import make_event
from tournaments.events.models import Event, MovementRow, Pair, Result, Section, Standings
from tournaments.events.services import events as event_services
from tournaments.events.services import results as rs
from tournaments.events.services import scoring
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TIMEOUT = 20.0
STALL = 5.0  # longer than PostgreSQL's deadlock_timeout (1 s), short enough to fail fast


@pytest.fixture(autouse=True)
def rescore_requests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the rescores the services ask for instead of sending them to a broker."""
    asked: list[int] = []
    lock = threading.Lock()

    def record(*, event_id: int) -> bool:
        with lock:
            asked.append(event_id)
        return True

    monkeypatch.setattr(scoring, "request_rescore", record)
    return asked


@pytest.fixture
def event(club: Club) -> Event:
    """Classic whist, 5-table Mitchell, 2 boards a round: 50 meetings to race on."""
    return make_event(club, params={"tables": 5, "boards_per_round": 2})


def seatings(event: Event) -> Iterator[tuple[Section, MovementRow, int]]:
    """Every (section, movement row, board) of the event, so each race gets a fresh meeting."""
    section = event.sections.get()
    for row in MovementRow.objects.filter(section=section).order_by("round", "table"):
        for board in section.boards_of_set(row.board_set):
            yield section, row, board


def in_threads(*calls: Callable[[], Any]) -> list[tuple[str, Any]]:
    """Run each call in its own thread, all released at once; ("ok", value) or ("error", exc)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[tuple[str, Any]] = [("error", RuntimeError("never ran"))] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(TIMEOUT)
            outcomes[i] = ("ok", call())
        except BaseException as exc:
            outcomes[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 2)
    assert not any(t.is_alive() for t in threads), "a racing submission never finished"
    return outcomes


@pytest.fixture
def interleave(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[int]]:
    """Call to make both racers reach the insert together: each waits for the other once it
    has found its seating, just before inserting.

    Returns a function giving how many times a submission looked at the stored results: only
    after the database refused its insert, so a count of 1 proves the constraint (no check in
    Python) stopped the second insert, and the loser was answered from what the winner stored.
    """
    real_seating, real_existing = rs.seating_for, rs._existing
    calls: list[int] = []
    state: dict[str, Any] = {}

    def seated(*args: Any, **kwargs: Any) -> Any:
        found = real_seating(*args, **kwargs)
        local: threading.local = state["local"]
        if not getattr(local, "seated", False):
            local.seated = True
            state["barrier"].wait(TIMEOUT)  # both are about to insert
        return found

    def looked(*args: Any, **kwargs: Any) -> Result | None:
        calls.append(1)
        return real_existing(*args, **kwargs)  # may raise: the loser's conflict

    def arm() -> list[int]:
        calls.clear()
        state["local"] = threading.local()
        state["barrier"] = threading.Barrier(2)
        monkeypatch.setattr(rs, "seating_for", seated)
        monkeypatch.setattr(rs, "_existing", looked)
        return calls

    return arm


def submit(section: Section, row: MovementRow, board: int, tricks: int) -> Callable[[], Any]:
    def call() -> tuple[Result, bool]:
        return rs.result_submit(
            section=section,
            round=row.round,
            table=row.table,
            board_number=board,
            entry={"ns_tricks": tricks},
            idempotency_key=uuid.uuid4().hex,  # two tablets: two different keys
            confirm=True,
        )

    return call


def rows_for(section: Section, row: MovementRow, board: int) -> list[Result]:
    return list(Result.objects.filter(section=section, board_number=board, round=row.round))


# --------------------------------------------------------------------------- the constraints


def _pairs(section: Section) -> tuple[list[Pair], list[Pair]]:
    ns = list(Pair.objects.filter(section=section, direction="NS").order_by("number"))
    ew = list(Pair.objects.filter(section=section, direction="EW").order_by("number"))
    return ns, ew


def _raw_result(section: Section, board: int, ns: Pair, ew: Pair, **extra: Any) -> Result:
    return Result.objects.create(
        section=section,
        board_number=board,
        round=1,
        table=1,
        ns_pair=ns,
        ew_pair=ew,
        entry={"ns_tricks": 7},
        ns_score=7,
        status=Result.Status.CONFIRMED,
        **extra,
    )


def test_the_database_refuses_a_second_result_for_an_ns_pair_on_a_board(event: Event) -> None:
    section = event.sections.get()
    (ns1, ns2, *_), (ew1, ew2, *_) = _pairs(section)
    _raw_result(section, 1, ns1, ew1)
    with pytest.raises(IntegrityError, match="result_once_per_ns_pair"), transaction.atomic():
        _raw_result(section, 1, ns1, ew2)
    assert Result.objects.filter(section=section, board_number=1).count() == 1
    _raw_result(section, 1, ns2, ew2)  # other pairs on the same board are not affected
    assert Result.objects.filter(section=section, board_number=1).count() == 2


def test_the_database_refuses_a_second_result_for_an_ew_pair_on_a_board(event: Event) -> None:
    section = event.sections.get()
    (ns1, ns2, *_), (ew1, *_) = _pairs(section)
    _raw_result(section, 1, ns1, ew1)
    with pytest.raises(IntegrityError, match="result_once_per_ew_pair"), transaction.atomic():
        _raw_result(section, 1, ns2, ew1)
    assert Result.objects.filter(section=section, board_number=1).count() == 1
    _raw_result(section, 2, ns2, ew1)  # the same pair on another board is fine
    assert Result.objects.filter(section=section, ew_pair=ew1).count() == 2


def test_the_database_refuses_an_idempotency_key_used_twice(event: Event) -> None:
    section = event.sections.get()
    (ns1, ns2, *_), (ew1, ew2, *_) = _pairs(section)
    _raw_result(section, 1, ns1, ew1, idempotency_key="tablet-3-send-1")
    with pytest.raises(IntegrityError, match="idempotency_key"), transaction.atomic():
        _raw_result(section, 2, ns2, ew2, idempotency_key="tablet-3-send-1")
    assert Result.objects.filter(section=section).count() == 1


def test_a_submission_key_reused_for_another_board_is_refused_with_a_clear_message(
    event: Event, rescore_requests: list[int]
) -> None:
    (section, row, board), (_, _, other_board) = list(seatings(event))[:2]
    first, created = rs.result_submit(
        section=section,
        round=row.round,
        table=row.table,
        board_number=board,
        entry={"ns_tricks": 8},
        idempotency_key="tablet-1-send-1",
        confirm=True,
    )
    assert created
    with pytest.raises(rs.ResultError, match="already used for a different board"):
        rs.result_submit(
            section=section,
            round=row.round,
            table=row.table,
            board_number=other_board,
            entry={"ns_tricks": 8},
            idempotency_key="tablet-1-send-1",
            confirm=True,
        )
    assert list(Result.objects.filter(section=section)) == [first]
    assert Event.objects.get(pk=event.pk).results_version == 1
    assert rescore_requests == [event.pk]


def test_a_submission_key_raced_onto_two_boards_is_refused_with_a_clear_message(
    event: Event, interleave: Callable[[], list[int]]
) -> None:
    (section, row, board), (_, _, other_board) = list(seatings(event))[:2]
    checks = interleave()

    def with_key(number: int) -> Callable[[], Any]:
        return lambda: rs.result_submit(
            section=section,
            round=row.round,
            table=row.table,
            board_number=number,
            entry={"ns_tricks": 6},
            idempotency_key="tablet-2-send-9",
        )

    outcomes = in_threads(with_key(board), with_key(other_board))
    kinds = sorted(kind for kind, _ in outcomes)
    assert kinds == ["error", "ok"], outcomes
    error = next(value for kind, value in outcomes if kind == "error")
    assert isinstance(error, rs.ResultError)
    assert "already used for a different board" in str(error)
    assert Result.objects.filter(idempotency_key="tablet-2-send-9").count() == 1
    assert len(checks) == 1


# --------------------------------------------------------------------------- the races

RACES = [("natural", 5), ("interleaved", 3)]


@pytest.mark.parametrize(("mode", "repeats"), RACES)
def test_the_same_result_sent_twice_at_once_is_stored_once(
    event: Event,
    rescore_requests: list[int],
    interleave: Callable[[], list[int]],
    mode: str,
    repeats: int,
) -> None:
    for race, (section, row, board) in enumerate(list(seatings(event))[:repeats], start=1):
        checks = interleave() if mode == "interleaved" else None
        outcomes = in_threads(submit(section, row, board, 9), submit(section, row, board, 9))
        assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
        (a, a_created), (b, b_created) = (value for _, value in outcomes)
        assert a.pk == b.pk
        assert sorted([a_created, b_created]) == [False, True]
        stored = rows_for(section, row, board)
        assert [r.pk for r in stored] == [a.pk]
        assert stored[0].entry == {"ns_tricks": 9}
        if checks is not None:
            assert len(checks) == 1, "the constraint should have decided, then one lookup"
        # One result, one version bump, one rescore request per race.
        assert Event.objects.get(pk=event.pk).results_version == race
        assert rescore_requests == [event.pk] * race


@pytest.mark.parametrize(("mode", "repeats"), RACES)
def test_two_different_results_sent_at_once_keep_the_first_and_refuse_the_second(
    event: Event,
    rescore_requests: list[int],
    interleave: Callable[[], list[int]],
    mode: str,
    repeats: int,
) -> None:
    for race, (section, row, board) in enumerate(list(seatings(event))[:repeats], start=1):
        checks = interleave() if mode == "interleaved" else None
        outcomes = in_threads(submit(section, row, board, 5), submit(section, row, board, 10))
        assert sorted(kind for kind, _ in outcomes) == ["error", "ok"], outcomes
        winner = next(i for i, (kind, _) in enumerate(outcomes) if kind == "ok")
        result, created = outcomes[winner][1]
        error = outcomes[1 - winner][1]
        assert created
        assert isinstance(error, rs.ResultError), error
        assert "already has a result" in str(error)
        stored = rows_for(section, row, board)
        assert [r.pk for r in stored] == [result.pk]
        assert stored[0].entry == {"ns_tricks": (5, 10)[winner]}
        if checks is not None:
            assert len(checks) == 1, "the constraint should have decided, then one lookup"
        assert Event.objects.get(pk=event.pk).results_version == race
        assert rescore_requests == [event.pk] * race


# --------------------------------------------------------------------------- submit v rescore


def test_a_result_commits_while_the_standings_are_being_computed(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tablet is neither stalled by a rescore in progress nor deadlocked with it.

    The scorer locks the section rows and ends by updating the event row; a submission updates
    the event row and, at COMMIT, checks its foreign key to the section. If the scorer's lock
    also took the event row (Section's ordering joins it), the submission waits for the whole
    computation and this test times out; if the section lock were FOR UPDATE, the check and
    the scorer's final update would wait for each other and PostgreSQL would kill one.
    """
    (section, row, board), (_, row2, board2) = list(seatings(event))[:2]
    submit(section, row, board, 7)()  # something to score: results v1, scored v0
    scorer_holds_sections = threading.Event()
    submission_updated_event = threading.Event()
    real_compute = scoring.standings_compute

    def compute_when_the_submission_is_in_flight(*, event: Event) -> dict[str, Any]:
        scorer_holds_sections.set()
        assert submission_updated_event.wait(STALL)
        return real_compute(event=event)

    monkeypatch.setattr(scoring, "standings_compute", compute_when_the_submission_is_in_flight)

    def score() -> Standings | None:
        return scoring.standings_refresh(event_id=event.pk)

    def submit_during_the_rescore() -> tuple[Result, bool]:
        assert scorer_holds_sections.wait(TIMEOUT)
        with transaction.atomic():
            made = submit(section, row2, board2, 8)()
            submission_updated_event.set()
        return made

    outcomes = in_threads(score, submit_during_the_rescore)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    standings = outcomes[0][1]
    assert standings is not None and standings.version == 1
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.results_version, fresh.scored_version) == (2, 1)
    assert Result.objects.filter(section=section).count() == 2


# --------------------------------------------------------------------------- close v rescore


@pytest.mark.parametrize("action", ["finish", "publish"])
def test_the_director_closes_or_publishes_while_the_worker_scores(
    event: Event, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    """Closing and publishing score the event at once, in the same transaction as the status
    change. A rescore already running in the worker holds the section rows and ends by
    updating the event row: if the director's request took the event row first and then
    waited for the sections, each would wait for the other and PostgreSQL would kill one
    (seen in CI as a 500 on "Close the event")."""
    (section, row, board), *_ = list(seatings(event))
    submit(section, row, board, 7)()
    if action == "publish":
        event_services.event_finish(event=event)
    scorer_holds_sections = threading.Event()
    real_compute = scoring.standings_compute
    computations: list[str] = []

    def compute(*, event: Event) -> dict[str, Any]:
        computations.append(threading.current_thread().name)
        if len(computations) == 1:  # the worker's: let the director's request queue up
            scorer_holds_sections.set()
            time.sleep(STALL / 2)  # longer than deadlock_timeout
        return real_compute(event=event)

    monkeypatch.setattr(scoring, "standings_compute", compute)

    def worker() -> Standings | None:
        return scoring.standings_refresh(event_id=event.pk, force=True)

    def director() -> Event:
        assert scorer_holds_sections.wait(TIMEOUT)
        service = getattr(event_services, f"event_{action}")
        result: Event = service(event=Event.objects.get(pk=event.pk))
        return result

    outcomes = in_threads(worker, director)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    assert len(computations) == 2
    expected = Event.Status.FINISHED if action == "finish" else Event.Status.PUBLISHED
    assert Event.objects.get(pk=event.pk).status == expected
