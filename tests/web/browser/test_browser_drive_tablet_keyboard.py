"""The drive tablet (/d/<token>/) for every player (issue #43), in Chromium: a hand's result
entered and confirmed with the keyboard alone in a counted number of keys; pickers that are
radio groups keeping focus on the picked choice; a new screen that sends focus to its
heading; a poll, the periodic refresh or a state pushed on the stream that never moves focus
(nor loses a number half typed); every screen tabbed through at 200 % zoom of a phone
(195x422) and at 390x844 with each focused control whole on the screen and nothing scrolling
sideways; large print on every screen, kept after a reload; outcomes and refusals spoken
through the live region."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.web.browser.axe import axe_findings, report
from tests.web.conftest import make_drive
from tournaments.drives.models import Drive, DriveResult, DriveTableAccess
from tournaments.drives.selectors.tablets import table_state
from tournaments.drives.services import drives as services
from tournaments.drives.services import tablets
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"width": 390, "height": 844}
ZOOMED = {"width": 195, "height": 422}  # a 390x844 phone at 200 % zoom

#: The focused control's key (`core.focusKey`: data-focus, #id, or tag|field|words).
FOCUS_KEY = "() => window.clubwhistTablet.focusKey(document.activeElement)"
#: The focused control: whole inside the viewport, and on top at its centre and four points
#: just inside its (rounded) corners (nothing sticky or fixed over it); and the page's width.
FOCUS_SEEN = """() => {
    const el = document.activeElement;
    const r = el.getBoundingClientRect();
    const inset = Math.min(5, r.width / 4, r.height / 4);
    const points = [[r.left + inset, r.top + inset], [r.right - inset, r.top + inset],
        [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset],
        [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    const covered = points.filter(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || (hit !== el && !el.contains(hit));
    }).length;
    return {
        key: window.clubwhistTablet.focusKey(el),
        // (within a pixel: layout in fractions of a pixel, scrolling in whole ones)
        inside: r.top > -1 && r.left > -1 && r.bottom < innerHeight + 1 && r.right < innerWidth + 1,
        covered: covered,
        sideways: document.documentElement.scrollWidth > innerWidth,
    };
}"""
#: What large print gets wrong on the page: a visible text under 24 px, a button or input
#: under 56x56 px, or a page wider than the screen.
LARGE_PRINT_MISSES = """() => {
    const misses = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!node.textContent.trim() || parent.closest('script, noscript, .sr-only')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (!Array.from(range.getClientRects()).some(r => r.width > 0 && r.height > 0)) continue;
        const size = parseFloat(getComputedStyle(parent).fontSize);
        if (size < 24) misses.push(['text', node.textContent.trim().slice(0, 40), size]);
    }
    for (const b of document.querySelectorAll('button, input, select, textarea')) {
        const r = b.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        if (r.height < 55.5 || r.width < 55.5) {
            misses.push(['target', b.id || b.textContent.trim(), r.width, r.height]);
        }
    }
    if (document.documentElement.scrollWidth > innerWidth) {
        misses.push(['sideways', document.documentElement.scrollWidth, innerWidth]);
    }
    return misses;
}"""


def _drive(hands: int = 3) -> tuple[Drive, dict[int, str]]:
    """A started drive of 12 players at three tables, and each table's link token."""
    club, _ = Club.objects.get_or_create(slug="village", defaults={"name": "Village Club"})
    drive = make_drive(club, players=12, hands=hands)
    tokens = dict(DriveTableAccess.objects.filter(drive=drive).values_list("table", "token"))
    return drive, tokens


NewPage = Callable[[dict[str, int]], Any]


@pytest.fixture
def new_page(browser: Any) -> Iterator[NewPage]:
    """Pages in contexts of their own, all closed when the test ends, passed or failed (a page
    left open would go on asking a server whose drive is gone)."""
    contexts: list[Any] = []

    def make(size: dict[str, int]) -> Any:
        contexts.append(browser.new_context(viewport=size))
        page = contexts[-1].new_page()
        page.set_default_timeout(WAIT_MS)
        return page

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


