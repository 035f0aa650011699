"""What a team tournament's documents share: the teams and tables they are given, and a heading.

The layouts take plain data, built by the caller from whatever it keeps: a `TeamLine` per team
(number, name, city, players, and whether it is ticked in and has paid), a `TableLine` per
table of a round (the home team sits North-South, the away team East-West) and a `RoundLines`
per round (its tables and its byes).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from engine.printing.common import date_words, fitted_line
from engine.printing.toolkit import GREY, Column, Flow, PrintError, Table, text_block, vstack

__all__ = [
    "RoundLines",
    "TableLine",
    "TeamLine",
    "check_teams",
    "heading",
    "team_facts",
]


@dataclass(frozen=True)
class TeamLine:
    """A team as the paper prints it: `players` are its two players' names (either may be
    unknown); `here` and `paid` pre-tick the door list's boxes."""

    number: int
    name: str
    city: str = ""
    players: tuple[str, ...] = ()
    here: bool = False
    paid: bool = False

    @property
    def shown(self) -> str:
        """The team's name, or 'Team n' when it has none."""
        return self.name.strip() or f"Team {self.number}"

    @property
    def pair(self) -> str:
        """The players as 'Ann Smith & Bob Jones' (those known)."""
        return " & ".join(p.strip() for p in self.players if p.strip())


@dataclass(frozen=True)
class TableLine:
    """One table of a round: `home` sits North-South, `away` East-West."""

    table: int
    home: TeamLine
    away: TeamLine


@dataclass(frozen=True)
class RoundLines:
    """One round: its number, its tables in table order and the teams on a bye."""

    number: int
    tables: tuple[TableLine, ...]
    byes: tuple[TeamLine, ...] = ()


def check_teams(teams: Sequence[TeamLine]) -> None:
    """Each team once, numbered from 1: a PrintError names the first that is not."""
    seen: set[int] = set()
    for team in teams:
        if team.number < 1:
            raise PrintError(f"teams: numbered from 1, not {team.number}")
        if team.number in seen:
            raise PrintError(f"teams: team {team.number} is listed twice")
        seen.add(team.number)


def team_facts(team: TeamLine, *, players: bool = True) -> str:
    """'team 3 · Detroit · Ann Smith & Bob Jones': what tells a team from its namesakes."""
    parts = [f"team {team.number}", team.city.strip()]
    if players:
        parts.append(team.pair)
    return " · ".join(part for part in parts if part)


def heading(
    flow: Flow,
    title: str,
    date: str | datetime.date | None,
    facts: Sequence[str],
    *,
    fallback: str,
    size: float = 18,
) -> None:
    """The document's name in large type, then the date and the facts in grey, as the drives'
    documents begin."""
    line = " · ".join(f for f in (date_words(date), *facts) if f)
    flow.block(
        vstack(
            [
                fitted_line(title.strip() or fallback, size, flow.width, bold=True),
                text_block(line, 9, color=GREY),
            ]
        )
    )


#: A team table's type size, and the least it shrinks to so that every cell fits.
TABLE_SIZE = 10.0
TABLE_SMALLEST = 7.0


def fitting_table(columns: Sequence[Column], rows: Sequence[Sequence[str]], width: float) -> Table:
    """The table in the largest type (down to TABLE_SMALLEST) at which every cell fits at its
    natural width: a long team name makes the whole list a little smaller rather than
    squeezing one column, whose names would shrink line by line."""
    size = TABLE_SIZE
    while size > TABLE_SMALLEST:
        table = Table(columns, rows, size=size, row_height=TABLE_SIZE * 1.9)
        if sum(table.layout()[1]) <= width:
            return table
        size -= 0.25
    return Table(columns, rows, size=size, row_height=TABLE_SIZE * 1.9)
