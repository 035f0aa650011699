"""The tablets in a real browser: whole events played through the table pages only, the
confirmation step, a connection that drops, a second device, a replaced link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import make_event
from tournaments.events.models import Event, Result, Standings, TableAccess
from tournaments.events.selectors import table_state
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.tablets import (
    table_link_replace,
    table_links_ensure,
    tablet_submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Entry = dict[str, Any]


def _tables(event: Event) -> dict[int, str]:
    return {a.table: a.token for a in table_links_ensure(event=event)}


def _open(browser: Any, live_server: Any, token: str, width: int = 800, route: Any = None) -> Any:
    """A table's page, its board list drawn; `route`, if given, sees every request it makes."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(15_000)
    if route is not None:
        page.route("**/*", route)
    page.goto(f"{live_server.url}/t/{token}/")
    page.wait_for_selector("#screen ul.boards, #screen.recap")
    return page


def _pick(page: Any, key: str, label: str) -> None:
    page.locator(
        f'button.pick[data-field="{key}"]', has_text=re.compile(f"^{re.escape(label)}$")
    ).click()


def _enter(page: Any, board: int, picks: list[tuple[str, str]], *, online: bool = True) -> None:
    """NS enter a board with the pickers and send it; the page turns to East-West."""
    page.bring_to_front()  # a page behind others gets no animation frames to settle in
    page.get_by_role("button", name=f"Enter board {board}").click()
    for key, label in picks:
        _pick(page, key, label)
    if online:
        page.wait_for_selector(".preview .scores")
    page.get_by_role("button", name="Send to East-West").click()
    page.wait_for_selector("#screen.confirm")


def _confirm(page: Any, pair: int) -> None:
    """East-West type their pair number: the only way to confirm."""
    page.bring_to_front()
    button = page.get_by_role("button", name="Confirm", exact=True)
    assert button.is_disabled()
    page.locator("#pair-number").fill(str(pair + 1))  # the wrong number does not do
    assert button.is_disabled()
    page.locator("#pair-number").fill(str(pair))
    button.click()
    page.wait_for_selector("#screen ul.boards, #screen.recap")


def _play_event(
    browser: Any,
    live_server: Any,
    event: Event,
    picks_for: Callable[[int, int], list[tuple[str, str]]],
) -> int:
    """Every table plays every round through its page; returns the results entered."""
    links = _tables(event)
    pages = {table: _open(browser, live_server, token) for table, token in links.items()}
    entered = 0
    section = event.section
    for rnd in range(1, section.rounds + 1):
        for table, page in pages.items():
            state = table_state(TableAccess.objects.get(token=links[table]))
            assert state["current"]["round"] == rnd
            ew = state["current"]["ew"]["number"]
            for board in state["current"]["boards"]:
                _enter(page, board["number"], picks_for(table, board["number"]))
                _confirm(page, ew)
                entered += 1
        for page in pages.values():
            page.bring_to_front()
            if rnd < section.rounds:
                page.get_by_role("button", name=f"Start round {rnd + 1}").click(timeout=25_000)
            else:
                page.wait_for_selector("text=All rounds played", timeout=25_000)
    for page in pages.values():
        page.context.close()
    return entered


def _standings_equal_a_rescore(event: Event) -> None:
    standings_refresh(event_id=event.pk)  # the worker's job after the last confirmation
    stored = Standings.objects.filter(event=event).order_by("-version").first()
    assert stored is not None
    fresh = standings_compute(event=Event.objects.get(pk=event.pk))
    assert stored.version == fresh["version"]
    stored.data.pop("computed_at")
    fresh.pop("computed_at")
    assert stored.data == fresh


def test_a_whole_classic_event_through_the_table_pages(live_server, browser, club) -> None:
    event = make_event(club)

    def picks(table: int, board: int) -> list[tuple[str, str]]:
        return [("ns_tricks", str(4 + (board * 3 + table) % 6))]

    entered = _play_event(browser, live_server, event, picks)
    results = Result.objects.filter(section__event=event)
    assert entered == results.count() == 18
    assert set(results.values_list("status", flat=True)) == {"confirmed"}
    for r in results:
        assert r.entry == {"ns_tricks": 4 + (r.board_number * 3 + r.table) % 6}
    _standings_equal_a_rescore(event)


