"""Helpers shared by the sub-commands (the leading underscore keeps it out of the command list)."""

from __future__ import annotations

import argparse
import sys

from engine import EngineError
from engine.boards import Board
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
