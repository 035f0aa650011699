"""The prize sheet: the prizes in the director's order, how each was decided, the ranking.

Written to be read out and pinned up: each prize with its winners and the award's own text
(the count-back of a tie, anyone passed over because they already had a prize), then every
player's line, by role where the drive gives prizes per role or the club named its roles.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from engine.drives import DUMMY, Award, DriveSettings, PlayerTotal, Role
from engine.drives.prizes import show
from engine.printing.common import DASH, date_words
from engine.printing.drives.common import Names, names_by_number, player_name
from engine.printing.toolkit import (
    GREY,
    MM,
    Column,
    Flow,
    Sheet,
    Table,
    hstack,
    paragraph,
    spacer,
    text_block,
    vstack,
)

__all__ = ["prize_sheet_pdf"]

# ---- the prize sheet -------------------------------------------------------------------------


def _ranks(lines: Sequence[PlayerTotal]) -> list[str]:
    """'1', '2=', '2=', '4': a shared place carries an equals sign (lines highest first)."""
    first: dict[object, int] = {}
    count: dict[object, int] = {}
    for place, line in enumerate(lines, 1):
        first.setdefault(line.total, place)
        count[line.total] = count.get(line.total, 0) + 1
    return [f"{first[line.total]}{'=' if count[line.total] > 1 else ''}" for line in lines]


def _ranking(
    settings: DriveSettings,
    lines: Sequence[PlayerTotal],
    names: Mapping[int, str],
    prizes: Mapping[int, list[int]],
) -> Table:
    halves = bool(settings.break_after)
    columns = [
        Column("Rank", "right", bold=True),
        Column("No.", "center"),
        Column("Name", flex=True, min_width=45 * MM),
    ]
    if settings.pairs:
        columns.append(Column("Partner", "center"))
    if halves:
        columns += [Column("1st half", "right"), Column("2nd half", "right")]
    columns += [
        Column("Total", "right", bold=True),
        Column("10+", "right"),
        Column("Out", "right"),
        Column("Prize", "center"),
    ]
    body = []
    for rank, line in zip(_ranks(lines), lines, strict=True):
        row = [rank, str(line.player), names.get(line.player, "")]
        if settings.pairs:
            row.append("dummy" if line.partner == DUMMY else str(line.partner or ""))
        if halves:
            row += [show(line.first_half), show(line.second_half)]
        row += [
            show(line.total),
            str(line.ten_plus),
            str(line.sat_out) if line.sat_out else "",
            ", ".join(f"#{n}" for n in prizes.get(line.player, [])),
        ]
        body.append(row)
    return Table(columns, body, size=9.5, row_height=9.5 * 1.7)


def prize_sheet_pdf(
    settings: DriveSettings,
    awards: Sequence[Award],
    totals: Sequence[PlayerTotal],
    *,
    names: Names = None,
    title: str = "",
    date: str | datetime.date | None = None,
    by_role: bool | None = None,
    paper: str = "a4",
) -> bytes:
    """The prize sheet as PDF bytes: each prize in the director's order with its winners and
    how it was decided (the award's own text, ties included), then the full ranking from
    `totals` (`Drive.standings`). `by_role` ranks each role apart; by default it does when a
    prize is for one role or the club named its roles."""
    names_of = names_by_number(names)
    if by_role is None:
        by_role = any(award.prize.role for award in awards) or settings.roles != ("A", "B")
    sheet = Sheet(paper, title=title or "Prizes")
    sheet.begin_part("Prizes")
    flow = Flow(sheet, gap=3 * MM)
    facts = [date_words(date), f"{settings.players} players", f"{settings.hands} hands"]
    flow.block(
        vstack(
            [
                text_block(title.strip() or "Whist drive", 18, bold=True),
                text_block(" · ".join(f for f in facts if f), 9, color=GREY),
            ]
        )
    )
    flow.block(text_block("Prizes", 13, bold=True), gap=2 * MM)
    won: dict[int, list[int]] = {}
    for award in awards:
        for player in award.winners:
            won.setdefault(player, []).append(award.number)
        who = ", ".join(f"{player_name(names_of, p)} (no. {p})" for p in award.winners)
        head = paragraph(f"{award.number}. {award.title}: {who or DASH}", 11, flow.width, bold=True)
        how = paragraph(award.text, 9, flow.width - 6 * MM, color=GREY)
        flow.block(vstack([head, hstack([spacer(0, 6 * MM), how])], 0.5 * MM), gap=2.5 * MM)
    if not awards:
        flow.block(text_block("No prizes on this drive's list.", 10, color=GREY))
    groups: list[tuple[str, Sequence[PlayerTotal]]] = [("Ranking", totals)]
    if by_role:
        groups = [
            (f"Ranking: {settings.role_label(role)}", [t for t in totals if t.role is role])
            for role in Role
        ]
    for heading, lines in groups:
        ordered = sorted(lines, key=lambda line: (-line.total, line.player))
        table = _ranking(settings, ordered, names_of, won)
        flow.need(14 * MM + table.row_height * min(len(table.rows) + 1, 5))
        flow.block(text_block(heading, 13, bold=True), gap=2 * MM)
        flow.table(table)
    notes = "10+: hands on which the player's side took 10 or more tricks. Out: hands sat out."
    flow.block(paragraph(notes, 8, flow.width, color=GREY))
    return sheet.finish()