def test_a_whole_bid_whist_event_through_the_table_pages(live_server, browser, club) -> None:
    event = make_event(club, game="bidwhist")
    contracts = [
        [
            ("declarer", "North"),
            ("bid", "4"),
            ("kind", "Uptown"),
            ("trumps", "♠ spades"),
            ("books", "11"),
        ],
        [
            ("declarer", "East"),
            ("bid", "3"),
            ("kind", "Downtown"),
            ("trumps", "♥ hearts"),
            ("books", "8"),
        ],
        [
            ("declarer", "South"),
            ("bid", "5"),
            ("kind", "No-trump"),
            ("ranking", "Downtown"),
            ("books", "12"),
        ],
        [("passed_out", "All passed")],
    ]

    def picks(table: int, board: int) -> list[tuple[str, str]]:
        return contracts[(board + table) % len(contracts)]

    entered = _play_event(browser, live_server, event, picks)
    results = Result.objects.filter(section__event=event)
    assert entered == results.count() == 18
    assert set(results.values_list("status", flat=True)) == {"confirmed"}
    assert results.filter(entry={"passed_out": True}).exists()
    assert results.filter(entry__kind="notrump", entry__ranking="downtown").exists()
    _standings_equal_a_rescore(event)


def test_results_entered_offline_arrive_once_after_a_reload(live_server, browser, club) -> None:
    event = make_event(club)
    links = _tables(event)
    page = _open(browser, live_server, links[1])
    page.wait_for_selector("body[data-offline-ready='1']")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    _enter(page, 1, [("ns_tricks", "8")], online=False)
    _confirm(page, 1)
    _enter(page, 2, [("ns_tricks", "5")], online=False)
    _confirm(page, 1)
    assert "Offline: 2 results waiting" in page.locator("#banner").inner_text()
    assert not Result.objects.exists()
    page.reload()  # still offline: the service worker's copy
    page.wait_for_selector("#screen ul.boards, #screen.recap")
    assert "Offline: 2 results waiting" in page.locator("#banner").inner_text()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function(
        "() => document.getElementById('banner').hidden === true", timeout=20_000
    )
    stored = Result.objects.filter(section__event=event).order_by("board_number")
    assert [(r.board_number, r.entry["ns_tricks"], r.status) for r in stored] == [
        (1, 8, "confirmed"),
        (2, 5, "confirmed"),
    ]
    page.context.close()


def test_a_second_device_sees_the_first_and_cannot_double_it(live_server, browser, club) -> None:
    event = make_event(club)
    token = _tables(event)[1]
    first = _open(browser, live_server, token)
    # The second device, opened before anything was entered, misses every refresh of the
    # table's state until it has sent (a tablet whose Wi-Fi dropped its polls): what it shows
    # stays what it showed, however long the first device takes and whenever its ten-second
    # poll would have come. Its polls are refused from the moment it opens: a poll it made as
    # it opened could otherwise be answered after the first device's entry on a loaded machine.
    state_url = f"{live_server.url}/api/t/{token}/"

    def stale(route: Any) -> None:
        if route.request.method == "GET" and route.request.url.split("?")[0] == state_url:
            route.abort()
        else:
            route.continue_()

    second = _open(browser, live_server, token, route=stale)
    _enter(first, 1, [("ns_tricks", "7")])
    first.get_by_role("button", name="Back to the boards").click()
    # the second device, still showing board 1 to enter, enters another result: refused, and
    # the page goes back to the boards by itself to show why
    second.bring_to_front()
    second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # a refresh, missed
    second.get_by_role("button", name="Enter board 1").click()
    _pick(second, "ns_tricks", "9")
    second.wait_for_selector(".preview .scores")
    second.get_by_role("button", name="Send to East-West").click()
    second.wait_for_selector("li.board .problem", timeout=15_000)
    assert "already" in second.locator("li.board").first.inner_text()
    # said once, through the live region (an alert drawn on every refresh would be said again)
    second.wait_for_function(
        "() => /Board 1: .*already/.test(document.getElementById('announcer').textContent)"
    )
    assert Result.objects.filter(board_number=1).count() == 1
    assert Result.objects.get(board_number=1).entry == {"ns_tricks": 7}
    # and after its refresh it shows the first device's result, waiting for East-West
    second.unroute("**/*", stale)
    second.reload()
    second.wait_for_selector("#screen ul.boards")
    assert "Waiting for East-West" in second.locator("li.board").first.inner_text()
    assert "NS 7" in second.locator("li.board").first.inner_text()
    first.context.close()
    second.context.close()


