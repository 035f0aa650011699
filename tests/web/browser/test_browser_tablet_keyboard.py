"""The duplicate-pairs tablet (/t/<token>/) by keyboard, at 200 % zoom and in large print
(issue #43): a result entered and confirmed with keys alone, and counted; focus kept on the
picked control, moved to the new screen's heading (or the entry screen's first picker) on a
screen change, and never moved by a refresh; the call panel a modal dialog whose outcome is
announced; the wrong pair number announced and tied to its field; every control of every
screen reached by Tab and fully visible at 195x422 and 390x844; large print kept on the
device, with every text at least 24 px and every target at least 56 px.

The screens walked: the board list, entry (classic, Bid Whist, Candid), the check preview,
East-West's confirmation, the dispute, the call panel, the offline banner, the recap between
rounds, waiting for other tables and for the director, all rounds played."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.browser.axe import axe_findings, report
from tests.web.conftest import make_event
from tournaments.events.models import Event, Result
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import table_links_ensure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)
ZOOMED = (195, 422)  # a 390 x 844 phone at 200 % zoom
LAPTOP = (1280, 800)

# The focused control's name from one drawing to the next (the core's own key).
FOCUS_KEY = "() => window.clubwhistTablet.focusKey(document.activeElement)"

# Whether the focused control is whole on the screen and nothing (a sticky bar, the fixed
# banner) lies over it: the element under its centre and under each edge's middle (not the
# corners: rounded corners are not hit) is the control or inside it.
SHOWN = """() => {
  const el = document.activeElement;
  const r = el.getBoundingClientRect();
  const out = [];
  if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
    out.push(`outside the ${innerWidth}x${innerHeight} viewport: ${JSON.stringify(r)}`);
  }
  const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
  const points = [[cx, cy], [cx, r.top + 2], [cx, r.bottom - 2],
                  [r.left + 2, cy], [r.right - 2, cy]];
  for (const [x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const by = hit ? hit.outerHTML.slice(0, 80) : 'nothing';
      out.push(`covered at ${Math.round(x)},${Math.round(y)} by ${by}`);
    }
  }
  return out;
}"""

WIDE = "() => document.documentElement.scrollWidth - window.innerWidth"

# Large print: every visible text at least 24 px; every button and field at least 56 px high,
# and every picker's button at least 56 px wide too (other buttons hold words: wide enough).
LARGE = """() => {
  const bad = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, p = node.parentElement;
    if (!node.textContent.trim() || !p || p.closest('script, .sr-only')) continue;
    if (!p.checkVisibility()) continue;
    const size = parseFloat(getComputedStyle(p).fontSize);
    if (size < 24) bad.push(`${size}px: ${node.textContent.trim().slice(0, 40)}`);
  }
  for (const c of document.querySelectorAll('button, input, textarea, select')) {
    if (!c.checkVisibility()) continue;
    const r = c.getBoundingClientRect();
    const name = c.textContent.trim().slice(0, 30) || c.id;
    if (r.height < 56 - 0.5) bad.push(`${Math.round(r.height)} px high: ${name}`);
    if (c.matches('button.pick') && r.width < 56 - 0.5) {
      bad.push(`${Math.round(r.width)} px wide: ${name}`);
    }
  }
  return bad;
}"""


# ---- the tablet ------------------------------------------------------------------------------


def _links(event: Event) -> dict[int, str]:
    return {a.table: a.token for a in table_links_ensure(event=event)}


def _open(browser: Any, url: str, size: tuple[int, int] = PHONE, *, large: bool = False) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    if large:
        context.add_init_script("localStorage.setItem('clubwhist-large-print', 'true')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_selector("#screen ul.boards, #screen.recap")
    return page


def _refreshed(page: Any) -> None:
    """The periodic refresh, now: the state asked for and drawn (what 'online' does)."""
    api = page.evaluate("document.body.dataset.api")
    with page.expect_response(lambda r: r.request.method == "GET" and r.url.endswith(api)):
        page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(100)  # drawn


def _said(page: Any, words: str) -> None:
    """`words` were announced (the live region, role=status)."""
    page.wait_for_function(
        "w => { const a = document.getElementById('announcer');"
        " return a !== null && a.getAttribute('aria-live') === 'polite'"
        " && a.textContent.indexOf(w) >= 0; }",
        arg=words,
    )


def _focused(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => { const e = document.activeElement;
        return {key: window.clubwhistTablet.focusKey(e), tag: e.tagName, text: e.textContent.trim(),
                checked: e.getAttribute('aria-checked'), role: e.getAttribute('role')}; }"""
    )


