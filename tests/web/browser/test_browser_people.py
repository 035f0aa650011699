"""A club's people in Chromium: the director invites a scorer from the People page, the scorer
opens the link, makes an account, logs out and in again, and types a board's traveller; the
director's People page then shows the scorer and the trail. axe checks every new page on the way
(at a phone's and a laptop's width, and a phone at 200 % zoom). Email is the console's here:
the link is read from the page, as a director without email set up would pass it on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.web.browser.axe import Finding, at_every_size, report
from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Result
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import PeopleAudit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STRONG = "whist-trumps-2026!"


def test_a_director_invites_a_scorer_who_enters_a_traveller(live_server: Any, browser: Any) -> None:
    club = club_get_or_create(name="Riverside Whist")
    event = make_event(club)
    director_account()
    base = live_server.url
    findings: list[Finding] = []

    director = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(director, base)
    director.get_by_role("link", name="people").click()
    director.wait_for_url(re.compile(r"/clubs/riverside-whist/people/$"))
    director.get_by_label("Their email address").fill("sam@example.org")
    director.get_by_role("radio", name="Scorer").check()
    director.get_by_role("button", name="Send the invitation").click()
    director.locator("#invitation-sent").wait_for()
    link = director.get_by_label("The invitation's link").input_value()
    assert link.startswith(base + "/invitations/")
    findings += at_every_size(director, "people, an invitation sent")

    scorer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    scorer.goto(link)
    assert "to be a scorer of Riverside Whist" in scorer.locator("#invitation-what").inner_text()
    assert scorer.get_by_label("Email").input_value() == "sam@example.org"
    findings += at_every_size(scorer, "invitation")
    scorer.set_viewport_size({"width": 1280, "height": 800})
    scorer.get_by_label("Username").fill("sam")
    scorer.locator("#id_password1").fill(STRONG)
    scorer.locator("#id_password2").fill(STRONG)
    scorer.get_by_role("button", name="Make my account and join").click()
    scorer.get_by_text("Welcome: you are now a scorer of Riverside Whist.").wait_for()

    # Logged out and in again, as on the next club night.
    scorer.get_by_role("button", name="Log out").click()
    scorer.wait_for_load_state("load")
    log_in(scorer, base, "sam", STRONG)
    to_enter = scorer.locator("#to-enter")
    to_enter.wait_for()
    findings += at_every_size(scorer, "home, a scorer's")
    scorer.set_viewport_size({"width": 1280, "height": 800})
    to_enter.get_by_role("link", name=event.name).click()
    scorer.get_by_label("Board number").fill("1")
    scorer.keyboard.press("Enter")
    scorer.wait_for_url(re.compile(r"/boards/1/$"))
    inputs = scorer.locator("table.traveller input")
    lines = inputs.count()
    assert lines == 3  # board 1 is played at each of the three tables
    for i in range(lines):
        inputs.nth(i).fill(str(6 + i))
    scorer.get_by_role("button", name="Save", exact=True).click()
    assert "result(s) saved" in scorer.locator(".messages").inner_text()
    assert Result.objects.filter(section__event=event, board_number=1).count() == lines
    sam = get_user_model().objects.get(username="sam")
    assert set(Result.objects.values_list("entered_by", flat=True)) <= {sam.pk, None}

    # What a scorer may not do is refused with words.
    refused = scorer.goto(base + f"/clubs/{club.slug}/people/")
    assert refused is not None and refused.status == 403
    assert "only its directors may do this" in scorer.locator("#refusal").inner_text()
    findings += at_every_size(scorer, "a scorer refused")

    director.goto(base + f"/clubs/{club.slug}/people/")
    people = director.locator("#people").inner_text()
    assert "sam" in people and "Scorer" in people
    assert "accepted an invitation as scorer" in director.locator("#people-trail").inner_text()
    assert list(PeopleAudit.objects.order_by("at", "id").values_list("action", flat=True)) == [
        "invite",
        "accept",
    ]
    director.context.close()
    scorer.context.close()
    assert not findings, report(findings)
