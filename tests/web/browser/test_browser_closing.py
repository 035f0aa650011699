"""Closing with results missing, in a real browser: the list of what is missing, and a
deliberate choice before anything is final."""

from __future__ import annotations

import pytest

from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Event, Result
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.clubs import club_get_or_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_closing_with_missing_results_shows_them_and_needs_a_choice(live_server, page) -> None:
    event = make_event(club_get_or_create(name="Closing club"))
    director_account()
    event_simulate(event=event, rounds=2, seed=3, batch=True)  # round 3 not played
    log_in(page, live_server.url)
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


def test_two_tabs_entering_one_board_see_both_entries_and_choose(live_server, browser) -> None:
    """Tab A saves 7 tricks, tab B (opened before) saves 9 for the same line: B is shown both
    entries, never told "saved" over a silent drop, and can keep either; using B's is an
    audited correction."""
    from tournaments.events.models import AuditEntry

    event = make_event(club_get_or_create(name="Two tabs club"))
    director_account()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    first = context.new_page()
    log_in(first, live_server.url)
    url = f"{live_server.url}/events/{event.pk}/boards/1/"
    first.goto(url)
    second = context.new_page()
    second.goto(url)

    first.bring_to_front()
    first.locator("table.traveller input").nth(0).fill("7")
    first.get_by_role("button", name="Save", exact=True).click()
    assert "1 result(s) saved" in first.locator(".messages").inner_text()

    second.bring_to_front()
    second.locator("table.traveller input").nth(0).fill("9")
    second.get_by_role("button", name="Save", exact=True).click()
    conflict = second.locator("tr.conflict")
    conflict.wait_for()
    text = conflict.inner_text()
    assert "saved first" in text and "NS 7" in text and "NS 9" in text
    stored = Result.objects.get(section__event=event, board_number=1, table=1)
    assert stored.ns_score == 7  # nothing changed yet
    second.get_by_role("button", name="Use yours").click()
    assert "corrected" in second.locator(".messages").inner_text()
    stored.refresh_from_db()
    assert stored.ns_score == 9 and stored.status == Result.Status.CORRECTED
    audit = AuditEntry.objects.filter(event=event, reason__startswith="Two entries").get()
    assert audit.target.startswith("board 1,") and audit.before["ns_score"] == 7
    assert audit.after["ns_score"] == 9
    context.close()


def test_the_room_updates_itself_without_a_reload(live_server, page) -> None:
    from tournaments.events.services.results import result_submit

    event = make_event(club_get_or_create(name="Room club"))
    director_account()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{event.pk}/room/")
    assert "✔ confirmed" in page.locator(".legend").inner_text()  # the legend is on the page
    assert page.locator("#table-1 .counts").inner_text().startswith("✔ 0")
    page.evaluate("() => { window.notReloaded = true; }")
    result_submit(
        section=event.section,
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 8},
        confirm=True,
    )
    page.wait_for_function(
        "() => document.querySelector('#table-1 .counts').textContent.startsWith('✔ 1')",
        timeout=20_000,
    )
    assert page.evaluate("() => window.notReloaded === true")
    assert (
        page.locator("#table-1 a", has_text="1").first.get_attribute("href").endswith("/boards/1/")
    )
    # The round clock: started from the room, counting down in the page.
    page.get_by_label("Minutes").fill("12")
    page.get_by_role("button", name="Start the round clock").click()
    assert "round clock is running" in page.locator(".messages").inner_text()
    page.wait_for_function(
        "() => /^1[12]:[0-5][0-9] left$/.test(document.getElementById('clock-left').textContent)"
    )


def test_the_directors_standings_update_themselves(live_server, page) -> None:
    from tournaments.events.services.results import result_submit
    from tournaments.events.services.scoring import standings_refresh

    event = make_event(club_get_or_create(name="Standings club"))
    director_account()
    event_simulate(event=event, rounds=1, seed=3, batch=True)
    standings_refresh(event_id=event.pk)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{event.pk}/standings/")
    before = page.locator("#live").inner_text()
    page.evaluate("() => { window.notReloaded = true; }")
    result_submit(
        section=event.section,
        round=2,
        table=1,
        board_number=3,
        entry={"ns_tricks": 13},
        confirm=True,
    )
    standings_refresh(event_id=event.pk)  # what the worker does after the result
    page.wait_for_function(
        "before => document.querySelector('#live').innerText !== before",
        arg=before,
        timeout=15_000,
    )
    assert page.evaluate("() => window.notReloaded === true")
