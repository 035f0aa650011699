"""A drive's tablets: North-South enter, East-West confirm or say it is wrong, the last
confirmation moves the drive on, and every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.drives.models import Drive, DriveAudit, DriveResult, DriveSeating, DriveTableAccess
from tournaments.drives.selectors.drives import drive_state, seatings_of
from tournaments.drives.selectors.tablets import (
    DriveLinkReplaced,
    DriveLinkUnknown,
    drive_link,
    drive_states,
    table_state,
)
from tournaments.drives.services import drives as services
from tournaments.drives.services import tablets
from tournaments.drives.services.drives import DriveRefused
from tournaments.kernel.models import Club

# Real commits: the version announcements and the forgotten links happen on commit.
pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [f"Player {chr(65 + n)}" for n in range(12)]


def started(club: Club, **settings: Any) -> Drive:
    drive = services.drive_create(
        club=club,
        name="Tablet drive",
        settings={"hands": 4, "half_time": 2, "scoring": "tricks"} | settings,
        players=NAMES,
    )
    return services.drive_start(drive=drive, seed=5)


def links(drive: Drive) -> dict[int, str]:
    return dict(
        DriveTableAccess.objects.filter(drive=drive, revoked_at__isnull=True).values_list(
            "table", "token"
        )
    )


def fingerprint() -> tuple[Any, ...]:
    return (
        tuple(Drive.objects.order_by("pk").values_list("status", "hand", "version")),
        tuple(DriveSeating.objects.order_by("pk").values_list("hand", "seating")),
        tuple(DriveResult.objects.order_by("pk").values_list("hand", "table", "entry", "status")),
        DriveAudit.objects.count(),
    )


def refused(action: Any, match: str, **kwargs: Any) -> None:
    before = fingerprint()
    with pytest.raises(DriveRefused, match=match):
        action(**kwargs)
    assert fingerprint() == before


def test_the_start_gives_every_table_a_link(club: Club) -> None:
    drive = started(club)
    tokens = links(drive)
    assert sorted(tokens) == [1, 2, 3]
    assert len(set(tokens.values())) == 3
    for table, token in tokens.items():
        assert drive_link(token) == (drive.pk, table)
    with pytest.raises(DriveLinkUnknown):
        drive_link("not-a-token")


def test_enter_confirm_and_the_last_confirmation_moves_the_drive_on(club: Club) -> None:
    drive = started(club)
    first = seatings_of(drive)[1]
    for table in (1, 2, 3):
        row, new = tablets.tablet_enter(
            drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 6 + table}
        )
        assert new and row.status == DriveResult.Status.ENTERED
        assert table_state(drive.pk, table)["result"]["state"] == "waiting"
    # Not confirmed: nothing counts yet.
    assert drive_state(Drive.objects.get(pk=drive.pk)).hands_played == 0
    again, new = tablets.tablet_enter(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    assert not new and again.entry == {"ns_tricks": 7}
    refused(
        tablets.tablet_enter,
        "not confirmed it yet",
        drive_id=drive.pk,
        table=1,
        hand=1,
        entry={"ns_tricks": 3},
    )
    refused(
        tablets.tablet_confirm,
        "has changed",
        drive_id=drive.pk,
        table=1,
        hand=1,
        entry={"ns_tricks": 3},
    )
    refused(tablets.tablet_enter, "13", drive_id=drive.pk, table=2, hand=1, entry={"ns_tricks": 14})
    refused(
        tablets.tablet_enter, "not 2", drive_id=drive.pk, table=2, hand=2, entry={"ns_tricks": 7}
    )
    _, moved = tablets.tablet_confirm(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    assert not moved
    assert table_state(drive.pk, 3)["done"] == 1
    assert table_state(drive.pk, 3)["waiting"] == [2, 3]
    tablets.tablet_confirm(drive_id=drive.pk, table=2, hand=1, entry={"ns_tricks": 8})
    _, moved = tablets.tablet_confirm(drive_id=drive.pk, table=3, hand=1, entry={"ns_tricks": 9})
    assert moved
    drive.refresh_from_db()
    assert drive.hand == 2
    second = seatings_of(drive)[2]
    # Every tablet's new state: hand 2, its seats, and where its hand-1 players went.
    states = drive_states(drive.pk)
    for table in (1, 2, 3):
        state = states[table]
        assert state["hand"] == 2 and state["result"]["state"] == "to enter"
        assert [s["player"] for s in state["seats"]] == list(second.tables[table - 1])
        went = {m["player"]: (m["table"], m["seat"]) for m in state["moved"]}
        assert set(went) == set(first.tables[table - 1])
        for player, (to_table, seat) in went.items():
            index = "NESW".index(seat)
            assert second.tables[to_table - 1][index] == player
    assert table_state(drive.pk, 2) == states[2]
    # A confirmation sent again after the move (a lost answer): taken, nothing changes.
    before = fingerprint()
    _, moved = tablets.tablet_confirm(drive_id=drive.pk, table=3, hand=1, entry={"ns_tricks": 9})
    assert not moved and fingerprint() == before
    line = drive_state(drive).lines
    assert sum(int(t.total) for t in line) == 3 * 13 * 2  # every trick of three tables, 4 players


def test_east_west_say_it_is_wrong_and_north_south_enter_again(club: Club) -> None:
    drive = started(club)
    tablets.tablet_enter(drive_id=drive.pk, table=2, hand=1, entry={"ns_tricks": 4})
    tablets.tablet_reject(drive_id=drive.pk, table=2, hand=1)
    assert table_state(drive.pk, 2)["result"]["state"] == "to enter"
    assert DriveAudit.objects.filter(action="said wrong at the table", before={"ns_tricks": 4})
    tablets.tablet_enter(drive_id=drive.pk, table=2, hand=1, entry={"ns_tricks": 9})
    tablets.tablet_confirm(drive_id=drive.pk, table=2, hand=1, entry={"ns_tricks": 9})
    refused(tablets.tablet_reject, "call the director", drive_id=drive.pk, table=2, hand=1)


def test_without_moving_on_by_itself_the_director_rings_the_bell(club: Club) -> None:
    drive = started(club)
    tablets.moves_on_set(drive=drive, on=False)
    for table in (1, 2, 3):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
    for table in (1, 2):
        tablets.tablet_confirm(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
    tablets.tablet_confirm(drive_id=drive.pk, table=3, hand=1, entry={"ns_tricks": 7})
    drive.refresh_from_db()
    assert drive.hand == 1  # all confirmed, but the director moves on
    services.hand_next(drive=drive)
    drive.refresh_from_db()
    assert drive.hand == 2


def test_the_bell_takes_unconfirmed_results_as_entered_and_says_so(club: Club) -> None:
    drive = started(club)
    for table in (1, 2, 3):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
    tablets.tablet_confirm(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    services.hand_next(drive=drive)
    assert set(DriveResult.objects.filter(hand=1).values_list("status", flat=True)) == {"confirmed"}
    moved = DriveAudit.objects.get(action="moved on to")
    assert "tables 2, 3 taken as entered, unconfirmed" in moved.reason


def test_the_directors_entry_takes_over_an_unconfirmed_one(club: Club) -> None:
    drive = started(club)
    tablets.tablet_enter(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 8})
    row = DriveResult.objects.get(hand=1, table=1)
    assert row.entry == {"ns_tricks": 8} and row.status == DriveResult.Status.CONFIRMED
    audit = DriveAudit.objects.filter(action="result").first()
    assert audit is not None and audit.reason == "replaces the table's entry"


def test_a_replaced_link_says_so(club: Club) -> None:
    drive = started(club)
    old = links(drive)[2]
    assert drive_link(old) == (drive.pk, 2)  # cached now
    fresh = tablets.link_replace(drive=drive, table=2)
    with pytest.raises(DriveLinkReplaced, match="replaced table 2"):
        drive_link(old)
    assert drive_link(fresh.token) == (drive.pk, 2)


def test_the_tablet_api_answers(club: Club) -> None:
    drive = started(club)
    token = links(drive)[1]
    api = Client()
    state = api.get(f"/api/d/{token}/").json()
    assert state["table"] == 1 and state["hand"] == 1 and state["result"]["state"] == "to enter"
    assert [f["key"] for f in state["fields"]] == ["ns_tricks"]
    body = {"hand": 1, "entry": {"ns_tricks": 8}}
    first = api.post(f"/api/d/{token}/enter/", body, content_type="application/json")
    assert first.status_code == 201 and first.json()["result"]["state"] == "waiting"
    again = api.post(f"/api/d/{token}/enter/", body, content_type="application/json")
    assert again.status_code == 200
    other = {"hand": 1, "entry": {"ns_tricks": 2}}
    clash = api.post(f"/api/d/{token}/enter/", other, content_type="application/json")
    assert clash.status_code == 409
    assert clash.json()["state"]["result"]["entry"] == {"ns_tricks": 8}
    bad = api.post(
        f"/api/d/{token}/enter/",
        {"hand": 1, "entry": {"ns_tricks": 99}},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "13" in bad.json()["detail"]
    done = api.post(f"/api/d/{token}/confirm/", body, content_type="application/json")
    assert done.status_code == 200 and done.json()["result"]["state"] == "confirmed"
    assert api.get("/api/d/nonsense/").status_code == 404
    tablets.link_replace(drive=drive, table=1)
    assert api.get(f"/api/d/{token}/").status_code == 403
    page = api.get(f"/d/{token}/")
    assert page.status_code == 410 and b"replaced table 1" in page.content


def test_the_page_and_the_stream_open_with_the_tables_state(club: Club) -> None:
    drive = started(club)
    token = links(drive)[3]
    client = Client()
    page = client.get(f"/d/{token}/")
    assert page.status_code == 200
    assert b'id="drive-table-state"' in page.content and b"drive-table.js" in page.content
    stream = client.get(f"/d/{token}/stream/")
    assert stream["Content-Type"] == "text/event-stream"
    first = next(iter(stream.streaming_content))  # type: ignore[attr-defined]
    text = first.decode() if isinstance(first, bytes) else str(first)
    assert "event: state" in text and '"table": 3' in text and '"hand": 1' in text
    stream.close()


def test_the_director_reads_the_links_through_the_api(club: Club, director_client: Client) -> None:
    drive = started(club)
    answer = director_client.get(f"/api/drives/{drive.pk}/tablets/")
    assert answer.status_code == 200
    assert answer.json() == [
        {"table": t, "url": f"http://testserver/d/{token}/"}
        for t, token in sorted(links(drive).items())
    ]
    assert Client().get(f"/api/drives/{drive.pk}/tablets/").status_code == 403


def test_the_room_display_shows_every_players_seat(club: Club, director_client: Client) -> None:
    drive = services.drive_create(
        club=club,
        name="Room drive",
        settings={"hands": 4, "half_time": 2, "scoring": "tricks"},
        players=[f"Player {n:02d}" for n in range(1, 11)],  # two tables, two sitting out
    )
    services.drive_start(drive=drive, seed=8)
    tablets.tablet_enter(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    tablets.tablet_confirm(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 7})
    part = director_client.get(f"/drives/{drive.pk}/manage/room/part/")
    assert part["X-Drive-Version"] == str(Drive.objects.get(pk=drive.pk).version)
    text = part.content.decode()
    assert "1 of 2 tables done" in text and "waiting for table 2" in text
    seating = seatings_of(drive)[1]
    for number, players in enumerate(seating.tables, start=1):
        for index, player in enumerate(players):
            if player:
                assert (
                    f'Player {player:02d}</span> <span class="where">table {number} {"NESW"[index]}'
                    in text
                )
    for player in seating.bench:
        assert f'Player {player:02d}</span> <span class="where">sits out' in text
    page = director_client.get(f"/drives/{drive.pk}/manage/room/")
    assert page.status_code == 200 and b"drive-room.js" in page.content
    assert Client().get(f"/drives/{drive.pk}/manage/room/part/").status_code == 302


def test_the_directors_typed_last_result_moves_a_hand_on_the_tablets_on(club: Club) -> None:
    """Tables 1 and 2 play hand 1 on their tablets; table 3's tablet has died and the director
    types its result: that was the hand's last, so the drive moves on at once, as table 3's
    confirmation would have, and the audit says why."""
    drive = started(club)
    for table in (1, 2):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
        tablets.tablet_confirm(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
    drive.refresh_from_db()
    assert drive.hand == 1
    services.result_enter(drive=drive, table=3, entry={"ns_tricks": 5})
    drive.refresh_from_db()
    assert drive.hand == 2 and sorted(seatings_of(drive)) == [1, 2]
    moved = DriveAudit.objects.get(drive=drive, action="moved on to")
    assert "table 3's result, typed by the director, was the last" in moved.reason
    # The bell rung for hand 1 after that changes nothing (a second click, a slow page).
    services.hand_next(drive=drive, hand=1)
    drive.refresh_from_db()
    assert drive.hand == 2 and DriveAudit.objects.filter(action="moved on to").count() == 1


def test_a_hand_played_on_paper_waits_for_the_directors_bell(club: Club) -> None:
    """Every result of the hand typed by the director (a drive run on paper tallies): nothing
    moves until the director has checked them and rings the bell."""
    drive = started(club)
    for table in (1, 2, 3):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": 6})
    drive.refresh_from_db()
    assert drive.hand == 1
    services.hand_next(drive=drive, hand=1)
    drive.refresh_from_db()
    assert drive.hand == 2


def test_without_moving_on_by_itself_a_typed_last_result_moves_nothing(club: Club) -> None:
    drive = started(club)
    tablets.moves_on_set(drive=drive, on=False)
    for table in (1, 2):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
        tablets.tablet_confirm(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 7})
    services.result_enter(drive=drive, table=3, entry={"ns_tricks": 5})
    drive.refresh_from_db()
    assert drive.hand == 1
