"""The stored-analysis check (`engine.dd.stored`): every game's real analysis, as the app
stores it, passes; the same analysis broken in any one place, or another board's, does not.

Only the four-handed games: the app's events are pairs events, which three-player Open Whist
cannot make (its analysis also takes minutes). Open Whist's table is the strains table classic
whist's already shows, so its board is analysed without it (a table of column play is slow)."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.boards import Board
from engine.dd.analysis import analyse_boards, par_summary
from engine.dd.stored import analysis_problem
from engine.games import GameRules, rules_for, variant_names

GAMES = variant_names()


def _stored(board: Board, rules: GameRules, *, with_table: bool = True) -> dict[str, Any]:
    """The analysis as the app keeps it: `to_dict()` with its one-line summary, through JSON."""
    (analysis,) = analyse_boards([board], rules, with_table=with_table)
    data = analysis.to_dict()
    failed = analysis.error is not None or analysis.par is None
    data["summary"] = par_summary(data) if not failed else analysis.error
    stored: dict[str, Any] = json.loads(json.dumps(data))
    return stored


@functools.cache
def _analysed(game: str) -> tuple[Board, GameRules, dict[str, Any]]:
    """Board 2 of `game`, analysed once for the whole module."""
    rules = rules_for(game)
    board = rules.deal_board(2, random.Random(2))
    return board, rules, _stored(board, rules, with_table=game != "openwhist")


@pytest.mark.parametrize("game", GAMES)
def test_every_games_analysis_passes(game: str) -> None:
    board, rules, stored = _analysed(game)
    assert stored["error"] is None and stored["par"] is not None
    assert analysis_problem(stored, board, rules) is None


def test_an_analysis_without_its_table_and_a_failed_one_pass() -> None:
    rules = rules_for("bidwhist")
    board = rules.deal_board(2, random.Random(2))  # `_analysed`'s board: its par is cached
    assert analysis_problem(_stored(board, rules, with_table=False), board, rules) is None
    failed = {"board": 2, "tricks": None, "table": None, "par": None, "error": "no solver"}
    assert analysis_problem({**failed, "summary": "no solver"}, board, rules) is None


def _first_row(data: dict[str, Any]) -> dict[str, Any]:
    table = data["table"]
    row: dict[str, Any] = table[next(seat for seat in table if seat != "approximate")]
    return row


#: How a table breaks (for the games whose stored analysis has one).
TABLE_BREAKS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("a row cut short", lambda d: _first_row(d).pop(next(iter(_first_row(d)))) and d),
    ("tricks as text", lambda d: _first_row(d).update(dict.fromkeys(_first_row(d), "7")) or d),
    ("too many tricks", lambda d: _first_row(d).update(dict.fromkeys(_first_row(d), 99)) or d),
    ("a seat of its own", lambda d: d["table"].update(X={}) or d),
]


BREAKS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("not an object", lambda d: [d]),
    ("a key missing", lambda d: {k: v for k, v in d.items() if k != "par"}),
    ("a key of its own", lambda d: {**d, "extra": 1}),
    ("another board's", lambda d: {**d, "board": 4}),
    ("a summary that is not text", lambda d: {**d, "summary": 5}),
    ("an error beside a par", lambda d: {**d, "error": "it failed"}),
    ("a table that is a list", lambda d: {**d, "table": [1]}),
    ("par contracts as text", lambda d: d["par"].update(contracts="7H by N") or d),
    ("par contracts empty", lambda d: d["par"].update(contracts=[]) or d),
    ("par of another board", lambda d: d["par"].update(board=9) or d),
    ("a score that is not whole", lambda d: d["par"].update(ns_score=1.5) or d),
    ("a score no page can print", lambda d: d["par"].update(ns_score=10**40) or d),
    ("approximate as text", lambda d: d["par"].update(approximate="no") or d),
    ("par tricks below nothing", lambda d: d["par"].update(tricks={"ns": -1}) or d),
]


CASES = [
    (game, what, breaks)
    for game in GAMES
    for what, breaks in BREAKS + (TABLE_BREAKS if game != "openwhist" else [])
]


@pytest.mark.parametrize(("game", "what", "breaks"), CASES, ids=[f"{g}-{w}" for g, w, _ in CASES])
def test_a_broken_analysis_is_refused_with_words(
    game: str, what: str, breaks: Callable[[dict[str, Any]], Any]
) -> None:
    board, rules, stored = _analysed(game)
    broken = breaks(copy.deepcopy(stored))
    problem = analysis_problem(broken, board, rules)
    assert problem is not None and problem.strip(), what


def test_the_board_tricks_must_be_the_boards_own() -> None:
    rules = rules_for("classic")
    board = rules.deal_board(1, random.Random(1))
    stored = _stored(board, rules)
    for key, value in (("trumps", "NT"), ("leader", "Q"), ("ns", 14), ("ns", "8")):
        broken = copy.deepcopy(stored)
        broken["tricks"][key] = value
        assert analysis_problem(broken, board, rules) is not None, (key, value)
    other = rules.deal_board(2, random.Random(1))
    assert analysis_problem(stored, other, rules) is not None
    auction = rules_for("candid")
    candid_board = auction.deal_board(1, random.Random(1))
    with_tricks = {**_stored(candid_board, auction), "tricks": stored["tricks"]}
    assert "null" in (analysis_problem(with_tricks, candid_board, auction) or "")
