"""A club evening as it really goes: a pair comes late, another leaves early, a table has not
finished when the director starts the next round. Each is tried on a Mitchell and on a Howell,
and the standings are checked against a recount written here from the stored results and the
movement (EBU matchpoints, Neuberg for boards with fewer results than the movement plays them,
artificial scores as a share of the top, NP left out of the pair's percentage)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.web.conftest import make_event
from tournaments.events.bridge import meeting_rows
from tournaments.events.models import Event, Pair, Result, TableAccess
from tournaments.events.selectors import room_view, sit_outs
from tournaments.events.selectors.tablets import table_state
from tournaments.events.services import corrections
from tournaments.events.services import presence as pr
from tournaments.events.services import results as rs
from tournaments.events.services.events import EventError, pair_set_absent
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.tablets import round_start, table_links_ensure
from tournaments.files import backup

pytestmark = pytest.mark.django_db

PERCENT = {"A+": Fraction(60), "A": Fraction(50), "A-": Fraction(40)}


def play(event: Event, rnd: int, *, skip: set[tuple[int, int]] = frozenset()) -> None:  # type: ignore[assignment]
    """Every game of round `rnd`, confirmed; (table, board) in `skip` left unplayed. The
    tricks are a fixed function of the meeting, so ties happen as they do at whist."""
    section = event.sections.get()
    no_game = sit_outs(section)
    for (r, table), row in sorted(meeting_rows(section).items()):
        if r != rnd or (r, table) in no_game:
            continue
        for board in section.boards_of_set(row.board_set):
            if (table, board) in skip:
                continue
            tricks = (board * 3 + row.ns_pair * 5 + row.ew_pair) % 7 + 3
            rs.result_submit(
                section=section,
                round=r,
                table=table,
                board_number=board,
                entry={"ns_tricks": tricks},
                confirm=True,
            )


def recount(event: Event) -> dict[str, Fraction]:
    """Each pair's percentage, worked out here from the results and the movement."""
    section = event.sections.get()
    expected: dict[int, int] = {}
    for row in meeting_rows(section).values():
        if row.ns_pair and row.ew_pair:
            for board in section.boards_of_set(row.board_set):
                expected[board] = expected.get(board, 0) + 1
    results = list(Result.objects.filter(section=section).select_related("ns_pair", "ew_pair"))
    got: dict[str, Fraction] = {}
    top_sum: dict[str, Fraction] = {}

    def key(pair: Pair) -> str:
        return f"{pair.direction}{pair.number}"

    def add(pair: Pair, points: Fraction, top: Fraction) -> None:
        got[key(pair)] = got.get(key(pair), Fraction(0)) + points
        top_sum[key(pair)] = top_sum.get(key(pair), Fraction(0)) + top

    for board, n_expected in expected.items():
        lines = [r for r in results if r.board_number == board and r.status in Result.COUNTING]
        top = Fraction(2 * (n_expected - 1))
        real = [r for r in lines if r.ns_score is not None]
        n = len(real)
        for r in real:
            beaten = sum(1 for o in real if o is not r and o.ns_score < r.ns_score)
            tied = sum(1 for o in real if o is not r and o.ns_score == r.ns_score)
            m = Fraction(2 * beaten + tied)
            if n != n_expected:
                m = (m + 1) * n_expected / n - 1
            add(r.ns_pair, m, top)
            add(r.ew_pair, top - m, top)
        for r in lines:
            if r.ns_score is not None:
                continue
            ns_code, _, ew_code = r.artificial_code.partition("/")
            for pair, code in ((r.ns_pair, ns_code), (r.ew_pair, ew_code or ns_code)):
                if code != "NP":
                    add(pair, PERCENT[code] * top / 100, top)
    return {k: got[k] * 100 / top_sum[k] for k in got if top_sum[k]}


def stored(event: Event) -> dict[str, Fraction]:
    standings = standings_refresh(event_id=event.pk, force=True)
    assert standings is not None
    out = {}
    for field in standings.data["sections"][0]["fields"]:
        for row in field["rows"]:
            if row["percentage"] is not None:
                direction = row["direction"] if row["direction"] in ("NS", "EW") else ""
                out[f"{direction}{row['pair']}"] = Fraction(row["percentage"]["exact"])
    return out


def pair(event: Event, number: int, direction: str = "") -> Pair:
    return Pair.objects.get(section__event=event, number=number, direction=direction)


