"""A season's tables on paper: every competition's table, one after another, on the club's
paper, to pin up on the noticeboard.

The app gathers the document (`SeasonSheet`: the names already as the public pages show them,
the figures already as the tables show them); this module only lays it out, knowing nothing of
Django. Members short of the qualifying evenings follow each table's ranked members, unplaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.printing.common import DASH
from engine.printing.toolkit import (
    GREY,
    MM,
    Column,
    Flow,
    Sheet,
    Table,
    paragraph,
    text_block,
    vstack,
)

__all__ = ["SeasonCompetition", "SeasonRow", "SeasonSheet", "season_pdf"]


@dataclass(frozen=True)
class SeasonRow:
    """One member's line as printed: place ("" unplaced), name, evenings played and counted,
    the figure as shown, the detail."""

    place: str
    name: str
    played: int
    counted: int
    shown: str
    detail: str


@dataclass(frozen=True)
class SeasonCompetition:
    """One competition: its name, what it is (in words), its figure's heading, the rule
    (best of, qualifying evenings, ties) in words, and its rows."""

    name: str
    kind: str
    heading: str
    rule: str
    rows: Sequence[SeasonRow]


@dataclass(frozen=True)
class SeasonSheet:
    """The season's document: its name, dates and "as of" time in words, its competitions."""

    club: str
    name: str
    dates: str
    as_of: str
    competitions: Sequence[SeasonCompetition]


def _table(competition: SeasonCompetition) -> Table:
    columns = [
        Column("Place", "right", bold=True),
        Column("Name", flex=True, min_width=45 * MM),
        Column("Played", "right"),
        Column("Counted", "right"),
        Column(competition.heading, "right", bold=True),
        Column("Detail"),
    ]
    body = [
        [
            row.place or DASH,
            row.name,
            str(row.played),
            str(row.counted),
            row.shown or DASH,
            row.detail,
        ]
        for row in competition.rows
    ]
    return Table(columns, body, size=9.5, row_height=9.5 * 1.7)


def season_pdf(sheet_data: SeasonSheet, *, paper: str = "a4") -> bytes:
    """The season's tables as PDF bytes: a heading, then each competition with its rule in
    words and its table (split across pages with its heading repeated)."""
    sheet = Sheet(paper, title=f"{sheet_data.club}: {sheet_data.name}")
    sheet.begin_part(sheet_data.name)
    flow = Flow(sheet, gap=3 * MM)
    facts = [sheet_data.club, sheet_data.dates, sheet_data.as_of]
    flow.block(
        vstack(
            [
                text_block(sheet_data.name, 18, bold=True),
                text_block(" · ".join(f for f in facts if f), 9, color=GREY),
            ]
        )
    )
    if not sheet_data.competitions:
        flow.block(text_block("No competitions in this season yet.", 10, color=GREY))
    for competition in sheet_data.competitions:
        table = _table(competition)
        flow.need(20 * MM + table.row_height * min(len(table.rows) + 1, 5))
        flow.block(text_block(competition.name, 13, bold=True), gap=1 * MM)
        flow.block(
            paragraph(f"{competition.kind}. {competition.rule}", 8.5, flow.width, color=GREY)
        )
        if competition.rows:
            flow.table(table)
        else:
            flow.block(text_block("No evenings counted yet.", 9, color=GREY))
    return sheet.finish()
