"""The Content-Security-Policy in a real browser: the main pages of a club night load with no
violation, and what their scripts do still happens (the scripts are files now, fed by data-
attributes, so the strict policy blocks nothing of ours).

Violations are caught twice: Chromium's console message ("Refused to ... because it violates
the following Content Security Policy directive") and the page's `securitypolicyviolation`
event, recorded by a script Playwright adds before the page's own (which no policy blocks).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import director_account, make_event
from tournaments.events.models import Event
from tournaments.events.services import print_catalogue
from tournaments.events.services.events import event_set_live_public
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import table_links_ensure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


class Watched:
    """A page whose policy violations, of either kind, are collected."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base
        self.console: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    def open(self, path: str) -> Any:
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        assert response.headers.get("content-security-policy"), f"{path}: no policy"
        self.page.wait_for_load_state("networkidle")
        return self.page

    def violations(self) -> list[str]:
        events = self.page.evaluate("() => window.__csp || []")
        found = self.console + list(events)
        self.console.clear()
        self.page.evaluate("() => { window.__csp = []; }")
        return found


def _evening(club: Any) -> tuple[Event, str]:
    """A running event followed live, round 1 played (standings and boards to show), with its
    tablet links."""
    event = make_event(club)
    token = {a.table: a.token for a in table_links_ensure(event=event)}[1]
    event_simulate(event=event, rounds=1, seed=3)
    standings_refresh(event_id=event.pk)  # scored now: no worker runs in this test
    event_set_live_public(event=event, live=True)
    return event, token


def _log_in(watched: Watched) -> None:
    director_account()
    page = watched.open("/accounts/login/")
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("secret-td-pw")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/$"))


def test_the_browser_reports_what_the_policy_blocks(live_server: Any, page: Any) -> None:
    """The watch can fail: a script put into a page inline is refused and reported both ways."""
    watched = Watched(page, live_server.url)
    watched.open("/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ranInline = true'; document.body.appendChild(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0")
    assert page.evaluate("() => window.ranInline") is None
    found = watched.violations()
    assert any(v.startswith("script-src") for v in found), found
    assert any("Content Security Policy" in v for v in found), found


def test_a_club_nights_pages_run_under_the_policy(
    live_server: Any, page: Any, club: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.CELERY_EAGER = True  # a print job is drawn in a thread of the live server
    # This event's travellers count as big: drawn by a job, watched by the print page's script.
    monkeypatch.setitem(print_catalogue.DRAWN_IN_JOB_OVER, "travellers", ("lines", 0))
    event, token = _evening(club)
    watched = Watched(page, live_server.url)
    _log_in(watched)
    problems: dict[str, list[str]] = {}

    def check(path: str) -> None:
        found = watched.violations()
        if found:
            problems[path] = found

    # The event page.
    watched.open(f"/events/{event.pk}/")
    assert page.locator("#tablets svg").count() == 3  # the tablets' QR codes, inline SVG
    check("event page")

    # The room: the round clock counts down in the page.
    watched.open(f"/events/{event.pk}/room/")
    page.get_by_label("Minutes").fill("12")
    page.get_by_role("button", name="Start the round clock").click()
    page.wait_for_function(
        "() => /^1[12]:[0-5][0-9] left$/.test(document.getElementById('clock-left').textContent)"
    )
    check("room")

    # A traveller: the first empty line has the focus, and a line is scored as it is typed.
    watched.open(f"/events/{event.pk}/boards/1/")
    assert page.evaluate("() => document.activeElement.closest('tr[data-line]') !== null")
    page.locator("tr[data-line] input[name$='-ns_tricks']").first.fill("8")
    page.wait_for_function(
        "() => [...document.querySelectorAll('td.preview')].some(c => c.textContent.trim())"
    )
    check("traveller")

    # The print page: a big document drawn by a job, the link when it is done.
    watched.open(f"/events/{event.pk}/print/")
    page.get_by_role("button", name="Draw the traveller sheets").click()
    page.get_by_role("link", name="Open the traveller sheets (PDF)").wait_for(timeout=60_000)
    check("print page")

    # A new event: only the chosen game's options show.
    watched.open("/events/new/")
    page.get_by_label("Game").select_option("bidwhist")
    assert page.locator("fieldset[data-game=bidwhist]").is_visible()
    assert not page.locator("fieldset[data-game=classic]").is_visible()
    check("new event")

    # The public pages of the live event, and the room display's slides.
    watched.open(f"/results/{event.pk}/")
    assert page.locator("#live table").count() >= 1
    check("public results")
    watched.open(f"/results/{event.pk}/boards/1/")
    check("public board")
    watched.open(f"/results/{event.pk}/display/")
    slides = page.locator(".slide")
    assert slides.count() >= 2
    assert sum(1 for k in range(slides.count()) if slides.nth(k).is_visible()) == 1
    check("room display")

    # The tablet page: its script read its settings from the page, drew round 1's recap and
    # moves on to round 2's boards.
    watched.open(f"/t/{token}/")
    page.get_by_role("button", name="Start round 2").click()
    page.get_by_role("button", name=re.compile(r"^Enter board \d+$")).first.wait_for()
    check("tablet")

    assert not problems, problems
