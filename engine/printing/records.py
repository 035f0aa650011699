"""Hand records (every board's four hands, with the double-dummy table and par when an
analysis is given) and board slips (the same diagram, one board a slip, cut apart and put in
the board wallets so a table can check or rebuild a board)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.boards import Board
from engine.games import GameRules
from engine.printing.hands import with_analysis
from engine.printing.toolkit import (
    MM,
    Block,
    Grid,
    Sheet,
    fill_grid,
    grid_for,
    paper_size,
)

__all__ = [
    "board_slips",
    "draw_board_slips",
    "draw_hand_records",
    "hand_records",
    "records_grid",
]

Analyses = Mapping[int, Mapping[str, Any]]

PAD = 3 * MM
#: Two boards across on A4 and Letter, whatever the deals: a wider board (a long suit, Open
#: Whist's columns) is shrunk into its cell rather than costing the page a column.
CELL_WIDTH = 88 * MM
#: A diagram may shrink to this share of its height before the page holds fewer rows.
SHRINK = 0.85


def _blocks(boards: Sequence[Board], rules: GameRules, analyses: Analyses | None) -> list[Block]:
    analyses = analyses or {}
    return [with_analysis(b, rules, analyses.get(b.number)) for b in boards]


def records_grid(size: tuple[float, float], blocks: Sequence[Block], *, cut_marks: bool) -> Grid:
    """Two boards across, as many down as the tallest board allows (shrunk at most to
    SHRINK). A game's diagrams are all as tall (four suit lines a hand), so the layout of an
    event's pages does not depend on its deals."""
    tallest = max((b.height for b in blocks), default=0)
    return grid_for(
        size,
        min_width=CELL_WIDTH,
        min_height=tallest * SHRINK + 2 * PAD,
        max_columns=2,
        cut_marks=cut_marks,
    )


def hand_records_grid(
    boards: Sequence[Board],
    rules: GameRules,
    *,
    analyses: Analyses | None = None,
    paper: str = "a4",
    slips: bool = False,
) -> Grid:
    """The grid `hand_records` (or with `slips`, `board_slips`) uses for these boards."""
    blocks = _blocks(boards, rules, None if slips else analyses)
    return records_grid(paper_size(paper), blocks, cut_marks=slips)


def draw_hand_records(
    sheet: Sheet, boards: Sequence[Board], rules: GameRules, analyses: Analyses | None
) -> None:
    sheet.begin_part("Hand records")
    blocks = _blocks(boards, rules, analyses)
    grid = records_grid((sheet.width, sheet.height), blocks, cut_marks=False)
    fill_grid(sheet, grid, blocks, pad=PAD)


def draw_board_slips(sheet: Sheet, boards: Sequence[Board], rules: GameRules) -> None:
    sheet.begin_part("Board slips")
    blocks = _blocks(boards, rules, None)
    grid = records_grid((sheet.width, sheet.height), blocks, cut_marks=True)
    fill_grid(sheet, grid, blocks, pad=PAD)


def hand_records(
    boards: Sequence[Board],
    rules: GameRules,
    *,
    analyses: Analyses | None = None,
    paper: str = "a4",
) -> bytes:
    """Hand records as PDF bytes: several boards a page; `analyses` maps a board number to
    its `BoardAnalysis.to_dict()` and adds the double-dummy table and par to that board."""
    sheet = Sheet(paper, title="Hand records")
    draw_hand_records(sheet, boards, rules, analyses)
    return sheet.finish()


def board_slips(boards: Sequence[Board], rules: GameRules, *, paper: str = "a4") -> bytes:
    """Board slips as PDF bytes: one board a slip, several slips a page, with cut marks."""
    sheet = Sheet(paper, title="Board slips")
    draw_board_slips(sheet, boards, rules)
    return sheet.finish()