def _tablet(live_server: Any, new_page: NewPage, token: str, size: dict[str, int]) -> Any:
    page = new_page(size)
    page.goto(f"{live_server.url}/d/{token}/")
    page.locator("#seats").wait_for()
    return page


def _key(page: Any) -> str:
    return str(page.evaluate(FOCUS_KEY))


def _whole(page: Any) -> None:
    """The focused control (or heading) is whole on the screen, nothing over it."""
    seen = page.evaluate(FOCUS_SEEN)
    assert seen["inside"] and not seen["covered"], seen


def _said(page: Any, words: str) -> None:
    """The live region says `words` (it is filled a moment after it is emptied)."""
    page.wait_for_function(
        "w => (document.getElementById('announcer') || {}).textContent === w", arg=words
    )


def _play(drive: Drive, table: int, hand: int, tricks: int) -> None:
    """Another table's tablet enters and confirms its result (the services its API calls)."""
    tablets.tablet_enter(drive_id=drive.pk, table=table, hand=hand, entry={"ns_tricks": tricks})
    tablets.tablet_confirm(drive_id=drive.pk, table=table, hand=hand, entry={"ns_tricks": tricks})


def test_a_hand_entered_and_confirmed_with_the_keyboard_alone(
    live_server: Any, new_page: NewPage
) -> None:
    """North-South enter 10 tricks and East-West confirm them in 8 keys from the page's
    load: Tab (the Large print switch), Tab (the tricks, a radio group), 1, 0 (typed: 10),
    Tab (Send), Enter, then on East-West's screen, whose heading has focus, Tab (Yes,
    confirm: before "No, it is wrong") and Enter. A one-digit count takes 7. Focus stays
    on each pick; each new screen puts it on its heading. Another table uses the arrows,
    Home and End, says the result is wrong and enters it again; the last table's confirmation
    moves the drive, and every tablet's focus goes to where the players go."""
    drive, tokens = _drive()
    one = _tablet(live_server, new_page, tokens[1], PHONE)
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        one.keyboard.press(key)

    press("Tab")
    assert _key(one) == "#large-print"
    press("Tab")
    assert _key(one) == "pick|ns_tricks|0"
    assert one.evaluate("() => document.activeElement.getAttribute('role')") == "radio"
    press("1")
    assert _key(one) == "pick|ns_tricks|1"
    press("0")
    assert _key(one) == "pick|ns_tricks|10"  # 1 then 0 within a second: 10, not 0
    picked = one.locator("#field-ns_tricks [aria-checked=true]")
    assert picked.all_inner_texts() == ["10"]
    press("Tab")
    assert _key(one) == "#send"
    press("Enter")
    one.locator("#confirm").wait_for()
    assert _key(one) == "#confirm-heading"
    _whole(one)
    _said(one, "Sent to East-West: East-West, check the result.")
    press("Tab")
    assert _key(one) == "#agree"
    press("Enter")
    one.locator("#done").wait_for()
    assert _key(one) == "#done-heading"
    _said(one, "Confirmed.")
    assert keys == 8
    row = DriveResult.objects.get(drive=drive, hand=1, table=1)
    assert (row.entry, row.status) == ({"ns_tricks": 10}, DriveResult.Status.CONFIRMED)

    two = _tablet(live_server, new_page, tokens[2], PHONE)
    two.keyboard.press("Tab")
    two.keyboard.press("Tab")
    for key, picked_now in (
        ("End", "13"), ("Home", "0"), ("ArrowRight", "1"), ("ArrowDown", "2"),
        ("ArrowLeft", "1"), ("ArrowUp", "0"), ("ArrowLeft", "13"), ("ArrowRight", "0"),
        ("7", "7"),
    ):  # fmt: skip
        two.keyboard.press(key)
        assert _key(two) == f"pick|ns_tricks|{picked_now}", key
        assert two.locator("#field-ns_tricks [aria-checked=true]").all_inner_texts() == [picked_now]
        assert two.locator("#field-ns_tricks [tabindex='0']").all_inner_texts() == [picked_now]
    two.keyboard.press("Tab")
    two.keyboard.press("Enter")
    two.locator("#confirm").wait_for()
    two.keyboard.press("Tab")
    assert _key(two) == "#agree"
    two.keyboard.press("Tab")
    assert _key(two) == "#wrong"
    two.keyboard.press("Shift+Tab")
    assert _key(two) == "#agree"
    two.keyboard.press("Tab")
    two.keyboard.press("Enter")  # No, it is wrong
    two.locator("#enter").wait_for()
    assert _key(two) == "#enter-heading"
    _said(two, "Taken off: North-South, enter the result again.")
    assert two.locator("#field-ns_tricks [aria-checked=true]").count() == 0
    assert not DriveResult.objects.filter(drive=drive, table=2).exists()
    for key in ("Tab", "8", "Tab", "Enter"):
        two.keyboard.press(key)
    two.locator("#confirm").wait_for()
    for key in ("Tab", "Enter"):
        two.keyboard.press(key)
    two.locator("#done").wait_for()
    assert _key(two) == "#done-heading"

    three = _tablet(live_server, new_page, tokens[3], PHONE)
    for key in ("Tab", "Tab", "5", "Tab", "Enter"):
        three.keyboard.press(key)
    three.locator("#confirm").wait_for()
    for key in ("Tab", "Enter"):
        three.keyboard.press(key)
    # The last confirmation moves the drive: its answer, the stream or the poll shows hand 2.
    for tablet in (three, one, two):
        tablet.locator("#moves").wait_for()
        tablet.wait_for_function(
            "() => window.clubwhistTablet.focusKey(document.activeElement) === '#moves-heading'"
        )
        _whole(tablet)
        assert "Hand 2 of 3" in tablet.locator("#hand-label").inner_text()
        tablet.keyboard.press("Tab")
        assert _key(tablet) == "pick|ns_tricks|0"
    assert Drive.objects.get(pk=drive.pk).hand == 2


