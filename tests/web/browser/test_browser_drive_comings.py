"""An 11-player drive of six hands played on two tablets in Chromium, three sitting out each
hand, in which one player goes home at half time and one arrives at hand 5. The director uses
the running drive's page ("A player leaves", "A player arrives"); each change reaches both
tablets and the room display by itself. At the end every total and every prize on the
director's page equals a recount written here from the stored seatings and results by the
rules of docs/games/drives.md, not by the app's code."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in
from tournaments.drives.models import Drive, DrivePlayer, DriveResult, DriveSeating
from tournaments.drives.services import drives as services
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ada Ames", "Ben Bird", "Cath Cole", "Dan Dyer", "Eve Ross", "Fay Finch",
    "Gus Gray", "Hal Hunt", "Ivy Irwin", "Jo Jones", "Kit King",
]  # fmt: skip
NEWCOMER = "Nell Newcomer"
SHOTS = Path("var")
#: North-South's tricks at tables 1 and 2 in each hand.
TRICKS = {1: (9, 4), 2: (6, 8), 3: (7, 10), 4: (3, 11), 5: (8, 5), 6: (12, 6)}
SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
WAIT_MS = 10_000
SIT_OUT = 7  # scoring=tricks: a player sitting out scores seven tricks


def _seating(drive: Drive, hand: int) -> dict[str, Any]:
    return DriveSeating.objects.get(drive=drive, hand=hand).seating


def _names(drive: Drive) -> dict[int, str]:
    return dict(DrivePlayer.objects.filter(drive=drive).values_list("number", "name"))


def _shows(drive: Drive, hand: int, tablets: dict[int, Any], room: Any = None) -> None:
    """Both tablets show `hand` and the stored seating's players at their seats; the room
    (when given: it asks every 3 seconds, so it is looked at when someone comes or goes)
    lists exactly the players there, each at their stored table and seat (or sitting out)."""
    names = _names(drive)
    seating = _seating(drive, hand)
    for table, tablet in tablets.items():
        players = seating["tables"][table - 1]
        wanted = [f"{SEATS['NESW'[i]]} {names[p]}" for i, p in enumerate(players)]
        tablet.wait_for_function(
            """([hand, wanted]) => {
                const label = document.getElementById('hand-label');
                const seats = document.getElementById('seats');
                return label && seats && label.textContent.indexOf('Hand ' + hand + ' of') >= 0
                    && wanted.every(w => seats.innerText.indexOf(w) >= 0);
            }""",
            arg=[hand, wanted],
            timeout=WAIT_MS,
        )
    if room is None:
        return
    expected = {
        names[p]: f"table {t} {'NESW'[i]}"
        for t, players in enumerate(seating["tables"], start=1)
        for i, p in enumerate(players)
    } | {names[p]: "sits out" for p, _role in seating["bench"]}
    room.wait_for_function(
        """([hand, count]) => {
            const h = document.getElementById('room-hand');
            return h && h.dataset.hand == String(hand)
                && document.querySelectorAll('#room-places li').length === count;
        }""",
        arg=[hand, len(expected)],
        timeout=WAIT_MS,
    )
    lines = room.locator("#room-places li").all_inner_texts()
    for name, where in expected.items():
        assert any(line.startswith(name) and where in line for line in lines), (name, lines)


def _play(tablet: Any, tricks: int) -> None:
    tablet.locator("#field-ns_tricks").get_by_role("radio", name=str(tricks), exact=True).click()
    tablet.get_by_role("button", name="Send to East-West to confirm").click()
    tablet.locator("#confirm").wait_for(timeout=WAIT_MS)
    tablet.get_by_role("button", name="Yes, confirm").click()
    tablet.locator("#done, #moves").first.wait_for(timeout=WAIT_MS)


def _recount(drive: Drive) -> tuple[dict[int, Fraction], dict[int, Fraction], list[list[Any]]]:
    """Totals, first halves and every hand's points by player, from the stored rows: a side
    scores the tricks it took; sitting out scores 7; the late arrival (late_score=average)
    scores each earlier hand's average of the players at the tables; a leaver nothing after
    going."""
    players = sorted(_names(drive))
    per_hand: list[list[Any]] = []
    for hand in range(1, 7):
        seating = _seating(drive, hand)
        ns = dict(DriveResult.objects.filter(drive=drive, hand=hand).values_list("table", "entry"))
        points: dict[int, Fraction] = {}
        for t, table in enumerate(seating["tables"], start=1):
            for i, p in enumerate(table):
                tricks = ns[t]["ns_tricks"]
                points[p] = Fraction(tricks if i % 2 == 0 else 13 - tricks)
        average = sum(points.values(), Fraction(0)) / len(points)
        for p, _role in seating["bench"]:
            points[p] = Fraction(SIT_OUT)
        arrivals = dict(drive.settings.get("arrivals", []))
        per_hand.append(
            [points.get(p, average if arrivals.get(p, 1) > hand else Fraction(0)) for p in players]
        )
    totals = {p: sum((row[k] for row in per_hand), Fraction(0)) for k, p in enumerate(players)}
    halves = {p: sum((row[k] for row in per_hand[:3]), Fraction(0)) for k, p in enumerate(players)}
    return totals, halves, per_hand


def _winner(field: list[int], score: dict[int, Fraction], hands: list[list[Any]], sign: int) -> int:
    """The best of `field` by `score` (sign -1: the lowest), ties by count-back: the last hand,
    then the last two ... of `hands`."""

    def key(p: int) -> tuple[Fraction, ...]:
        k = p - 1
        backs = [sum((row[k] for row in hands[-n:]), Fraction(0)) for n in range(1, len(hands) + 1)]
        return tuple(sign * v for v in (score[p], *backs))

    ranked = sorted(field, key=key, reverse=True)
    assert key(ranked[0]) != key(ranked[1]), "a tie count-back cannot part: pick other tricks"
    return ranked[0]


def test_an_eleven_player_drive_with_a_late_arrival_and_a_leaver(
    live_server: Any, browser: Any
) -> None:
    user = get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    club = Club.objects.create(name="Village Club", slug="village")
    club.directors.add(user)
    drive = services.drive_create(
        club=club,
        name="Comings and goings",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks", "late_score": "average"},
        players=NAMES,
        user=user,
    )
    services.drive_start(drive=drive, seed=2026, user=user)
    tokens = {t: drive.table_access.get(table=t).token for t in (1, 2)}

    director = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(director, live_server.url)
    manage = f"{live_server.url}/drives/{drive.pk}/manage/"
    room = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    room.context.add_cookies(director.context.cookies())
    room.goto(f"{manage}room/")
    tablets = {}
    for table, token in tokens.items():
        tablets[table] = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        tablets[table].goto(f"{live_server.url}/d/{token}/")
    _shows(drive, 1, tablets, room)

    leaver = 0
    for hand, tricks in TRICKS.items():
        if hand == 4:  # half time: someone at a table goes home before hand 4
            leaver = _seating(drive, 4)["tables"][0][1]
            director.goto(manage)
            director.get_by_label("A player leaves").select_option(str(leaver))
            director.get_by_role("button", name="Close their card").click()
            assert "their card is closed" in director.locator("main").inner_text()
            assert (
                f"{NAMES[leaver - 1]} left after hand 3"
                in director.locator("#comings-list").inner_text()
            )
            _shows(drive, 4, tablets, room)
            assert f"Gone home: {NAMES[leaver - 1]}." in room.locator("#room-comings").inner_text()
        if hand == 5:
            director.goto(manage)
            director.get_by_label("A player arrives: name").fill(NEWCOMER)
            director.get_by_role("button", name="Seat them").click()
            assert f"{NEWCOMER} has joined" in director.locator("main").inner_text()
            SHOTS.mkdir(exist_ok=True)
            director.locator("#comings").screenshot(
                path=str(SHOTS / "screenshot-drive-comings.png")
            )
            director.set_viewport_size({"width": 390, "height": 844})
            assert director.evaluate("() => document.documentElement.scrollWidth") <= 390
            director.set_viewport_size({"width": 1280, "height": 900})
            _shows(drive, 5, tablets, room)
            assert f"Joining this hand: {NEWCOMER}." in room.locator("#room-comings").inner_text()
        for table in (1, 2):
            _play(tablets[table], tricks[table - 1])
        if hand < 6:
            _shows(drive, hand + 1, tablets, room if hand + 1 == 6 else None)
    stored = Drive.objects.get(pk=drive.pk)
    names = _names(stored)
    assert stored.settings["departures"] == [[leaver, 3]]
    assert stored.settings["arrivals"] == [[12, 5]]
    # The newcomer played at a table on some hand (and so was on a tablet).
    assert any(12 in t for h in (5, 6) for t in _seating(stored, h)["tables"])
    assert all(leaver not in t for h in (4, 5, 6) for t in _seating(stored, h)["tables"])

    director.goto(f"{live_server.url}/drives/{drive.pk}/players/{leaver}/")
    assert director.get_by_text("left: card closed").count() == 3  # hands 4, 5 and 6
    director.goto(f"{live_server.url}/drives/{drive.pk}/players/12/")
    assert director.get_by_text("not come yet").count() == 4  # hands 1 to 4
    director.goto(manage)
    director.get_by_role("button", name="Finish the drive").click()
    director.goto(f"{manage}totals/")
    totals, halves, per_hand = _recount(stored)
    rows = director.locator("#totals tbody tr")
    assert rows.count() == 12
    shown = {}
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td").all_inner_texts()
        shown[cells[1].split(" (")[0].strip()] = cells[3].strip()

    def show(value: Fraction) -> str:
        return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"

    assert shown == {names[p]: show(total) for p, total in totals.items()}
    # Prizes (the default list, one each, count-back): three highest, the best first half,
    # the booby; the leaver is out of them all, the newcomer out of the booby.
    everyone = [p for p in sorted(names) if p != leaver]
    won: list[int] = []
    expected = []
    for score, hands, sign, field in (
        (totals, per_hand, 1, everyone),
        (totals, per_hand, 1, everyone),
        (totals, per_hand, 1, everyone),
        (halves, per_hand[:3], 1, everyone),
        (totals, per_hand, -1, [p for p in everyone if p != 12]),
    ):
        winner = _winner([p for p in field if p not in won], score, hands, sign)
        won.append(winner)
        expected.append(names[winner])
    prizes = director.locator("#prizes li").all_inner_texts()
    assert len(prizes) == 5
    for text, name in zip(prizes, expected, strict=True):
        assert text.split(":", 1)[1].strip().startswith(name), (text, name)