def codes_of(event: Event, p: Pair) -> dict[tuple[int, int], str]:
    return {
        (r.round, r.board_number): r.artificial_code
        for r in Result.objects.filter(section__event=event, status=Result.Status.ARTIFICIAL)
        if p.pk in (r.ns_pair_id, r.ew_pair_id)
    }


@pytest.fixture
def mitchell(club: Any) -> Event:
    """Eight pairs, four tables: the skip Mitchell of three rounds."""
    return make_event(
        club,
        params={"tables": 4, "boards_per_round": 2, "even": "skip"},
        advance=Event.Advance.DIRECTOR,
    )


@pytest.fixture
def howell(club: Any) -> Event:
    """Seven pairs: the four-table Howell with its sit-out at table 1 all evening."""
    return make_event(
        club,
        kind="howell",
        params={"tables": 4, "phantom": True, "boards_per_round": 2},
        advance=Event.Advance.DIRECTOR,
    )


def test_a_mitchell_evening_with_a_late_pair_a_pair_leaving_and_a_slow_table(
    mitchell: Event, director: Any
) -> None:
    event = mitchell
    late, leaving = pair(event, 2, "EW"), pair(event, 4, "NS")
    pair_set_absent(event=event, pair=late, absent=True, user=director)
    # Round 1: table 3 has not played its second board when the director moves on.
    section = event.sections.get()
    slow = meeting_rows(section)[(1, 3)]
    unplayed = section.boards_of_set(slow.board_set)[-1]
    play(event, 1, skip={(3, unplayed)})
    round_start(event=event, round=2, unfinished="A", user=director)
    average = Result.objects.get(section=section, round=1, table=3, board_number=unplayed)
    assert (average.status, average.artificial_code) == (Result.Status.ARTIFICIAL, "A")
    # The late pair plays from round 2, NS 4 goes home after round 2.
    pr.pair_arrive(event=event, pair=late, round=2, names=("Late", "Comer"), user=director)
    pr.pair_leave(event=event, pair=leaving, round=3, user=director)
    play(event, 2)
    round_start(event=event, round=3, user=director)
    play(event, 3)
    # NS 4's round-3 opponents got Ave+ and NS 4 nothing on those boards (A+/NP seen from
    # the waiting pair, here EW: "NP/A+" as NS/EW).
    (_, table3), row3 = next(
        (k, r) for k, r in meeting_rows(section).items() if k[0] == 3 and r.ns_pair == 4
    )
    assert set(codes_of(event, pair(event, 4, "NS")).values()) == {"NP/A+"}
    # The slow table's board played after all: the late result replaces the average.
    rs.traveller_submit(
        section=section,
        board_number=unplayed,
        lines=[rs.TravellerLine(line=1, round=1, table=3, entry={"ns_tricks": 9})],
        user=director,
    )
    average.refresh_from_db()
    assert (average.status, average.ns_score, average.entered_by_device) == (
        Result.Status.CONFIRMED,
        9,
        "director",
    )
    # The director gives one of the waiting pair's boards Ave (not Ave+): it stays so.
    first = section.boards_of_set(row3.board_set)[0]
    corrections.result_set_artificial(
        section=section,
        round=3,
        table=table3,
        board_number=first,
        code="NP/A",
        reason="they were told at the start",
        user=director,
    )
    assert recount(event) == stored(event)
    scores = stored(event)
    assert "EW2" in scores and "NS4" in scores
    # The late pair missed round 1: its percentage rests on rounds 2 and 3 (4 boards).


