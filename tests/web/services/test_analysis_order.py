"""The par job hands boards out hardest first (the game's cheap guess), on worker threads that
only compute: every queued board is started once and saved by the job's own thread."""

from __future__ import annotations

import threading

import pytest

from engine.boards import Board as EngineBoard
from engine.dd.analysis import BoardAnalysis, hardest_first
from engine.games.base import GameRules
from tests.web.conftest import make_event
from tournaments.events import services
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import Board
from tournaments.events.services.analysis import boards_analyse, boards_analyse_request


@pytest.mark.django_db
def test_bid_whist_boards_are_started_hardest_first_and_each_once(
    club, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(club, game="bidwhist", params={"tables": 3, "boards_per_round": 3})
    rules = rules_for(event)
    boards = [engine_board(b) for b in Board.objects.filter(event=event).order_by("number")]
    expected = [b.number for b in hardest_first(boards, rules)]
    assert expected != sorted(expected), "the deal should put some later board first"
    started: list[int] = []
    threads: set[str] = set()

    def record(board: EngineBoard, rules: GameRules, with_table: bool) -> BoardAnalysis:
        started.append(board.number)
        threads.add(threading.current_thread().name)
        return BoardAnalysis(board.number, None, None, None, "not solved in this test")

    # one thread, so that the order started is the order handed out
    monkeypatch.setattr(services.analysis, "ANALYSIS_THREADS", 1)
    monkeypatch.setattr(services.analysis, "_analyse", record)
    boards_analyse_request(event=event)
    assert boards_analyse(event_id=event.pk) == len(boards)
    assert started == expected
    assert threading.current_thread().name not in threads
    assert set(Board.objects.filter(event=event).values_list("par_status", flat=True)) == {
        Board.ParStatus.FAILED
    }
    assert boards_analyse(event_id=event.pk) == 0  # nothing queued: nothing started again
    assert len(started) == len(boards)


@pytest.mark.django_db
def test_two_threads_analyse_every_board_of_an_event(club) -> None:
    event = make_event(club, params={"tables": 3, "boards_per_round": 2})  # 6 classic boards
    boards_analyse_request(event=event)
    assert boards_analyse(event_id=event.pk) == 6
    for board in Board.objects.filter(event=event):
        assert board.par_status == Board.ParStatus.DONE
        assert board.par is not None and board.par["summary"].startswith("NS ")
