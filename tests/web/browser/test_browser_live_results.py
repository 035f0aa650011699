"""Live results in a real browser: a member's open standings page follows the evening."""

from __future__ import annotations

import pytest

from tests.web.conftest import make_event
from tournaments.events.models import Pair, Result
from tournaments.events.services.events import event_set_live_public
from tournaments.events.services.results import result_confirm, result_submit
from tournaments.events.services.scoring import standings_refresh

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_open_live_standings_change_without_a_reload(live_server, page, club) -> None:
    """How soon the change arrives (a second or two on an idle machine) is measured by
    `benchmarks.results_pipeline` (a result's latency until a reader's page has it), not
    here: a loaded machine may take longer, and this checks that it arrives by itself."""
    # One round: each board is played at one table only, so it is finished (and counts in
    # the public standings) the moment that table confirms it. Over a longer evening a board
    # counts once every table has played it: docs/directors/secrecy.md.
    event = make_event(club, params={"tables": 3, "boards_per_round": 2, "rounds": 1})
    Pair.objects.filter(section__event=event, number=2, direction="NS").update(
        player1="Cora Dean", player2="Dev Eyre"
    )
    event_set_live_public(event=event, live=True)
    section = event.section
    first, _ = result_submit(
        section=section, round=1, table=2, board_number=3, entry={"ns_tricks": 9}
    )
    result_confirm(result=first)
    standings_refresh(event_id=event.pk)
    page.goto(f"{live_server.url}/results/{event.pk}/")
    assert "Cora Dean" in page.locator("#live").inner_text()
    assert "Ann" not in page.locator("#live").inner_text()
    page.evaluate("window.__same_page = true")  # gone if the page reloads
    page.wait_for_function("document.querySelector('#live').dataset.version !== undefined")
    before = page.locator("#live").inner_text()

    Pair.objects.filter(section=section, number=1, direction="NS").update(player1="Ann Ash")
    made, _ = result_submit(
        section=section, round=1, table=1, board_number=1, entry={"ns_tricks": 7}
    )
    result_confirm(result=made)
    standings_refresh(event_id=event.pk)  # what the worker does after the commit
    page.wait_for_function(
        "() => document.querySelector('#live').innerText.indexOf('Ann Ash') >= 0",
        timeout=20_000,
    )
    after = page.locator("#live").inner_text()
    assert after != before
    assert page.evaluate("window.__same_page") is True
    assert Result.objects.filter(section=section).count() == 2