def test_a_game_of_several_fields_entered_with_the_keyboard_alone(
    live_server: Any, new_page: NewPage
) -> None:
    """Candid Whist's five fields, each a radio group (the flag "All passed" too, No picked
    until Yes is: the result then needs the others), entered and confirmed in 14 keys: Tab
    (Large print), Tab ("All passed": No), Tab (Declarer), Space (North), Tab (Bid), 8, Tab
    (Strain), Space (clubs), Tab (Tricks), 9, Tab (Send), Enter, then Tab (Yes, confirm) and
    Enter. On another table "All passed" is set to Yes and back with the arrows: the other
    fields go and come back, focus staying on the picked choice."""
    club, _ = Club.objects.get_or_create(slug="village", defaults={"name": "Village Club"})
    drive = make_drive(club, players=8, game="candid", sit_out_score="average")
    tokens = dict(DriveTableAccess.objects.filter(drive=drive).values_list("table", "token"))
    page = _tablet(live_server, new_page, tokens[1], PHONE)
    assert page.locator("#field-passed_out [aria-checked=true]").all_inner_texts() == ["No"]
    keys = [
        "Tab", "Tab", "Tab", "Space", "Tab", "8", "Tab", "Space", "Tab", "9", "Tab", "Enter",
    ]  # fmt: skip
    focus = [
        "#large-print", "pick|passed_out|false", "pick|declarer|N", "pick|declarer|N",
        "pick|bid|7", "pick|bid|8", "pick|strain|C", "pick|strain|C", "pick|tricks|0",
        "pick|tricks|9", "#send",
    ]  # fmt: skip
    for key, focused in zip(keys[:-1], focus, strict=True):
        page.keyboard.press(key)
        assert _key(page) == focused, key
    page.keyboard.press(keys[-1])
    page.locator("#confirm").wait_for()
    assert _key(page) == "#confirm-heading"
    keys += ["Tab", "Enter"]
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.locator("#done").wait_for()
    assert len(keys) == 14
    row = DriveResult.objects.get(drive=drive, hand=1, table=1)
    assert row.status == DriveResult.Status.CONFIRMED
    assert (row.entry["declarer"], row.entry["bid"], row.entry["tricks"]) == ("N", 8, 9)

    two = _tablet(live_server, new_page, tokens[2], PHONE)
    two.locator("#field-passed_out [aria-checked=true]").focus()
    two.keyboard.press("ArrowLeft")
    assert _key(two) == "pick|passed_out|true"
    assert two.locator("#field-passed_out [aria-checked=true]").all_inner_texts() == ["Yes"]
    assert two.locator("#field-declarer").count() == 0
    assert two.locator("#send").is_enabled()
    two.keyboard.press("ArrowRight")
    assert _key(two) == "pick|passed_out|false"
    assert two.locator("#field-declarer, #field-bid, #field-strain, #field-tricks").count() == 4
    assert two.locator("#send").is_disabled()


