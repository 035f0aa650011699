"""`python -m engine show`: print the boards of a PBN file as text hand diagrams."""

from __future__ import annotations

import argparse

from engine.commands._common import add_board_file_arguments, pick_board, read_boards
from engine.diagrams import diagram

NAME = "show"
HELP = "print the boards of a PBN file as hand diagrams"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_file_arguments(parser)
    parser.add_argument("--board", type=int, default=None, help="only this board number")
    parser.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")


def run(args: argparse.Namespace) -> int:
    boards = read_boards(args.file, args.variant)
    if args.board is not None:
        boards = [pick_board(boards, args.board, args.file)]
    print("\n\n".join(diagram(board, ascii_only=args.ascii) for board in boards))
    return 0