def _confirmed(page: Any, event: Event, board: int) -> Result:
    """Board `board`'s result, once the confirmation the page queued has reached the server."""
    for _ in range(100):
        result = Result.objects.filter(section__event=event, board_number=board).first()
        if result is not None and result.status == "confirmed":
            return result
        page.wait_for_timeout(100)
    raise AssertionError(f"board {board} was not confirmed")


class Keys:
    """The keyboard, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.count += 1


# ---- keyboard ------------------------------------------------------------------------------


def test_a_classic_board_is_entered_in_eight_keys_and_confirmed_in_three(
    live_server: Any, browser: Any, club: Any
) -> None:
    """From the board list with focus on the page (nothing focused), North-South enter a
    classic board in at most 8 keys: Tab to Large print, Tab to Call the director, Tab to
    "Enter board 1", Enter (focus goes to the tricks picker), the trick count typed (one or
    two digits: 12 is "1" then "2"), Tab to Send, Enter. East-West confirm in 2 keys more
    than their pair number has digits (3 for pair 1): Tab to the number field (focus is on the
    screen's heading), the number, Enter. Along the way: focus stays on each pick (typed,
    arrows, Home, End, Space), a refresh moves it nowhere, each new screen takes it."""
    event = make_event(club)
    page = _open(browser, f"{live_server.url}/t/{_links(event)[1]}/")
    assert page.evaluate("document.activeElement === document.body")
    keys = Keys(page)

    keys("Tab", "Tab", "Tab")
    assert _focused(page)["text"] == "Enter board 1"
    keys("Enter")
    page.wait_for_selector("#screen.entry")
    now = _focused(page)
    assert now["role"] == "radio" and now["key"] == "pick|ns_tricks|0"  # the first picker
    # ... and its name says the board: the heading then the legend
    named = page.evaluate(
        "() => document.activeElement.closest('[role=radiogroup]').getAttribute('aria-labelledby')"
    )
    assert named.split()[0] == "entry-heading"
    keys("1", "2")
    page.wait_for_selector(".preview .scores")
    now = _focused(page)
    assert now["key"] == "pick|ns_tricks|12" and now["checked"] == "true"
    assert page.locator('button.pick[aria-checked="true"]').count() == 1
    _said(page, "NS +")  # the preview's score is read out
    _refreshed(page)  # a refresh on the entry screen
    assert page.evaluate(FOCUS_KEY) == "pick|ns_tricks|12"
    keys("Tab")
    assert _focused(page)["text"] == "Send to East-West"
    keys("Enter")
    page.wait_for_selector("#screen.confirm")
    assert keys.count <= 8, f"a classic board took {keys.count} keys"
    assert keys.count == 8
    _said(page, "Sent to East-West")
    # East-West's screen: focus on its heading
    assert _focused(page)["tag"] == "H1"
    assert "East-West, please check" in _focused(page)["text"]
    _refreshed(page)
    assert _focused(page)["tag"] == "H1"
    ew = Keys(page)
    ew("Tab")
    assert page.evaluate("document.activeElement.id") == "pair-number"
    ew("1", "Enter")
    page.wait_for_selector("#screen.boards")
    assert ew.count == 3
    _said(page, "Board 1 confirmed")
    assert _focused(page)["text"] == "Boards for round 1"  # the board list's heading
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('li.board .status'))"
        ".some(e => e.textContent === 'Confirmed')"
    )

    # Board 2: one Tab from the heading to "Enter board 2"; the arrows, Home and End pick
    # and keep focus; Shift+Tab goes back from Send to the picker.
    keys = Keys(page)
    keys("Tab")
    assert _focused(page)["text"] == "Enter board 2"
    _refreshed(page)  # a refresh of the board list leaves focus where it is
    assert _focused(page)["text"] == "Enter board 2"
    keys("Enter")
    page.wait_for_selector("#screen.entry")
    for key, want in (("End", 13), ("ArrowLeft", 12), ("Home", 0), ("ArrowRight", 1), ("8", 8)):
        keys(key)
        page.wait_for_function(
            "w => document.activeElement.getAttribute('data-focus') === w"
            " && document.activeElement.getAttribute('aria-checked') === 'true'",
            arg=f"pick|ns_tricks|{want}",
        )
    keys("Space")  # picks the focused one again: nothing moves
    assert _focused(page)["key"] == "pick|ns_tricks|8"
    page.wait_for_selector(".preview .scores")
    keys("Tab")
    assert _focused(page)["text"] == "Send to East-West"
    keys("Shift+Tab")
    assert _focused(page)["key"] == "pick|ns_tricks|8"  # one Tab stop for the whole picker
    keys("Tab", "Tab")
    assert _focused(page)["text"] == "Back"
    keys("Shift+Tab", "Enter")
    page.wait_for_selector("#screen.confirm")

    # A wrong number: said, shown readable on the dark screen, and tied to the field.
    ew = Keys(page)
    ew("Tab", "3")
    problem = page.locator("#pair-number-problem")
    assert problem.is_visible() and problem.get_attribute("role") == "alert"
    assert "East-West here are pair 1" in problem.inner_text()
    field = page.locator("#pair-number")
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == "pair-number-problem"
    contrast = problem.evaluate(
        """e => {
        const lum = c => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(v => {
          v = v / 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const fg = lum(getComputedStyle(e).color);
        const bg = lum(getComputedStyle(document.getElementById('screen')).backgroundColor);
        return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05); }"""
    )
    assert contrast >= 4.5, f"the wrong-number error has {contrast:.2f}:1"
    ew("Enter")  # refused: still here, still said
    assert page.locator("#screen.confirm").count() == 1
    ew("Backspace", "1")
    assert field.get_attribute("aria-invalid") is None and problem.is_hidden()
    ew("Tab")
    assert _focused(page)["text"] == "Confirm"
    ew("Enter")

    # The round is over here: the waiting screen takes focus; a refresh leaves it there.
    page.wait_for_selector("#screen.recap")
    assert _focused(page)["text"] == "Round 1 is over"
    _refreshed(page)
    assert _focused(page)["text"] == "Round 1 is over"
    assert "Waiting for table" in page.locator("#screen").inner_text()
    assert list(Result.objects.filter(table=1).values_list("status", flat=True)) == [
        "confirmed",
        "confirmed",
    ]
    page.context.close()


def test_bid_whist_and_candid_boards_by_keyboard(live_server: Any, browser: Any, club: Any) -> None:
    """Bid Whist's five pickers and Candid's, each one Tab stop, with "All passed" (a toggle
    button, Space) before them: the entry screen opens on the first picker, since a contract
    is the common case. A Bid Whist contract takes 16 keys, counted from the board list with
    nothing focused (4 to open the board, 1 for the declarer, 2 each for bid, kind and trumps,
    3 for 11 books, 2 to send); a
    passed-out Candid board 8 (Shift+Tab back to "All passed")."""
    bid = make_event(club, game="bidwhist")
    page = _open(browser, f"{live_server.url}/t/{_links(bid)[1]}/")
    keys = Keys(page)
    keys("Tab", "Tab", "Tab", "Enter")
    page.wait_for_selector("#screen.entry")
    assert _focused(page)["key"] == "pick|declarer|N"
    keys("Space")  # North
    keys("Tab", "4")  # bid 4
    keys("Tab", "Space")  # Uptown (the first)
    assert _focused(page)["key"] == "pick|kind|uptown"
    keys("Tab", "End")  # the last trumps
    trumps = _focused(page)["key"]
    keys("Tab", "1", "1")  # 11 books
    assert _focused(page)["key"] == "pick|books|11"
    page.wait_for_selector(".preview .scores")
    keys("Tab")
    assert _focused(page)["text"] == "Send to East-West"
    keys("Enter")
    page.wait_for_selector("#screen.confirm")
    assert keys.count == 16, f"a Bid Whist board took {keys.count} keys"
    keys("Tab", "1", "Enter")
    page.wait_for_selector("#screen.boards")
    stored = _confirmed(page, bid, 1)
    assert stored.entry["bid"] == 4 and stored.entry["books"] == 11
    assert stored.entry["kind"] == "uptown" and trumps.endswith(stored.entry["trumps"])
    page.context.close()

    candid = make_event(club, game="candid")
    page = _open(browser, f"{live_server.url}/t/{_links(candid)[1]}/")
    keys = Keys(page)
    keys("Tab", "Tab", "Tab", "Enter")
    page.wait_for_selector("#screen.entry")
    assert _focused(page)["key"] == "pick|declarer|N"  # the first picker, "All passed" before it
    assert page.locator("#screen fieldset[role=radiogroup]").count() == 4
    keys("Shift+Tab")
    assert _focused(page)["key"] == "flag|passed_out"
    assert (
        page.locator("button.pick[data-field=passed_out]").get_attribute("aria-pressed") == "false"
    )
    keys("Space")  # all passed: the other fields go, focus stays on the flag
    page.wait_for_selector(".preview .scores")
    assert _focused(page)["key"] == "flag|passed_out"
    assert (
        page.locator("button.pick[data-field=passed_out]").get_attribute("aria-pressed") == "true"
    )
    assert page.locator("#screen fieldset[role=radiogroup]").count() == 0
    keys("Tab", "Enter")
    page.wait_for_selector("#screen.confirm")
    assert keys.count == 8
    keys("Tab", "1", "Enter")
    page.wait_for_selector("#screen.boards")
    assert _confirmed(page, candid, 1).entry == {"passed_out": True}
    page.context.close()


def test_the_call_panel_is_a_modal_dialog_and_its_outcome_is_announced(
    live_server: Any, browser: Any, club: Any
) -> None:
    event = make_event(club)
    page = _open(browser, f"{live_server.url}/t/{_links(event)[1]}/")
    call = page.locator("#call")
    call.focus()
    page.keyboard.press("Enter")
    panel = page.locator("#call-panel[role=dialog][aria-modal=true]")
    panel.wait_for()
    assert page.evaluate("document.getElementById('call-panel').contains(document.activeElement)")
    assert page.evaluate("document.querySelector('main').inert")  # the page behind is inert
    # Tab stays inside: the reasons (one stop), the note, Send, Close, and round again.
    stops = []
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.getElementById('call-panel').contains(document.activeElement)"
        )
        stops.append(page.evaluate(FOCUS_KEY))
    assert stops[:4] == [
        "pick|reason|revoke",
        "#call-note",
        "BUTTON||Call the director",
        "BUTTON||Close",
    ]
    assert stops[4:] == stops[:2]
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUS_KEY) == "pick|reason|revoke"
    page.keyboard.press("ArrowRight")  # picks "Wrong board or cards" and keeps focus there
    assert _focused(page)["key"] == "pick|reason|board" and _focused(page)["checked"] == "true"
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")
    assert page.evaluate("document.activeElement.id") == "call"
    assert not page.evaluate("document.querySelector('main').inert")

    # Not sent (the server does not answer): said, and the panel stays open with why.
    page.route("**/call-director/", lambda route: route.fulfill(status=503, body="{}"))
    page.keyboard.press("Enter")
    panel.wait_for()
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # Revoke
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert _focused(page)["text"] == "Call the director"
    page.keyboard.press("Enter")
    _said(page, "Could not call: try again")
    assert page.locator("#call-problem").inner_text() == "Could not call: try again"
    page.unroute("**/call-director/")
    page.keyboard.press("Enter")  # again, answered this time
    _said(page, "Director called")
    panel.wait_for(state="detached")
    assert page.evaluate("document.activeElement.id") == "call"
    assert call.inner_text() == "Director called"
    page.context.close()


# ---- every screen: visible when tabbed to, large print -------------------------------------


def _walk(
    browser: Any,
    live_server: Any,
    club: Any,
    size: tuple[int, int],
    look: Callable[[Any, str], None],
    *,
    large: bool = False,
) -> list[str]:
    """Every screen of the tablet, each handed to `look(page, name)`; returns the names."""
    seen: list[str] = []

    def at(page: Any, name: str) -> None:
        look(page, name)
        seen.append(name)

    event = make_event(club)
    url = f"{live_server.url}/t/{_links(event)[1]}/"
    page = _open(browser, url, size, large=large)
    at(page, "board list")
    page.get_by_role("button", name="Enter board 1").click()
    at(page, "classic entry")
    page.locator('button.pick[data-field="ns_tricks"]', has_text=re.compile("^7$")).click()
    page.wait_for_selector(".preview .scores")
    at(page, "check preview")
    page.get_by_role("button", name="Send to East-West").click()
    page.wait_for_selector("#screen.confirm")
    page.locator("#pair-number").fill("4")
    at(page, "confirm (a wrong pair number)")
    page.get_by_role("button", name="We do not agree").click()
    page.wait_for_selector("#dispute-note")
    at(page, "dispute")
    page.get_by_role("button", name="Back to the boards").click()
    page.wait_for_selector("#screen.boards")
    page.locator("#call").click()
    page.wait_for_selector("#call-panel")
    at(page, "call panel")
    page.keyboard.press("Escape")
    page.wait_for_selector("#call-panel", state="detached")
    # offline: the banner over the board list, and over the entry screen
    page.wait_for_selector("body[data-offline-ready='1']")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.get_by_role("button", name="Enter board 2").click()
    page.locator('button.pick[data-field="ns_tricks"]', has_text=re.compile("^9$")).click()
    page.wait_for_selector(".preview p:has-text('Offline')")
    page.get_by_role("button", name="Send to East-West").click()
    page.wait_for_selector("#screen.confirm")
    page.get_by_role("button", name="Back to the boards").click()
    page.wait_for_selector("#banner:not([hidden])")
    at(page, "board list offline")
    page.get_by_role("button", name="East-West: check and confirm").first.click()
    at(page, "confirm offline")
    page.get_by_role("button", name="Back to the boards").click()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#banner[hidden]", state="attached")
    for _ in range(2):
        page.get_by_role("button", name="East-West: check and confirm").first.click()
        page.locator("#pair-number").fill("1")
        page.get_by_role("button", name="Confirm", exact=True).click()
        page.wait_for_selector("#screen.boards, #screen.recap")
    page.wait_for_selector("text=Waiting for table")
    at(page, "waiting for other tables")
    event_simulate(event=event, rounds=1, seed=3)
    _refreshed(page)
    page.wait_for_selector("text=Start round 2")
    at(page, "recap between rounds")
    page.get_by_role("button", name="Start round 2").click()
    page.wait_for_selector("#screen.boards")
    event_simulate(event=event, seed=3)
    _refreshed(page)
    page.wait_for_selector("text=All rounds played")
    at(page, "all rounds played")
    page.context.close()

    director = make_event(club, advance="director")
    page = _open(browser, f"{live_server.url}/t/{_links(director)[1]}/", size, large=large)
    event_simulate(event=director, rounds=1, seed=3)
    _refreshed(page)
    page.wait_for_selector("text=Waiting for the director")
    at(page, "waiting for the director")
    page.context.close()

    for game in ("bidwhist", "candid"):
        other = make_event(club, game=game)
        page = _open(browser, f"{live_server.url}/t/{_links(other)[1]}/", size, large=large)
        page.get_by_role("button", name="Enter board 1").click()
        page.wait_for_selector("#screen.entry")
        at(page, f"{game} entry")
        page.context.close()
    return seen


def _tab_through(page: Any, name: str) -> None:
    """Tab through every control of the screen (round to the first again, or inside the
    dialog), each fully visible; nothing scrolls sideways."""
    assert page.evaluate(WIDE) <= 0, f"{name}: the page scrolls sideways"
    page.evaluate("window.scrollTo(0, 0)")
    if not page.locator("#call-panel").count():
        page.evaluate("document.activeElement.blur()")
    reached: list[str] = []
    nothing = 0
    for _ in range(60):
        page.keyboard.press("Tab")
        key = page.evaluate(FOCUS_KEY)
        if key is None:  # past the last control (to the browser): the next Tab rounds
            nothing += 1
            if nothing > 2:
                break
            continue
        if key in reached:
            break
        reached.append(key)
        hidden = page.evaluate(SHOWN)
        assert not hidden, f"{name}: {key} is not fully visible: {hidden}"
    assert len(reached) >= 2, f"{name}: only {reached} reached, then {key}"
    assert page.evaluate(WIDE) <= 0, f"{name}: the page scrolls sideways"


@pytest.mark.parametrize(
    ("size", "large"),
    [(ZOOMED, False), (PHONE, False), (ZOOMED, True)],
    ids=["195x422", "390x844", "195x422-large-print"],
)
def test_every_control_of_every_screen_is_visible_when_tabbed_to(
    live_server: Any, browser: Any, club: Any, size: tuple[int, int], large: bool
) -> None:
    """At 200 % zoom (also with large print on: 48 px words on a phone) and at 390 px."""
    seen = _walk(browser, live_server, club, size, _tab_through, large=large)
    assert len(seen) == 14


def test_large_print_on_every_screen_and_kept_after_a_reload(
    live_server: Any, browser: Any, club: Any
) -> None:
    """Large print at 390x844 (the switch kept in localStorage, as a player left it): every
    visible text node's font at least 24 px, every button and field at least 56 px high and
    every picker's button 56 px wide, no sideways scroll, and no WCAG 2.2 A or AA violation
    (axe), on each screen."""

    def look(page: Any, name: str) -> None:
        assert page.evaluate("document.documentElement.classList.contains('large-print')")
        too_small = page.evaluate(LARGE)
        assert not too_small, f"{name}: {too_small}"
        assert page.evaluate(WIDE) <= 0, f"{name}: the page scrolls sideways"
        found = axe_findings(page, f"pairs tablet, large print: {name}")
        assert not found, report(found)

    seen = _walk(browser, live_server, club, PHONE, look, large=True)
    assert len(seen) == 14

    # The switch itself: off, on by keyboard (said), and still on after a reload.
    event = make_event(club)
    page = _open(browser, f"{live_server.url}/t/{_links(event)[1]}/")
    switch = page.locator("#large-print")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.focus()
    page.keyboard.press("Space")
    _said(page, "Large print on")
    assert switch.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#screen ul.boards, #screen.recap")
    assert page.evaluate("document.documentElement.classList.contains('large-print')")
    assert page.locator("#large-print").get_attribute("aria-pressed") == "true"
    assert "Large print" in page.locator("#screen").inner_text()  # the help says how
    page.context.close()
