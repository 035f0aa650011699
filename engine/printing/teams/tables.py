"""A round's tables, to pin on the wall: each table's two teams in type large enough to read
from across the room (the home team sits North-South, the away team East-West), and the teams
on a bye. Given several rounds (a schedule fixed before play: round robin, moving team), each
round starts a page of its own, so the whole night can be printed before the first game."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from engine.printing.common import date_words, fitted_line, fitted_name
from engine.printing.teams.common import RoundLines, TeamLine, team_facts
from engine.printing.toolkit import (
    GREY,
    LIGHT,
    MM,
    Block,
    Flow,
    PrintError,
    Sheet,
    draw_text,
    paragraph,
    spacer,
    text_block,
    text_width,
    vstack,
)

__all__ = ["round_tables_pdf"]

#: The "v" between the teams, the room around a row, the teams' type sizes.
VERSUS_WIDTH = 10 * MM
ROW_PAD = 2.2 * MM
LARGEST, SMALLEST = 30.0, 12.0


def _team(team: TeamLine, size: float, width: float) -> Block:
    facts = fitted_line(team_facts(team), _facts_size(size), width, color=GREY)
    return vstack([fitted_name(team.shown, size, width), facts], 0.4 * MM)


def _number_width(last: int, size: float) -> float:
    """The table number's column: "Table 12" in the rows' type, and a gap."""
    return text_width(f"Table {last}", size * 1.05, True) + 5 * MM


def _row(table: int, home: Block, away: Block, size: float, width: float, left: float) -> Block:
    """One table's line: its number, the home team, "v", the away team, and a light rule;
    the teams start `left` in."""
    number = text_block(f"Table {table}", size * 1.05, bold=True)
    versus = text_block("v", size * 0.8, color=GREY)
    height = max(home.height, away.height, number.height) + 2 * ROW_PAD
    half = (width - left - VERSUS_WIDTH) / 2

    def paint(c: Canvas, x: float, y_top: float) -> None:
        middle = y_top - height / 2
        number.draw(c, x, middle + number.height / 2)
        home.draw(c, x + left, y_top - ROW_PAD)
        versus.draw(c, x + left + half + VERSUS_WIDTH / 3, middle + versus.height / 2)
        away.draw(c, x + left + half + VERSUS_WIDTH, y_top - ROW_PAD)
        c.saveState()
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.6)
        c.line(x, y_top - height, x + width, y_top - height)
        c.restoreState()

    return Block(width, height, paint)


def _facts_size(size: float) -> float:
    return max(7.5, size * 0.5)


def _size_for(count: int, room: float) -> float:
    """The teams' type size that fits `count` tables in `room` (a name on one line), from
    LARGEST down to SMALLEST; more tables than that go on to the next page."""
    size = LARGEST
    while size > SMALLEST:
        row = size * 1.25 + 0.4 * MM + _facts_size(size) * 1.25 + 2 * ROW_PAD
        if row * count <= room:
            break
        size -= 0.5
    return max(size, SMALLEST)


def _page_head(flow: Flow, title: str, number: int, total: int, left: float, more: bool) -> None:
    words = f"Round {number} of {total}" if total else f"Round {number}"
    if more:
        words += " (continued)"
    big = text_block(words, 26, bold=True)
    flow.block(vstack([big, fitted_line(title, 11, flow.width, color=GREY)]), gap=2 * MM)
    half = (flow.width - left - VERSUS_WIDTH) / 2

    def paint(c: Canvas, x: float, y_top: float) -> None:
        draw_text(c, x + left, y_top - 9, "North-South (home)", 9, color=GREY)
        away = x + left + half + VERSUS_WIDTH
        draw_text(c, away, y_top - 9, "East-West (away)", 9, color=GREY)

    flow.block(Block(flow.width, 9 * 1.4, paint), gap=0)


def round_tables_pdf(
    title: str,
    date: str | datetime.date | None,
    rounds: Sequence[RoundLines],
    rounds_total: int = 0,
    *,
    paper: str = "a4",
) -> bytes:
    """The tables of each round in `rounds` as PDF bytes, a round to a page (or more, for a
    room of many tables): "Round 2 of 5" (`rounds_total`; 0 leaves "of n" out), each table's
    number, its North-South (home) and East-West (away) team with the team's number, city and
    players, and the byes."""
    if not rounds:
        raise PrintError("rounds: give at least one round to print")
    named = " · ".join(part for part in (title.strip(), date_words(date)) if part)
    sheet = Sheet(paper, title=f"{title.strip() or 'Tournament'}: tables")
    for round_ in rounds:
        sheet.begin_part(f"Round {round_.number}")
        flow = Flow(sheet, gap=0)
        byes = _byes(round_, flow.width)
        room = flow.room - 24 * MM - byes.height - 4 * MM  # below the round's heading
        size = _size_for(len(round_.tables), room)
        last = max((table.table for table in round_.tables), default=1)
        left = _number_width(last, size)
        _page_head(flow, named, round_.number, rounds_total, left, more=False)
        name_width = (flow.width - left - VERSUS_WIDTH) / 2 - 2 * MM
        for table in round_.tables:
            home = _team(table.home, size, name_width)
            away = _team(table.away, size, name_width)
            row = _row(table.table, home, away, size, flow.width, left)
            if row.height > flow.room:
                flow.page()
                _page_head(flow, named, round_.number, rounds_total, left, more=True)
            flow.block(row)
        if not round_.tables:
            flow.block(text_block("No tables this round.", 12, color=GREY))
        if byes.height:
            flow.need(byes.height + 4 * MM)
            flow.block(spacer(4 * MM))
            flow.block(byes)
    return sheet.finish()


def _byes(round_: RoundLines, width: float) -> Block:
    if not round_.byes:
        return spacer(0)
    lines = [
        f"Bye: {team.shown} ({team_facts(team, players=False)})"
        for team in sorted(round_.byes, key=lambda team: team.number)
    ]
    note = "A team on a bye plays no game this round; the bye counts as the event's rules say."
    return vstack(
        [
            *(paragraph(line, 14, width, bold=True) for line in lines),
            spacer(1 * MM),
            paragraph(note, 9, width, color=GREY),
        ]
    )
