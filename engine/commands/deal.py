"""`python -m engine deal`: deal boards and print them as PBN."""

from __future__ import annotations

import argparse
import sys

from engine.commands._common import add_option_argument, parse_options
from engine.dealing import deal_boards, parse_board_range
from engine.games import variant_names
from engine.pbn import dump

NAME = "deal"
HELP = "deal boards of a game and print them as PBN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, choices=variant_names(), help="the game")
    parser.add_argument("--boards", default="1-24", help="board numbers, e.g. 1-24 or 1,3,5-8")
    parser.add_argument(
        "--seed", default=None, help="deal reproducibly from this seed (omit for a real event)"
    )
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    seed: int | str | None = args.seed
    if isinstance(seed, str) and seed.lstrip("-").isdigit():
        seed = int(seed)
    boards = deal_boards(
        args.variant,
        parse_board_range(args.boards),
        seed=seed,
        options=parse_options(args.option),
    )
    dump(boards, sys.stdout)
    return 0