def test_a_howell_late_pair_takes_the_phantoms_place_and_a_pair_leaves(
    howell: Event, director: Any
) -> None:
    event = howell
    section = event.sections.get()
    assert [a.table for a in table_links_ensure(event=event)] == [2, 3, 4]
    play(event, 1)
    round_start(event=event, round=2, user=director)
    play(event, 2, skip={(2, b) for b in range(1, 30)})  # table 2 plays nothing in round 2
    round_start(event=event, round=3, user=director, unfinished="A+/A-")
    assert {
        r.artificial_code for r in Result.objects.filter(section=section, round=2, table=2)
    } == {"A+/A-"}
    play(event, 3)
    # The eighth pair comes for round 4, in the phantom's place at table 1.
    eighth = pr.pair_arrive(event=event, round=4, names=("Eve", "Eight"), user=director)
    assert eighth.number == 8 and not eighth.is_phantom
    section.refresh_from_db()
    assert section.movement_params["phantom"] is False
    assert {
        (r, t) for (r, t), row in meeting_rows(section).items() if 8 in (row.ns_pair, row.ew_pair)
    }
    assert TableAccess.objects.filter(section=section, table=1, revoked_at=None).exists()
    # Pair 5 leaves after round 4, its opponents getting Ave+ and it Ave- by the director's word.
    round_start(event=event, round=4, user=director)
    play(event, 4)
    pr.pair_leave(event=event, pair=pair(event, 5), round=5, award="A+/A-", user=director)
    for rnd in (5, 6, 7):
        round_start(event=event, round=rnd, user=director)
        play(event, rnd)
    awards = codes_of(event, pair(event, 5))
    assert awards and all(rnd >= 5 for rnd, _ in awards)
    assert set(awards.values()) <= {"A+/A-", "A-/A+"}
    # The eighth pair's rounds before it came: nothing either side (a sit-out, as before).
    assert (
        not Result.objects.filter(section=section, round__lt=4).filter(ns_pair=eighth).exists()
        and not Result.objects.filter(section=section, round__lt=4, ew_pair=eighth).exists()
    )
    assert recount(event) == stored(event)


@pytest.mark.parametrize("kind", ["mitchell", "howell"])
def test_refusals_change_nothing_and_undo_only_before_play(
    kind: str, request: Any, director: Any
) -> None:
    event = request.getfixturevalue(kind)
    leaver = pair(event, 1, "NS") if kind == "mitchell" else pair(event, 3)
    play(event, 1)
    with pytest.raises(EventError, match="it played then"):
        pr.pair_leave(event=event, pair=leaver, round=1, user=director)
    with pytest.raises(EventError, match="Rounds run from 1"):
        pr.pair_leave(event=event, pair=leaver, round=9, user=director)
    with pytest.raises(EventError, match="not an artificial score"):
        pr.pair_leave(event=event, pair=leaver, round=2, award="B+", user=director)
    leaver.refresh_from_db()
    assert leaver.presence == [] and not leaver.is_phantom
    # A departure recorded by mistake is undone before round 2 is played ...
    pr.pair_leave(event=event, pair=leaver, round=2, user=director)
    assert codes_of(event, leaver)
    round_start(event=event, round=2, user=director)
    room = room_view(event)
    assert any(t.sit_out for t in room["tables"] if leaver.number in (t.ns, t.ew))
    pr.presence_undo(event=event, pair=leaver, reason="wrong pair", user=director)
    leaver.refresh_from_db()
    assert leaver.presence == [] and not leaver.is_phantom and not codes_of(event, leaver)
    # ... but not once something has been played after it.
    pr.pair_leave(event=event, pair=leaver, round=3, user=director)
    play(event, 2)
    play(event, 3)
    with pytest.raises(EventError, match="has been played since"):
        pr.presence_undo(event=event, pair=leaver, reason="oops", user=director)
    leaver.refresh_from_db()
    assert leaver.is_phantom and len(leaver.presence) == 1
    assert recount(event) == stored(event)


def test_the_tablet_of_a_table_whose_opponents_left_says_so(howell: Event, director: Any) -> None:
    event = howell
    section = event.sections.get()
    play(event, 1)
    (_, table), row = next(
        (k, r)
        for k, r in sorted(meeting_rows(section).items())
        if k[0] == 2 and r.ns_pair and r.ew_pair
    )
    pr.pair_leave(event=event, pair=pair(event, row.ns_pair), round=2, user=director)
    round_start(event=event, round=2, user=director)
    access = TableAccess.objects.get(section=section, table=table, revoked_at=None)
    current = table_state(access)["current"]
    assert current["round"] == 2 and current["sit_out"]
    assert current["ns"]["absent"] and current["ns"]["left"]
    assert not current["ew"]["absent"] and not current["ew"]["left"]
    # Its own boards only (the awards given to it), never another table's result.
    assert [b["number"] for b in current["boards"]] == list(section.boards_of_set(row.board_set))
    idle = TableAccess.objects.filter(section=section, table=1)
    assert not idle.exists(), "the sit-out table gets no tablet"


