"""The director asks for par on the event page and watches it come in: the bar counts the
boards done and each board's par is listed as it arrives (the job takes the hardest boards
first, so out of board order), then the page says every board has its par.

The job is run here, board by board, as a worker would, so the page can be seen between
boards: what is tested is the page following the job, not how fast the solver is."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Board
from tournaments.events.services import analysis as analysis_services
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _solve_only(event: Any, number: int) -> None:
    """The job's work on one board: the others are held back meanwhile, in one transaction,
    so the page never sees them held (it would see no board waiting, and reload as done)."""
    with transaction.atomic():
        others = Board.objects.filter(event=event, par_status=Board.ParStatus.QUEUED).exclude(
            number=number
        )
        held = list(others.values_list("pk", flat=True))
        others.update(par_status=Board.ParStatus.NONE)
        analysis_services.boards_analyse(event_id=event.pk)
        Board.objects.filter(pk__in=held).update(par_status=Board.ParStatus.QUEUED)


def test_the_event_page_lists_each_boards_par_as_it_arrives(
    live_server: Any, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis_services, "_start", lambda event_id: None)  # run here
    club = Club.objects.create(name="Village Club", slug="village")
    event = make_event(club, params={"tables": 3, "boards_per_round": 1})
    director_account()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.get_by_role("button", name="Compute par (double dummy)").click()
    box = page.locator("#analysis")
    assert box.locator("progress").get_attribute("value") == "0"
    assert "0 of 3" in box.inner_text()

    for done, number in enumerate((3, 1), start=1):  # the hardest first, not in order
        _solve_only(event, number)
        summary = Board.objects.get(event=event, number=number).par["summary"]
        item = box.locator(f".pars-list li[data-board='{number}']")
        item.wait_for(timeout=10_000)
        assert item.inner_text() == f"Board {number}: {summary}"
        assert box.locator("progress").get_attribute("value") == str(done)
        assert f"{done} of 3" in box.locator(".count").inner_text()
    # Listed in board order, whatever order they came in.
    assert box.locator(".pars-list li").evaluate_all(
        "items => items.map(i => i.dataset.board)"
    ) == [
        "1",
        "3",
    ]
    # The link takes the director to the board.
    assert box.get_by_role("link", name="Board 3").get_attribute("href").endswith("/boards/3/")

    analysis_services.boards_analyse(event_id=event.pk)  # the last board: the page reloads
    page.get_by_text("Par computed for every board.").wait_for(timeout=10_000)
    page.locator("#analysis details summary").click()
    assert page.locator("#analysis .pars-list li").count() == 3
