"""The tournament services, from an empty club to published standings."""

from __future__ import annotations

import itertools
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.utils import timezone

from engine import pbn
from engine.dealing import deal_boards
from engine.games import variant_names
from tests.web.conftest import make_event
from tournaments.events.models import AuditEntry, Event, Pair, Result, Standings
from tournaments.events.selectors import latest_standings, room_view, traveller
from tournaments.events.services import corrections
from tournaments.events.services import events as ev
from tournaments.events.services import results as rs
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate

pytestmark = pytest.mark.django_db


def submit(event: Event, round: int, table: int, board: int, tricks: int, **kw: Any) -> Result:
    result, _ = rs.result_submit(
        section=event.sections.get(),
        round=round,
        table=table,
        board_number=board,
        entry={"ns_tricks": tricks},
        confirm=True,
        **kw,
    )
    return result


def field_rows(standings: Standings, field: str) -> dict[int, dict[str, Any]]:
    section = standings.data["sections"][0]
    rows = next(f["rows"] for f in section["fields"] if f["name"] == field)
    return {row["pair"]: row for row in rows}


def test_an_event_goes_from_nothing_to_published_standings(club, director) -> None:
    event = make_event(club, start=False, user=director)
    section = event.sections.get()
    assert (section.tables, section.rounds, section.boards_per_round) == (3, 3, 2)
    assert event.boards.count() == 6
    pairs = list(Pair.objects.filter(section=section))
    assert sorted((p.direction, p.number) for p in pairs) == [
        ("EW", 1),
        ("EW", 2),
        ("EW", 3),
        ("NS", 1),
        ("NS", 2),
        ("NS", 3),
    ]
    ev.pairs_register(event=event, names={p.pk: (f"A{p.pk}", f"B{p.pk}") for p in pairs})
    event = ev.event_start(event=event, user=director)
    made = event_simulate(event=event, seed=3)
    assert len(made) == 3 * 3 * 2  # every table, every round, two boards
    event = ev.event_finish(event=event, user=director)
    event = ev.event_publish(event=event, user=director)
    assert event.status == Event.Status.PUBLISHED
    standings = latest_standings(event)
    assert standings is not None
    assert standings.version == event.results_version == event.scored_version
    ns, ew = field_rows(standings, "NS"), field_rows(standings, "EW")
    assert set(ns) == set(ew) == {1, 2, 3}
    # Two-winner Mitchell on the EBU scale: on each board the NS field shares 2 * C(3, 2) = 6
    # matchpoints; 6 boards -> 36 for the field, and every pair played all 6 boards.
    total_ns = sum(Fraction(r["total"]["exact"]) for r in ns.values())
    assert total_ns == 36
    assert all(r["boards"] == 6 for r in ns.values())
    assert ns[1]["names"].startswith("A")
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"event created", "event started", "event closed", "results published"} <= set(actions)


def test_two_submissions_of_one_meeting_make_one_result(running_event) -> None:
    first = submit(running_event, 1, 1, 1, 8, idempotency_key="tablet-1")
    again, created = rs.result_submit(
        section=running_event.sections.get(),
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 8},
        idempotency_key="tablet-2",
    )
    assert not created and again.pk == first.pk
    with pytest.raises(rs.ResultError, match="already has a result"):
        submit(running_event, 1, 1, 1, 9, idempotency_key="tablet-3")
    assert Result.objects.filter(section__event=running_event, board_number=1).count() == 1
    assert Result.objects.get(pk=first.pk).ns_score == 8


def test_a_retry_with_the_same_key_changes_nothing(running_event) -> None:
    first = submit(running_event, 1, 2, 3, 6, idempotency_key="k-1")
    version = Event.objects.get(pk=running_event.pk).results_version
    again, created = rs.result_submit(
        section=running_event.sections.get(),
        round=1,
        table=2,
        board_number=3,
        entry={"ns_tricks": 6},
        idempotency_key="k-1",
        confirm=True,
    )
    assert (again.pk, created) == (first.pk, False)
    assert Event.objects.get(pk=running_event.pk).results_version == version