def test_the_director_does_it_from_the_pages_and_the_api(
    howell: Event, director: Any, director_client: Any
) -> None:
    event = howell
    section = event.sections.get()
    page = director_client.get(f"/events/{event.pk}/")
    assert page.status_code == 200
    assert b"A pair comes late or leaves early" in page.content
    assert b"the phantom&#x27;s place" in page.content or b"the phantom's place" in page.content
    room = director_client.get(f"/events/{event.pk}/room/")
    assert room.status_code == 200 and b"let them finish their boards" in room.content
    play(event, 1, skip={(2, b) for b in range(1, 30)})
    # The page: start round 2 giving table 2's unplayed boards the average.
    director_client.post(f"/events/{event.pk}/rounds/start/", {"round": 2, "unfinished": "A"})
    assert set(
        Result.objects.filter(section=section, round=1, table=2).values_list(
            "artificial_code", "entered_by_device"
        )
    ) == {("A", Result.UNFINISHED_DEVICE)}
    # The page: pair 3 leaves from round 3; a refusal (round 0) changes nothing.
    three = pair(event, 3)
    director_client.post(f"/events/{event.pk}/pairs/leave/", {"pair": three.pk, "round": 0})
    three.refresh_from_db()
    assert three.presence == []
    director_client.post(
        f"/events/{event.pk}/pairs/leave/", {"pair": three.pk, "round": 3, "award": "A/NP"}
    )
    three.refresh_from_db()
    assert three.presence == [{"round": 3, "present": False, "award": "A/NP"}]
    # The API: undo it, the late pair in the phantom's place, and a refusal in words.
    api = f"/api/events/{event.pk}"
    undone = director_client.post(
        f"{api}/pairs/{three.pk}/presence/undo", {"reason": "wrong pair"}, "application/json"
    )
    assert undone.status_code == 200 and undone.json()["presence"] == []
    came = director_client.post(
        f"{api}/pairs/arrive",
        {"round": 3, "player1": "Late", "player2": "Comer"},
        "application/json",
    )
    assert came.status_code == 200, came.content
    assert came.json()["number"] == 8 and came.json()["presence"][0]["round"] == 3
    refused = director_client.post(
        f"{api}/pairs/{three.pk}/leave", {"round": 1}, "application/json"
    )
    assert refused.status_code == 400 and "it played then" in refused.json()["detail"]
    started = director_client.post(
        f"{api}/rounds/start", {"round": 3, "unfinished": ""}, "application/json"
    )
    assert started.json() == {"released_round": 3}


def test_the_backup_carries_arrivals_departures_and_the_phantoms_place(
    howell: Event, director: Any
) -> None:
    event = howell
    play(event, 1)
    pr.pair_arrive(event=event, round=2, names=("Eve", "Eight"), user=director)
    pr.pair_leave(event=event, pair=pair(event, 4), round=2, user=director)
    play(event, 2)
    before = recount(event)
    presence = {p.number: p.presence for p in Pair.objects.filter(section__event=event)}
    text = backup.dumps(backup.event_document(event))
    Result.objects.filter(section__event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    restored = backup.event_restore(backup.loads(text)).of("events")[0].event
    again = {p.number: p.presence for p in Pair.objects.filter(section__event=restored)}
    assert again == presence and again[8] and again[4]
    assert restored.sections.get().movement_params["phantom"] is False
    assert recount(restored) == before == stored(restored)
    # A backup made before arrivals and departures existed restores with none.
    doc = backup.loads(text)
    for section in doc["sections"]:
        for row in section["pairs"]:
            row.pop("presence")
    Result.objects.filter(section__event=restored).delete()
    Event.objects.filter(pk=restored.pk).delete()
    older = backup.event_restore(doc).of("events")[0].event
    assert all(p.presence == [] for p in Pair.objects.filter(section__event=older))


def test_the_absent_box_leaves_a_pair_that_came_late_or_left_alone(
    mitchell: Event, director: Any, director_client: Any
) -> None:
    event = mitchell
    leaver = pair(event, 2, "NS")
    pr.pair_leave(event=event, pair=leaver, round=2, user=director)
    # "Save names" with the greyed-out box (not sent): the names save, the departure stays.
    director_client.post(
        f"/events/{event.pk}/pairs/", {f"pair-{leaver.pk}-1": "Ann", f"pair-{leaver.pk}-2": "Bo"}
    )
    leaver.refresh_from_db()
    assert (leaver.player1, leaver.is_phantom, len(leaver.presence)) == ("Ann", True, 1)
    with pytest.raises(EventError, match="not with the Absent box"):
        pair_set_absent(event=event, pair=leaver, absent=False, user=director)
