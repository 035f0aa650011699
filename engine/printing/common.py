"""Small pieces of paper that every format's documents use: dates in words, names that shrink
rather than get cut short, a line to write on, a ruled table as a block.

They live here, beside the toolkit, and not in one format's package, so the duplicate pairs'
documents, the drives' and the teams' each import only this module and the toolkit, never one
another (`.importlinter` says so). Anything a second format needs from a first one moves here.
"""

from __future__ import annotations

import datetime

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from engine.printing.toolkit import (
    BLACK,
    GREY,
    MM,
    Block,
    Painter,
    Table,
    draw_text,
    paragraph,
    text_block,
    text_width,
)

__all__ = [
    "DASH",
    "date_words",
    "fitted_line",
    "fitted_name",
    "table_block",
    "write_in",
]

#: What an empty cell or a void suit shows: a dash reads as "nothing" where a blank looks
#: like something forgotten.
DASH = "—"


def date_words(date: str | datetime.date | None) -> str:
    """A date as people write it on paper ('11 April 2026'); text is kept as given, so a club
    can print 'Tuesday' or leave it out."""
    if isinstance(date, datetime.date):
        return f"{date.day} {date:%B %Y}"
    return (date or "").strip()


def fitted_name(text: str, size: float, width: float, *, bold: bool = True) -> Block:
    """A name on at most two lines, the type shrinking until it fits: never cut short."""
    words = text.split()
    least = size * 0.45
    while True:
        widest = max(text_width(word, size, bold) for word in words)
        lines = paragraph(text, size, width, bold=bold)
        if (widest <= width and lines.height <= 2 * size * 1.26) or size <= least:
            return lines
        size *= 0.92


def fitted_line(
    text: str, size: float, width: float, *, bold: bool = False, color: Color = BLACK
) -> Block:
    """One line, its type shrunk (down to 45 %) until it fits `width`: never cut short."""
    measured = text_width(text, size, bold)
    if measured > width > 0:
        size = max(size * 0.45, size * width / measured)
    return text_block(text, size, bold=bold, color=color)


def table_block(table: Table, width: float | None = None) -> Block:
    """A ruled table as a block: at its natural width, or laid out to `width` (its write-in
    columns taking the room to spare, its type shrinking when it is too wide)."""
    _, widths = table.layout(width)
    used = sum(widths)

    def paint(c: Canvas, x: float, y_top: float) -> None:
        table.draw(c, x, y_top, used)

    return Block(used, table.height(), paint)


def write_in(label: str, width: float) -> Painter:
    """A label and a line to write on, for a name the club does not know yet."""

    def paint(c: Canvas, x: float, y_top: float) -> None:
        draw_text(c, x, y_top - 12, label, 9, color=GREY)
        c.saveState()
        c.setStrokeColor(GREY)
        c.setLineWidth(0.5)
        c.line(x + text_width(label, 9) + 2 * MM, y_top - 13, x + width, y_top - 13)
        c.restoreState()

    return paint