def test_the_engine_scores_an_entry_before_it_is_sent_and_nothing_is_stored_yet(
    live_server, browser, club
) -> None:
    """The pickers offer only values the fields allow; the engine's refusal of anything else
    (HTTP 400 with its message, nothing stored) is in test_tablet_api.py."""
    event = make_event(club, game="candid")
    page = _open(browser, live_server, _tables(event)[1])
    page.get_by_role("button", name="Enter board 1").click()
    for key, label in (
        ("declarer", "North"),
        ("bid", "9"),
        ("strain", "No-trumps"),
        ("tricks", "13"),
    ):
        _pick(page, key, label)
    page.wait_for_selector(".preview .scores")
    assert "NS +94" in page.locator(".preview").inner_text()
    assert page.get_by_role("button", name="Send to East-West").is_enabled()
    page.context.close()
    assert not Result.objects.exists()  # a preview stores nothing


def test_a_replaced_link_shows_the_replacement_page(live_server, browser, club) -> None:
    event = make_event(club)
    token = _tables(event)[2]
    table_link_replace(event=event, table=2)
    context = browser.new_context()
    page = context.new_page()
    response = page.goto(f"{live_server.url}/t/{token}/")
    assert response.status == 410
    assert "replaced by the director" in page.inner_text("body")
    context.close()


