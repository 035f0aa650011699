"""A drive's public pages in Chromium: a club's Lady-and-Gent drive of 25 players followed live
past half-time. The totals page and a player's card fit a phone (390 px; wide tables scroll
inside their box, the page never does) and a desktop (1280 px), the big screen fits a 1280x720
projector, nothing breaks the Content-Security-Policy, and the live part refreshes itself.
The screenshots are the ones in docs/screens (public-drive-*.png), copied from var/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state, seatings_of
from tournaments.drives.services.drives import (
    drive_create,
    drive_live,
    drive_start,
    hand_next,
    result_enter,
)
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
FIRST = ["Margaret", "Arthur", "Joan", "Dennis", "Irene", "Wilfred", "Brenda", "Cyril"]
LAST = ["Ellis", "Hartley", "Pickering", "Openshaw", "Whitworth", "Baxendale", "Crabtree"]
NAMES = [f"{FIRST[n % 8]} {LAST[n % 7]}" for n in range(25)]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


def _enter_hand(drive: Drive, *, tables: list[int] | None = None) -> None:
    drive = Drive.objects.get(pk=drive.pk)
    seating = seatings_of(drive)[drive.hand]
    for table in tables or range(1, len(seating.tables) + 1):
        tricks = (drive.hand * 5 + table * 3) % 14
        result_enter(drive=drive, table=table, entry={"ns_tricks": tricks})


def _village_drive() -> Drive:
    """12 hands with the break after 6, played to hand 8, which is half entered."""
    club = Club.objects.create(name="Village Hall Whist", slug="village")
    drive = drive_create(
        club=club,
        name="Harvest drive",
        settings={
            "hands": 12,
            "half_time": 6,
            "roles": ["Lady", "Gent"],
            "prizes": [
                {"kind": "highest", "role": "A"},
                {"kind": "highest", "role": "B"},
                {"kind": "first_half"},
                {"kind": "booby"},
            ],
        },
        players=NAMES,
    )
    drive_start(drive=drive, seed=11)
    drive_live(drive=drive, live=True)
    for hand in range(1, 8):
        _enter_hand(drive)
        hand_next(drive=drive, hand=hand)
    _enter_hand(drive, tables=[1, 2])
    return Drive.objects.get(pk=drive.pk)


def _watch(page: Any) -> list[str]:
    found: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


def _fits(page: Any, width: int, path: str) -> None:
    """The page is no wider than the screen; a wide table scrolls inside its own box."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, path
    for table in page.locator("table.list").all():
        box = table.evaluate("t => t.closest('.scroll') ? 'scroll' : 'none'")
        if box == "none":
            overflow = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
            assert overflow <= 1, f"{path}: a table without a scroll box overflows by {overflow}"


def test_the_public_pages_of_a_live_drive(live_server: Any, browser: Any) -> None:
    drive = _village_drive()
    base = f"{live_server.url}/drives/{drive.pk}/"
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        violations = _watch(page)
        page.goto(base)
        assert "after hand 7 of 12" in page.locator("main p.muted").first.inner_text()
        assert page.locator("#totals tbody tr").count() == 25
        assert page.locator("#half-time tbody tr").count() >= 5
        assert (
            page.locator("#role-A tbody tr").count() + page.locator("#role-B tbody tr").count()
            == 25
        )
        _fits(page, width, base)
        page.screenshot(path=str(SHOTS / f"screenshot-public-drive-{width}.png"), full_page=True)
        card = base + "players/3/"
        page.goto(card)
        assert page.locator("#card tbody tr.playing").count() == 1
        assert "Half-time total" in page.locator("#card").inner_text()
        _fits(page, width, card)
        page.screenshot(
            path=str(SHOTS / f"screenshot-public-drive-card-{width}.png"), full_page=True
        )
        assert violations == [] and page.evaluate("() => window.__csp") == []
        context.close()

    room = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    violations = _watch(room)
    room.goto(base + "display/")
    assert "Hand 8 of 12" in room.locator("header").inner_text()
    room.screenshot(path=str(SHOTS / "screenshot-public-drive-display-1280x720.png"))
    rows = room.locator(".screen .row:not(.head)")
    assert rows.count() >= 20
    for k in range(rows.count()):
        box = rows.nth(k).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, f"row {k + 1} is off screen"
        assert box["x"] + box["width"] <= 1280

    # The rest of hand 8 comes in: the screen's live part, fetched again, says so (the script
    # fetches on its timer or, as here, when the page is shown again).
    seating = seatings_of(drive)[8]
    _enter_hand(drive, tables=list(range(3, len(seating.tables) + 1)))
    assert drive_state(drive).hands_played == 8
    room.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    room.wait_for_function(
        "() => document.querySelector('header').innerText.includes('after hand 8 of 12')"
    )
    assert violations == [] and room.evaluate("() => window.__csp") == []
    room.context.close()
