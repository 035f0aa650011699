"""`python -m engine result`: check a table result against the rules and score it, as JSON."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from engine import EngineError
from engine.commands._common import (
    CommandError,
    add_option_argument,
    parse_options,
    pick_board,
    read_boards,
)
from engine.games import Score, find_variant, variant_names
from engine.games.openwhist import OpenWhistRules, OpenWhistThreeEntry

NAME = "result"
HELP = "validate and score a result entry (JSON) for one board; prints JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, choices=variant_names(), help="the game")
    parser.add_argument("--board-file", required=True, help="PBN file with the board ('-' = stdin)")
    parser.add_argument("--board", required=True, type=int, help="board number")
    parser.add_argument("entry", help="the result as JSON, e.g. '{\"ns_tricks\": 8}'")
    add_option_argument(parser)


def _number(value: Score) -> int | str:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def evaluate(args: argparse.Namespace) -> dict[str, object]:
    rules = find_variant(args.variant)(parse_options(args.option))
    board = pick_board(read_boards(args.board_file, args.variant), args.board, args.board_file)
    try:
        data = json.loads(args.entry)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"the entry is not valid JSON: {exc.msg} at character {exc.pos}"
        ) from None
    if not isinstance(data, dict):
        raise CommandError('the entry must be a JSON object, like {"ns_tricks": 8}')
    entry = rules.parse_entry(board, data)
    ns = rules.ns_score(board, entry)
    out: dict[str, object] = {"valid": True, "ns_score": _number(ns), "ew_score": _number(-ns)}
    if isinstance(rules, OpenWhistRules) and isinstance(entry, OpenWhistThreeEntry):
        out["seat_points"] = {str(s): p for s, p in rules.seat_points(board, entry).items()}
    else:
        points = rules.side_points(board, entry)
        out["side_points"] = {str(side): _number(p) for side, p in points.items()}
    out["entry"] = rules.entry_to_dict(entry)
    out["description"] = rules.describe(entry)
    out["meaning"] = MEANING
    return out


#: What each number of the output is: under classic `tricks` scoring NS taking 8 print
#: "ns_score": 8, "ew_score": -8 (the duplicate comparison) beside "side_points" {"NS": 8,
#: "EW": 5} (what each side's own score card shows).
MEANING = {
    "ns_score": "NS's duplicate score on this board: the number matchpoints compare",
    "ew_score": "EW's duplicate score: always the negation of ns_score",
    "side_points": "each side's own points on this board, as a whist drive card shows them",
}


def run(args: argparse.Namespace) -> int:
    try:
        out = evaluate(args)
    except (EngineError, OSError) as exc:
        print(json.dumps({"valid": False, "error": str(exc)}, ensure_ascii=False))
        return 1
    print(json.dumps(out, ensure_ascii=False))
    return 0
