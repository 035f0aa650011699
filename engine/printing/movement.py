"""What the travellers and guide cards read from a movement: who plays which board where,
how pairs are named, and whether the boards given are the boards the movement plays."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.boards import Board
from engine.movements import PHANTOM, Meeting, Movement
from engine.printing.toolkit import PrintError
from engine.scoring.model import pair_key

__all__ = ["check_boards_fit", "number_ranges", "pair_label", "plays_of_board"]


def number_ranges(numbers: Iterable[int]) -> str:
    """'1-4, 7, 9-10': board numbers as a person writes them."""
    ordered = sorted(set(numbers))
    parts: list[str] = []
    start = prev = None
    for n in [*ordered, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


def _boards(numbers: Iterable[int]) -> str:
    """'board 7' or 'boards 7-9, 12'."""
    ordered = sorted(set(numbers))
    return f"board{'s' if len(ordered) > 1 else ''} {number_ranges(ordered)}"


def played_boards(movement: Movement) -> set[int]:
    """The boards some table plays (a set that only rests on the relay stand is not played)."""
    sets = {m.set for m in movement.meetings if not m.sit_out}
    return {b for s in sets for b in movement.boards_for_set(s)}


def check_boards_fit(boards: Sequence[Board], movement: Movement) -> None:
    """PrintError unless the boards are exactly the ones the movement plays, each once: a
    traveller for a board nobody plays, or a missing board, means the wrong file or movement."""
    numbers = [b.number for b in boards]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise PrintError(f"{_boards(twice)} given more than once")
    needed = played_boards(movement)
    missing = needed - set(numbers)
    if missing:
        raise PrintError(
            f"the movement plays {_boards(needed)}, but {_boards(missing)} "
            f"{'are' if len(missing) > 1 else 'is'} missing"
        )
    extra = set(numbers) - needed
    if extra:
        raise PrintError(
            f"{_boards(extra)} {'are' if len(extra) > 1 else 'is'} not played in this "
            f"movement (it plays {_boards(needed)})"
        )


def plays_of_board(movement: Movement, board: int) -> list[Meeting]:
    """The meetings that play `board`, in round and table order; sit-outs left out."""
    board_set = movement.set_of_board(board)
    return sorted(m for m in movement.meetings if m.set == board_set and not m.sit_out)


def pair_label(
    movement: Movement, number: int, direction: str, names: Mapping[str, str] | None
) -> str:
    """A pair's number, with its players' names when known. `direction` is the pair's own
    direction (its field in a two-winner movement); names are keyed as the standings key
    pairs (`pair_key`: '3' in one field, 'NS3'/'EW3' in two)."""
    if number == PHANTOM:
        return "sit out"
    if not names:
        return str(number)
    key = pair_key(number, None if movement.one_winner else direction)
    found = names.get(key, "")
    return f"{number}  {found}" if found else str(number)
