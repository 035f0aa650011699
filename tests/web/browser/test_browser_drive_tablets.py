"""A progressive drive of three tables and six hands played through the tablets only, in
Chromium: North-South enter, East-West confirm; at hand 2 East-West say table 2's result is
wrong and it is entered again; at hand 4 table 3 is late and the room and the other tablets
wait for it. Each move reaches every tablet by itself (the stream) and the room display
shows everyone's new seat. The director corrects one result after the players moved and
finishes; the totals and prizes on the page equal a recomputation from the stored hands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from engine.drives import Drive as EngineDrive
from tests.web.conftest import log_in
from tournaments.drives.models import Drive, DriveAudit, DriveResult, DriveTableAccess
from tournaments.drives.selectors.drives import drive_settings, player_names, seatings_of
from tournaments.drives.services import drives as services
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
NAMES = [
    "Ada Ames", "Ben Bird", "Cath Cole", "Dan Dyer", "Eve Ross", "Fay Finch",
    "Gus Gray", "Hal Hunt", "Ivy Irwin", "Jo Jones", "Kit King", "Lou Lamb",
]  # fmt: skip
#: North-South's tricks at tables 1, 2 and 3 in each hand.
TRICKS = {1: (9, 4, 7), 2: (6, 8, 5), 3: (7, 7, 10), 4: (3, 11, 6), 5: (8, 5, 9), 6: (7, 6, 4)}
SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
WAIT_MS = 10_000


def _enter(tablet: Any, tricks: int, *, wait_ms: int = WAIT_MS) -> None:
    tablet.locator("#field-ns_tricks").get_by_role("radio", name=str(tricks), exact=True).click()
    tablet.get_by_role("button", name="Send to East-West to confirm").click()
    tablet.locator("#confirm").wait_for(timeout=wait_ms)


def _confirm(tablet: Any) -> None:
    """Confirmed: the table waits for the others, or (the last table) sees the moves at once."""
    tablet.get_by_role("button", name="Yes, confirm").click()
    tablet.locator("#done, #moves").first.wait_for(timeout=WAIT_MS)


def _check_moves(drive: Drive, hand: int, tablets: dict[int, Any], room: Any) -> None:
    """Every tablet shows the new hand with its seats and where its players went; the room
    lists every player at the seat the stored seating gives them."""
    names = player_names(drive)
    seatings = seatings_of(drive)
    now, before = seatings[hand], seatings[hand - 1]
    place = {
        player: (table, "NESW"[index])
        for table, players in enumerate(now.tables, start=1)
        for index, player in enumerate(players)
    }
    for table, tablet in tablets.items():
        tablet.wait_for_function(
            "h => document.getElementById('hand-label').textContent"
            ".indexOf('Hand ' + h + ' of') >= 0",
            arg=hand,
            timeout=WAIT_MS,
        )
        seats = tablet.locator("#seats").inner_text()
        for index, player in enumerate(now.tables[table - 1]):
            assert f"{SEATS['NESW'[index]]} {names[player]}" in seats
        moves = tablet.locator("#moves").inner_text()
        for player in before.tables[table - 1]:
            to_table, seat = place[player]
            where = "stays at this table" if to_table == table else f"table {to_table}"
            assert f"{names[player]} → {where}, {SEATS[seat]}" in moves, moves
    room.wait_for_function(
        "h => (document.getElementById('room-hand') || {}).dataset"
        " && document.getElementById('room-hand').dataset.hand == String(h)",
        arg=hand,
        timeout=WAIT_MS,
    )
    lines = room.locator("#room-places li").all_inner_texts()
    assert len(lines) == len(NAMES)
    for player, (table, seat) in place.items():
        assert any(
            line.startswith(names[player]) and f"table {table} {seat}" in line for line in lines
        ), (names[player], table, seat, lines)


def test_a_drive_played_on_tablets_only(live_server: Any, browser: Any) -> None:
    user = get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    club = Club.objects.create(name="Village Club", slug="village")
    club.directors.add(user)
    drive = services.drive_create(
        club=club,
        name="Tablet drive",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks", "move": {"form": "progressive"}},
        players=NAMES,
        user=user,
    )
    services.drive_start(drive=drive, seed=2026, user=user)
    tokens = dict(DriveTableAccess.objects.filter(drive=drive).values_list("table", "token"))

    director = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(director, live_server.url)
    director.goto(f"{live_server.url}/drives/{drive.pk}/manage/")
    for table, token in tokens.items():
        link = director.locator(f"#table-link-{table}")
        assert link.get_attribute("href") == f"{live_server.url}/d/{token}/"
    assert director.locator("#tablets svg").count() == 3  # a QR code per table
    SHOTS.mkdir(exist_ok=True)
    director.screenshot(
        path=str(SHOTS / "screenshot-drive-director-tablets-1280.png"), full_page=True
    )
    director.set_viewport_size({"width": 390, "height": 844})
    assert director.evaluate("() => document.documentElement.scrollWidth") <= 390
    director.screenshot(
        path=str(SHOTS / "screenshot-drive-director-tablets-390.png"), full_page=True
    )
    director.set_viewport_size({"width": 1280, "height": 900})
    room = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    room.context.add_cookies(director.context.cookies())
    room.goto(f"{live_server.url}/drives/{drive.pk}/manage/room/")

    widths = {1: 390, 2: 800, 3: 390}
    tablets = {}
    for table, token in tokens.items():
        context = browser.new_context(viewport={"width": widths[table], "height": 844})
        tablets[table] = context.new_page()
        tablets[table].goto(f"{live_server.url}/d/{token}/")
        assert "Hand 1 of 6" in tablets[table].locator("#hand-label").inner_text()

    for hand, tricks in TRICKS.items():
        order = (1, 2) if hand == 4 else (1, 2, 3)  # table 3 is late at hand 4
        for table in order:
            tablet = tablets[table]
            if hand == 2 and table == 2:  # entered wrong: East-West say so
                _enter(tablet, 3)
                assert "NS 3 tricks" in tablet.locator("#confirm").inner_text()
                tablet.get_by_role("button", name="No, it is wrong").click()
                tablet.locator("#enter").wait_for(timeout=WAIT_MS)
            _enter(tablet, tricks[table - 1])
            assert f"NS {tricks[table - 1]} tricks" in tablet.locator("#confirm").inner_text()
            if hand == 1 and table == 1:
                tablet.screenshot(path=str(SHOTS / "screenshot-drive-table-confirm.png"))
            _confirm(tablet)
        if hand == 4:
            room.wait_for_function(
                "() => (document.getElementById('room-progress') || {}).textContent"
                " && document.getElementById('room-progress').textContent"
                ".indexOf('2 of 3 tables done') >= 0",
                timeout=WAIT_MS,
            )
            assert "waiting for table 3" in room.locator("#room-progress").inner_text()
            tablets[1].wait_for_function(
                "() => (document.getElementById('waiting') || {}).textContent"
                " && document.getElementById('waiting').textContent.indexOf('table 3') >= 0",
                timeout=WAIT_MS,
            )
            assert Drive.objects.get(pk=drive.pk).hand == 4  # nobody moved: table 3 is out
            _enter(tablets[3], tricks[2])
            _confirm(tablets[3])
        if hand < 6:
            _check_moves(Drive.objects.get(pk=drive.pk), hand + 1, tablets, room)
            if hand == 1:
                SHOTS.mkdir(exist_ok=True)
                tablets[1].screenshot(path=str(SHOTS / "screenshot-drive-table-moves-390.png"))
                room.screenshot(path=str(SHOTS / "screenshot-drive-room-1280x720.png"))
    for tablet in tablets.values():
        assert "last hand" in tablet.locator("#done").inner_text()
        width = tablet.evaluate("() => document.documentElement.scrollWidth")
        assert width <= tablet.viewport_size["width"]
    assert DriveAudit.objects.filter(action="said wrong at the table", target="hand 2 table 2")

    # The director corrects hand 1 at table 2 after the players moved: scores only.
    director.goto(f"{live_server.url}/drives/{drive.pk}/manage/")
    hand_one = director.locator("#hand-1")
    hand_one.locator("summary").click()
    form = hand_one.locator("form").filter(has_text="Table 2:")
    form.locator("input[name=ns_tricks]").fill("5")
    form.locator("input[name=reason]").fill("Tally sheet says 5")
    form.get_by_role("button", name="Correct").click()
    assert "nobody's seat changed" in director.locator("main").inner_text()
    director.get_by_role("button", name="Finish the drive").click()
    assert "The drive is finished" in director.locator("main").inner_text()
    director.goto(f"{live_server.url}/drives/{drive.pk}/manage/totals/")

    stored = Drive.objects.get(pk=drive.pk)
    assert stored.status == Drive.Status.FINISHED
    settings = drive_settings(stored)
    engine = EngineDrive(settings)
    seatings = seatings_of(stored)
    records = []
    for hand in sorted(seatings):
        rows = DriveResult.objects.filter(drive=stored, hand=hand)
        assert {r.status for r in rows} == {DriveResult.Status.CONFIRMED}
        entries = {r.table: r.entry for r in rows}
        expected = dict(enumerate(TRICKS[hand], start=1))
        if hand == 1:
            expected[2] = 5
        assert entries == {t: {"ns_tricks": n} for t, n in expected.items()}
        records.append(engine.record_hand(seatings[hand], entries))
        if hand > 1:
            assert engine.next_seating(seatings[hand - 1], records[-2]) == seatings[hand]
    names = player_names(stored)
    totals = {names[line.player]: line.total for line in engine.standings(tuple(records))}
    rows = director.locator("#totals tbody tr")
    assert rows.count() == len(NAMES)
    shown = {}
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td").all_inner_texts()
        shown[cells[1].strip()] = cells[3].strip()
    assert shown == {name: str(total) for name, total in totals.items()}
    awards = engine.prizes(tuple(records), seed=stored.seed, names=names)
    prizes = director.locator("#prizes li").all_inner_texts()
    assert [p.split(":", 1)[1].strip() for p in prizes] == [a.text for a in awards]


def test_a_drive_tablet_reloaded_offline_keeps_its_entry_and_sends_it_later(
    live_server: Any, browser: Any
) -> None:
    """The drive tablets have the events' service worker too: a tablet whose Wi-Fi drops
    keeps North-South's entry, reloads from its copy still showing its table and saying it is
    offline, and sends the entry once the connection is back (stored once)."""
    club = Club.objects.create(name="Village Club", slug="village")
    drive = services.drive_create(
        club=club,
        name="Offline drive",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks", "move": {"form": "progressive"}},
        players=NAMES,
    )
    services.drive_start(drive=drive, seed=2026)
    token = DriveTableAccess.objects.get(drive=drive, table=1).token
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{live_server.url}/d/{token}/")
    page.wait_for_selector("body[data-offline-ready='1']")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.locator("#field-ns_tricks").get_by_role("radio", name="9", exact=True).click()
    page.get_by_role("button", name="Send to East-West to confirm").click()
    page.locator("#banner.offline").wait_for()
    assert "kept on this tablet" in page.locator("#banner").inner_text()
    assert not DriveResult.objects.filter(drive=drive).exists()
    # Still offline: the page comes back from the service worker's copy, its table and its
    # banner shown. (Chromium's offline emulation lets through the requests a page makes past
    # its service worker, so the entry may leave during the reload: what counts is that it
    # is never lost and stored once.)
    page.reload()
    page.wait_for_selector("#seats")
    page.locator("#banner.offline").wait_for()
    assert "Offline" in page.locator("#banner").inner_text()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => document.getElementById('banner').hidden === true")
    page.locator("#confirm").wait_for()
    stored = DriveResult.objects.get(drive=drive, table=1, hand=1)
    assert stored.entry["ns_tricks"] == 9
    assert DriveResult.objects.filter(drive=drive).count() == 1
    page.context.close()


def test_a_drive_tablet_shows_the_answer_to_its_own_entry(live_server: Any, browser: Any) -> None:
    """The answer to North-South's entry carries the table's state, and the tablet shows it:
    East-West's confirm screen comes from that answer alone. (It once stayed on "Sending your
    result" until the next poll, up to 8 s later, because the answer was drawn while the entry
    still waited in the queue.) The tablet's reads of its state are cut off here, so only the
    entry's own answer can show the screen; an entry moves no version, so the stream is quiet."""
    club = Club.objects.create(name="Village Club", slug="village")
    drive = services.drive_create(
        club=club,
        name="Answer drive",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks", "move": {"form": "progressive"}},
        players=NAMES,
    )
    services.drive_start(drive=drive, seed=2026)
    token = DriveTableAccess.objects.get(drive=drive, table=1).token
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/d/{token}/")
    page.locator("#field-ns_tricks").wait_for(timeout=WAIT_MS)
    reads: list[str] = []

    def no_reads(route: Any) -> None:
        if route.request.method == "GET":
            reads.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route(f"{live_server.url}/api/d/{token}/", no_reads)
    # and no stream either: a stream opening while the entry is on its way sends the state it
    # read before the entry was stored, which would draw the entry screen again
    page.route(f"{live_server.url}/d/{token}/stream/", no_reads)
    # Only the entry's answer can draw the confirm screen here, so a slow answer on a loaded
    # machine is waited for up to the tablet's own request timeout (15 s), not the poll's.
    _enter(page, 8, wait_ms=20_000)
    assert "NS 8 tricks" in page.locator("#confirm").inner_text()
    assert DriveResult.objects.get(drive=drive, hand=1, table=1).entry["ns_tricks"] == 8
