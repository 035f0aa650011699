"""`python -m engine par`: par contract(s) and NS score of the boards in a PBN file."""

from __future__ import annotations

import argparse
import json

from engine.commands._common import (
    add_board_file_arguments,
    add_option_argument,
    parse_options,
    read_boards,
)
from engine.dd.analysis import par
from engine.games import rules_for

NAME = "par"
HELP = "par (perfect bidding and play, all hands seen) of the boards in a PBN file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_file_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per board per line")
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    for board in read_boards(args.file, args.variant):
        result = par(board, rules_for(board.variant, options))
        if args.json:
            print(json.dumps(result.to_dict()), flush=True)
        else:
            score = "-" if result.ns_score is None else str(result.ns_score)
            extra = " (approximate)" if result.approximate else ""
            tricks = ", ".join(f"{k} {v}" for k, v in result.tricks.items())
            print(
                f"board {result.board}: {' / '.join(result.contracts)}; NS {score}"
                f"{'; ' + tricks if tricks else ''}{extra}",
                flush=True,
            )
    return 0
