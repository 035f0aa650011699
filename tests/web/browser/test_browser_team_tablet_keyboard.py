"""The team tournament tablet (/tt/) for every player (issue #43): a game entered and confirmed
with the keyboard alone, pickers that are radio groups and keep focus on the picked choice, a
refresh or a pushed state that never moves focus, refusals said aloud and tied to the fields at
fault, every control in view when Tab reaches it at 200 % zoom on a phone and at 390 px, and
large print on every screen, kept after a reload."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.teams import Bracket
from tests.web.browser.axe import axe_findings, report
from tests.web.conftest import make_tournament
from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament, TournamentGame, TournamentTableAccess
from tournaments.teams.services import games as game_services
from tournaments.teams.services import playoff as playoff_services
from tournaments.teams.services import tablets as tablet_services
from tournaments.teams.services import teams as team_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 12_000
PHONE = {"width": 390, "height": 844}
ZOOMED = {"width": 195, "height": 422}  # a 390 x 844 phone at 200 % zoom

# What names the focused control from one drawing to the next (the tablet core's own key).
FOCUS_KEY = "() => window.clubwhistTablet.focusKey(document.activeElement)"
# Whether the focused control is wholly in the viewport and nothing (a sticky bar, the banner)
# covers it: what is at its corners and centre is the control, inside it, or (beyond a rounded
# corner) what holds it. A control taller than the room the page keeps clear of its bars (the
# scroll-padding: a long table's scrolling box at 200 % or in large print) must fill that room.
IN_VIEW = """() => {
  const node = document.activeElement;
  const r = node.getBoundingClientRect();
  const html = getComputedStyle(document.documentElement);
  const clearTop = parseFloat(html.scrollPaddingTop) || 0;
  const clearBottom = innerHeight - (parseFloat(html.scrollPaddingBottom) || 0);
  const tall = r.height > clearBottom - clearTop;
  const top = tall ? clearTop : r.top, bottom = tall ? clearBottom : r.bottom;
  const across = r.left >= 0 && r.right <= innerWidth + 0.5;
  const inside = across && (tall ? r.top <= clearTop + 0.5 && r.bottom >= clearBottom - 0.5
                                 : r.top >= 0 && r.bottom <= innerHeight + 0.5);
  const at = [[r.left + 3, top + 3], [r.right - 3, top + 3], [r.left + 3, bottom - 3],
              [r.right - 3, bottom - 3], [(r.left + r.right) / 2, (top + bottom) / 2]];
  const covered = at.filter(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !(hit && (node.contains(hit) || hit.contains(node)));
  }).map(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing';
  });
  return {key: window.clubwhistTablet.focusKey(node), inside, covered,
          rect: [r.left, r.top, r.right, r.bottom], viewport: [innerWidth, innerHeight]};
}"""
# The contrast of an element's text on the background it is drawn on (WCAG's ratio).
CONTRAST = """selector => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = c => {
    const [r, g, b] = rgb(c).slice(0, 3).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const node = document.querySelector(selector);
  let back = node;
  while (back && (getComputedStyle(back).backgroundColor === 'rgba(0, 0, 0, 0)')) {
    back = back.parentElement;
  }
  const a = lum(getComputedStyle(node).color), b = lum(getComputedStyle(back).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""
# The controls a Tab stops at, in the page's order (a radio group's one stop included).
TAB_STOPS = """() => Array.from(document.querySelectorAll(
  'button, input, textarea, select, a[href], [tabindex]')).filter(n => !n.disabled
  && n.tabIndex >= 0 && n.getClientRects().length && !n.closest('[inert]')).length"""


def _link(tournament: Tournament, table: int) -> str:
    token = TournamentTableAccess.objects.get(tournament=tournament, table=table).token
    return f"/tt/{token}/"


def _context(browser: Any, viewport: dict[str, int] = PHONE) -> Any:
    """A tablet's browser, its live stream held back: the tests say when a new state comes
    (`pollNow`, the poll the stream wakes), and no stream outlives its test."""
    context = browser.new_context(viewport=viewport)
    context.route("**/tt/*/stream/", lambda route: route.abort())
    return context


def _open(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    page = _context(browser, viewport).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.wait_for_selector("#screen h2")
    return page


def _key(page: Any) -> str | None:
    return page.evaluate(FOCUS_KEY)  # type: ignore[no-any-return]


def _said(page: Any, words: str) -> None:
    """`words` were said through the live region (core.announce)."""
    page.wait_for_function(
        "w => { const a = document.getElementById('announcer');"
        " return !!a && a.textContent.indexOf(w) >= 0; }",
        arg=words,
    )


def _resize(page: Any, viewport: dict[str, int]) -> None:
    """A new viewport, once the page has had its resize event (two frames)."""
    page.set_viewport_size(viewport)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


# ---- the screens, one after another -------------------------------------------------------
Check = Callable[[Any, str], None]


@contextmanager
def _screens(live_server: Any, browser: Any, club: Club) -> Iterator[Callable[[Check], None]]:
    """Every screen of the team tablet, brought about in a tournament of eight teams (two
    Swiss rounds, a game to 7 that a team set twice loses, the top four to a playoff):
    yields `tour(check)`, which calls `check(page, name)` on each screen in turn (the page at
    390 x 844, large print off; `check` may resize it and switch large print on)."""
    tournament = make_tournament(club, teams=8, playoff=4, game={"sets_lose": 2})
    context = _context(browser)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)

    def visit(table: int) -> None:
        page.goto(live_server.url + _link(tournament, table))
        page.wait_for_selector("#screen h2")

    def tour(check: Check) -> None:
        enter = tablet_services.tablet_enter
        # Round 1: table 1 not entered yet, table 2 entered, table 3 disputed, 4 confirmed.
        enter(
            tournament=tournament, table=2, side="home", score={"home_points": 7, "away_points": 3}
        )
        enter(
            tournament=tournament, table=3, side="home", score={"home_points": 7, "away_points": 5}
        )
        tablet_services.tablet_dispute(tournament=tournament, table=3, side="away", note="6")
        enter(
            tournament=tournament, table=4, side="away", score={"home_points": 2, "away_points": 7}
        )
        tablet_services.tablet_confirm(tournament=tournament, table=4, side="home")

        visit(1)
        check(page, "entry")
        page.locator('button.pick[data-field="side"][data-value="home"]').click()
        page.locator("#send").click()
        page.locator("#problem").wait_for()
        check(page, "refusal")
        context.set_offline(True)
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        page.locator("#banner.offline").wait_for()
        check(page, "offline")
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        visit(1)
        page.locator('button.pick[data-field="mode"][data-value="hands"]').click()
        for field, value in (("declarer", "N"), ("bid", "4"), ("kind", "uptown"),
                             ("trumps", "S"), ("books", "10")):  # fmt: skip
            page.locator(f'#pick-{field} button[data-value="{value}"]').click()
        page.locator("#add-hand").click()
        page.locator("#sheet").wait_for()
        page.locator('#pick-kind button[data-value="notrump"]').click()
        check(page, "hands")
        visit(2)
        check(page, "check")
        visit(3)
        check(page, "disputed")
        visit(4)
        check(page, "confirmed")

        # Every table done: the standings; then round 2, and where last round's teams play.
        game_services.game_enter(
            tournament=tournament, table=1, score={"home_points": 7, "away_points": 1}
        )
        tablet_services.tablet_confirm(tournament=tournament, table=2, side="away")
        game_services.game_enter(
            tournament=tournament, table=3, score={"home_points": 7, "away_points": 6}
        )
        visit(4)
        page.locator("#standings").wait_for()
        check(page, "standings")
        team_services.round_next(tournament=tournament)
        visit(1)
        page.locator("#moves").wait_for()
        check(page, "moves")

        # The playoff: a semi-final's table, and a table with no match.
        for table in (1, 2, 3, 4):
            game_services.game_enter(
                tournament=tournament, table=table, score={"home_points": 7, "away_points": 2}
            )
        playoff_services.playoff_start(tournament=tournament)
        visit(1)
        page.locator("#match").wait_for()
        check(page, "playoff")
        enter(
            tournament=tournament, table=1, side="home", score={"home_points": 7, "away_points": 4}
        )
        visit(1)
        check(page, "playoff-check")
        visit(4)
        assert page.locator("#screen h2").inner_text() == "No match at this table now"
        check(page, "idle")

        # Every match played (at the director's), then the end: the standings stay.
        while True:
            tournament.refresh_from_db()
            bracket = Bracket.from_dict(tournament.bracket)
            ready = bracket.next_matches()
            if not ready:
                break
            playoff_services.playoff_enter(
                tournament=tournament, match=ready[0].id, score={"home_points": 7, "away_points": 2}
            )
        game_services.tournament_finish(tournament=tournament)
        visit(4)
        page.get_by_text("The tournament is over").wait_for()
        check(page, "over")

    try:
        yield tour
    finally:
        context.close()


# ---- the keyboard -------------------------------------------------------------------------
def test_a_game_entered_and_confirmed_with_the_keyboard_alone(
    live_server: Any, browser: Any, club: Club
) -> None:
    """A game to 7 entered by its final score and confirmed by the other team with the keys
    alone, in 11 keys from a page just opened: Tab (the Large print switch), Tab (who is
    entering), Space (the home team), Tab (how: the final score, already picked), Tab, "7",
    Tab, "3", Enter (sends: Enter in a field sends, as in any form); the check screen's heading
    takes focus, Tab (this is right), Enter. The Bostons and sets fields keep their 0. Each
    screen change sends focus to the new screen's heading; each outcome is said."""
    tournament = make_tournament(club)
    page = _open(browser, live_server.url + _link(tournament, 1))
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    press("Tab")
    assert _key(page) == "#large-print"
    press("Tab")
    assert _key(page) == "pick|side|home"
    press("Space")
    assert _key(page) == "pick|side|home"
    home = page.locator('button.pick[data-field="side"][data-value="home"]')
    assert home.get_attribute("aria-checked") == "true"
    press("Tab")
    assert _key(page) == "pick|mode|score"
    press("Tab")
    assert _key(page) == "#home_points"
    press("7")
    press("Tab")
    assert _key(page) == "#away_points"
    press("3")
    press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'entered'")
    _said(page, "Sent: ")
    assert page.evaluate("() => document.activeElement.tagName") == "H2"
    press("Tab")
    assert _key(page) == "#confirm"
    press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'confirmed'")
    _said(page, "Confirmed: ")
    assert keys == 11
    game = TournamentGame.objects.get(tournament=tournament, round=1, table=1)
    assert game.status == "confirmed" and game.result["points"] == [7, 3]  # type: ignore[index]

    # The round over everywhere and the next one drawn: the new screen's heading (where to
    # play now) takes focus when the state arrives.
    tablet_services.tablet_enter(
        tournament=tournament, table=2, side="home", score={"home_points": 7, "away_points": 5}
    )
    tablet_services.tablet_confirm(tournament=tournament, table=2, side="away")
    team_services.round_next(tournament=tournament)
    page.evaluate("window.clubwhistTablet.pollNow()")
    page.wait_for_function("() => document.activeElement.textContent === 'Round 2: where to play'")
    page.context.close()


def test_pickers_are_radio_groups_that_keep_focus_on_the_pick(
    live_server: Any, browser: Any, club: Club
) -> None:
    """Every choice of the entry is a radio group (one Tab stop, aria-checked): the arrows move
    and pick, a number is typed, and after each pick focus stays on the picked choice, though
    the screen is drawn again (a no-trump hand swaps Trumps for Played). A hand added by
    keyboard sends focus to the next hand's first choice (a hand is then 12 keys); once the
    game is over, to Send; a hand taken back leaves focus where it was."""
    tournament = make_tournament(club, game={"kind": "best_of", "value": 3})
    page = _open(browser, live_server.url + _link(tournament, 1))
    groups = page.locator("fieldset[role=radiogroup]")
    assert [g.get_attribute("id") for g in groups.all()] == ["pick-side", "pick-mode"]

    def pick(key: str, expected: str) -> None:
        page.keyboard.press(key)
        assert _key(page) == expected
        field, value = expected.split("|")[1:]
        picked = page.locator(f'button.pick[data-field="{field}"][aria-checked="true"]')
        assert picked.get_attribute("data-value") == value
        assert picked.get_attribute("tabindex") == "0"

    page.locator('button.pick[data-field="side"][data-value="home"]').focus()
    pick("ArrowRight", "pick|side|away")
    pick("ArrowLeft", "pick|side|home")
    page.keyboard.press("Tab")
    pick("ArrowRight", "pick|mode|hands")
    page.keyboard.press("Tab")
    assert _key(page) == "pick|declarer|N"
    pick("End", "pick|declarer|W")
    pick("Home", "pick|declarer|N")
    page.keyboard.press("Tab")
    pick("5", "pick|bid|5")
    page.keyboard.press("Tab")
    pick("ArrowDown", "pick|kind|downtown")
    pick("ArrowDown", "pick|kind|notrump")
    assert page.locator("#pick-trumps").count() == 0
    assert page.locator("#pick-ranking").count() == 1
    pick("ArrowUp", "pick|kind|downtown")
    page.keyboard.press("Tab")
    pick("ArrowRight", "pick|trumps|D")
    page.keyboard.press("Tab")
    page.keyboard.press("1")
    pick("1", "pick|books|11")
    page.keyboard.press("Tab")
    assert _key(page) == "#add-hand"
    page.keyboard.press("Enter")
    # The next hand's first choice takes focus; the same hand again, in 12 keys.
    page.wait_for_function(
        "() => window.clubwhistTablet.focusKey(document.activeElement) === 'pick|declarer|N'"
    )
    _said(page, "Hand 1 added.")
    assert page.locator("#hand-number").inner_text() == "Hand 2"
    for key in ("Space", "Tab", "5", "Tab", "ArrowDown", "Tab", "ArrowRight", "Tab", "1", "1"):
        page.keyboard.press(key)
    assert _key(page) == "pick|books|11"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    # Two hands of three won by the same team: the game is over, and Send takes focus.
    page.wait_for_function("() => document.activeElement.id === 'send-hands'")
    _said(page, "The game is over")
    assert page.locator("#sheet tr").count() == 3
    page.locator("#undo-hand").focus()
    page.keyboard.press("Enter")
    _said(page, "Hand 2 taken back.")
    assert _key(page) == "#undo-hand"
    assert page.locator("#hand-number").inner_text() == "Hand 2"
    page.context.close()


def test_a_refresh_or_a_pushed_state_never_moves_focus(
    live_server: Any, browser: Any, club: Club
) -> None:
    """On the other team's check, the note "what is wrong" half typed: another table's game
    counts (the state changes: the tables done), the state arrives (the poll the stream
    wakes), and the note keeps focus and its words; on the entry screen, the picked team keeps
    focus too; then the entry is changed elsewhere and the check screen is drawn again with
    the new score: the note still has focus and its words."""
    tournament = make_tournament(club, teams=6)
    tablet_services.tablet_enter(
        tournament=tournament, table=1, side="home", score={"home_points": 7, "away_points": 3}
    )
    page = _open(browser, live_server.url + _link(tournament, 1))
    entry = _open(browser, live_server.url + _link(tournament, 3))
    page.locator("#dispute-note").focus()
    page.keyboard.type("we made 6")
    entry.locator('button.pick[data-field="side"][data-value="away"]').click()
    assert _key(entry) == "pick|side|away"

    tablet_services.tablet_enter(
        tournament=tournament, table=2, side="home", score={"home_points": 7, "away_points": 1}
    )
    tablet_services.tablet_confirm(tournament=tournament, table=2, side="away")
    for tablet in (page, entry):
        tablet.evaluate("window.clubwhistTablet.pollNow()")
        tablet.wait_for_function(
            "() => document.getElementById('done-label').textContent.indexOf('1 of 3') === 0"
        )
    page.wait_for_timeout(300)
    assert _key(page) == "#dispute-note"
    assert page.locator("#dispute-note").input_value() == "we made 6"
    assert _key(entry) == "pick|side|away"
    # A pushed state that redraws the screen (the entry changed elsewhere) keeps it too.
    tablet_services.tablet_enter(
        tournament=tournament,
        table=1,
        side="home",
        score={"home_points": 7, "away_points": 4},
        replace=True,
    )
    before = page.locator("#screen p.big").inner_text()
    page.evaluate("window.clubwhistTablet.pollNow()")
    page.wait_for_function(
        "was => document.querySelector('#screen p.big').textContent !== was", arg=before
    )
    assert " 4: " in page.locator("#screen p.big").inner_text()
    assert _key(page) == "#dispute-note"
    assert page.locator("#dispute-note").input_value() == "we made 6"
    for tablet in (page, entry):
        tablet.context.close()


def test_a_refusal_is_said_and_points_at_the_fields_at_fault(
    live_server: Any, browser: Any, club: Club
) -> None:
    """Send with no team named: said, the team picker described by it and focused; Send with
    one team's points missing: said, that field aria-invalid, described by the words and
    focused, in view below the bar (the page scrolled up to it); a Bostons figure that is not
    a whole number names that field; the server's refusal is said and shown by Send; on the
    other team's dark check screen a refusal is said and has 4.5:1 contrast or more."""
    tournament = make_tournament(club, game={"sets_lose": 2})
    # A small phone (375 x 667): Send is below the points, which are off the top when it is
    # reached.
    page = _open(browser, live_server.url + _link(tournament, 1), {"width": 375, "height": 667})
    page.locator("#send").click()
    _said(page, "Say who is entering: tap your team's name.")
    assert page.locator("#pick-side").get_attribute("aria-describedby") == "problem"
    assert _key(page) == "pick|side|home"

    page.keyboard.press("Space")
    assert page.locator("#problem").count() == 0
    page.locator("#away_points").fill("3")
    page.locator("#send").click()
    assert page.evaluate("() => window.scrollY") > 0
    _said(page, "Type both teams' points as whole numbers.")
    assert _key(page) == "#home_points"
    where = page.evaluate(IN_VIEW)
    assert where["inside"] and not where["covered"], where
    home, away = page.locator("#home_points"), page.locator("#away_points")
    assert home.get_attribute("aria-invalid") == "true"
    assert home.get_attribute("aria-describedby") == "problem"
    assert away.get_attribute("aria-invalid") is None
    assert page.locator("#problem").inner_text() == "Type both teams' points as whole numbers."
    assert away.input_value() == "3"

    home.fill("7")
    page.locator("#away_bostons").fill("1.5")
    page.locator("#away_bostons").press("Enter")
    _said(page, "Type a whole number for ")
    bostons = page.locator("#away_bostons")
    assert bostons.get_attribute("aria-invalid") == "true"
    assert bostons.get_attribute("aria-describedby") == "problem"
    assert home.get_attribute("aria-invalid") is None
    assert page.locator("#problem").inner_text().endswith(": Bostons.")
    assert not TournamentGame.objects.filter(tournament=tournament).exists()

    # The server's refusal (a score the rules cannot give) is said too, and shown by Send.
    bostons.fill("0")
    away.fill("9")
    page.locator("#send").click()
    _said(page, "reached 7")
    assert "reached 7" in page.locator("#problem").inner_text()
    assert page.locator("#problem + #send").count() == 1
    assert not TournamentGame.objects.filter(tournament=tournament).exists()
    page.context.close()

    # A refusal on the other team's dark check screen is said, and readable there (it was red
    # on navy, 2.34:1).
    tablet_services.tablet_enter(
        tournament=tournament, table=2, side="home", score={"home_points": 7, "away_points": 2}
    )
    check = _open(browser, live_server.url + _link(tournament, 2))
    check.route(
        "**/confirm/",
        lambda route: route.fulfill(
            status=409, content_type="application/json", body='{"detail": "Refused here."}'
        ),
    )
    check.locator("#confirm").click()
    _said(check, "Refused here.")
    assert check.evaluate(CONTRAST, "#problem") >= 4.5
    check.context.close()


# ---- every screen: in view at 200 % and 390 px, and in large print ------------------------
def _tab_through(page: Any, name: str) -> int:
    """Tab from the top (the bar's Large print switch, the page's first control) through
    every control of the screen; each must be wholly in view when it has focus."""
    page.evaluate(
        "() => { window.scrollTo(0, 0); document.getElementById('large-print').focus(); }"
    )
    stops: int = page.evaluate(TAB_STOPS)
    seen: list[str] = []
    for number in range(stops):
        if number:
            page.keyboard.press("Tab")
        where = page.evaluate(IN_VIEW)
        assert where["inside"] and not where["covered"], f"{name}: {where}"
        seen.append(where["key"])
    assert len(set(seen)) == stops, f"{name}: {seen}"
    _no_sideways_scroll(page)
    return stops


def test_every_control_of_every_screen_is_in_view_when_tabbed_to(
    live_server: Any, browser: Any, club: Club
) -> None:
    """At 195 x 422 (a 390 px phone at 200 % zoom) and at 390 x 844, Tab reaches every control
    of every screen (entry, a refusal, offline, hand by hand with its sheet, the other team's
    check, disputed, confirmed, the standings, where to play next, a playoff match and its
    check, no match, the end), each wholly in view and uncovered by the bar or the banner, and
    nothing scrolls sideways."""
    visited: list[str] = []

    def check(page: Any, name: str) -> None:
        for viewport in (ZOOMED, PHONE):
            _resize(page, viewport)
            assert _tab_through(page, name) >= 1
        visited.append(name)

    with _screens(live_server, browser, club) as tour:
        tour(check)
    assert len(visited) == 13


LARGE_PRINT = """() => {
  const small = [], low = [], narrow = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || !node.getClientRects().length) continue;
    if (node.closest('.sr-only, script, noscript, [hidden]')) continue;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < 24) small.push(t.textContent.trim().slice(0, 30) + ' ' + size);
  }
  document.querySelectorAll('button, input, textarea, select').forEach(n => {
    const r = n.getBoundingClientRect();
    if (!r.width) return;
    const name = n.id || n.textContent.trim().slice(0, 20);
    if (r.height < 56) low.push(name + ' ' + r.height);
    if (n.matches('button.pick') && r.width < 56) narrow.push(name + ' ' + r.width);
  });
  return {small, low, narrow, on: document.documentElement.classList.contains('large-print')};
}"""


def test_large_print_on_every_screen(live_server: Any, browser: Any, club: Club) -> None:
    """With large print on (switched on at the first screen, and said) at 390 x 844, on every
    screen: every visible text at least 24 px (its computed font size), every button, field
    and note at least 56 px high, every choice (button.pick) at least 56 px wide, every
    control wholly in view when Tab reaches it, nothing scrolls sideways, and the screen's
    foot says where the switch is; and axe finds no WCAG 2.2 A or AA violation."""
    visited: list[str] = []

    def check(page: Any, name: str) -> None:
        if not visited:
            page.locator("#large-print").click()
            _said(page, "Large print on")
        found = page.evaluate(LARGE_PRINT)
        assert found == {"small": [], "low": [], "narrow": [], "on": True}, name
        assert "Large print" in page.locator("#large-help").inner_text(), name  # says where
        violations = axe_findings(page, f"team tablet, large print: {name}")
        assert not violations, report(violations)
        _tab_through(page, name + " in large print")
        visited.append(name)

    with _screens(live_server, browser, club) as tour:
        tour(check)
    assert len(visited) == 13


def test_large_print_is_kept_after_a_reload(live_server: Any, browser: Any, club: Club) -> None:
    """The switch is kept on the device: after a reload it is still on, says so
    (aria-pressed), and the text is 24 px or more."""
    tournament = make_tournament(club)
    page = _open(browser, live_server.url + _link(tournament, 1))
    switch = page.locator("#large-print")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    page.reload()
    page.wait_for_selector("#screen h2")
    assert page.evaluate("() => document.documentElement.classList.contains('large-print')")
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)") >= 24
    page.context.close()