@pytest.mark.parametrize(
    ("round", "table", "board", "entry", "message"),
    [
        (1, 1, 1, {"ns_tricks": 14}, "13"),
        (1, 1, 3, {"ns_tricks": 7}, "plays boards 1-2"),
        (9, 1, 1, {"ns_tricks": 7}, "not in this event's movement"),
        (1, 1, 1, {"tricks": 7}, "ns_tricks"),
    ],
)
def test_bad_results_are_refused_and_nothing_is_saved(
    running_event, round, table, board, entry, message
) -> None:
    with pytest.raises(ValueError, match=message):
        rs.result_submit(
            section=running_event.sections.get(),
            round=round,
            table=table,
            board_number=board,
            entry=entry,
            confirm=True,
        )
    assert not Result.objects.exists()
    assert Event.objects.get(pk=running_event.pk).results_version == 0


def test_results_are_refused_before_the_start_and_after_the_close(club, director) -> None:
    event = make_event(club, start=False)
    with pytest.raises(rs.ResultError, match="only while the event is running"):
        submit(event, 1, 1, 1, 7)
    event = ev.event_start(event=event)
    event_simulate(event=event, seed=1)
    ev.event_finish(event=event)
    with pytest.raises(rs.ResultError, match="only while the event is running"):
        submit(event, 1, 1, 1, 7)


def test_a_correction_reaches_the_standings_and_the_audit_trail(running_event, director) -> None:
    # Board 1 is played at table 1 in round 1 (NS1 v EW1), table 2 in round 3, table 3 in round 2.
    r1 = submit(running_event, 1, 1, 1, 9)
    submit(running_event, 2, 3, 1, 7)
    submit(running_event, 3, 2, 1, 5)
    before = standings_refresh(event_id=running_event.pk)
    assert before is not None
    assert field_rows(before, "NS")[1]["total"]["exact"] == "4"  # top on board 1
    corrections.result_correct(
        result=r1, entry={"ns_tricks": 4}, reason="NS counted EW's tricks", user=director
    )
    after = standings_refresh(event_id=running_event.pk)
    assert after is not None and after.version > before.version
    assert field_rows(after, "NS")[1]["total"]["exact"] == "0"
    assert field_rows(after, "EW")[1]["total"]["exact"] == "4"
    entry = AuditEntry.objects.get(action="result corrected")
    assert entry.before["ns_score"] == 9 and entry.after["ns_score"] == 4
    assert entry.reason == "NS counted EW's tricks" and entry.user == director
    assert Result.objects.get(pk=r1.pk).status == Result.Status.CORRECTED


def test_corrections_need_a_reason_and_a_valid_entry(running_event) -> None:
    r1 = submit(running_event, 1, 1, 1, 9)
    with pytest.raises(rs.ResultError, match="Say why"):
        corrections.result_correct(result=r1, entry={"ns_tricks": 4}, reason=" ")
    with pytest.raises(ValueError, match="13"):
        corrections.result_correct(result=r1, entry={"ns_tricks": 40}, reason="typo")
    assert Result.objects.get(pk=r1.pk).ns_score == 9
    assert not AuditEntry.objects.filter(action="result corrected").exists()


def test_an_average_plus_minus_split_is_scored_outside_the_comparison(running_event) -> None:
    submit(running_event, 2, 3, 1, 7)
    submit(running_event, 3, 2, 1, 5)
    corrections.result_set_artificial(
        section=running_event.sections.get(),
        round=1,
        table=1,
        board_number=1,
        code="A+/A-",
        reason="slow play by EW",
    )
    standings = standings_refresh(event_id=running_event.pk)
    assert standings is not None
    lines = {
        (line["ns"], line["ew"]): line for line in standings.data["sections"][0]["boards"]["1"]
    }
    assert lines[(1, 1)]["artificial"] == "A+/A-"
    # Three plays expected, so the top is 2 x (3 - 1) = 4; Average+ is 60 %, Average- 40 %.
    assert Fraction(lines[(1, 1)]["ns_points"]["exact"]) == Fraction(12, 5)
    assert Fraction(lines[(1, 1)]["ew_points"]["exact"]) == Fraction(8, 5)
    # The two real results are compared with each other only, then Neuberg-factored from 2 to 3.
    real = sorted(Fraction(lines[k]["ns_points"]["exact"]) for k in lines if k != (1, 1))
    # Neuberg (EBU): M' = (M + 1) x 3/2 - 1, so M = 0 -> 1/2 and M = 2 -> 7/2.
    assert real == [Fraction(1, 2), Fraction(7, 2)]


