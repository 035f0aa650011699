"""Open Whist made fast (issue #25) without changing a value: the core's column-mode search
gives, board by board, the values the core gave before that work (recorded in
openwhist_values_before.json): the 36 four-player boards of `benchmarks.par` and some
three-player boards (paranoid values)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from engine.boards import Board
from engine.dd import Position, backend_available, solver_for
from engine.dd.analysis import position_for
from engine.games import GameRules, rules_for

pytestmark = pytest.mark.skipif(
    not backend_available("c"), reason="the C core is not built (pip install -e .)"
)

BEFORE = json.loads((Path(__file__).parent / "openwhist_values_before.json").read_text())


@functools.cache
def _rules(players: int) -> GameRules:
    return rules_for("openwhist", {} if players == 4 else {"players": players})


@functools.cache
def _boards(players: int, count: int) -> tuple[Board, ...]:
    """The first `count` boards dealt as the recording dealt them (benchmarks.par's seed for
    four players)."""
    rng = random.Random("openwhist" if players == 4 else f"openwhist-{players}")
    return tuple(_rules(players).deal_board(n, rng) for n in range(1, count + 1))


def _position(players: int, number: int, count: int) -> Position:
    board = _boards(players, count)[number - 1]
    rules = _rules(players)
    hands = {seat: board.deal.hand(seat) for seat in board.seats}
    return position_for(rules, board, hands, rules.play_context(board))


@pytest.mark.parametrize("number", sorted(int(n) for n in BEFORE["four"]))
def test_four_player_boards_keep_their_values(number: int) -> None:
    position = _position(4, number, len(BEFORE["four"]))
    assert position.columns is not None
    solver = solver_for(position)
    assert solver.solve(position.leader, position.leader) == BEFORE["four"][str(number)]


@pytest.mark.parametrize(("number", "seat", "value"), BEFORE["three"])
def test_three_player_boards_keep_their_paranoid_values(number: int, seat: int, value: int) -> None:
    position = _position(3, number, max(n for n, _, _ in BEFORE["three"]))
    assert position.columns is not None and position.seats == 3
    assert solver_for(position).solve(position.leader, seat) == value