def _pushing(page: Any, drive: Drive, token: str) -> list[int]:
    """Serve the page's stream here: each time it connects, one `state` event (the table's
    state, its notice saying how many were pushed), then the end of the response, after
    which the browser connects again 300 ms later. Returns the count, growing. The state is
    read once, here: a route's handler runs in a greenlet of its own, where a query would take
    a connection from the pool and never give it back."""
    pushed = [0]
    table = table_state(drive.pk, 1)

    def serve(route: Any) -> None:
        pushed[0] += 1
        state = table | {"message": f"Pushed {pushed[0]}"}
        body = f"retry: 300\nevent: state\ndata: {json.dumps(state)}\n\n"
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

    page.route(f"**/d/{token}/stream/", serve)
    return pushed


MARK = "() => { document.activeElement.dataset.before = '1'; }"
#: The screen was drawn again (the focused node is a new one) and focus is on `key`.
REDRAWN_ON = """key => !document.activeElement.dataset.before
    && window.clubwhistTablet.focusKey(document.activeElement) === key"""


#: Drawn again with focus on `key`, showing a state pushed after the `seen`th.
PUSHED_ON = """([key, seen]) => {
    const notice = document.getElementById('message');
    const pushed = notice ? /^Pushed (\\d+)$/.exec(notice.textContent) : null;
    return !document.activeElement.dataset.before && pushed && Number(pushed[1]) > seen
        && window.clubwhistTablet.focusKey(document.activeElement) === key;
}"""


def test_a_refresh_or_a_pushed_state_never_moves_focus(live_server: Any, new_page: NewPage) -> None:
    """The tablet draws its screen again on every poll (every 8 s) and on every state the
    stream pushes; focus stays on the same control (a new node, found by its key), the pick
    stays picked, and a two-digit number typed across a redraw is still one number. A
    refusal arriving with a refresh is said and moves nothing."""
    drive, tokens = _drive()

    # The periodic refresh, on the page's own timer (the clock is run 9 s forward).
    page = new_page(PHONE)
    page.clock.install()
    page.goto(f"{live_server.url}/d/{tokens[1]}/")
    page.locator("#field-ns_tricks").get_by_role("radio", name="6", exact=True).click()
    assert _key(page) == "pick|ns_tricks|6"
    page.evaluate(MARK)
    with page.expect_response(lambda r: r.url.endswith(f"/api/d/{tokens[1]}/")) as polled:
        page.clock.run_for(9000)
    assert polled.value.request.method == "GET"
    page.wait_for_function(REDRAWN_ON, arg="pick|ns_tricks|6")
    assert page.locator("#field-ns_tricks [aria-checked=true]").all_inner_texts() == ["6"]
    # An asked-for refresh (what the page does when it comes back online) on the Send button.
    page.keyboard.press("Tab")
    assert _key(page) == "#send"
    page.evaluate(MARK)
    page.evaluate("() => window.clubwhistTablet.pollNow()")
    page.wait_for_function(REDRAWN_ON, arg="#send")

    # States pushed on the stream every ~0.3 s while a player types 1 ... 2 on the picker.
    page = new_page(PHONE)
    pushed = _pushing(page, drive, tokens[1])
    page.goto(f"{live_server.url}/d/{tokens[1]}/")
    page.locator("#message").wait_for()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("3")
    assert _key(page) == "pick|ns_tricks|3"
    for _ in range(3):
        page.evaluate(MARK)
        seen = pushed[0]
        page.wait_for_function(PUSHED_ON, arg=["pick|ns_tricks|3", seen])
    # Two digits count as one number when typed within a second of each other. What is tested
    # here is that a redraw between them keeps the first; how long the redraw takes on a
    # loaded machine is not, so the page's clock stands still from the first digit to the
    # second (the stream, which draws the screen, needs no clock).
    page.evaluate("() => { const t = Date.now(); window.realNow = Date.now; Date.now = () => t; }")
    page.keyboard.press("1")
    page.evaluate(MARK)
    seen = pushed[0]
    page.wait_for_function(PUSHED_ON, arg=["pick|ns_tricks|1", seen])  # between the digits
    page.keyboard.press("2")
    page.evaluate("() => { Date.now = window.realNow; }")
    assert _key(page) == "pick|ns_tricks|12"
    assert page.locator("#field-ns_tricks [aria-checked=true]").all_inner_texts() == ["12"]
    page.keyboard.press("Tab")
    page.evaluate(MARK)
    page.wait_for_function(REDRAWN_ON, arg="#send")
    # A refusal that comes with a refresh (the director replaced the link) is said, once, and
    # leaves focus where it was.
    tablets.link_replace(drive=drive, table=1)
    page.evaluate("() => window.clubwhistTablet.pollNow()")
    page.locator("#problem").wait_for()
    refusal = page.locator("#problem").inner_text()
    assert "replaced table 1's link" in refusal
    _said(page, refusal)
    assert _key(page) == "#send"