def test_a_fouled_board_scores_average_and_keeps_its_results(running_event, director) -> None:
    submit(running_event, 1, 1, 1, 9)
    submit(running_event, 2, 3, 1, 7)
    board = running_event.boards.get(number=1)
    corrections.board_mark_fouled(
        board=board, fouled=True, reason="cards swapped N/E", user=director
    )
    standings = standings_refresh(event_id=running_event.pk)
    assert standings is not None
    points = {line["artificial"] for line in standings.data["sections"][0]["boards"]["1"]}
    assert points == {"A/A"}
    assert Result.objects.filter(board_number=1).count() == 2  # nothing lost
    with pytest.raises(rs.ResultError, match="fouled"):
        submit(running_event, 3, 2, 1, 5)


def test_moving_a_pair_swaps_names_and_is_audited(running_event, director) -> None:
    pairs = Pair.objects.filter(section__event=running_event, direction="NS").order_by("number")
    a, b = pairs[0], pairs[1]
    ev.pairs_register(event=running_event, names={a.pk: ("Ann", "Bob"), b.pk: ("Cy", "Di")})
    ev.pairs_swap(
        event=running_event, first=a, second=b, reason="sat at the wrong table", user=director
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.player1, b.player1) == ("Cy", "Ann")
    assert AuditEntry.objects.filter(action="pair moved", reason="sat at the wrong table").exists()


def test_importing_boards_checks_the_file_and_replaces_them(club) -> None:
    event = make_event(club, start=False)
    with pytest.raises(ev.EventError, match="lacks 5, 6"):
        ev.boards_import(
            event=event, pbn_text=pbn.dumps(deal_boards("classic", range(1, 5), seed=1))
        )
    assert event.boards.count() == 6
    wanted = deal_boards("classic", range(1, 7), seed=99)
    ev.boards_import(event=event, pbn_text=pbn.dumps(wanted))
    stored = pbn.loads(event.boards.get(number=4).record)[0]
    assert stored.deal == wanted[3].deal
    event = ev.event_start(event=event)
    with pytest.raises(ev.EventError, match="while the event is Running"):
        ev.boards_import(event=event, pbn_text=pbn.dumps(wanted))


def test_the_room_shows_each_tables_round_and_results(running_event) -> None:
    submit(running_event, 1, 1, 1, 7)
    submit(running_event, 1, 1, 2, 7)
    r = submit(running_event, 1, 2, 3, 7)
    rs.result_dispute(result=r, note="EW say 6")
    room = room_view(running_event)
    by_table = {t.table: t for t in room["tables"]}
    assert by_table[1].round == 2  # round 1 complete
    assert by_table[2].round == 1 and by_table[2].disputed == 1 and by_table[2].state == "attention"
    assert by_table[3].round == 1 and by_table[3].missing == 2
    assert [c.table for c in room["open_calls"]] == [2]


def test_a_traveller_lists_every_meeting_of_the_board(running_event) -> None:
    submit(running_event, 1, 1, 1, 7)
    rows = traveller(running_event.sections.get(), 1)
    assert [(r.round, r.table) for r in rows] == [(1, 1), (2, 3), (3, 2)]
    assert rows[0].result is not None and rows[1].result is None


#: A movement for each game of the registry, in turn (a new game gets one too).
EVENINGS = [
    ("mitchell", {"tables": 3, "boards_per_round": 2}),
    ("howell", {"tables": 3, "boards_per_round": 2}),
    ("mitchell", {"tables": 4, "boards_per_round": 2}),
    ("mitchell", {"tables": 5, "boards_per_round": 1}),
]


@pytest.mark.parametrize(
    ("game", "kind", "params"),
    [
        (game, *evening)
        for game, evening in zip(variant_names(), itertools.cycle(EVENINGS), strict=False)
    ],
)
def test_every_game_runs_a_whole_evening(club, game, kind, params) -> None:
    event = make_event(club, game=game, kind=kind, params=params)
    made = event_simulate(event=event, seed=5)
    assert made and all(r.ns_score is not None for r in made)
    standings = standings_refresh(event_id=event.pk)
    assert standings is not None
    rows = [row for f in standings.data["sections"][0]["fields"] for row in f["rows"]]
    assert len(rows) == Pair.objects.filter(section__event=event, is_phantom=False).count()


