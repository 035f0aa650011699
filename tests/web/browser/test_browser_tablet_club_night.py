"""The tablet on a phone, as a club night found it wanting: the unusual-result note, a wrong
pair number, red suits, no empty clock box, calling the director with a reason (and taking it
back), and the recap with "where next" on a tablet that was reloaded fresh."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import make_event
from tournaments.events.models import Board, DirectorCall, Result
from tournaments.events.services.tablets import table_links_ensure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_selector("#screen ul.boards, #screen.recap")
    return page


def _enter(page: Any, board: int, tricks: int) -> None:
    page.get_by_role("button", name=f"Enter board {board}").click()
    page.locator('button.pick[data-field="ns_tricks"]', has_text=re.compile(f"^{tricks}$")).click()
    page.wait_for_selector(".preview .scores")
    assert page.locator(".preview .unlikely").count() == 0  # the preview compares nothing
    page.get_by_role("button", name="Send to East-West").click()
    page.wait_for_selector("#screen.confirm")


def test_a_club_night_on_a_phone(live_server: Any, browser: Any, club: Any) -> None:
    event = make_event(club)
    board = Board.objects.get(event=event, number=1)
    board.par = {"tricks": {"ns": 6, "ew": 7, "trumps": "H", "leader": "E"}}
    board.par_status = Board.ParStatus.DONE
    board.save()
    token = {a.table: a.token for a in table_links_ensure(event=event)}[1]
    url = f"{live_server.url}/t/{token}/"
    page = _phone(browser, url)

    # No clock runs: no box in the bar. Hearts and diamonds are red.
    assert page.locator("#clock").is_hidden()
    red = page.locator(".facts .suit.red").first
    assert red.inner_text() in "♥♦"
    # Asked of the page as it stands (the first refresh redraws the screen: a node found a
    # moment before may be gone, and a gone node has no colour).
    page.wait_for_function(
        "() => { const e = document.querySelector('.facts .suit.red');"
        " return e !== null && getComputedStyle(e).color === 'rgb(192, 24, 43)'; }"
    )

    # 12 tricks where double dummy gives 6: sent, then East-West are asked to check it.
    _enter(page, 1, 12)
    page.wait_for_selector("#screen .unlikely")
    assert "looks unusual" in page.locator("#screen").inner_text()
    assert "double dummy" not in page.locator("#screen").inner_text()
    # A wrong pair number says what is wrong and what to type.
    page.locator("#pair-number").fill("3")
    problem = page.locator("#pair-number-problem")
    assert problem.is_visible()
    assert "East-West here are pair 1" in problem.inner_text()
    page.locator("#pair-number").fill("1")
    assert problem.is_hidden()
    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_selector("#screen ul.boards")

    # Calling the director: a reason first, then the call can be taken back.
    page.get_by_role("button", name="Call the director").click()
    panel = page.locator("#call-panel")
    send = panel.get_by_role("button", name="Call the director")
    assert send.is_disabled()
    panel.get_by_role("radio", name="Revoke").click()  # the reasons are a radio group
    send.click()
    page.wait_for_function(
        "() => document.getElementById('call').textContent === 'Director called'"
    )
    call = DirectorCall.objects.get()
    assert call.reason == "revoke" and call.handled_at is None
    page.get_by_role("button", name="Director called").click()
    page.get_by_role("button", name="Cancel the call").click()
    page.wait_for_function(
        "() => document.getElementById('call').textContent === 'Call the director'"
    )
    call.refresh_from_db()
    assert call.cancelled

    # The round's other board, then a fresh tablet (nothing remembered) still gets the recap.
    _enter(page, 2, 7)
    page.locator("#pair-number").fill("1")
    page.get_by_role("button", name="Confirm", exact=True).click()
    page.wait_for_function("() => document.querySelector('#screen.recap') !== null", timeout=20_000)
    assert Result.objects.filter(table=1, status="confirmed").count() == 2
    fresh = _phone(browser, url)
    fresh.wait_for_selector("#screen.recap")
    text = fresh.locator("#screen").inner_text()
    assert "Round 1 is over" in text and "Where next" in text
    assert re.search(r"Boards 1-2: take them to table \d", text)
    page.context.close()
    fresh.context.close()
