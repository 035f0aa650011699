"""Board analysis (double dummy and par) as the director starts it and watches it."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from engine.dd.analysis import board_tricks
from engine.dd.analysis import table as dd_table
from tests.web.conftest import make_event
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import Board, Event
from tournaments.events.services.analysis import (
    analysis_progress,
    boards_analyse,
    boards_analyse_request,
)


@pytest.mark.django_db
def test_par_is_computed_board_by_board_and_never_twice(club) -> None:
    event = make_event(club, params={"tables": 3, "boards_per_round": 1})  # 3 boards
    assert analysis_progress(event)["not_requested"] == 3
    assert boards_analyse_request(event=event) == 3
    assert analysis_progress(event)["queued"] == 3
    assert boards_analyse(event_id=event.pk) == 3
    progress = analysis_progress(event)
    assert (progress["done"], progress["queued"]) == (3, 0)
    board = Board.objects.get(event=event, number=2)
    expected = board_tricks(engine_board(board), rules_for(event))
    assert board.par["tricks"]["ns"] == expected["ns"]
    assert board.par["summary"].startswith(f"NS {expected['ns']}, EW ")
    # The table comes in the second pass, after every par, and is the engine's own.
    assert board.par["table"] == dd_table(engine_board(board), rules_for(event))
    # Each board's par as the page lists it, in board order.
    assert progress["pars"] == [
        {"board": row.number, "summary": row.par["summary"], "failed": False}
        for row in Board.objects.filter(event=event).order_by("number")
    ]
    assert boards_analyse_request(event=event) == 0  # nothing left to do
    assert boards_analyse(event_id=event.pk) == 0


@pytest.mark.django_db
def test_the_event_page_offers_analysis_and_reports_progress(director_client: Client, club) -> None:
    event = make_event(club, params={"tables": 3, "boards_per_round": 1})
    page = director_client.get(f"/events/{event.pk}/")
    assert b"Compute par" in page.content
    director_client.post(f"/events/{event.pk}/analyse/")
    progress = director_client.get(f"/events/{event.pk}/analysis.json").json()
    assert progress["total"] == 3
    assert progress["queued"] + progress["done"] == 3
    # One board in, two to go (as the job leaves them, one at a time): the page lists it.
    boards_analyse_request(event=event)
    Board.objects.filter(event=event, number__gt=1).update(par_status=Board.ParStatus.NONE)
    boards_analyse(event_id=event.pk)
    Board.objects.filter(event=event, number__gt=1).update(par_status=Board.ParStatus.QUEUED)
    body = director_client.get(f"/events/{event.pk}/").content.decode()
    assert '<progress max="3" value="1"' in body and "1 of 3" in body
    summary = Board.objects.get(event=event, number=1).par["summary"]
    assert f"Board 1</a>: {summary}</li>" in body.replace("&#x27;", "'")
    assert director_client.get(f"/events/{event.pk}/analysis.json").json()["pars"] == [
        {"board": 1, "summary": summary, "failed": False}
    ]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_analysis_runs_in_the_worker(celery_worker, club) -> None:
    event = make_event(club, params={"tables": 3, "boards_per_round": 1})
    boards_analyse_request(event=event)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if analysis_progress(Event.objects.get(pk=event.pk))["done"] == 3:
            break
        time.sleep(0.2)
    assert analysis_progress(event)["done"] == 3
    assert "clubwhist.analyse_event_boards" in celery_worker.log()


@pytest.mark.django_db
def test_bid_whist_boards_get_their_par_from_the_auction(club) -> None:
    event = make_event(club, game="bidwhist", params={"tables": 3, "boards_per_round": 1})
    boards_analyse_request(event=event)
    # One board is enough to show the rule, and a Bid Whist board costs seconds: the other
    # two are taken off the queue (the queue is read afresh, so they are simply not solved).
    Board.objects.filter(event=event, number__gt=1).update(par_status=Board.ParStatus.NONE)
    assert boards_analyse(event_id=event.pk) == 1
    for board in Board.objects.filter(event=event, number=1):
        assert board.par_status == Board.ParStatus.DONE, board.par
        contract = board.par["par"]["contracts"][0]
        # "4 uptown S by N", "5 notrump downtown by E" or "passed out"
        assert " by " in contract or contract == "passed out", contract
        assert board.par["summary"].startswith(contract)
        # Par needs no table, but the "are you sure?" check reads the declarer's books in
        # the contract played off it: a second pass adds it (boards_tables_fill).
        table = board.par["table"]
        assert set(table) >= {"N", "E", "S", "W"}
        assert set(table["N"]) >= {"uptown S", "downtown C", "notrump uptown"}
        assert all(1 <= books <= 13 for books in table["N"].values())
