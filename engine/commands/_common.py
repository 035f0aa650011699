"""Helpers shared by the sub-commands (the leading underscore keeps it out of the command list)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine import EngineError
from engine.boards import Board
from engine.movements import (
    Movement,
    MovementError,
    build,
    default_arrow_switch,
    loads_asc,
    loads_csv,
)
from engine.pbn import loads


class CommandError(EngineError):
    """A command-line argument that cannot be used as given."""


def add_board_file_arguments(parser: argparse.ArgumentParser) -> None:
    """The PBN file to read and the game of boards that carry no WhistVariant tag."""
    from engine.games import variant_names

    parser.add_argument("file", help="a PBN file ('-' for standard input)")
    parser.add_argument(
        "--variant",
        default="classic",
        choices=variant_names(),
        help="the game of boards without a WhistVariant tag (default classic)",
    )


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. scoring=andrews (repeat for more)",
    )


def parse_options(items: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise CommandError(f"--option {item!r} must be written KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def read_boards(path: str, variant: str = "classic") -> list[Board]:
    """Boards from a PBN file, or from standard input when the path is '-'."""
    if path == "-":
        return loads(sys.stdin.read(), variant=variant)
    with open(path, encoding="utf-8-sig") as handle:
        return loads(handle.read(), variant=variant)


def pick_board(boards: list[Board], number: int, path: str) -> Board:
    for board in boards:
        if board.number == number:
            return board
    raise CommandError(f"{path} has no board {number}")


def add_movement_size_arguments(parser: argparse.ArgumentParser, *, tables_required: bool) -> None:
    """The settings of a built-in movement: tables, rounds, boards a round, arrow switch,
    phantom (the `movement` command, and `print` after --movement KIND)."""
    parser.add_argument("--tables", type=int, required=tables_required, help="number of tables")
    parser.add_argument("--rounds", type=int, help="play fewer rounds than the full movement")
    parser.add_argument("--boards-per-round", type=int, help="boards in each set (k)")
    parser.add_argument(
        "--arrow-switch",
        metavar="ROUNDS",
        help="Mitchell only: comma-separated rounds to arrow-switch, or 'auto' (EBU practice)",
    )
    parser.add_argument("--phantom", action="store_true", help="a phantom pair: one pair sits out")


def _arrow_rounds(text: str | None, rounds: int) -> list[int]:
    if not text:
        return []
    if text.strip().lower() == "auto":
        return sorted(default_arrow_switch(rounds))
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise MovementError(f"--arrow-switch wants round numbers like 8,9, not {text!r}") from None


def movement_from_args(kind: str, args: argparse.Namespace) -> Movement:
    """The movement `kind` built with the settings `add_movement_size_arguments` read."""
    if args.tables is None:
        raise CommandError(f"say how many tables the {kind} has: --tables N")
    params: dict[str, Any] = {"tables": args.tables, "phantom": args.phantom}
    if args.rounds is not None:
        params["rounds"] = args.rounds
    if args.boards_per_round is not None:
        params["boards_per_round"] = args.boards_per_round
    if args.arrow_switch:
        if kind == "howell":
            raise MovementError("a Howell is already one field: there is nothing to switch")
        rounds = build(kind, **params).rounds
        params["arrow_switch"] = _arrow_rounds(args.arrow_switch, rounds)
    return build(kind, **params)


def read_movement_file(path: str | Path, boards_per_round: int = 3) -> Movement:
    """A custom movement from a .csv (round,table,ns,ew,set) or .asc file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".asc"):
        raise CommandError(f"{path}: a movement file is .csv or .asc")
    body = path.read_text(encoding="utf-8")
    if suffix == ".csv":
        return loads_csv(body, boards_per_round=boards_per_round)
    return loads_asc(body, boards_per_round=boards_per_round)
