"""A director's evening in a real browser: set up, enter a traveller, close, publish."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in
from tournaments.events.models import Event, Result
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_creates_runs_and_publishes_an_event(live_server, page, browser) -> None:
    get_user_model().objects.create_user("td", password="secret-td-pw", is_staff=True)
    Club.objects.create(name="Friday Club", slug="friday").directors.add(
        get_user_model().objects.get(username="td")
    )
    log_in(page, live_server.url)
    page.get_by_role("link", name="New event").first.click()

    page.get_by_label("Name").fill("Friday drive")
    page.get_by_label("Game").select_option("classic")
    # This evening scores every trick (classic's default is odd tricks, seed 003).
    page.locator("select[name=opt-classic-scoring]").select_option("tricks")
    page.get_by_label("Pairs present").fill("6")
    page.get_by_label("Boards to play (about)").fill("6")
    page.get_by_role("button", name="Show movements").click()
    first_choice = page.locator("input[name=choice]").first
    assert first_choice.is_checked()
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url(re.compile(r"/events/\d+/$"))
    assert "Event created" in page.locator(".messages").inner_text()

    page.get_by_label("NS 1 first player").fill("Ann Archer")
    page.get_by_label("NS 1 second player").fill("Bill Bennett")
    page.get_by_role("button", name="Save names").click()
    assert "Pair names saved" in page.locator(".messages").inner_text()
    # Starting asks first, and names the pairs still without names.
    assert "pairs have no names yet" in page.locator("#unnamed-pairs").inner_text()
    page.get_by_role("button", name="Start the event").click()
    assert (
        page.locator(".messages").count() == 0
        or "started" not in page.locator(".messages").inner_text()
    )  # the browser asks for the tick first: nothing was sent
    page.locator("input[name=confirm]").check()  # "Start now, with 5 pairs unnamed"
    page.get_by_role("button", name="Start the event").click()
    assert "result entry is open" in page.locator(".messages").inner_text()

    event = Event.objects.get(name="Friday drive")
    section = event.sections.get()
    # Enter board 1's traveller from the keyboard, watching the live check.
    page.get_by_role("link", name="Enter results").first.click()
    page.get_by_label("Board number").fill("1")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/boards/1/$"))
    inputs = page.locator("table.traveller input")
    inputs.nth(0).fill("14")
    expect_error = page.locator("table.traveller td.preview").first
    expect_error.wait_for()
    page.wait_for_function(
        "() => document.querySelector('table.traveller td.preview').textContent === '✗'"
    )
    inputs.nth(0).fill("8")
    page.wait_for_function(
        "() => document.querySelector('table.traveller td.preview').textContent === '+8'"
    )
    lines = inputs.count()
    assert lines == 3  # board 1 is played at each of the three tables
    for i in range(1, lines):
        inputs.nth(i).fill(str(5 + i))
    page.get_by_role("button", name="Save", exact=True).click()
    assert "result(s) saved" in page.locator(".messages").inner_text()
    assert Result.objects.filter(section=section, board_number=1).count() == lines

    # The rest of the evening is played by the simulator (the tablets' service).
    event_simulate(event=event, seed=4)
    page.goto(live_server.url + event.get_absolute_url())
    page.get_by_role("button", name="Close the event").click()
    page.wait_for_url(re.compile(r"/close/$"))  # closing asks first, even with all results in
    assert "Every result is in" in page.locator("#closing").inner_text()
    page.get_by_label("Close the event: the scores become final").check()
    page.get_by_role("button", name="Close the event").click()
    assert "scores are final" in page.locator(".messages").inner_text()
    page.get_by_label("I have checked the standings").check()
    page.get_by_role("button", name="Publish results").click()
    assert "published" in page.locator(".messages").inner_text()

    # A member at home, not logged in, reads the results.
    member = browser.new_context().new_page()
    member.goto(live_server.url + "/")
    member.get_by_role("link", name="Friday drive").click()
    assert member.locator("table.standings").count() >= 1
    assert "Ann Archer & Bill Bennett" in member.locator("table.standings").first.inner_text()
    member.screenshot(path="var/screenshot-standings.png", full_page=True)
    member.context.close()
