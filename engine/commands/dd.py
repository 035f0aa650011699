"""`python -m engine dd`: double-dummy tricks of the boards in a PBN file."""

from __future__ import annotations

import argparse
import json

from engine.commands._common import (
    add_board_file_arguments,
    add_option_argument,
    parse_options,
    read_boards,
)
from engine.dd.analysis import board_tricks, table
from engine.dd.bidwhist import CONTRACT_TYPES
from engine.dd.position import DDInputError
from engine.games import rules_for

NAME = "dd"
HELP = "double-dummy tricks (and with --table every declarer and strain) for a PBN file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_file_arguments(parser)
    parser.add_argument(
        "--table", action="store_true", help="also every declarer and strain (LHO leads)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per board per line")
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    for board in read_boards(args.file, args.variant):
        rules = rules_for(board.variant, options)
        record: dict[str, object] = {"board": board.number}
        if not rules.has_auction:
            record.update(board_tricks(board, rules))
        elif not (args.table or rules.par_uses_table):
            # A table this game does not need for par can cost seconds a board: ask for it.
            raise DDInputError(
                f"board {board.number}: {rules.title} has no tricks before the auction, "
                "where trumps are chosen: add --table for every seat and contract type, "
                "or use `par`"
            )
        if args.table or rules.has_auction:
            record["table"] = table(board, rules)
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(_text(record), flush=True)
    return 0


def _text(record: dict[str, object]) -> str:
    parts = [f"board {record['board']}:"]
    if "trumps" in record:
        parts.append(f"trumps {record['trumps']}, {record['leader']} leads")
    if "ns" in record:
        parts.append(f"NS {record['ns']}, EW {record['ew']}")
    if "tricks" in record:
        parts.append(", ".join(f"{k} {v}" for k, v in dict(record["tricks"]).items()))  # type: ignore[call-overload]
    lines = [" ".join(parts)]
    tab = record.get("table")
    if isinstance(tab, dict) and "approximate" in tab:
        return "\n".join([*lines, *_bidwhist_rows(tab)])
    if isinstance(tab, dict):
        strains = ("C", "D", "H", "S", "NT")
        lines.append("      " + " ".join(f"{s:>3}" for s in strains))
        for seat, row in tab.items():
            lines.append(f"  {seat:<4}" + " ".join(f"{row[s]:>3}" for s in strains))
    return "\n".join(lines)


def _bidwhist_rows(tab: dict[str, object]) -> list[str]:
    """Books per seat: uptown and downtown by trump suit, then no-trump up and down; an
    approximate cell (budget) is marked with '~'."""
    rough = set(tab.get("approximate") or [])  # type: ignore[call-overload]
    heads = [
        t.name.replace("notrump", "NT").replace("uptown", "up").replace("downtown", "dn")
        for t in CONTRACT_TYPES
    ]
    lines = ["      " + " ".join(f"{h:>6}" for h in heads) + "   (books)"]
    for seat, row in tab.items():
        if not isinstance(row, dict):
            continue
        cells = [
            f"{row[t.name]}{'~' if f'{seat} {t.name}' in rough else ''}" for t in CONTRACT_TYPES
        ]
        lines.append(f"  {seat:<4}" + " ".join(f"{c:>6}" for c in cells))
    return lines
