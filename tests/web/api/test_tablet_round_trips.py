"""What a tablet's request costs in round trips, counted on the real request path: database
statements (BEGIN, COMMIT and savepoints included: each is a round trip) and Redis round trips
to the cache (a script or a pipeline is one).

Under load a tablet's request spends most of its time waiting on PostgreSQL and Redis, so these
are the targets of issue #25: a poll on a warm cache asks the database nothing and Redis once;
a submission or a confirmation makes at most four database round trips and asks Redis once,
before its work (the request count, the link, its round and its state together, and the copies
it will change moved on, pending until the tablet's next request brings the write's receipt
back); a refused write writes nothing in the database. And the copies never outlive a change:
a replaced link, a round moved on, a finished or deleted event, a request that read the
database while a write was on its way.

The tests run in real transactions (`transaction=True`), as requests do in production (inside
a test's transaction a write would make savepoints instead). The rescore a confirmation asks
for after its commit is recorded, not run: its round trips are scoring's
(tournaments/events/services/ scoring.py), and `benchmarks/tablet_requests.py` shows them.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from benchmarks.harness import free_port
from tests.web.conftest import make_event
from tournaments.events.api.tablets import TableTokenThrottle
from tournaments.events.bridge import movement_for
from tournaments.events.models import Board, Event, Pair, Result
from tournaments.events.selectors import tablet_cache, tablet_scripts
from tournaments.events.services import scoring, tablets
from tournaments.events.services.events import event_finish
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db(transaction=True)

WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN", "SAVEPOINT")


@dataclass
class RedisTally:
    """Round trips to the cache's Redis: one per packed send (a script or a pipeline is one)."""

    trips: int = 0
    connects: int = 0  # new TCP connections
    lock: threading.Lock = field(default_factory=threading.Lock)


TALLY = RedisTally()


class CountingConnection(redis.Connection):
    """The cache's connections in these tests: every round trip is tallied."""

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        with TALLY.lock:
            TALLY.trips += 1
        super().send_packed_command(command, check_health)

    def _connect(self) -> Any:
        with TALLY.lock:
            TALLY.connects += 1
        return super()._connect()


class Tablet(Client):
    """A test client that does what the table's page does with a write's receipt: sends it
    back with its next request (static/js/table.js)."""

    receipt: str | None = None

    def request(self, **request: Any) -> Any:
        if self.receipt is not None:
            request["HTTP_CLUBWHIST_RECEIPT"], self.receipt = self.receipt, None
        answer = super().request(**request)
        self.receipt = answer.headers.get("Clubwhist-Receipt") or self.receipt
        return answer


@dataclass
class Cost:
    status: int
    body: Any
    queries: list[str]
    redis: int
    receipt: str | None = None

    @property
    def database(self) -> int:
        return len(self.queries)

    def wrote(self) -> list[str]:
        return [q for q in self.queries if q.lstrip().upper().startswith(WRITES)]


