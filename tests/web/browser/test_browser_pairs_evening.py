"""The director records a pair leaving early from the event page on a phone, by keyboard, and
the page fits the screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_pair_leaving_is_recorded_by_keyboard_on_a_phone(
    live_server: Any, browser: Any, club: Any
) -> None:
    event = make_event(
        club, kind="howell", params={"tables": 4, "phantom": True}, advance="director"
    )
    director_account()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{event.pk}/")
    summary = page.get_by_text("A pair comes late or leaves early")
    summary.focus()
    page.keyboard.press("Enter")  # a <summary> opens by keyboard
    page.get_by_label("Pair leaving").select_option(label="Pair 3: (names to come)")
    rounds = page.get_by_label("Away from round")
    rounds.fill("2")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"the page is {wide} px wider than the phone"
    rounds.press("Enter")  # submits its form
    page.wait_for_selector("text=Pair 3 leaves: from round 2 its opponents sit out.")
    three = Pair.objects.get(section__event=event, number=3)
    assert three.presence == [{"round": 2, "present": False, "award": "A+/NP"}]
    assert page.get_by_text("away from round 2 (A+/NP)").is_visible()
    # The room's Start round form, with its choice for the tables not finished, fits too.
    page.goto(f"{live_server.url}/events/{event.pk}/room/")
    assert page.get_by_label("Tables not finished").is_visible()
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"the room is {wide} px wider than the phone"
    page.context.close()