def test_candid_bags_are_a_session_aggregate_apart_from_the_matchpoints(club) -> None:
    event = make_event(club, game="candid", method="total")
    section = event.sections.get()
    # NS 1 declares and makes 8 hearts with 13 tricks on both boards of round 1: 5 + 5 bags.
    for board in (1, 2):
        rs.result_submit(
            section=section,
            round=1,
            table=1,
            board_number=board,
            confirm=True,
            entry={"declarer": "N", "bid": 8, "strain": "H", "tricks": 13},
        )
    standings = standings_refresh(event_id=event.pk)
    assert standings is not None
    ns1 = field_rows(standings, "NS")[1]
    assert ns1["bags"] == 10
    assert ns1["bag_penalty"] == -100
    # Total scoring: 2 x 85 for the boards, less the penalty for the tenth bag.
    assert Fraction(ns1["total"]["exact"]) == 2 * 85 - 100
    ew1 = field_rows(standings, "EW")[1]
    assert ew1["bags"] == 0


def test_a_passed_out_board_is_entered_and_scores_zero(club) -> None:
    event = make_event(
        club, game="bidwhist", kind="howell", params={"tables": 3, "boards_per_round": 2}
    )
    row = event.sections.get().movement_rows.order_by("round", "table").first()
    assert row is not None
    result, _ = rs.result_submit(
        section=event.sections.get(),
        round=row.round,
        table=row.table,
        board_number=(row.board_set - 1) * 2 + 1,
        entry={"passed_out": True},
        confirm=True,
    )
    assert result.ns_score == 0
    assert result.entry == {"passed_out": True}


def test_three_player_open_whist_is_not_a_pairs_event(club) -> None:
    with pytest.raises(ev.EventError, match="Three-player"):
        make_event(club, game="openwhist", options={"players": 3})
    assert not Event.objects.exists()


def test_an_absent_pair_makes_its_opponents_sit_out_until_it_arrives(
    running_event, director
) -> None:
    ew3 = Pair.objects.get(section__event=running_event, direction="EW", number=3)
    ev.pair_set_absent(event=running_event, pair=ew3, absent=True, user=director)
    # Round 1: EW 3 is at table 3 (boards 5-6).
    with pytest.raises(rs.ResultError, match="EW 3 is marked absent"):
        submit(running_event, 1, 3, 5, 7)
    room = {t.table: t for t in room_view(running_event)["tables"]}
    # Round 1 is a sit-out there: the table waits for the room, as its tablet does, rather
    # than counting as finished from the start.
    assert (room[3].round, room[3].sit_out, room[3].state) == (1, True, "waiting-next")
    assert room_view(running_event)["results_expected"] == 3 * 3 * 2 - 3 * 2
    event_simulate(event=running_event, seed=1, rounds=1)
    standings = standings_refresh(event_id=running_event.pk)
    assert standings is not None
    assert 3 not in field_rows(standings, "EW")  # never played: not ranked
    ev.pair_set_absent(event=running_event, pair=ew3, absent=False, user=director)
    ew3.refresh_from_db()
    assert ew3.arrived_late
    submit(running_event, 1, 3, 5, 7)
    assert {"pair absent", "pair present"} <= set(
        AuditEntry.objects.values_list("action", flat=True)
    )


def test_a_published_event_can_be_reopened_for_a_late_correction(running_event, director) -> None:
    r1 = submit(running_event, 1, 1, 1, 9)
    event_simulate(event=running_event, seed=2)
    event = ev.event_publish(event=ev.event_finish(event=running_event), user=director)
    with pytest.raises(ev.EventError, match="Say why"):
        ev.event_reopen(event=event, reason="")
    event = ev.event_reopen(event=event, reason="EW 1 found a scoring slip", user=director)
    assert event.status == Event.Status.RUNNING
    corrections.result_correct(result=r1, entry={"ns_tricks": 8}, reason="slip", user=director)
    event = ev.event_publish(event=ev.event_finish(event=event), user=director)
    standings = latest_standings(event)
    assert standings is not None
    assert standings.data["sections"][0]["boards"]["1"][0]["ns_score"] == 8
    reopened = AuditEntry.objects.get(action="event reopened")
    assert reopened.before == {"status": "published"} and reopened.reason


def test_a_disputed_result_waits_for_the_director(running_event) -> None:
    result, _ = rs.result_submit(
        section=running_event.sections.get(),
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 7},
    )
    assert not result.counts
    rs.result_dispute(result=result, note="EW say 6")
    with pytest.raises(rs.ResultError, match="call the director"):
        rs.result_confirm(result=result)
    assert Result.objects.get(pk=result.pk).status == Result.Status.DISPUTED


