"""A drive's public pages: the half-time leaders, the totals by role, the big screen and each
player's card, checked against the engine's own figures and against who may read them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from engine.drives import Drive as EngineDrive
from engine.drives import DriveSettings, Role
from engine.drives.prizes import show
from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state, seatings_of
from tournaments.drives.selectors.public import (
    LEADERS,
    NEUTRAL_ROLES,
    player_card,
    public_drive,
)
from tournaments.drives.services.drives import (
    drive_create,
    drive_finish,
    drive_live,
    drive_publish,
    drive_start,
    hand_next,
    result_enter,
)
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

LADIES: dict[str, Any] = {"roles": ["Lady", "Gent"]}


def new_drive(
    club: Club, *, players: int = 9, hands: int = 4, live: bool = True, **settings: Any
) -> Drive:
    """A running drive (hand 1 seated), followed live unless `live` is false."""
    drive = drive_create(
        club=club,
        name="Friday drive",
        settings={"hands": hands, "scoring": "tricks", **settings},
        players=[f"Player {n}" for n in range(1, players + 1)],
    )
    drive_start(drive=drive, seed=7)
    if live:
        drive_live(drive=drive, live=True)
    return Drive.objects.get(pk=drive.pk)


def play(drive: Drive, hands: int, *, finish: bool = False) -> Drive:
    """Enter every table's result of the next `hands` hands (varied, so totals differ),
    moving on between them; `finish` finishes the drive after its last hand."""
    for _ in range(hands):
        drive = Drive.objects.get(pk=drive.pk)
        seating = seatings_of(drive)[drive.hand]
        for table in range(1, len(seating.tables) + 1):
            tricks = (drive.hand * 5 + table * 3) % 14
            result_enter(drive=drive, table=table, entry={"ns_tricks": tricks})
        state = drive_state(Drive.objects.get(pk=drive.pk))
        if state.can_advance:
            hand_next(drive=drive)
    if finish:
        drive_finish(drive=drive)
    return Drive.objects.get(pk=drive.pk)


def section(page: str, element_id: str) -> str:
    """The HTML of the element with `element_id`, up to the end of its table or section."""
    start = page.index(f'id="{element_id}"')
    ends = [page.find(end, start) for end in ("</table>", "</section>")]
    return page[start : min(end for end in ends if end >= 0)]


def names_in(html: str) -> set[str]:
    return set(re.findall(r"Player \d+", html))


# ---- half-time ----------------------------------------------------------------------------------


def test_half_time_leaders_appear_once_the_first_half_is_complete(
    club: Club, director_client: Client
) -> None:
    drive = new_drive(club, players=12, hands=4, half_time=2)
    path = f"/drives/{drive.pk}/"
    page = Client().get(path).content.decode()
    assert "its leaders appear here once hand 2 is complete (2 hands to go)" in page
    drive = play(drive, 1)
    shown = public_drive(drive)
    assert shown.half_time is not None and not shown.half_time.complete
    assert shown.half_time.leaders == ()
    page = Client().get(path).content.decode()
    assert "(1 hand to go)" in page and "On the first half" not in page

    drive = play(drive, 1)
    state = drive_state(drive)
    assert state.settings is not None
    engine = EngineDrive(state.settings)
    first_half = engine.totals(state.records).first_half
    ranking = sorted(range(1, 13), key=lambda p: (-first_half[p], p))
    fifth = first_half[ranking[LEADERS - 1]]
    expected = [p for p in ranking if first_half[p] >= fifth]
    shown = public_drive(drive)
    assert shown.half_time is not None and shown.half_time.complete
    assert [line.player for line in shown.half_time.leaders] == expected
    assert [line.first_half for line in shown.half_time.leaders] == [
        show(first_half[p]) for p in expected
    ]
    page = Client().get(path).content.decode()
    leaders = section(page, "half-time")
    assert "hands 1 to 2" in leaders
    assert names_in(leaders) == {state.names[p] for p in expected}

    drive = play(drive, 1)  # a second-half hand leaves the half-time leaders as they were
    after = public_drive(drive).half_time
    assert after is not None and after.leaders == shown.half_time.leaders


def test_a_drive_without_a_break_has_no_half_time(club: Club) -> None:
    drive = play(new_drive(club, hands=2, half_time=0, prizes=[{"kind": "highest"}]), 1)
    assert public_drive(drive).half_time is None
    page = Client().get(f"/drives/{drive.pk}/").content.decode()
    assert 'id="half-time"' not in page and "1st half" not in page


# ---- roles --------------------------------------------------------------------------------------


def test_each_role_table_lists_exactly_that_roles_players(club: Club) -> None:
    drive = play(new_drive(club, players=13, **LADIES), 2)
    first = seatings_of(drive)[1]
    state = drive_state(drive)
    shown = public_drive(drive)
    assert [table.label for table in shown.roles] == ["Lady", "Gent"]
    page = Client().get(f"/drives/{drive.pk}/").content.decode()
    for table, role in zip(shown.roles, Role, strict=True):
        players = {p for p in state.names if first.role(p) is role}
        assert {line.player for line in table.lines} == players
        assert {line.role for line in table.lines} == {table.label}
        assert table.lines[0].place == 1  # placed among the role
        assert names_in(section(page, f"role-{role.value}")) == {state.names[p] for p in players}
    assert "Totals by role" in page


def test_neutral_labels_have_no_role_tables_unless_a_prize_is_by_role(club: Club) -> None:
    assert DriveSettings(players=4).roles == NEUTRAL_ROLES
    plain = play(new_drive(club), 1)
    assert public_drive(plain).roles == ()
    assert "Totals by role" not in Client().get(f"/drives/{plain.pk}/").content.decode()
    prized = play(
        new_drive(club, prizes=[{"kind": "highest"}, {"kind": "highest", "role": "B"}]), 1
    )
    assert [table.label for table in public_drive(prized).roles] == ["A", "B"]


# ---- a player's card ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        {"half_time": 2},
        {"half_time": 2, "sit_out_score": "average"},  # fractions of a point
        {"half_time": 1, "short_table": "dummy", "players": 11},  # a three-handed table
        {"half_time": 2, "move": {"form": "partner"}, "players": 10},
    ],
    ids=["progressive", "average-sit-out", "dummy", "partner"],
)
def test_a_players_card_adds_up_to_their_total_line(club: Club, settings: dict[str, Any]) -> None:
    players = settings.pop("players", 9)
    drive = play(new_drive(club, players=players, hands=4, **settings), 4, finish=True)
    state = drive_state(drive)
    seatings = seatings_of(drive)
    for line in state.lines:
        card = player_card(state, line.player)
        assert card is not None and len(card.rows) == 4
        assert card.rows[-1].running == line.total
        assert card.half_time == line.first_half
        for row in card.rows:
            seating = seatings[row.hand]
            place = seating.place(line.player)
            if place is None:
                assert row.table is None and row.outcome == "sat out"
                continue
            partner = seating.partner(line.player)
            assert partner is not None  # seated, so partnered (0: the dummy)
            assert row.partner == ("dummy" if partner == 0 else state.names[partner])
            assert row.table == place.table and row.outcome in {"won", "lost"}
    card_page = Client().get(f"/drives/{drive.pk}/players/{state.lines[0].player}/")
    html = card_page.content.decode()
    assert card_page.status_code == 200
    assert f"Place <strong>1</strong> of {len(state.lines)}" in html
    assert section(html, "final-total").count(state.lines[0].total) == 1


def test_a_card_shows_the_hand_in_play_and_links_from_the_totals(club: Club) -> None:
    drive = play(new_drive(club, half_time=2), 1)
    page = Client().get(f"/drives/{drive.pk}/").content.decode()
    for number in range(1, 10):
        assert f'href="/drives/{drive.pk}/players/{number}/"' in page
    state = drive_state(drive)
    card = player_card(state, 1)
    assert card is not None and [row.playing for row in card.rows] == [False, True]
    assert card.rows[1].running == "" and card.rows[1].trumps == "diamonds"
    html = Client().get(f"/drives/{drive.pk}/players/1/").content.decode()
    assert "Place now" in html and 'class="playing"' in html and "diamonds" in html


def test_an_unknown_player_number_is_a_404_that_says_which_numbers_there_are(club: Club) -> None:
    drive = new_drive(club)
    answer = Client().get(f"/drives/{drive.pk}/players/99/")
    assert answer.status_code == 404
    text = answer.content.decode()
    assert "has no player number 99" in text and "numbered 1 to 9" in text


# ---- who may read them --------------------------------------------------------------------------


def pages(drive: Drive) -> list[str]:
    base = f"/drives/{drive.pk}/"
    return [
        base,
        base + "?part=1",
        base + "display/",
        base + "display/?part=1",
        base + "players/1/",
    ]


def test_a_draft_or_a_drive_not_followed_live_is_only_for_its_directors(
    club: Club, director_client: Client
) -> None:
    draft = drive_create(
        club=club, name="Draft", settings={}, players=[f"Player {n}" for n in range(1, 9)]
    )
    hidden = play(new_drive(club, live=False), 1)
    for drive in (draft, hidden):
        for path in pages(drive):
            assert Client().get(path).status_code == 404, path
            assert director_client.get(path).status_code == 200, path
    card = director_client.get(f"/drives/{draft.pk}/players/3/").content.decode()
    assert "The drive has not started" in card
    drive_live(drive=hidden, live=True)
    for path in pages(hidden):
        assert Client().get(path).status_code == 200, path


def test_a_published_drive_stops_refreshing(club: Club) -> None:
    drive = play(new_drive(club, hands=2, half_time=1), 2, finish=True)
    drive_live(drive=drive, live=False)
    assert Client().get(f"/drives/{drive.pk}/").status_code == 404  # finished, not live
    drive_publish(drive=drive)
    for path in pages(drive):
        html = Client().get(path).content.decode()
        assert "data-refresh" not in html and "drive-live.js" not in html, path
    part = Client().get(f"/drives/{drive.pk}/?part=1").content.decode()
    assert "data-final" in part and "final totals" in part


# ---- the live part and the big screen -----------------------------------------------------------


def test_a_running_drive_says_after_which_hand_and_refreshes_itself(club: Club) -> None:
    drive = play(new_drive(club, hands=4, half_time=2, **LADIES), 1)
    page = Client().get(f"/drives/{drive.pk}/").content.decode()
    assert "after hand 1 of 4" in page and 'data-refresh="20"' in page
    assert 'src="/static/js/drive-live.js"' in page and "<script>" not in page
    assert "Hand 2 of 4 is being played, trumps <strong>diamonds</strong>" in page
    part = Client().get(f"/drives/{drive.pk}/?part=1")
    assert "<html" not in part.content.decode() and 'id="totals"' in part.content.decode()
    assert "no-cache" in part["Cache-Control"]


def test_the_big_screen_shows_the_top_by_role_the_half_time_and_the_hand(club: Club) -> None:
    drive = play(new_drive(club, players=13, hands=4, half_time=2, **LADIES), 2)
    state = drive_state(drive)
    screen = Client().get(f"/drives/{drive.pk}/display/").content.decode()
    assert 'class="display drive-screen"' in screen
    assert "Hand 3 of 4 · trumps <strong>spades</strong>" in screen
    assert "after hand 2 of 4" in screen
    assert 'class="screen cols-3"' in screen
    shown = public_drive(drive)
    for table in shown.roles:
        block = section(screen, f"screen-role-{table.role}")
        assert f"<h2>{table.label}</h2>" in block
        assert names_in(block) == {line.name for line in table.lines[:10]}
    half = section(screen, "screen-half-time")
    assert shown.half_time is not None
    assert names_in(half) == {line.name for line in shown.half_time.leaders}
    assert len(state.lines) == 13
