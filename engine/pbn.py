"""Portable Bridge Notation 2.1 for whist boards, read and written like the json module.

The format, with clubwhist's whist extension tags, is described in `engine.pbn_text`, which
reads and writes it; this module turns what it reads into checked `Board`s. A board reads its
game's shape from the registry the games enter when `engine.games` is imported, so this module
imports the games: reading a file then works in a program that imports nothing else.

>>> from engine.dealing import deal_boards
>>> boards = deal_boards("bidwhist", [1, 2], seed=3)
>>> loads(dumps(boards)) == boards
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

import engine.games  # noqa: F401  (enters every game's board shape; see the docstring)
from engine.boards import Board
from engine.pbn_text import HEADER, PBNError, board_lines, parse

__all__ = ["PBNError", "dump", "dumps", "load", "loads"]


def loads(text: str, *, variant: str = "classic") -> list[Board]:
    """The boards in PBN `text`; games without a Deal (headers, notes) are skipped. Without a
    `WhistVariant` tag a board is read as `variant`."""
    return parse(text, variant=variant, make=Board.from_fields)


def load(fp: TextIO, *, variant: str = "classic") -> list[Board]:
    return loads(fp.read(), variant=variant)


def dumps(boards: Iterable[Board], *, header: bool = True) -> str:
    """PBN text for `boards`, one game per board, games separated by a blank line."""
    chunks = [HEADER] if header else []
    chunks.extend("\n".join(board_lines(board)) + "\n" for board in boards)
    return "\n".join(chunks)


def dump(boards: Iterable[Board], fp: TextIO, *, header: bool = True) -> None:
    fp.write(dumps(boards, header=header))