def test_only_one_rescore_is_queued_at_a_time(running_event, monkeypatch) -> None:
    from tournaments import tasks
    from tournaments.events.services.scoring import request_rescore, rescore_sweep

    sent: list[int] = []
    monkeypatch.setattr(
        tasks.rescore_event, "apply_async", lambda args, **options: sent.append(args[0])
    )
    assert request_rescore(event_id=running_event.pk) is True
    assert request_rescore(event_id=running_event.pk) is False  # the slot is taken
    assert sent == [running_event.pk]
    # The worker frees the slot when it starts scoring; the next change queues again.
    standings_refresh(event_id=running_event.pk)
    assert request_rescore(event_id=running_event.pk) is True
    # A lost queue slot (broker down when sending) is picked up by the sweep.
    Event.objects.filter(pk=running_event.pk).update(results_version=5, rescore_queued_at=None)
    assert rescore_sweep() == [running_event.pk]
    # A slot claimed moments ago by a task that may have died with its worker: the periodic
    # sweep leaves it (for RESCORE_SLOT_TIMEOUT), a worker connecting reclaims it at once.
    assert rescore_sweep() == []
    assert rescore_sweep(reclaim=True) == [running_event.pk]
    assert sent[-2:] == [running_event.pk, running_event.pk]


class _Killed(BaseException):
    """The web process dying where it stands (SIGKILL): nothing after it runs, no handler
    catches it."""


def test_a_claim_left_by_a_web_process_killed_before_its_send_is_freed_within_seconds(
    running_event, monkeypatch, settings
) -> None:
    """A node lost mid-round: its request had committed a result and claimed the event's queue
    slot, then died before sending the task. The claim holds no task; the periodic sweep
    takes it back once it is older than RESCORE_SLOT_TIMEOUT, so the standings stand still for
    seconds, not a minute (as they did in a two-node run)."""
    from tournaments import tasks
    from tournaments.events.services.scoring import (
        RESCORE_SLOT_TIMEOUT,
        request_rescore,
        rescore_sweep,
    )

    def killed(args: Any, **options: Any) -> None:
        raise _Killed

    monkeypatch.setattr(tasks.rescore_event, "apply_async", killed)
    Event.objects.filter(pk=running_event.pk).update(results_version=3, scored_version=2)
    with pytest.raises(_Killed):
        request_rescore(event_id=running_event.pk)
    claimed = Event.objects.get(pk=running_event.pk).rescore_queued_at
    assert claimed is not None  # the claim outlived its process; no task was sent

    sent: list[int] = []
    monkeypatch.setattr(
        tasks.rescore_event, "apply_async", lambda args, **options: sent.append(args[0])
    )
    assert rescore_sweep() == []  # a fresh claim: its task may still be on its way
    aged = claimed - RESCORE_SLOT_TIMEOUT - timedelta(seconds=1)
    Event.objects.filter(pk=running_event.pk).update(rescore_queued_at=aged)
    assert rescore_sweep() == [running_event.pk]
    assert sent == [running_event.pk]
    # Beat sweeps every few seconds; the claim is free within half a minute of the death
    # even when no result comes after it.
    beat = settings.CELERY_BEAT_SCHEDULE["rescore-sweep"]["schedule"]
    assert RESCORE_SLOT_TIMEOUT.total_seconds() + beat <= 30


def test_a_queue_slot_older_than_its_timeout_is_claimed_again(running_event, monkeypatch) -> None:
    """The claim's own statement (`scoring._slot_claimed`): a free slot and a stale one are
    taken, a fresh one is not; the slot's time is the claim's."""
    from tournaments import tasks
    from tournaments.events.services.scoring import RESCORE_SLOT_TIMEOUT, request_rescore

    monkeypatch.setattr(tasks.rescore_event, "apply_async", lambda args, **options: None)
    now = timezone.now()
    fresh = now - RESCORE_SLOT_TIMEOUT + timedelta(seconds=5)
    stale = now - RESCORE_SLOT_TIMEOUT - timedelta(seconds=5)
    Event.objects.filter(pk=running_event.pk).update(rescore_queued_at=fresh)
    assert request_rescore(event_id=running_event.pk) is False
    assert Event.objects.get(pk=running_event.pk).rescore_queued_at == fresh
    Event.objects.filter(pk=running_event.pk).update(rescore_queued_at=stale)
    assert request_rescore(event_id=running_event.pk) is True
    claimed = Event.objects.get(pk=running_event.pk).rescore_queued_at
    assert claimed is not None and claimed >= now
    Event.objects.filter(pk=running_event.pk).update(rescore_queued_at=None)
    assert request_rescore(event_id=running_event.pk) is True
