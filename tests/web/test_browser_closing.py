"""Closing with results missing, in a real browser: the list of what is missing, and a
deliberate choice before anything is final."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Event, Result
from tournaments.services.events import club_get_or_create
from tournaments.services.simulation import event_simulate

from .conftest import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_closing_with_missing_results_shows_them_and_needs_a_choice(live_server, page) -> None:
    get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    event = make_event(club_get_or_create(name="Closing club"))
    event_simulate(event=event, rounds=2, seed=3, batch=True)  # round 3 not played
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("secret-td-pw")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.get_by_role("button", name="Close the event").click()
    page.wait_for_url(f"**/events/{event.pk}/close/")
    assert "6 boards with no result" in page.locator("#closing").inner_text()
    assert page.locator("table.missing tbody tr").count() == 6
    # Without a choice the form does not go (the browser asks for one): still running.
    page.get_by_role("button", name="Close the event").click()
    assert page.url.endswith(f"/events/{event.pk}/close/")
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    page.get_by_label("Not played (left out of both pairs' percentages)").check()
    page.get_by_role("button", name="Close the event").click()
    assert "scores are final" in page.locator(".messages").inner_text()
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert Result.objects.filter(section__event=event, artificial_code="NP").count() == 6
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.pk}/")
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390