def _tab_through(page: Any, screen: str) -> list[str]:
    """Tab through every control of the screen from the first, then Shift+Tab back, checking
    each is whole on the screen and uncovered; inside a radio group, Home and the arrows
    visit every choice. Returns the keys of the Tab stops."""
    failures = []

    def check(where: str) -> None:
        seen = page.evaluate(FOCUS_SEEN)
        if not seen["inside"] or seen["covered"] or seen["sideways"]:
            failures.append((screen, where, seen))

    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#large-print").focus()
    stops: list[str] = []
    for _ in range(12):
        key = _key(page)
        if key in stops or page.evaluate("() => document.activeElement === document.body"):
            break
        stops.append(key)
        check("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('role') === 'radio'"):
            page.keyboard.press("Home")
            check("Home")
            count = page.evaluate("() => document.activeElement.parentNode.children.length")
            for _ in range(count):
                page.keyboard.press("ArrowRight")
                check("ArrowRight")
        page.keyboard.press("Tab")
    for _ in range(len(stops) - 1):
        page.keyboard.press("Shift+Tab")
        check("Shift+Tab")
    assert not failures, failures
    return stops


def _screens(
    live_server: Any, new_page: NewPage, size: dict[str, int]
) -> Iterator[tuple[str, Any]]:
    """Table 1's tablet on each of its screens in turn, with the table's result as a player
    sees it: the entry (hand 1), offline with the entry kept, East-West's check, a refusal
    (the result changed behind the screen), waiting for the other tables, where the players go
    (hand 2, the last), the last hand confirmed, the drive over, and not started (a state
    saying so, served in place of the server's)."""
    drive, tokens = _drive(hands=2)
    page = _tablet(live_server, new_page, tokens[1], size)
    assert page.locator("#send").is_disabled()
    yield "entry", page

    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.locator("#field-ns_tricks").get_by_role("radio", name="9", exact=True).click()
    page.locator("#send").click()
    page.locator("#sending").wait_for()
    page.locator("#banner.offline").wait_for()
    yield "offline", page

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator("#confirm").wait_for()
    _said(page, "Sent to East-West: East-West, check the result.")
    yield "confirm", page

    tablets.tablet_reject(drive_id=drive.pk, table=1, hand=1)
    tablets.tablet_enter(drive_id=drive.pk, table=1, hand=1, entry={"ns_tricks": 8})
    page.locator("#agree").click()
    page.locator("#problem").wait_for()
    refusal = page.locator("#problem").inner_text()
    assert "has changed since this screen showed it" in refusal
    _said(page, refusal)
    assert "NS 8 tricks" in page.locator("#confirm").inner_text()
    yield "refusal", page

    page.locator("#agree").click()
    page.locator("#waiting").wait_for()
    yield "waiting", page

    _play(drive, 2, 1, 6)
    _play(drive, 3, 1, 7)
    page.evaluate("() => window.clubwhistTablet.pollNow()")
    page.locator("#moves").wait_for()
    yield "moves", page

    page.locator("#field-ns_tricks").get_by_role("radio", name="7", exact=True).click()
    page.locator("#send").click()
    page.locator("#agree").click()
    page.locator("#done").wait_for()
    assert "That was the last hand" in page.locator("#done").inner_text()
    yield "last hand", page

    _play(drive, 2, 2, 5)
    _play(drive, 3, 2, 4)
    services.drive_finish(drive=Drive.objects.get(pk=drive.pk))
    page.evaluate("() => window.clubwhistTablet.pollNow()")
    page.wait_for_function(
        "() => (document.getElementById('message') || {}).textContent"
        " && document.getElementById('message').textContent.indexOf('drive is over') >= 0"
    )
    yield "finished", page

    # Read here, not in the route's handler (see `_pushing`).
    state = table_state(drive.pk, 1) | {
        "status": "draft",
        "message": "The drive has not started yet.",
    }

    def draft(route: Any) -> None:
        route.fulfill(status=200, json=state)

    page.route(f"**/api/d/{tokens[1]}/", draft)
    page.evaluate("() => window.clubwhistTablet.pollNow()")
    page.get_by_text("The drive has not started yet.").wait_for()
    yield "draft", page


