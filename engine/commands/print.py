"""`python -m engine print KIND FILE.pbn -o OUT.pdf`: print an event's documents as a PDF.

The PDF is written to a temporary file beside OUT and renamed over it only when complete, so
an error (a missing board, a movement that does not fit) never leaves half a file behind.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from engine.boards import Board
from engine.commands._common import (
    CommandError,
    add_board_file_arguments,
    add_movement_size_arguments,
    add_option_argument,
    movement_from_args,
    parse_options,
    read_boards,
    read_movement_file,
)
from engine.games import GameRules, rules_for
from engine.movements import KINDS as MOVEMENT_KINDS
from engine.movements import Movement

NAME = "print"
HELP = "print curtain cards, hand records, travellers, guide cards ... of a PBN file as a PDF"

#: The documents, by the name the command takes, and whether each needs a movement.
DOCUMENTS = {
    "curtain-cards": False,
    "board-slips": False,
    "hand-records": False,
    "duplication-sheet": False,
    "travellers": True,
    "table-cards": True,
    "pair-cards": True,
    "pack": True,
}


def render(
    kind: str, boards: list[Board], rules: GameRules, movement: Movement | None, paper: str
) -> bytes:
    """The PDF of document `kind`. engine.printing (and reportlab) is imported here, so the
    other commands do not pay for loading it."""
    from engine import printing
    from engine.printing.movement import check_boards_fit

    if movement is not None:
        check_boards_fit(boards, movement)
    if not DOCUMENTS[kind]:
        simple = {
            "curtain-cards": printing.curtain_cards,
            "board-slips": printing.board_slips,
            "hand-records": printing.hand_records,
            "duplication-sheet": printing.duplication_sheet,
        }[kind]
        return simple(boards, rules, paper=paper)
    assert movement is not None
    if kind == "travellers":
        return printing.travellers(boards, rules, movement, paper=paper)
    if kind == "table-cards":
        return printing.table_cards(movement, paper=paper)
    if kind == "pair-cards":
        return printing.pair_cards(movement, paper=paper)
    return printing.print_pack(boards, rules, movement, paper=paper)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", metavar="KIND", help="one of " + ", ".join(DOCUMENTS))
    add_board_file_arguments(parser)
    add_option_argument(parser)
    parser.add_argument(
        "--movement",
        metavar="KIND",
        help=f"a built-in movement ({', '.join(sorted(MOVEMENT_KINDS))}) with --tables N ...",
    )
    parser.add_argument("--movement-file", metavar="FILE", help="a .csv or .asc movement")
    add_movement_size_arguments(parser, tables_required=False)
    parser.add_argument("--paper", default="a4", help="a4 (the default) or letter")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the PDF")


def _read_movement(args: argparse.Namespace) -> Movement | None:
    if args.movement and args.movement_file:
        raise CommandError("give --movement or --movement-file, not both")
    if args.movement:
        return movement_from_args(args.movement, args)
    if args.movement_file:
        return read_movement_file(args.movement_file, args.boards_per_round or 3)
    if DOCUMENTS[args.kind]:
        raise CommandError(
            f"printing {args.kind} needs a movement: "
            "--movement KIND --tables N, or --movement-file FILE"
        )
    return None


def _rules(boards: list[Board], path: str, options: dict[str, object]) -> GameRules:
    if not boards:
        raise CommandError(f"{path} holds no boards")
    variants = sorted({b.variant for b in boards})
    if len(variants) > 1:
        raise CommandError(f"{path} mixes games ({', '.join(variants)}): print one game at a time")
    rules = rules_for(variants[0], options)
    for board in boards:
        rules.check_board(board)
    return rules


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename, so
    readers see the old file or the whole new one, never a part."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(name, 0o644)  # mkstemp's 0600 is meant for secrets, not for a PDF
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    if args.kind not in DOCUMENTS:
        raise CommandError(f"unknown document {args.kind!r}: choose one of {', '.join(DOCUMENTS)}")
    options = parse_options(args.option)
    boards = sorted(read_boards(args.file, args.variant), key=lambda b: b.number)
    rules = _rules(boards, args.file, options)
    movement = _read_movement(args)
    data = render(args.kind, boards, rules, movement, args.paper)
    write_atomically(Path(args.output), data)
    return 0