@pytest.fixture
def rescores(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rescores asked for after a commit, recorded instead of queued."""
    asked: list[int] = []

    def record(*, event_id: int, reclaim: bool = False) -> bool:
        asked.append(event_id)
        return True

    monkeypatch.setattr(scoring, "request_rescore", record)
    return asked


@pytest.fixture
def counted_cache() -> Iterator[RedisTally]:
    """The shared cache on this run's Redis, through connections that count."""
    found = settings.CACHES["default"]
    if "redis" not in str(found["BACKEND"]).lower():
        pytest.skip("needs Redis: set REDIS_URL=redis://...")
    options = {**found.get("OPTIONS", {}), "connection_class": CountingConnection}
    with override_settings(CACHES={"default": {**found, "OPTIONS": options}}):
        cache.clear()
        yield TALLY
        cache.clear()


def cost(client: Client, method: str, url: str, body: dict[str, Any] | None = None) -> Cost:
    with TALLY.lock:
        TALLY.trips = 0
    with CaptureQueriesContext(connection) as queries:
        if method == "GET":
            answer = client.get(url)
        else:
            answer = client.post(url, body or {}, content_type="application/json")
    return Cost(
        answer.status_code,
        answer.json(),
        [q["sql"] for q in queries.captured_queries],
        TALLY.trips,
        answer.headers.get("Clubwhist-Receipt"),
    )


@pytest.fixture
def event(club: Club) -> Event:
    """Classic whist, 3-table Mitchell, 2 boards a round."""
    return make_event(club)


@pytest.fixture
def tokens(event: Event) -> dict[int, str]:
    return {a.table: a.token for a in tablets.table_links_ensure(event=event)}


def submission(board: int, tricks: int, key: str) -> dict[str, Any]:
    return {"board": board, "entry": {"ns_tricks": tricks}, "idempotency_key": key}


def warm(client: Client, token: str) -> dict[str, Any]:
    """Poll until the link, its round and its state are all in the cache (a poll after a
    change computes and keeps them); the warm poll's answer."""
    client.get(f"/api/t/{token}/")
    # A poll right after a change may still find a version moved by that change's after-commit
    # work (and keep the state again): poll until warm, a few times at most.
    for _ in range(3):
        found = cost(client, "GET", f"/api/t/{token}/")
        if (found.status, found.database, found.redis) == (200, 0, 1):
            break
    assert (found.status, found.database, found.redis) == (200, 0, 1), found.queries
    return dict(found.body)


# --------------------------------------------------------------------------- the targets


@pytest.mark.redis
def test_a_warm_poll_asks_the_database_nothing_and_redis_once(counted_cache, tokens) -> None:
    client = Tablet()
    cold = cost(client, "GET", f"/api/t/{tokens[1]}/")
    assert cold.status == 200 and cold.database > 0  # computed, and kept
    again = cost(client, "GET", f"/api/t/{tokens[1]}/")
    assert (again.status, again.database, again.redis) == (200, 0, 1)
    same = {k: v for k, v in again.body.items() if k != "server_time"}
    assert same == {k: v for k, v in cold.body.items() if k != "server_time"}


@pytest.mark.redis
def test_requests_share_the_processs_redis_connections(counted_cache, tokens) -> None:
    # Under ASGI each request starts from an empty context, where Django makes a new cache
    # object: the connections must outlive it (they once did not: a TCP connection to Redis,
    # and a look-up of redis-py's version, on every request a tablet made).
    client = Tablet()
    warm(client, tokens[1])
    with TALLY.lock:
        TALLY.connects = 0
    for _ in range(5):
        answer = contextvars.Context().run(client.get, f"/api/t/{tokens[1]}/")
        assert answer.status_code == 200
    assert TALLY.connects == 0


@pytest.mark.redis
def test_a_submission_takes_four_database_round_trips_and_one_to_redis(
    counted_cache, tokens, rescores
) -> None:
    client = Tablet()
    warm(client, tokens[1])
    sent = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-submit-1"))
    assert sent.status == 201, sent.body
    # the board's results (the "are you sure?" check) and the insert: one statement, a
    # transaction of its own, so no BEGIN or COMMIT; the board and its pairs come from the
    # process's copy of the section (`section_snapshot`)
    assert sent.database <= 2, sent.queries
    assert [q.split()[0] for q in sent.wrote()] == ["INSERT"]
    assert sent.redis == 1  # the visit, which moved the table's version on: nothing after
    assert sent.receipt is not None
    stored = Result.objects.get()
    assert (stored.pk, stored.board_number, stored.status) == (sent.body["id"], 1, "entered")
    assert rescores == []  # an unconfirmed result changes no standings
    state = cost(client, "GET", f"/api/t/{tokens[1]}/").body
    assert state["current"]["boards"][0]["state"] == "waiting"  # the cached state was retired


@pytest.mark.redis
def test_a_repeated_submission_answers_the_stored_result_and_writes_nothing(
    counted_cache, tokens, rescores
) -> None:
    client = Tablet()
    warm(client, tokens[1])
    body = submission(1, 7, "rt-repeat-1")
    first = cost(client, "POST", f"/api/t/{tokens[1]}/results/", body)
    assert first.status == 201
    # straight away, as a tablet whose answer was lost resends: the round is still cached
    again = cost(client, "POST", f"/api/t/{tokens[1]}/results/", body)
    assert again.status == 200 and again.body == first.body
    assert again.database <= 4 and again.wrote() == [], again.queries
    assert again.redis == 1  # nothing changed: nothing retired
    assert Result.objects.count() == 1


@pytest.mark.redis
def test_a_confirmation_takes_four_database_round_trips_and_one_to_redis(
    counted_cache, event, tokens, rescores
) -> None:
    client = Tablet()
    warm(client, tokens[1])
    made = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-conf-1"))
    warm(client, tokens[1])
    confirmed = cost(client, "POST", f"/api/t/{tokens[1]}/results/{made.body['id']}/confirm/")
    assert confirmed.status == 200 and confirmed.body["status"] == "confirmed"
    assert {k: v for k, v in confirmed.body.items() if k != "status"} == {
        k: v for k, v in made.body.items() if k != "status"
    }
    # BEGIN, the result confirmed (UPDATE ... RETURNING), the standings' version, COMMIT
    assert confirmed.database <= 4, confirmed.queries
    assert [q.split()[0] for q in confirmed.wrote()] == ["BEGIN", "UPDATE", "UPDATE"]
    assert confirmed.redis == 1 and confirmed.receipt is not None
    assert rescores == [event.pk]
    stored = Result.objects.get()
    assert stored.status == "confirmed" and stored.confirmed_at is not None
    event.refresh_from_db()
    assert event.results_version == 1
    state = cost(client, "GET", f"/api/t/{tokens[1]}/").body
    assert state["current"]["boards"][0]["state"] == "confirmed"
    # confirmed again (a lost answer): the same, nothing changed
    again = cost(client, "POST", f"/api/t/{tokens[1]}/results/{made.body['id']}/confirm/")
    assert again.status == 200 and again.body == confirmed.body
    event.refresh_from_db()
    assert event.results_version == 1 and rescores == [event.pk]


def enter_and_confirm(client: Client, token: str, boards: tuple[int, ...], tag: str) -> None:
    """A table's results for these boards, each confirmed at once (keys `<tag>-<board>`)."""
    for board in boards:
        made = client.post(
            f"/api/t/{token}/results/",
            submission(board, 7, f"{tag}-{board}"),
            content_type="application/json",
        ).json()
        client.post(f"/api/t/{token}/results/{made['id']}/confirm/")


@pytest.mark.redis
def test_a_confirmation_retires_only_the_states_it_can_change(
    counted_cache, event, tokens, rescores
) -> None:
    """Table 3's confirmations settle boards that table 1 (its East-West pair's next table)
    and table 2 (its boards' next table) wait for in round 2. Table 1 has played round 1: its
    cached state says it waits for tables 2 and 3, and must be computed again. Table 2 is
    still playing round 1: nothing it shows depends on table 3, and its state stays cached
    (in a busy room this halves the states computed)."""
    section = event.section
    after = movement_for(section).next_places(1, 3)
    assert (after.ew[0] if after.ew else None, after.boards) == (1, 2)  # the Mitchell's moves
    client = Tablet()
    enter_and_confirm(client, tokens[1], (1, 2), "rt-narrow-t1")
    done = warm(client, tokens[1])
    assert done["current"]["done"] is True and done["waiting_for_tables"] == [2, 3]
    playing = warm(client, tokens[2])
    assert playing["current"]["done"] is False
    enter_and_confirm(client, tokens[3], (5, 6), "rt-narrow-t3")
    still = cost(client, "GET", f"/api/t/{tokens[2]}/")
    assert (still.database, still.redis) == (0, 1), still.queries  # warm: not retired
    assert still.body["current"] == playing["current"]
    moved = cost(client, "GET", f"/api/t/{tokens[1]}/")
    assert moved.database > 0  # computed again
    assert moved.body["waiting_for_tables"] == [2]
    # and a change that is not a confirmation retires every state it may touch, as before
    Result.objects.filter(section=section, table=3, board_number=5).delete()
    again = cost(client, "GET", f"/api/t/{tokens[2]}/")
    assert again.database > 0
    assert cost(client, "GET", f"/api/t/{tokens[1]}/").body["waiting_for_tables"] == [2, 3]


@pytest.mark.redis
def test_the_sections_copy_follows_its_pairs_and_boards(counted_cache, event, tokens) -> None:
    """A table's state computed again takes the pairs and boards from the process's copy of
    the section, which a change to a pair or a board retires at once."""
    client = Tablet()
    before = warm(client, tokens[1])
    again = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-copy-01"))
    assert again.database <= 2
    computed = cost(client, "GET", f"/api/t/{tokens[1]}/")
    assert computed.database == 2, computed.queries  # the table's results, its open call
    pair = Pair.objects.get(
        section=event.section,
        number=before["current"]["ns"]["number"],
        direction=event.section.direction_of("NS"),
    )
    pair.player1 = "Ada Renamed"
    pair.save()
    renamed = cost(client, "GET", f"/api/t/{tokens[1]}/").body
    assert "Ada Renamed" in renamed["current"]["ns"]["names"]
    Board.objects.filter(event=event, number=2).update(fouled=True)  # no signal: as a script
    tablet_cache.tables_changed([event.section.pk])  # what the services do after one
    fouled = client.post(
        f"/api/t/{tokens[1]}/results/",
        submission(2, 7, "rt-copy-02"),
        content_type="application/json",
    )
    assert fouled.status_code == 400 and "fouled" in fouled.json()["detail"]


@pytest.mark.redis
def test_refused_writes_write_nothing_anywhere(counted_cache, tokens, rescores) -> None:
    client = Tablet()
    warm(client, tokens[1])
    base = f"/api/t/{tokens[1]}/results/"
    kept = cost(client, "POST", base, submission(1, 7, "rt-kept-1"))
    assert kept.status == 201
    warm(client, tokens[1])
    refusals = {
        400: submission(2, 14, "rt-invalid-1"),  # 14 tricks: the engine says no
        403: submission(5, 7, "rt-later-1"),  # a board of round 3
        409: submission(1, 9, "rt-other-1"),  # board 1 has another result
    }
    for code, body in refusals.items():
        refused = cost(client, "POST", base, body)
        assert refused.status == code, refused.body
        assert refused.wrote() == [] and refused.database <= 4, refused.queries
        assert refused.redis == 1  # the visit only: nothing to retire
    warm(client, tokens[2])
    other_table = cost(client, "POST", f"/api/t/{tokens[2]}/results/{kept.body['id']}/confirm/")
    assert other_table.status == 403 and other_table.wrote() == []
    assert list(Result.objects.values_list("board_number", "status")) == [(1, "entered")]
    assert rescores == []
    assert warm(client, tokens[1])["current"]["boards"][0]["state"] == "waiting"


# ------------------------------------------------------------------ a write's receipt (one trip)


def poll_from_another_device(token: str) -> Cost:
    """The table's state asked for by another device, in a thread of its own (its own
    database connection), while the test's request waits: as a second tablet would."""
    found: list[Cost] = []

    def ask() -> None:
        try:
            found.append(cost(Client(), "GET", f"/api/t/{token}/"))
        finally:
            connection.close()

    asker = threading.Thread(target=ask)
    asker.start()
    asker.join(30)
    return found[0]


@pytest.mark.redis
@pytest.mark.parametrize("late", [False, True], ids=["commit-in-time", "commit-late"])
def test_a_poll_while_a_write_is_on_its_way_keeps_nothing_stale(
    counted_cache, tokens, monkeypatch, late
) -> None:
    """Between a write's visit (which moved the table's version on) and its insert, another
    device's poll reads the old rows: it answers from them but keeps no copy, so once the write
    is in, nobody is shown the board as still to enter. A write whose commit ends too late for
    its receipt moves the version on again after the commit (a second trip)."""
    if late:
        monkeypatch.setattr(tablet_scripts, "PENDING_MARGIN", tablet_scripts.PENDING_MS / 1000 + 5)
    client = Tablet()
    warm(client, tokens[1])
    during: list[Cost] = []
    submit = tablets.result_submit

    def slowly(**kwargs: Any) -> Any:
        during.append(poll_from_another_device(tokens[1]))
        during.append(poll_from_another_device(tokens[1]))
        return submit(**kwargs)

    monkeypatch.setattr(tablets, "result_submit", slowly)
    sent = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-race-1"))
    assert sent.status == 201 and sent.redis == (2 if late else 1)
    for poll in during:
        assert poll.status == 200 and poll.database > 0, poll.queries  # computed, not kept
        assert poll.body["current"]["boards"][0]["state"] == "to enter"
    # without the receipt (another device): still computed, and right
    other = cost(Client(), "GET", f"/api/t/{tokens[1]}/")
    assert other.body["current"]["boards"][0]["state"] == "waiting"
    if not late:
        assert other.database > 0  # the write's receipt still holds the version
    # the writing tablet's next request ends the receipt: kept again, and warm after that
    assert warm(client, tokens[1])["current"]["boards"][0]["state"] == "waiting"


@pytest.mark.redis
def test_a_receipt_not_brought_back_lapses(counted_cache, tokens, monkeypatch) -> None:
    monkeypatch.setattr(tablet_scripts, "PENDING_MS", 400)
    monkeypatch.setattr(tablet_scripts, "PENDING_MARGIN", 0.2)
    client = Tablet()
    warm(client, tokens[1])
    sent = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-lapse-1"))
    assert sent.status == 201 and sent.redis == 1
    other = Client()  # never sends the receipt back
    assert cost(other, "GET", f"/api/t/{tokens[1]}/").database > 0
    assert cost(other, "GET", f"/api/t/{tokens[1]}/").database > 0  # still not kept
    deadline = time.monotonic() + 10
    while tablet_cache.table_visit(tokens[1]).pending and time.monotonic() < deadline:
        time.sleep(0.05)
    assert warm(other, tokens[1])["current"]["boards"][0]["state"] == "waiting"


@pytest.mark.redis
def test_two_writes_hold_a_table_until_both_receipts_end(counted_cache, tokens) -> None:
    client = Tablet()
    warm(client, tokens[1])
    first = tablet_cache.table_visit(tokens[1], writes="entered")
    second = tablet_cache.table_visit(tokens[1], writes="entered")
    assert first.receipt and second.receipt and first.receipt != second.receipt
    assert second.pending == 2  # the table's version: the first write holds it
    assert tablet_cache.table_visit(tokens[1], receipt=second.receipt).pending == 2
    assert tablet_cache.table_visit(tokens[1], receipt=first.receipt).pending == 0
    # a receipt ends once: brought back again, or made up, it ends nothing
    third = tablet_cache.table_visit(tokens[1], writes="entered")
    assert tablet_cache.table_visit(tokens[1], receipt=first.receipt).pending == 2
    assert tablet_scripts.receipt_or_none("12; DROP") is None
    assert tablet_scripts.receipt_or_none("0123") is None
    assert tablet_scripts.receipt_or_none(third.receipt) == third.receipt


@pytest.mark.redis
def test_a_confirmations_visit_moves_what_its_commit_would_have(
    counted_cache, event, tokens, rescores, monkeypatch
) -> None:
    """The versions a confirmation's visit moves (from the link's copy: the table's own, its
    round's and the rounds of the tables it sends players and boards to) are the ones its
    change retires: nothing is left to move after the commit."""
    client = Tablet()
    warm(client, tokens[3])
    made = client.post(
        f"/api/t/{tokens[3]}/results/",
        submission(5, 7, "rt-moves-5"),
        content_type="application/json",
    ).json()
    warm(client, tokens[3])
    moved: list[frozenset[str]] = []
    visit = tablet_cache.table_visit

    def seen(token: str, **kwargs: Any) -> tablet_cache.Visit:
        found = visit(token, **kwargs)
        if found.prebumped is not None:
            moved.append(found.prebumped.keys)
        return found

    monkeypatch.setattr(tablet_cache, "table_visit", seen)
    asked: list[list[str]] = []
    bump = tablet_cache._bump
    monkeypatch.setattr(tablet_cache, "_bump", lambda keys: (asked.append(keys), bump(keys)))
    confirmed = cost(client, "POST", f"/api/t/{tokens[3]}/results/{made['id']}/confirm/")
    assert confirmed.status == 200 and confirmed.redis == 1
    after = movement_for(event.section).next_places(1, 3)
    sent_to = {after.boards} | {p[0] for p in (after.ns, after.ew) if p is not None}
    section = event.section.pk
    expected = {f"tablet-version:{section}:3"} | {
        f"tablet-version:{section}:{t}:round" for t in sent_to | {3}
    }
    assert len(sent_to - {3}) == 2  # the Mitchell sends table 3's pairs and boards on
    assert moved == [frozenset(expected)]
    assert [set(keys) for keys in asked] == [expected]


@pytest.mark.redis
def test_a_request_over_its_limit_moves_nothing(counted_cache, tokens, monkeypatch) -> None:
    monkeypatch.setattr(TableTokenThrottle, "THROTTLE_RATES", {"table": "2/min"})
    client = Client()
    client.get(f"/api/t/{tokens[1]}/")
    client.get(f"/api/t/{tokens[1]}/")
    limited = client.post(
        f"/api/t/{tokens[1]}/results/",
        submission(1, 7, "rt-limit-1"),
        content_type="application/json",
    )
    assert limited.status_code == 429 and "Clubwhist-Receipt" not in limited.headers
    assert tablet_cache.table_visit(tokens[1]).pending == 0
    assert not Result.objects.exists()


# ------------------------------------------------------------- the copies never outlive a change


@pytest.mark.redis
def test_a_replaced_link_is_refused_at_once_from_a_warm_cache(counted_cache, event, tokens) -> None:
    client = Tablet()
    warm(client, tokens[1])
    new = tablets.table_link_replace(event=event, table=1)
    old = client.get(f"/api/t/{tokens[1]}/")
    assert old.status_code == 403 and "replaced" in old.json()["detail"]
    refused = client.post(
        f"/api/t/{tokens[1]}/results/",
        submission(1, 7, "rt-old-link-1"),
        content_type="application/json",
    )
    assert refused.status_code == 403 and not Result.objects.exists()
    assert warm(client, new.token)["table"] == 1


@pytest.mark.redis
def test_the_cached_round_moves_on_with_the_directors_word(counted_cache, club) -> None:
    """The round a write may use comes from the cache: it moves on the moment the director
    starts the next round, and a board of that round is taken at once."""
    event = make_event(club, advance="director")
    token = {a.table: a.token for a in tablets.table_links_ensure(event=event)}[1]
    client = Tablet()
    enter_and_confirm(client, token, (1, 2), "rt-director")
    held = warm(client, token)
    assert held["current"]["round"] == 1 and held["waiting_for_director"] is True
    early = client.post(
        f"/api/t/{token}/results/", submission(3, 7, "rt-early-1"), content_type="application/json"
    )
    assert early.status_code == 403
    tablets.round_start(event=event, round=2)
    # Table 1's round-2 boards and pairs come from tables 2 and 3, still at round 1 ...
    waiting = client.post(
        f"/api/t/{token}/results/", submission(5, 7, "rt-wait-1"), content_type="application/json"
    )
    assert waiting.status_code == 403 and "round 1" in waiting.json()["detail"]
    others = {a.table: a.token for a in tablets.table_links_ensure(event=event)}
    for table, boards in ((2, (3, 4)), (3, (5, 6))):
        enter_and_confirm(client, others[table], boards, f"rt-table{table}")
    # ... whose confirmations move table 1 on (to boards 3-4): its cached round is retired
    moved = client.post(
        f"/api/t/{token}/results/", submission(3, 7, "rt-round-2"), content_type="application/json"
    )
    assert moved.status_code == 201, moved.json()
    assert Result.objects.get(idempotency_key="rt-round-2").round == 2


@pytest.mark.redis
def test_a_finished_event_refuses_writes_from_a_warm_cache(
    counted_cache, event, tokens, director
) -> None:
    client = Tablet()
    warm(client, tokens[1])
    event_finish(event=Event.objects.get(pk=event.pk), user=director)
    refused = client.post(
        f"/api/t/{tokens[1]}/results/",
        submission(1, 7, "rt-finished"),
        content_type="application/json",
    )
    assert refused.status_code == 409 and "has finished" in refused.json()["detail"]
    assert not Result.objects.exists()
    assert warm(client, tokens[1])["accepting"] is False


@pytest.mark.redis
def test_a_deleted_events_links_are_unknown_at_once(counted_cache, event, tokens) -> None:
    client = Tablet()
    warm(client, tokens[1])
    Event.objects.get(pk=event.pk).delete()
    assert client.get(f"/api/t/{tokens[1]}/").status_code == 404


@pytest.mark.redis
def test_the_request_limit_is_one_count_with_retry_after(
    counted_cache, tokens, monkeypatch
) -> None:
    monkeypatch.setattr(TableTokenThrottle, "THROTTLE_RATES", {"table": "3/min"})
    client = Tablet()
    answers = [cost(client, "GET", f"/api/t/{tokens[1]}/") for _ in range(4)]
    assert [a.status for a in answers] == [200, 200, 200, 429]
    assert answers[-1].database == 0 and answers[-1].redis == 1
    limited = client.get(f"/api/t/{tokens[1]}/")
    assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 60
    assert client.get(f"/api/t/{tokens[2]}/").status_code == 200  # another link's own count


def test_tablets_work_while_redis_is_unreachable(event, tokens, rescores) -> None:
    """A Redis that does not answer is a miss: every request is answered from the database
    (no count, nothing kept), and nothing is lost."""
    dead = {
        "BACKEND": "clubwhist.cache.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/1",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
    with override_settings(CACHES={"default": dead}):
        client = Tablet()
        assert client.get(f"/api/t/{tokens[1]}/").status_code == 200
        made = client.post(
            f"/api/t/{tokens[1]}/results/",
            submission(1, 7, "rt-no-redis"),
            content_type="application/json",
        )
        assert made.status_code == 201
        confirmed = client.post(f"/api/t/{tokens[1]}/results/{made.json()['id']}/confirm/")
        assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
        state = client.get(f"/api/t/{tokens[1]}/").json()
        assert state["current"]["boards"][0]["state"] == "confirmed"
    assert Result.objects.get().status == "confirmed" and rescores == [event.pk]


def test_without_a_shared_cache_a_submission_is_still_one_statement(tokens) -> None:
    """The club laptop (no Redis): the link and the round are read from the database, and the
    new result is still inserted without a transaction of its own."""
    laptop = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with override_settings(CACHES=laptop):
        client = Tablet()
        sent = cost(client, "POST", f"/api/t/{tokens[1]}/results/", submission(1, 7, "rt-laptop"))
    assert sent.status == 201
    assert [q.split()[0] for q in sent.wrote()] == ["INSERT"]
    assert not [q for q in sent.queries if q.upper().startswith(("COMMIT", "RELEASE"))]