SCREENS = [
    "entry", "offline", "confirm", "refusal", "waiting", "moves", "last hand", "finished",
    "draft",
]  # fmt: skip


@pytest.mark.parametrize("size", [ZOOMED, PHONE], ids=["195x422", "390x844"])
def test_every_control_of_every_screen_is_seen_when_tabbed_to(
    live_server: Any, new_page: NewPage, size: dict[str, int]
) -> None:
    """At 200 % zoom of a phone and on the phone itself, every Tab stop of every screen (and
    every choice of the radio group, reached by the arrows) is whole inside the viewport and
    on top (not under the bar or the offline banner), and the page never scrolls sideways."""
    seen = []
    for screen, page in _screens(live_server, new_page, size):
        stops = _tab_through(page, screen)
        assert stops[0] == "#large-print"
        if screen in ("entry", "moves"):
            assert stops[1:] == ["pick|ns_tricks|0", "#send"], stops
        if screen in ("confirm", "refusal"):
            assert stops[1:] == ["#agree", "#wrong"], stops
        seen.append(screen)
    assert seen == SCREENS


def test_large_print_on_every_screen_and_kept_after_a_reload(
    live_server: Any, new_page: NewPage
) -> None:
    """The Large print switch, pressed with the keyboard, is said and kept on the device
    after a reload; then at 390x844, on every screen, every visible text is at least 24 px,
    every button at least 56 px high and 56 px wide, nothing scrolls sideways, and every
    control is still seen whole when tabbed to, and axe finds no WCAG 2.2 A or AA violation."""
    seen = []
    for screen, page in _screens(live_server, new_page, PHONE):
        if screen == "entry":
            assert page.get_attribute("#large-print", "aria-pressed") == "false"
            assert "Large print" in page.locator("#large-help").inner_text()
            page.locator("#large-print").focus()
            page.keyboard.press("Space")
            _said(page, "Large print on")
            page.reload()
            page.locator("#seats").wait_for()
            assert page.evaluate("() => document.documentElement.classList.contains('large-print')")
            assert page.get_attribute("#large-print", "aria-pressed") == "true"
        assert page.evaluate(LARGE_PRINT_MISSES) == [], screen
        found = axe_findings(page, f"drive tablet, large print: {screen}")
        assert not found, report(found)
        _tab_through(page, screen)
        seen.append(screen)
    assert seen == SCREENS
