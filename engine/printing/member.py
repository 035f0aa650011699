"""A member's page on paper: their name and handicap, the summary per format, then every
evening they played (date, format, evening, partners, place, percentage, points, games won).

The app passes the history already named for its reader (`engine.season.member`: a public
copy names everyone by their own choice), so the paper shows exactly what the page shows.
"""

from __future__ import annotations

from fractions import Fraction

from engine.printing.common import DASH, date_words, fitted_line
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
from engine.scoring.model import format_points
from engine.season.member import MemberHistory

__all__ = ["member_pdf"]


def _figure(value: Fraction | None) -> str:
    return DASH if value is None else format_points(value)


def member_pdf(
    name: str,
    club: str,
    history: MemberHistory,
    *,
    period: str,
    handicap: str,
    handicap_rule: str,
    paper: str = "a4",
) -> bytes:
    """The member's history as PDF bytes; `period` says which evenings ("Season 2026-27",
    "every published evening")."""
    sheet = Sheet(paper, title=f"{name}: results at {club}")
    sheet.begin_part("Member")
    flow = Flow(sheet, gap=3 * MM)
    facts = f"{club} · {period} · handicap {handicap} ({handicap_rule})"
    flow.block(
        vstack(
            [
                fitted_line(name, 18, flow.width, bold=True),
                paragraph(facts, 9, flow.width, color=GREY),
            ]
        )
    )
    if not history.evenings:
        flow.block(paragraph("No published evening in this period.", 11, flow.width))
        return sheet.finish()
    summary = [
        [
            s.format_name,
            str(s.evenings),
            _figure(s.average),
            _figure(s.best_percentage),
            s.best_place or DASH,
            str(s.won),
        ]
        for s in history.summaries
    ]
    flow.block(text_block("Summary", 12, bold=True), gap=1.5 * MM)
    flow.table(
        Table(
            [
                Column("Format", bold=True, flex=True),
                Column("Evenings", "right"),
                Column("Average %", "right"),
                Column("Best %", "right"),
                Column("Best place", "right"),
                Column("Won", "right"),
            ],
            summary,
            size=10,
        )
    )
    rows = [
        [
            date_words(e.date),
            e.format_name,
            e.play_name,
            ", ".join(e.partners) or DASH,
            e.place,
            _figure(e.percentage),
            _figure(e.points),
            _figure(e.wins),
        ]
        for e in history.evenings
    ]
    flow.block(text_block("Evenings", 12, bold=True), gap=1.5 * MM)
    flow.table(
        Table(
            [
                Column("Date"),
                Column("Format"),
                Column("Evening", flex=True),
                Column("Partners", flex=True),
                Column("Place", "right"),
                Column("%", "right"),
                Column("Points", "right"),
                Column("Won", "right"),
            ],
            rows,
            size=9,
        )
    )
    return sheet.finish()
