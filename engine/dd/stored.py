"""A board's stored analysis checked against the shape the engine writes.

The app keeps `BoardAnalysis.to_dict()` (with a one-line summary) in the board's row, and every
page that shows par, the double-dummy table or "v par" reads it as the engine wrote it. A
document from outside (an event's JSON, edited by hand or by another program) may carry any
JSON there, so it is checked here first: every key, every type, every value in its range and
consistent with the board it claims to be about. `analysis_problem` says what is wrong, in
words for the person who sent the file, or None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.boards import Board
from engine.dd.analysis import analysis_for
from engine.dd.base import STRAINS, strain_name
from engine.dd.bidwhist import CONTRACT_TYPES, BidWhistAnalysis
from engine.games.base import GameRules

__all__ = ["analysis_problem"]

#: What the engine writes (`BoardAnalysis.to_dict`) and the one key the app adds.
_KEYS = frozenset({"board", "tricks", "table", "par", "error"})
_ADDED = frozenset({"summary"})
_PAR_KEYS = frozenset({"board", "contracts", "ns_score", "tricks", "approximate"})
_TEXT_MAX = 500
#: Far beyond any whist score, well inside what every page can print.
_SCORE_MAX = 100_000


class _Wrong(Exception):
    """Raised inside the checks with the words for the refusal."""


def _whole(value: Any, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _Wrong(f"{where} should be a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or len(value) > _TEXT_MAX:
        raise _Wrong(f"{where} should be text of 1 to {_TEXT_MAX} characters, not {value!r}")
    return value


def _object(
    value: Any, keys: frozenset[str], where: str, optional: frozenset[str] = frozenset()
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _Wrong(f"{where} should be an object, not {value!r}")
    missing = sorted(keys - set(value))
    extra = sorted(set(value) - keys - optional)
    if missing:
        raise _Wrong(f"{where} has no {missing[0]!r}")
    if extra:
        raise _Wrong(f"{where} has {extra[0]!r}, which the engine does not write")
    return value


def _board_tricks(value: Any, board: Board, rules: GameRules) -> None:
    """The board's own tricks (games whose board fixes trumps): which trumps and leader, and
    each side's (or, three-handed, each player's) tricks."""
    seats = [str(seat) for seat in board.seats]
    if rules.has_auction:
        if value is not None:
            raise _Wrong(f"tricks should be null: in {rules.title} the board has no trumps")
        return
    if value is None:
        return
    four = len(seats) == 4
    keys = frozenset({"trumps", "leader"} | ({"ns", "ew"} if four else {"tricks"}))
    _object(value, keys, "tricks")
    context = rules.play_context(board)
    if value["trumps"] != strain_name(context.trumps) or value["leader"] != str(context.leader):
        raise _Wrong(
            f"tricks are for {value['trumps']!r} trumps, {value['leader']!r} leading; board "
            f"{board.number} is played at {strain_name(context.trumps)}, "
            f"{context.leader} leading"
        )
    size = board.hand_size
    if four:
        ns = _whole(value["ns"], 0, size, "tricks ns")
        _whole(value["ew"], 0, size, "tricks ew")
        if ns + value["ew"] != size:
            raise _Wrong(f"tricks ns and ew should make {size}, not {ns + value['ew']}")
        return
    each = _object(value["tricks"], frozenset(seats), "tricks tricks")
    for seat in seats:
        _whole(each[seat], 0, size, f"tricks of {seat}")


def _table(value: Any, board: Board, rules: GameRules) -> None:
    """Every seat's row of the double-dummy table: strains, or Bid Whist's contract types
    (books, the kitty's included) with the list of cells left approximate."""
    if value is None:
        return
    seats = [str(seat) for seat in board.seats]
    books = isinstance(analysis_for(rules), BidWhistAnalysis)
    columns = [t.name for t in CONTRACT_TYPES] if books else [strain_name(s) for s in STRAINS]
    high = board.hand_size + 1 if books else board.hand_size
    extra = frozenset({"approximate"}) if books else frozenset()
    table = _object(value, frozenset(seats) | extra, "table")
    for seat in seats:
        row = _object(table[seat], frozenset(columns), f"table row {seat}")
        for column in columns:
            _whole(row[column], 0, high, f"table {seat} {column}")
    if books:
        rough = table["approximate"]
        cells = {f"{seat} {column}" for seat in seats for column in columns}
        if not isinstance(rough, list) or any(cell not in cells for cell in rough):
            raise _Wrong(f"table approximate should list cells such as 'N uptown S', not {rough!r}")


def _par(value: Any, board: Board) -> None:
    if value is None:
        return
    par = _object(value, _PAR_KEYS, "par")
    if par["board"] != board.number:
        raise _Wrong(f"par is board {par['board']!r}'s, not board {board.number}'s")
    contracts = par["contracts"]
    if not isinstance(contracts, list) or not 1 <= len(contracts) <= 20:
        raise _Wrong(f"par contracts should be a list of 1 to 20 texts, not {contracts!r}")
    for contract in contracts:
        _text(contract, "a par contract")
    if par["ns_score"] is not None:
        _whole(par["ns_score"], -_SCORE_MAX, _SCORE_MAX, "par ns_score")
    tricks = par["tricks"]
    if not isinstance(tricks, Mapping):
        raise _Wrong(f"par tricks should be an object, not {tricks!r}")
    for key, count in tricks.items():
        _text(key, "a key of par tricks")
        _whole(count, 0, board.hand_size + 1, f"par tricks {key}")
    if not isinstance(par["approximate"], bool):
        raise _Wrong(f"par approximate should be true or false, not {par['approximate']!r}")


def _check(data: Any, board: Board, rules: GameRules) -> None:
    _object(data, _KEYS, "the analysis", optional=_ADDED)
    if isinstance(data["board"], bool) or data["board"] != board.number:
        raise _Wrong(f"the analysis is board {data['board']!r}'s, not board {board.number}'s")
    summary = data.get("summary")
    if summary is not None:
        _text(summary, "the summary")
    if data["error"] is not None:
        _text(data["error"], "the error")
        found = [key for key in ("tricks", "table", "par") if data[key] is not None]
        if found:
            raise _Wrong(f"a failed analysis has no {found[0]}")
        return
    _board_tricks(data["tricks"], board, rules)
    _table(data["table"], board, rules)
    _par(data["par"], board)


def analysis_problem(data: Any, board: Board, rules: GameRules) -> str | None:
    """What keeps `data` from being the stored analysis of `board` under `rules` (the shape
    `BoardAnalysis.to_dict()` writes, plus the app's summary), or None when it is one."""
    try:
        _check(data, board, rules)
    except _Wrong as exc:
        return str(exc)
    return None
