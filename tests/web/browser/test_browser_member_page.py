"""A member's page in Chromium: a member reads their own results on a phone (390 px) and on a
laptop (1280 px), picks a season by keyboard alone, and the page passes axe at every size;
a director reaches the same page from the register. Screenshots go to var/ (member-page-*.png).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser.axe import at_every_size, report
from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Event, Pair
from tournaments.events.services.events import event_finish, event_publish
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Member
from tournaments.seasons.models import Season
from tournaments.seasons.services.ledger import club_rebuild

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("var")
DATES = (dt.date(2026, 9, 1), dt.date(2026, 9, 8), dt.date(2027, 1, 12))


def _evenings(club: Club) -> Member:
    """Three published pairs evenings, two in the autumn season and one after it, Ann and
    Zoë (initials) at NS 1 in each."""
    ann = Member.objects.create(club=club, name="Ann Archer")
    zoe = Member.objects.create(club=club, name="Zoë Brontë", public_name="initials")
    for seed, date in enumerate(DATES, start=3):
        event = make_event(club, date=date)
        Pair.objects.filter(section__event=event, number=1, direction="NS").update(
            player1="Ann Archer", member1=ann, player2="Zoë Brontë", member2=zoe
        )
        Event.objects.filter(pk=event.pk).update(name=f"Pairs {date:%d %b}")
        event_simulate(event=event, seed=seed, batch=True)
        event_finish(event=event)
        event_publish(event=event)
    Season.objects.create(
        club=club, name="Autumn 2026", starts=dt.date(2026, 8, 1), ends=dt.date(2026, 12, 31)
    )
    club_rebuild(club=club)
    return ann


def test_a_member_reads_their_page_and_picks_a_season_by_keyboard(
    live_server: Any, browser: Any
) -> None:
    club = club_get_or_create(name="Village Hall Whist")
    ann = _evenings(club)
    SHOTS.mkdir(exist_ok=True)
    url = f"{live_server.url}/clubs/{club.slug}/members/{ann.pk}/"
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(url)
        assert page.locator("h1").inner_text() == "Ann Archer"
        assert page.locator("#evenings tbody tr").count() == 3
        assert "Z. B." in page.locator("#evenings").inner_text()
        assert "Zoë" not in page.content()
        assert page.locator("#percentages tbody tr").count() == 3
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"member-page-{width}.png"), full_page=True)
        # The season by keyboard: focus the choice, pick the season, send the form.
        page.get_by_label("Season").focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url("**season=*")
        assert page.locator("#evenings tbody tr").count() == 2
        assert "Autumn 2026" in page.locator("p.muted").first.inner_text()
        findings = at_every_size(page, f"member page ({width})")
        assert not findings, report(findings)
        context.close()


def test_a_director_opens_a_members_page_from_the_register(live_server: Any, browser: Any) -> None:
    club = club_get_or_create(name="Village Hall Whist")
    ann = _evenings(club)
    director_account()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/")
    page.get_by_role("link", name="Ann Archer's results").click()
    page.wait_for_url(f"**/members/{ann.pk}/")
    # A director sees every name in full.
    assert "Zoë Brontë" in page.locator("#evenings").inner_text()
    findings = at_every_size(page, "member page (director)")
    assert not findings, report(findings)
    context.close()
