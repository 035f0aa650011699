"""Screens a club night looks at, measured in a real browser: the public results fit a phone,
the room display fits a 1280x720 projector, Send is in reach on the Bid Whist entry screen,
and the pair about to sit out is told so, and where it goes after, on the tablet it leaves
(the sit-out table itself is not set up)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import make_event
from tournaments.events.bridge import movement_for
from tournaments.events.models import Event
from tournaments.events.services import events as ev
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import table_links_ensure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _nine_pair_howell(club: Any, **extra: Any) -> Event:
    return make_event(
        club,
        kind="howell",
        params={"tables": 5, "phantom": True, "boards_per_round": 1, "rounds": 3},
        **extra,
    )


def test_published_results_fit_a_phone_and_the_room_display_a_projector(
    live_server: Any, browser: Any, club: Any
) -> None:
    event = _nine_pair_howell(club)
    event_simulate(event=event, seed=5)
    event = ev.event_publish(event=ev.event_finish(event=event))
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for path in (f"/results/{event.pk}/", f"/results/{event.pk}/pairs/1/"):
        phone.goto(live_server.url + path)
        for table in phone.locator("table.list").all():
            overflow = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
            assert overflow <= 1, f"{path}: a column is off the screen by {overflow} px"
    phone.context.close()
    room = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    room.goto(f"{live_server.url}/results/{event.pk}/display/")
    slide = room.locator(".slide").first
    rows = slide.locator(".row:not(.head)")
    assert rows.count() == 9
    for k in range(rows.count()):
        box = rows.nth(k).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, f"row {k + 1} is off screen"
    room.context.close()


def test_send_is_in_reach_on_the_bid_whist_entry_screen(
    live_server: Any, browser: Any, club: Any
) -> None:
    event = make_event(club, game="bidwhist")
    token = {a.table: a.token for a in table_links_ensure(event=event)}[1]
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.goto(f"{live_server.url}/t/{token}/")
    page.get_by_role("button", name="Enter board 1").click()
    page.evaluate("window.scrollTo(0, 0)")
    box = page.get_by_role("button", name="Send to East-West").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    page.context.close()


def test_the_sitting_out_pair_is_told_where_it_goes_next(
    live_server: Any, browser: Any, club: Any
) -> None:
    """The sit-out table of the nine-pair Howell is not set up (no tablet): the pair due
    there next round reads on the tablet it leaves that it sits out, and where it goes after."""
    event = _nine_pair_howell(club)
    links = {a.table: a.token for a in table_links_ensure(event=event)}
    movement = movement_for(event.sections.get())
    idle = sorted(movement.idle_tables)
    assert idle and not set(idle) & set(links), "the sit-out table has no tablet link"
    leaving = next(
        m.table
        for m in movement.meetings
        if m.round == 1
        and not m.sit_out
        and any(
            place and place[0] in idle
            for place in (movement.next_places(1, m.table).ns, movement.next_places(1, m.table).ew)
        )
    )
    event_simulate(event=event, rounds=1, seed=5)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_server.url}/t/{links[leaving]}/")
    page.wait_for_selector("#screen .moves")
    text = page.locator("#screen").inner_text()
    assert "you sit out next round (no table to go to)" in text
    assert "the round after, go to table" in text
    assert f"go to table {idle[0]}," not in text
    page.context.close()