def test_the_table_counts_the_directors_round_clock_down_by_the_servers_time(
    live_server, browser, club
) -> None:
    """A tablet whose own clock is an hour fast still shows the minutes the director gave
    (counted from the server's time), then "Time is up" when the clock has run out."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.events.models import Section
    from tournaments.events.selectors import tablet_cache
    from tournaments.events.services.tablets import round_clock_start

    event = make_event(club)
    token = _tables(event)[1]
    round_clock_start(event=event, minutes=14)
    context = browser.new_context(viewport={"width": 390, "height": 800})
    context.clock.install(time=(timezone.now() + timedelta(hours=1)).timestamp())
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{token}/")
    page.wait_for_selector("#screen ul.boards")
    clock = page.locator("#clock")
    page.wait_for_function("() => /left$/.test(document.getElementById('clock').textContent)")
    minutes = int(clock.inner_text().split(":")[0])
    assert minutes in (13, 14), clock.inner_text()
    assert clock.is_visible()
    # the clock about to run out (a second left; the service's least is a minute)
    Section.objects.filter(pk=event.section.pk).update(
        clock_ends_at=timezone.now() + timedelta(seconds=1)
    )
    tablet_cache.tables_changed([event.section.pk])  # what saving the section does
    page.evaluate("window.dispatchEvent(new Event('online'))")  # what a refresh does
    page.wait_for_function(
        "() => document.getElementById('clock').textContent.indexOf('Time is up') >= 0"
    )
    assert "up" in (clock.get_attribute("class") or "")
    context.close()


@pytest.mark.redis
def test_the_page_brings_each_writes_receipt_back_at_once(live_server, browser, club) -> None:
    """With Redis a result's and a confirmation's answers carry a receipt, which the page
    sends back with its next request (the refresh it makes at once): the table's copies are
    cached again straight after each write instead of a few seconds later."""
    from tournaments.events.selectors import tablet_cache

    event = make_event(club)
    token = _tables(event)[1]
    page = _open(browser, live_server, token)
    given: list[str] = []
    brought: list[tuple[str, str]] = []

    def answered(response: Any) -> None:
        receipt = response.headers.get("clubwhist-receipt")
        if receipt and response.request.method == "POST":
            given.append(receipt)

    def asked(request: Any) -> None:
        receipt = request.headers.get("clubwhist-receipt")
        if receipt:
            brought.append((request.method, receipt))

    page.on("response", answered)
    page.on("requestfinished", asked)  # answered: the server has ended the receipt
    ew = table_state(TableAccess.objects.get(token=token))["current"]["ew"]["number"]
    _enter(page, 1, [("ns_tricks", "7")])
    _confirm(page, ew)
    for _ in range(200):  # the refresh after the confirmation, sent as its answer arrives
        if len(brought) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(given) == 2 and len(set(given)) == 2  # the result's and the confirmation's
    assert [receipt for _, receipt in brought] == given
    assert brought[-1][0] == "GET"  # the refresh after the confirmation
    assert tablet_cache.table_visit(token).pending == 0  # ended, not lapsed
    page.context.close()


def test_a_tap_spanning_a_redraw_still_lands_and_the_redraw_follows(
    live_server, browser, club
) -> None:
    """A tap is a press and a release, and the browser clicks only when both land on the same
    button. A refresh answered between the two used to draw the board list afresh, so the
    release met a new button and "Enter board 1" did nothing (a lost tap on a tablet; a stuck
    browser test on a loaded machine). The page now holds a drawing back while a press is
    under way, and makes it after the release."""
    event = make_event(club)
    tables = _tables(event)
    page = _open(browser, live_server, tables[1])
    state_url = f"{live_server.url}/api/t/{tables[1]}/"
    # What each press landed on, seen by the page (drawings made before a press are not this
    # test's business: the page's first refresh and its stream's first state come when they do).
    page.evaluate(
        "document.addEventListener('pointerdown', e => { window.pressed = e.target; }, true)"
    )

    def refreshed() -> None:
        """A refresh asked for and answered while the finger is down, its answer handled."""
        with page.expect_response(
            lambda r: r.request.method == "GET" and r.url.split("?")[0] == state_url
        ):
            page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.evaluate("new Promise(done => setTimeout(done, 100))")

    def press(locator: Any) -> None:
        box = None
        for _ in range(20):  # None while a drawing replaced the element between two looks
            box = locator.bounding_box()
            if box is not None:
                break
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()

    # The press lands on "Enter board 1"; a refresh is answered under it; the release clicks.
    press(page.get_by_role("button", name="Enter board 1"))
    refreshed()
    # the button under the finger is still the page's: the refresh's drawing waits
    assert page.evaluate("window.pressed.isConnected && window.pressed.textContent")
    page.mouse.up()
    page.wait_for_selector("#screen.entry", timeout=5_000)
    assert page.locator("#entry-heading").inner_text() == "Board 1"

    # A thumb resting on text (the bar's round) holds nothing back: East-West's device sends
    # board 2 and the list shows it at once.
    page.get_by_role("button", name="Back").click()
    page.wait_for_selector("#screen ul.boards")
    access = TableAccess.objects.get(token=tables[1])
    press(page.locator("#round-label"))
    tablet_submit(access=access, board_number=2, entry={"ns_tricks": 8}, key="other-device-2")
    refreshed()
    page.wait_for_selector("#screen li.board >> text=Waiting for East-West", timeout=5_000)
    page.mouse.up()

    # A press on "Enter board 1" that slides off before the release clicks nothing: the news
    # that came meanwhile (board 1 sent from the other device) waits for the release, then
    # shows, and no entry screen opens.
    press(page.get_by_role("button", name="Enter board 1"))
    tablet_submit(access=access, board_number=1, entry={"ns_tricks": 6}, key="other-device-1")
    refreshed()
    assert page.evaluate("window.pressed.isConnected")
    assert page.locator("#screen li.board >> text=Waiting for East-West").count() == 1
    box = page.locator("#round-label").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 2, box["y"] + 2)
    page.mouse.up()
    page.wait_for_function(
        "() => document.querySelectorAll('#screen li.board').length === 2 && "
        "[...document.querySelectorAll('#screen li.board')].every("
        "li => /Waiting for East-West/.test(li.textContent))",
        timeout=5_000,
    )
    assert page.locator("#screen.entry").count() == 0
    page.context.close()
