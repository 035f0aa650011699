"""The standings and the prize sheet, for the wall and the prize-giving: every team in its
place with its games won, lost and drawn, points for and against and its Bostons, how ties were
broken, then the money the night pays out (each paid place's prize and the Boston pot) when the
tournament has any. A place shared by tied teams is printed as "3=".
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from engine.printing.teams.common import fitting_table, heading
from engine.printing.toolkit import GREY, MM, Column, Flow, Sheet, paragraph

__all__ = ["PrizeLine", "StandingLine", "standings_pdf"]


@dataclass(frozen=True)
class StandingLine:
    """One team's line as printed: `place` ("1", "3="), its name and city, and its figures."""

    place: str
    name: str
    city: str
    played: int
    won: int
    lost: int
    drawn: int
    points_for: int
    points_against: int
    bostons: int


@dataclass(frozen=True)
class PrizeLine:
    """A paid place and what it pays: `place` ("1", "2="), the team, the amount as printed."""

    place: str
    team: str
    amount: str


def standings_pdf(
    title: str,
    date: str | datetime.date | None,
    lines: Sequence[StandingLine],
    *,
    status: str,
    tie_break: str = "",
    prizes: Sequence[PrizeLine] = (),
    pot: str = "",
    paper: str = "a4",
) -> bytes:
    """The standings (`status` says whether they are final or "after round 3"), the tie-break
    rule in words, then the prizes and the pot where there are any, as PDF bytes."""
    sheet = Sheet(paper, title=f"{title.strip() or 'Tournament'}: standings")
    sheet.begin_part("Standings")
    flow = Flow(sheet, gap=3 * MM)
    count = len(lines)
    heading(flow, title, date, [status, f"{count} team{'s' if count != 1 else ''}"],
            fallback="Bid Whist tournament")  # fmt: skip
    columns = [
        Column("Place", "right", bold=True),
        Column("Team", bold=True, flex=True, min_width=40 * MM),
        Column("City", flex=True),
        Column("Played", "right"),
        Column("Won", "right"),
        Column("Lost", "right"),
        Column("Drawn", "right"),
        Column("Points", "right"),
        Column("Against", "right"),
        Column("Bostons", "right"),
    ]
    rows = [
        [
            line.place, line.name, line.city.strip(), str(line.played), str(line.won),
            str(line.lost), str(line.drawn), str(line.points_for), str(line.points_against),
            str(line.bostons),
        ]
        for line in lines
    ]  # fmt: skip
    if rows:
        flow.table(fitting_table(columns, rows, flow.width))
    else:
        flow.block(paragraph("No game counts yet.", 11, flow.width))
    if tie_break:
        flow.block(paragraph(f"Ties: {tie_break}.", 8, flow.width, color=GREY))
    if prizes:
        flow.block(paragraph("Prizes", 14, flow.width, bold=True), gap=1.5 * MM)
        prize_columns = [
            Column("Place", "right", bold=True),
            Column("Team", bold=True, flex=True, min_width=40 * MM),
            Column("Prize", "right"),
        ]
        flow.table(
            fitting_table(prize_columns, [[p.place, p.team, p.amount] for p in prizes], flow.width)
        )
    if pot:
        flow.block(paragraph(pot, 11, flow.width))
    return sheet.finish()
