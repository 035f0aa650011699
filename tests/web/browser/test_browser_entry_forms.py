"""The traveller form is generated from each game's entry fields: a Bid Whist and a Candid Whist
traveller entered in a real browser, with the fields that do not apply switched off as you type."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Result
from tournaments.kernel.clubs import club_get_or_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page: Any, live_server: Any) -> None:
    director_account()
    log_in(page, live_server.url)
    page.wait_for_url(re.compile(r"/$"))


def _open_traveller(page: Any, live_server: Any, event_pk: int, board: int) -> None:
    page.goto(f"{live_server.url}/events/{event_pk}/boards/{board}/")
    page.wait_for_selector("table.traveller")


def _field(page: Any, line: int, key: str) -> Any:
    return page.locator(f'[name="r{line}-{key}"]')


def _preview(page: Any, line: int, text: str) -> None:
    page.wait_for_function(
        "([line, text]) => document.querySelector(`tr[data-line='${line}'] td.preview`)"
        ".textContent === text",
        arg=[line, text],
    )


def test_a_bid_whist_traveller_through_the_generated_form(live_server, page) -> None:
    event = make_event(club_get_or_create(name="Browser club"), game="bidwhist")
    _log_in(page, live_server)
    _open_traveller(page, live_server, event.pk, 1)
    headings = page.locator("table.traveller thead th").all_inner_texts()
    assert headings[4:11] == ["Pass", "By", "Bid", "Kind", "Tr", "Rank", "Books"]

    # Line 0: 4 no-trump downtown by North, 11 books: Fosdick, (11 - 6) x 2 = +10.
    _field(page, 0, "declarer").select_option("N")
    _field(page, 0, "bid").fill("4")
    _field(page, 0, "kind").select_option("uptown")
    assert _field(page, 0, "trumps").is_enabled() and _field(page, 0, "ranking").is_disabled()
    _field(page, 0, "trumps").select_option("S")
    _field(page, 0, "kind").select_option("notrump")
    assert _field(page, 0, "trumps").is_disabled() and _field(page, 0, "ranking").is_enabled()
    _field(page, 0, "ranking").select_option("downtown")
    _field(page, 0, "books").fill("11")
    _preview(page, 0, "+10")
    # Line 1: all passed; the other fields switch off.
    _field(page, 1, "passed_out").check()
    assert _field(page, 1, "bid").is_disabled() and _field(page, 1, "declarer").is_disabled()
    _preview(page, 1, "0")
    # Line 2: an impossible entry shows the engine's message and nothing is saved.
    _field(page, 2, "declarer").select_option("E")
    _field(page, 2, "bid").fill("5")
    _field(page, 2, "kind").select_option("downtown")
    _field(page, 2, "trumps").select_option("H")
    _field(page, 2, "books").fill("14")
    _preview(page, 2, "✗")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector("[role=alert]")
    assert "books run from 1" in page.locator("[role=alert]").first.inner_text()
    assert not Result.objects.filter(section__event=event).exists()

    _field(page, 2, "books").fill("12")
    _preview(page, 2, "-6")
    page.get_by_role("button", name="Save", exact=True).click()
    assert "3 result(s) saved" in page.locator(".messages").inner_text()
    entries = {
        r.table: r.entry for r in Result.objects.filter(section__event=event, board_number=1)
    }
    assert sorted(entries.values(), key=_canonical) == sorted(
        [
            {"declarer": "N", "bid": 4, "kind": "notrump", "ranking": "downtown", "books": 11},
            {"passed_out": True},
            {"declarer": "E", "bid": 5, "kind": "downtown", "trumps": "H", "books": 12},
        ],
        key=_canonical,
    )


def _canonical(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True)


def test_a_candid_whist_traveller_through_the_generated_form(live_server, page) -> None:
    event = make_event(club_get_or_create(name="Browser club"), game="candid")
    _log_in(page, live_server)
    _open_traveller(page, live_server, event.pk, 2)
    headings = page.locator("table.traveller thead th").all_inner_texts()
    assert headings[4:9] == ["Pass", "By", "Bid", "Str", "Tricks"]
    strains = _field(page, 0, "strain").locator("option").all_inner_texts()
    assert strains == ["", "♣", "♦", "♥", "♠", "NT"]

    # East makes 8 hearts with 9 tricks: +81 to EW, so NS -81.
    _field(page, 0, "declarer").select_option("E")
    _field(page, 0, "bid").fill("8")
    _field(page, 0, "strain").select_option("H")
    _field(page, 0, "tricks").fill("9")
    _preview(page, 0, "-81")
    # South goes down in 9 no-trumps: -90.
    _field(page, 1, "declarer").select_option("S")
    _field(page, 1, "bid").fill("9")
    _field(page, 1, "strain").select_option("NT")
    _field(page, 1, "tricks").fill("7")
    _preview(page, 1, "-90")
    page.get_by_role("button", name="Save", exact=True).click()
    assert "2 result(s) saved" in page.locator(".messages").inner_text()
    stored = {
        r.ns_score: r.entry for r in Result.objects.filter(section__event=event, board_number=2)
    }
    assert stored == {
        -81: {"declarer": "E", "bid": 8, "strain": "H", "tricks": 9},
        -90: {"declarer": "S", "bid": 9, "strain": "NT", "tricks": 7},
    }


def test_director_screens_fit_a_phone(live_server, page) -> None:
    """At 390 px the widest director screens (a Bid Whist traveller, the pair list, the audit
    trail) scroll their tables inside their own box, never the page."""
    event = make_event(club_get_or_create(name="Phone club"), game="bidwhist")
    _log_in(page, live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    for path in (
        f"/events/{event.pk}/boards/1/",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/audit/",
    ):
        page.goto(live_server.url + path)
        wide = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
        )
        assert wide[0] <= wide[1], f"{path} is {wide[0]} px wide on a {wide[1]} px phone"
