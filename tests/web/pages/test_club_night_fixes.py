"""What a club night on a laptop showed was wrong on the director's and members' screens: a
pair that leaves mid-evening, the room's table cards and counts, game names, wording."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tests.web.services.test_services import field_rows
from tournaments.events.models import Event, Pair
from tournaments.events.selectors import room_view
from tournaments.events.services import corrections, tablets
from tournaments.events.services import events as ev
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate

pytestmark = pytest.mark.django_db


def test_a_pair_that_leaves_mid_evening_is_listed_by_name_unranked_after_the_others(
    running_event: Event, director: Any
) -> None:
    event_simulate(event=running_event, seed=4, rounds=1)
    ew2 = Pair.objects.get(section__event=running_event, direction="EW", number=2)
    ew2.player1, ew2.player2 = "Dorothy Pike", "Cyril Green"
    ew2.save()
    ev.pair_set_absent(event=running_event, pair=ew2, absent=True, user=director)
    standings = standings_refresh(event_id=running_event.pk, force=True)
    assert standings is not None
    rows = field_rows(standings, "EW")
    assert rows[2]["names"] == "Dorothy Pike & Cyril Green"
    assert rows[2]["withdrew"] is True and rows[2]["rank"] == ""
    assert rows[2]["boards"] == 2
    section = standings.data["sections"][0]
    ew = next(f["rows"] for f in section["fields"] if f["name"] == "EW")
    assert ew[-1]["pair"] == 2  # listed last
    assert sorted(r["rank"].rstrip("=") for r in ew[:-1]) in (["1", "2"], ["1", "1"])
    page = Client().get(f"/events/{running_event.pk}/standings/")
    assert page.status_code in (200, 302)
    # The room's counts agree: the results it played count, its later meetings are not due.
    room = room_view(running_event)
    assert room["results_in"] <= room["results_expected"]
    assert room["results_in"] == 6
    assert room["results_expected"] == 3 * 3 * 2 - 2 * 2  # its two later meetings: no game


def test_a_room_that_moves_on_the_directors_word_shows_the_round_being_played(
    club: Any, director: Any
) -> None:
    event = make_event(club, user=director, advance="director")
    event_simulate(event=event, seed=2, rounds=1)
    tables = room_view(event)["tables"]
    assert {(t.round, t.state) for t in tables} == {(1, "waiting-next")}
    assert room_view(event)["rounds"][0] == {"round": 1, "done": 3, "tables": 3}
    tablets.round_start(event=event, round=2)
    assert {(t.round, t.state) for t in room_view(Event.objects.get(pk=event.pk))["tables"]} == {
        (2, "playing")
    }


def test_lists_name_the_game_not_its_code(club: Any, director_client: Client) -> None:
    make_event(club, game="bidwhist")
    page = director_client.get("/").content.decode()
    assert "<td>Bid Whist</td>" in page and "<td>bidwhist</td>" not in page


def test_the_room_clock_reads_as_a_sentence(running_event: Event, director_client: Client) -> None:
    tablets.round_clock_start(event=running_event, minutes=1)
    page = director_client.get(f"/events/{running_event.pk}/room/").content.decode()
    assert "(1-minute round)" in page and "of 1 minutes" not in page


def test_reopening_does_not_make_the_public_page_live_again(
    running_event: Event, director: Any
) -> None:
    ev.event_set_live_public(event=running_event, live=True, user=director)
    event_simulate(event=running_event, seed=3)
    event = ev.event_publish(event=ev.event_finish(event=running_event), user=director)
    assert Client().get(f"/results/{event.pk}/").status_code == 200
    ev.event_reopen(event=event, reason="late correction", user=director)
    reopened = Event.objects.get(pk=event.pk)
    assert reopened.status == Event.Status.RUNNING and not reopened.is_public
    assert Client().get(f"/results/{event.pk}/").status_code == 404


def test_a_table_calls_the_director_with_a_reason_and_can_take_it_back(
    running_event: Event, director_client: Client
) -> None:
    from tournaments.events.models import DirectorCall

    token = {a.table: a.token for a in tablets.table_links_ensure(event=running_event)}[2]
    tablet = Client()
    bad = tablet.post(f"/api/t/{token}/call-director/", {"reason": "bored"}, "application/json")
    assert bad.status_code == 400 and not DirectorCall.objects.exists()
    made = tablet.post(
        f"/api/t/{token}/call-director/", {"reason": "revoke", "note": "spades"}, "application/json"
    )
    assert made.status_code == 201
    state = tablet.get(f"/api/t/{token}/").json()
    assert state["call"] == {"reason": "Revoke", "cancellable": True}
    room = director_client.get(f"/events/{running_event.pk}/room/").content.decode()
    assert "<strong>Revoke</strong>: spades" in room
    taken_back = tablet.delete(f"/api/t/{token}/call-director/")
    assert taken_back.json() == {"cancelled": True}
    call = DirectorCall.objects.get()
    assert call.cancelled and call.handled_at is not None
    assert tablet.get(f"/api/t/{token}/").json()["call"] is None
    assert "Revoke" not in director_client.get(f"/events/{running_event.pk}/room/").content.decode()


def test_correcting_a_disputed_result_settles_its_call(running_event: Event, director) -> None:
    from tournaments.events.models import DirectorCall
    from tournaments.events.services import results as rs

    result, _ = rs.result_submit(
        section=running_event.section, round=1, table=1, board_number=1, entry={"ns_tricks": 7}
    )
    rs.result_dispute(result=result, note="they revoked")
    call = DirectorCall.objects.get()
    assert call.board_number == 1 and call.handled_at is None
    # the table cannot take a dispute's call back: the result waits for the director
    assert tablets.director_call_cancel(section=running_event.section, table=1) is None
    corrections.result_correct(
        result=result, entry={"ns_tricks": 6}, reason="revoke: 1 trick", user=director
    )
    call.refresh_from_db()
    assert call.handled_at is not None and not call.cancelled
    result.refresh_from_db()
    assert result.status == "corrected"


def test_a_table_waits_for_the_tables_that_send_it_players_or_boards(
    running_event: Event,
) -> None:
    """Mitchell, 3 tables: after round 1, table 1 gets its EW pair from table 3 and its boards
    from table 2. Table 1 finishing first must not start round 2 before they have finished."""
    from tournaments.events.models import Result
    from tournaments.events.services import results as rs

    section = running_event.section
    links = {a.table: a.token for a in tablets.table_links_ensure(event=running_event)}
    tablet = Client()
    for board in (1, 2):  # table 1 plays set 1 in round 1
        rs.result_submit(
            section=section,
            round=1,
            table=1,
            board_number=board,
            entry={"ns_tricks": 7},
            confirm=True,
        )
    state = tablet.get(f"/api/t/{links[1]}/").json()
    assert state["current"]["round"] == 1 and state["waiting_for_tables"] == [2, 3]
    refused = tablet.post(
        f"/api/t/{links[1]}/results/",
        {"board": 3, "entry": {"ns_tricks": 7}, "idempotency_key": "early-bird-1"},
        "application/json",
    )
    assert refused.status_code == 403 and not Result.objects.filter(board_number=3).exists()
    for table, boards in ((2, (3, 4)), (3, (5, 6))):
        for board in boards:
            rs.result_submit(
                section=section,
                round=1,
                table=table,
                board_number=board,
                entry={"ns_tricks": 7},
                confirm=True,
            )
    moved = tablet.get(f"/api/t/{links[1]}/").json()
    assert moved["current"]["round"] == 2 and moved["waiting_for_tables"] == []


def test_a_sit_out_table_waits_for_the_room_then_for_the_directors_next_round(
    club: Any, director_client: Client
) -> None:
    event = make_event(
        club,
        kind="howell",
        params={"tables": 5, "phantom": True, "boards_per_round": 1, "rounds": 3},
        advance="director",
    )
    sitting = next(t for t in room_view(event)["tables"] if t.sit_out)
    assert (sitting.round, sitting.waiting_room) == (1, True)
    event_simulate(event=event, seed=1, rounds=1)
    after = next(t for t in room_view(event)["tables"] if t.table == sitting.table)
    assert (after.round, after.waiting, after.waiting_room) == (1, True, False)
    page = director_client.get(f"/events/{event.pk}/room/").content.decode()
    assert "Round over: waiting for the next round" in page
    assert "Waiting for the room to finish" not in page


def test_a_howell_whose_sit_out_stays_at_one_table_says_how_many_tables_are_played_at(
    club: Any, director_client: Client
) -> None:
    """7 pairs in a 4-table Howell: the phantom pair keeps table 1 all evening, so boards are
    played at three tables; the event's pages say which (it read "4 tables"), and the
    movement advice for 7 pairs says so before the event is made."""
    event = make_event(
        club, kind="howell", params={"tables": 4, "phantom": True, "boards_per_round": 2}
    )
    words = "3 tables to play at (2, 3, 4); table 1 is the sit-out: nobody plays there"
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/print/"):
        page = director_client.get(path).content.decode()
        assert words in page and "4 tables" not in page, path
    plain = make_event(club, kind="howell", params={"tables": 4, "boards_per_round": 2})
    assert "· 4 tables, 7 rounds" in director_client.get(f"/events/{plain.pk}/").content.decode()
    form = {"name": "Seven pairs", "date": "2026-12-04", "game": "classic", "pairs": 7}
    form |= {"boards": 24, "method": "mp", "advance": "table", "scale": "ebu"}
    advice = director_client.post("/events/new/", form).content.decode()
    assert "3 tables to play at, and one where the sit-out waits" in advice
