"""Dealing boards: truly random for real events, reproducible from a seed for demos and tests.

With no seed the cards are shuffled by `secrets.SystemRandom` (the operating system's
generator), so nobody can predict a real event's hands. With a seed, each board gets its own
generator seeded from the text ``clubwhist|<variant>|<seed>|<board number>``, so board 7
comes out the same whether you deal boards 1-24 or just 5-8.

>>> a = deal_boards("classic", range(1, 5), seed=7)
>>> b = deal_boards("classic", [3], seed=7)
>>> a[2] == b[0]
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping

from engine.boards import Board, BoardError
from engine.games import find_variant

__all__ = ["deal_boards", "parse_board_range"]


def deal_boards(
    variant: str,
    numbers: Iterable[int],
    *,
    seed: int | str | None = None,
    options: Mapping[str, object] | None = None,
) -> list[Board]:
    """Deal boards `numbers` of game `variant`; `options` are the game's options."""
    rules = find_variant(variant)(options)
    boards: list[Board] = []
    system = secrets.SystemRandom() if seed is None else None
    for number in numbers:
        rng: random.Random = (
            system
            if system is not None
            else random.Random(f"clubwhist|{rules.name}|{seed}|{number}")
        )
        boards.append(rules.deal_board(number, rng))
    return boards


def parse_board_range(text: str) -> list[int]:
    """'1-24', '1,3,5-8' or '7' as board numbers; BoardError for anything else."""
    numbers: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise BoardError(f"{text!r} is not a board range (write it like 1-24 or 1,3,5-8)")
        first, last = int(low), int(high) if dash else int(low)
        if first < 1 or last < first:
            raise BoardError(f"{part!r} is not a board range: boards count up from 1")
        numbers.extend(range(first, last + 1))
    if len(set(numbers)) != len(numbers):
        raise BoardError(f"{text!r} names a board twice")
    return numbers
