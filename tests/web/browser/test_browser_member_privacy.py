"""A member's privacy in Chromium, as a director uses it: another record merged into a member
(chosen from the list, what will move shown, confirmed), then a third member forgotten (what
will happen shown, confirmed); axe-core on each page at 390 and 1280 px, and the keyboard
reaching each control."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser.axe import axe_findings, report
from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Pair
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _checked(page: Any, where: str, findings: list[Any]) -> None:
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        findings += axe_findings(page, where)


def test_a_director_merges_a_record_then_forgets_a_member(live_server: Any, browser: Any) -> None:
    club = club_get_or_create(name="Village Hall Whist")
    director = director_account()
    club.directors.add(director)
    keep = Member.objects.create(club=club, name="Siân O'Neil")
    twin = Member.objects.create(club=club, name="Sian ONeil", number="77")
    leaving = Member.objects.create(club=club, name="Joan Hartley", email="joan@example.org")
    event = make_event(club, user=director)
    pair = Pair.objects.get(section__event=event, number=1, direction="NS")
    Pair.objects.filter(pk=pair.pk).update(
        player1="Sian ONeil", member1=twin, player2="Joan Hartley", member2=leaving
    )
    findings: list[Any] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/{keep.pk}/edit/")

    # The merge: the other record chosen by keyboard, what will move shown, then confirmed.
    _checked(page, "member page", findings)
    page.get_by_label("The other record").focus()
    page.get_by_label("The other record").select_option(label="Sian ONeil (no. 77)")
    page.get_by_role("button", name="See what the merge will do").press("Enter")
    preview = page.locator("#merge-preview")
    preview.wait_for()
    assert "1 pairs event" in preview.inner_text()
    assert "cannot be undone" in preview.inner_text()
    assert Member.objects.filter(pk=twin.pk).exists()
    _checked(page, "merge preview", findings)
    page.get_by_role("button", name="Merge Sian ONeil into Siân O'Neil").click()
    page.get_by_text("Sian ONeil's record was merged into Siân O'Neil's.").wait_for()
    assert not Member.objects.filter(pk=twin.pk).exists()
    assert Pair.objects.get(pk=pair.pk).member1_id == keep.pk
    assert Member.objects.get(pk=keep.pk).number == "77"

    # Forgetting: another member's page, what will happen shown, then confirmed.
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/{leaving.pk}/edit/")
    page.get_by_role("link", name="Forget this member").click()
    page.locator("#erase-preview").wait_for()
    assert "cannot be undone" in page.locator("#erase-preview").inner_text()
    _checked(page, "erase page", findings)
    page.get_by_role("button", name="Forget Joan Hartley for good").focus()
    page.keyboard.press("Enter")
    page.get_by_text("The member is forgotten").wait_for()
    gone = Member.objects.get(pk=leaving.pk)
    assert (gone.name, gone.email, gone.erased_at is not None) == ("Former member 1", "", True)
    assert Pair.objects.get(pk=pair.pk).player2 == "Former member"
    assert "Joan Hartley" not in page.content()
    _checked(page, "forgotten member's page", findings)
    context.close()
    assert not findings, report(findings)
