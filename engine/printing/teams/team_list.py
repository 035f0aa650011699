"""The team list for the door: every team by number with its city and players, a box to tick
when both players are here and one when the team has paid, and the count to check the boxes
against."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from engine.printing.teams.common import TeamLine, check_teams, fitting_table, heading
from engine.printing.toolkit import GREY, MM, Column, Flow, Sheet, paragraph

__all__ = ["team_list_pdf"]

EMPTY_BOX = "☐"
TICKED_BOX = "☑"


def _box(ticked: bool) -> str:
    return TICKED_BOX if ticked else EMPTY_BOX


def team_list_pdf(
    title: str,
    date: str | datetime.date | None,
    teams: Sequence[TeamLine],
    *,
    paper: str = "a4",
) -> bytes:
    """The team list as PDF bytes: the teams in number order (No., team, city, players) with
    a "Here" and a "Paid" box each (ticked already where `here` or `paid` says so), then the
    count of teams and players."""
    check_teams(teams)
    ordered = sorted(teams, key=lambda team: team.number)
    sheet = Sheet(paper, title=f"{title.strip() or 'Tournament'}: team list")
    sheet.begin_part("Team list")
    flow = Flow(sheet, gap=3 * MM)
    count = len(ordered)
    facts = [f"{count} team{'s' if count != 1 else ''}", f"{2 * count} players"]
    heading(flow, title, date, facts, fallback="Bid Whist tournament")
    columns = [
        Column("No.", "right", bold=True),
        Column("Team", bold=True, flex=True, min_width=35 * MM),
        Column("City", flex=True),
        Column("Players", flex=True, min_width=55 * MM),
        Column("Here", "center", min_width=12 * MM),
        Column("Paid", "center", min_width=12 * MM),
    ]
    rows = [
        [
            str(team.number),
            team.shown,
            team.city.strip(),
            team.pair,
            _box(team.here),
            _box(team.paid),
        ]
        for team in ordered
    ]
    flow.table(fitting_table(columns, rows, flow.width))
    here = sum(1 for team in ordered if team.here)
    paid = sum(1 for team in ordered if team.paid)
    count_line = f"{count} teams on the list. Here: {here or '____'} of {count}. "
    count_line += f"Paid: {paid or '____'} of {count}."
    note = (
        "Tick Here when both players of the team have arrived: the draw waits for every team "
        "on the list. A team that does not come is taken off the list before the draw."
    )
    flow.block(paragraph(count_line, 11, flow.width, bold=True), gap=1.5 * MM)
    flow.block(paragraph(note, 8, flow.width, color=GREY))
    return sheet.finish()
