"""Score sheets for games played on paper: one per table, a page each, kept by the two teams
while they play and handed in with both signatures.

A sheet names the round, the table and its two teams (the home team sits North-South), says in
words how the game ends, and gives a row per hand: the hand's number, the declarer, the bid,
uptown, downtown or no trump, the trumps (to circle), the declarers' books, each team's points
in the hand and each team's running total. Below the hands: the final score, the hands won and
the Bostons of each team, the winner, and a line for each team to sign ("we agree").
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from engine.printing.common import date_words, fitted_line, fitted_name, write_in
from engine.printing.teams.common import TableLine, TeamLine, team_facts
from engine.printing.toolkit import (
    GREY,
    MM,
    SHADE,
    Block,
    PrintError,
    Sheet,
    draw_text,
    hstack,
    paper_size,
    paragraph,
    place,
    spacer,
    text_block,
    text_width,
    vstack,
)

__all__ = ["HAND_ROWS", "score_sheets_pdf"]

#: Rows for hands: a game to 7 rarely takes more than a dozen, and a passed-out hand takes one.
HAND_ROWS = 16
ROW_MIN, ROW_MAX = 6 * MM, 9 * MM
HEAD_ROW = 6 * MM
MARGIN = 12 * MM


@dataclass(frozen=True)
class _Column:
    heading: str
    width: float  # 0: a share of what the fixed columns leave
    prompt: str = ""  # printed in grey, to circle


_FIXED = (
    _Column("Hand", 11 * MM),
    _Column("Declarer", 25 * MM, "N   E   S   W"),
    _Column("Bid", 11 * MM),
    _Column("Uptown / downtown / no trump", 27 * MM, "U    D    NT"),
    _Column("Trumps", 25 * MM, "♠   ♥   ♦   ♣"),
    _Column("Books", 13 * MM),
)
GROUPS = ("Points this hand", "Running total")

NOTE = (
    "Circle the declarer, uptown (U), downtown (D) or no trump (NT: circle U or D as well), and "
    "the trumps. Bid: the books over six (3 to 7). Books: the declarers' books, the kitty book "
    "included. A Boston: a bid of 7 and all 13 books."
)


def _widths(width: float) -> list[float]:
    fixed = sum(column.width for column in _FIXED)
    share = (width - fixed) / 4
    if share < 12 * MM:
        raise PrintError("score sheets: the paper is too narrow for the hands' columns")
    return [column.width for column in _FIXED] + [share] * 4


def _short(team: TeamLine, side: str, width: float) -> str:
    """A team's name over its columns, on two lines at most; just its side when the name
    would have to shrink too far to read."""
    text = f"{team.shown} ({side})"
    return text if text_width(text, 6.5, True) <= 1.8 * width else side


def _grid(home: TeamLine, away: TeamLine, rows: int, row_height: float, width: float) -> Block:
    """The hands' grid: a two-line heading (the points and totals grouped, a team a column),
    then a row per hand with its number and the choices to circle printed in grey."""
    widths = _widths(width)
    xs = [0.0]
    for w in widths:
        xs.append(xs[-1] + w)
    head = 2 * HEAD_ROW
    height = head + rows * row_height
    size = min(10.0, row_height * 0.42)
    names = [_short(home, "NS", widths[-1]), _short(away, "EW", widths[-1])] * 2

    def paint(c: Canvas, x: float, y_top: float) -> None:
        c.saveState()
        c.setFillColor(SHADE)
        c.rect(x, y_top - head, width, head, stroke=0, fill=1)
        c.restoreState()
        for k, column in enumerate(_FIXED):
            lines = paragraph(column.heading, 7.5, widths[k] - 1.5 * MM, bold=True)
            place(c, lines, x + xs[k], y_top - (head - lines.height) / 2, widths[k], head)
        for g, group in enumerate(GROUPS):
            left = x + xs[len(_FIXED) + 2 * g]
            label = fitted_line(group, 8, 2 * widths[-1] - 2 * MM, bold=True)
            place(c, label, left, y_top - 1.2 * MM, 2 * widths[-1], HEAD_ROW)
        for n, name in enumerate(names):
            k = len(_FIXED) + n
            label = fitted_name(name, 7, widths[k] - 1.5 * MM)
            top = y_top - HEAD_ROW - max(0.0, HEAD_ROW - label.height) / 2
            place(c, label, x + xs[k], top, widths[k], HEAD_ROW)
        for row in range(rows):
            base = y_top - head - (row + 1) * row_height + (row_height - size * 0.72) / 2
            mid = x + widths[0] / 2
            draw_text(c, mid, base, str(row + 1), size, bold=True, align="center")
            for k, column in enumerate(_FIXED):
                if column.prompt:
                    middle = x + xs[k] + widths[k] / 2
                    draw_text(c, middle, base, column.prompt, size, color=GREY, align="center")
        _rules(c, x, y_top, xs, head, rows, row_height)

    return Block(width, height, paint)


def _rules(
    c: Canvas, x: float, y_top: float, xs: list[float], head: float, rows: int, row: float
) -> None:
    bottom = y_top - head - rows * row
    right = x + xs[-1]
    c.saveState()
    c.setStrokeColor(GREY)
    c.setLineWidth(0.9)
    c.rect(x, bottom, xs[-1], y_top - bottom, stroke=1, fill=0)
    c.line(x, y_top - head, right, y_top - head)
    c.setLineWidth(0.4)
    for n in range(1, rows):
        c.line(x, y_top - head - n * row, right, y_top - head - n * row)
    first = len(_FIXED)
    for k, xv in enumerate(xs[1:-1], start=1):
        top = y_top - HEAD_ROW if k in (first + 1, first + 3) else y_top
        c.setLineWidth(0.9 if k in (first, first + 2) else 0.4)
        c.line(x + xv, top, x + xv, bottom)
    c.setLineWidth(0.4)
    c.line(x + xs[first], y_top - HEAD_ROW, right, y_top - HEAD_ROW)
    c.restoreState()


SIDES = ("North-South (home):", "East-West (away):")


def _team_line(side: str, team: TeamLine, width: float) -> Block:
    """The side's label, then the team's name and facts, all names starting at one place."""
    label_width = max(text_width(words, 10) for words in SIDES) + 3 * MM
    room = width - label_width
    who = vstack(
        [fitted_name(team.shown, 15, room), fitted_line(team_facts(team), 9, room, color=GREY)]
    )
    label = text_block(side, 10, color=GREY)
    return hstack([label, spacer(0, label_width - label.width), who])


def _final(home: TeamLine, away: TeamLine, width: float) -> Block:
    """The game's end: each team's final score, hands won and Bostons, a column a team."""
    label, head, row = 32 * MM, 10 * MM, 8 * MM
    half = (width - label) / 2
    names = [
        fitted_name(f"{team.shown} ({side})", 10, half - 3 * MM)
        for team, side in ((home, "North-South"), (away, "East-West"))
    ]
    lines = ("Final score", "Hands won", "Bostons")
    height = head + len(lines) * row

    def paint(c: Canvas, x: float, y_top: float) -> None:
        c.saveState()
        c.setFillColor(SHADE)
        c.rect(x, y_top - head, width, head, stroke=0, fill=1)
        c.restoreState()
        for k, name in enumerate(names):
            top = y_top - (head - name.height) / 2
            place(c, name, x + label + k * half, top, half, head)
        for n, words in enumerate(lines):
            base = y_top - head - (n + 1) * row + (row - 10 * 0.72) / 2
            draw_text(c, x + 2 * MM, base, words, 10, bold=True)
        c.saveState()
        c.setStrokeColor(GREY)
        c.setLineWidth(0.9)
        c.rect(x, y_top - height, width, height, stroke=1, fill=0)
        c.line(x, y_top - head, x + width, y_top - head)
        c.setLineWidth(0.4)
        for n in range(1, len(lines)):
            c.line(x, y_top - head - n * row, x + width, y_top - head - n * row)
        for xv in (x + label, x + label + half):
            c.line(xv, y_top, xv, y_top - height)
        c.restoreState()

    return Block(width, height, paint)


def _signatures(home: TeamLine, away: TeamLine, width: float) -> Block:
    line = 9 * MM

    def sign(label: str) -> Block:
        return Block(width, line, write_in(label, width))

    return vstack(
        [
            sign("Winner:"),
            text_block("We agree that this sheet is the game as played.", 10, bold=True),
            spacer(2 * MM),
            sign(f"For {home.shown} (North-South), signed:"),
            sign(f"For {away.shown} (East-West), signed:"),
        ]
    )


def _sheet(
    table: TableLine,
    round_number: int,
    named: str,
    game_text: str,
    rows: int,
    width: float,
    height: float,
) -> Block:
    top = vstack(
        [
            fitted_line(named, 10, width, color=GREY),
            text_block(f"Score sheet · Round {round_number} · Table {table.table}", 20, bold=True),
            spacer(2 * MM),
            _team_line(SIDES[0], table.home, width),
            spacer(1 * MM),
            _team_line(SIDES[1], table.away, width),
            spacer(2 * MM),
            paragraph(f"Game: {game_text.strip().rstrip('.')}." if game_text else "", 11, width),
            paragraph(NOTE, 8, width, color=GREY),
        ],
        0.5 * MM,
    )
    final = _final(table.home, table.away, width)
    signatures = _signatures(table.home, table.away, width)
    gaps = 3 * 4 * MM
    room = height - top.height - final.height - signatures.height - gaps - 2 * HEAD_ROW
    row_height = max(ROW_MIN, min(ROW_MAX, room / rows))
    grid = _grid(table.home, table.away, rows, row_height, width)
    return vstack([top, grid, final, signatures], 4 * MM)


def score_sheets_pdf(
    title: str,
    date: str | datetime.date | None,
    round_number: int,
    tables: Sequence[TableLine],
    game_text: str,
    *,
    rows: int = HAND_ROWS,
    paper: str = "a4",
) -> bytes:
    """A score sheet per table of `tables` as PDF bytes, a page each: the round and table, the
    two teams, how the game ends (`game_text`, "first team to 7 points, or the other team
    driven to -7"), `rows` rows for hands, the final score, the Bostons and the signatures."""
    if not tables:
        raise PrintError("tables: give at least one table to print a score sheet for")
    if not 1 <= rows <= 60:
        raise PrintError(f"rows: from 1 to 60 rows for hands, not {rows}")
    named = " · ".join(part for part in (title.strip(), date_words(date)) if part)
    width, height = paper_size(paper)
    area_w, area_h = width - 2 * MARGIN, height - 2 * MARGIN - 4 * MM  # above the footer
    sheet = Sheet(paper, title=f"{title.strip() or 'Tournament'}: score sheets")
    sheet.begin_part(f"Score sheets, round {round_number}")
    for index, table in enumerate(sorted(tables, key=lambda table: table.table)):
        if index:
            sheet.new_page()
        block = _sheet(table, round_number, named, game_text, rows, area_w, area_h)
        place(sheet.canvas, block, MARGIN, height - MARGIN, area_w, area_h, align="left")
    return sheet.finish()
