"""The print pack: every document of an event in one PDF, in the order a director uses them
(curtain cards and hand records before the event, travellers and guide cards at the tables,
the results sheet after), each part bookmarked and starting on a fresh page."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.boards import Board
from engine.games import GameRules
from engine.movements import Movement
from engine.printing.curtain import draw_curtain_cards
from engine.printing.duplication import draw_duplication_sheet
from engine.printing.guides import draw_pair_cards, draw_table_cards
from engine.printing.movement import check_boards_fit
from engine.printing.records import draw_board_slips, draw_hand_records
from engine.printing.results import draw_results_sheet
from engine.printing.toolkit import Sheet
from engine.printing.travellers import draw_travellers
from engine.scoring.document import StandingsDocument

__all__ = ["Progress", "print_pack"]

Progress = Callable[[int, int, str], None]
"""progress(done, total, label): called after each part of the pack."""


def print_pack(
    boards: Sequence[Board],
    rules: GameRules,
    movement: Movement,
    *,
    document: StandingsDocument | None = None,
    analyses: Mapping[int, Mapping[str, Any]] | None = None,
    names: Mapping[str, str] | None = None,
    links: Mapping[int, str] | None = None,
    title: str = "",
    paper: str = "a4",
    progress: Progress | None = None,
    contracts: Mapping[tuple[int, int], str] | None = None,
    printed: str = "",
) -> bytes:
    """Every document for the event as one PDF: curtain cards, hand records, board slips,
    the duplication sheet, travellers, table cards, pair cards, and the results sheet when a
    standings `document` is given. `progress` is told after each part, for a progress bar."""
    check_boards_fit(boards, movement)
    sheet = Sheet(paper, title=title or "Print pack")
    parts: list[tuple[str, Callable[[], None]]] = [
        ("curtain cards", lambda: draw_curtain_cards(sheet, boards, rules)),
        ("hand records", lambda: draw_hand_records(sheet, boards, rules, analyses)),
        ("board slips", lambda: draw_board_slips(sheet, boards, rules)),
        ("duplication sheet", lambda: draw_duplication_sheet(sheet, boards, rules)),
        ("travellers", lambda: draw_travellers(sheet, boards, rules, movement, names)),
        ("table cards", lambda: draw_table_cards(sheet, movement, links)),
        ("pair cards", lambda: draw_pair_cards(sheet, movement, names)),
    ]
    if document is not None:
        parts.append(
            (
                "results sheet",
                lambda: draw_results_sheet(
                    sheet,
                    document,
                    boards,
                    rules,
                    analyses,
                    title,
                    contracts=contracts,
                    printed=printed,
                ),
            )
        )
    for done, (label, draw) in enumerate(parts, start=1):
        draw()
        if progress is not None:
            progress(done, len(parts), label)
    return sheet.finish()
