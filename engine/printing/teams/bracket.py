"""The playoff bracket as a tree on a page turned sideways: the rounds from left to right, a
box per match with its number and its two teams (or "winner of match N" until that match is
played), the winner of each match played ticked and shaded, lines from each match to the one
its winner goes on to, the champion at the right and the third-place match under the final.

A bracket of more than 16 first matches (a playoff of 33 teams or more) is printed in two
halves, a page each, the final on both, so the names stay large enough to read on the wall.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from engine.printing.common import fitted_line
from engine.printing.teams.common import heading
from engine.printing.toolkit import (
    BLACK,
    GREY,
    MM,
    SHADE,
    Flow,
    PrintError,
    Sheet,
    draw_text,
    text_width,
)
from engine.teams.bracket import BracketRound, Match, Slot

__all__ = ["MAX_UNITS", "bracket_pdf"]

#: First matches (leaves of the tree) on one page; more are printed in two halves.
MAX_UNITS = 16
TICK = "✓"


@dataclass(frozen=True)
class _Tree:
    matches: Mapping[int, Match]
    final: Match
    third: Match | None
    names: Mapping[int, str]
    seeds: Mapping[int, int]

    def slot_text(self, match: Match, slot: Slot, team: int | None) -> str:
        if team is None:
            return f"{'loser' if slot.loser else 'winner'} of match {slot.source}"
        name = self.names.get(team) or f"Team {team}"
        seed = self.seeds.get(team)
        text = f"({seed}) {name}" if seed else name
        if slot.team is not None and match.round > 1:
            text += " (bye)"
        return text


def _positions(tree: _Tree, collapsed: frozenset[int]) -> tuple[dict[int, float], int]:
    """Each match's place down the page in units (a first match takes one), found from the
    final back: a match stands level with the middle of the matches that feed it. Matches
    under a `collapsed` one are left out (the other half's)."""
    where: dict[int, float] = {}
    count = 0

    def walk(match: Match) -> float:
        nonlocal count
        feeders = [
            tree.matches[slot.source]
            for slot in (match.home, match.away)
            if slot.source is not None and not slot.loser and slot.source not in collapsed
        ]
        if feeders:
            spots = [walk(feeder) for feeder in feeders]
            where[match.id] = sum(spots) / len(spots)
        else:
            where[match.id] = count
            count += 1
        return where[match.id]

    walk(tree.final)
    return where, count


@dataclass(frozen=True)
class _Frame:
    """Where the tree is drawn on the page."""

    left: float
    top: float
    column: float
    box: float
    unit: float
    row: float

    def x(self, round_number: int) -> float:
        return self.left + (round_number - 1) * self.column

    def y(self, unit: float) -> float:
        """The middle of a box at `unit`."""
        return self.top - (unit + 0.5) * self.unit


def _box(c: Canvas, tree: _Tree, frame: _Frame, match: Match, x: float, middle: float) -> None:
    """A match: its number in a grey cell at the left, its two teams a line each, the
    winner's line shaded, ticked and bold once the match is played."""
    row, width = frame.row, frame.box
    size = min(11.0, row * 0.55)
    number_width = max(text_width(str(match.id), size * 0.85, True) + 2 * MM, 5 * MM)
    top = middle + row
    c.saveState()
    c.setFillColor(SHADE)
    c.rect(x, top - 2 * row, number_width, 2 * row, stroke=0, fill=1)
    places = ((match.home, match.home_team), (match.away, match.away_team))
    inner = width - number_width
    for k, (_, team) in enumerate(places):
        if match.winner is not None and team == match.winner:
            c.rect(x + number_width, top - (k + 1) * row, inner, row, stroke=0, fill=1)
    c.setStrokeColor(GREY)
    c.setLineWidth(0.8)
    c.rect(x, top - 2 * row, width, 2 * row, stroke=1, fill=0)
    c.setLineWidth(0.4)
    c.line(x + number_width, middle, x + width, middle)
    c.line(x + number_width, top, x + number_width, top - 2 * row)
    c.restoreState()
    base = middle - size * 0.36
    draw_text(c, x + number_width / 2, base, str(match.id), size * 0.85, bold=True, align="center")
    room = width - number_width - 3.5 * MM - text_width(TICK, size, True)
    for k, (slot, team) in enumerate(places):
        y = middle + row / 2 - k * row - size * 0.36
        won = match.winner is not None and team == match.winner
        lost = match.winner is not None and not won
        text = tree.slot_text(match, slot, team)
        color = GREY if team is None or lost else BLACK
        line = fitted_line(text, size, room, bold=won, color=color)
        line.draw(c, x + number_width + 1 * MM, y + size)
        if won:
            draw_text(c, x + width - 1 * MM, y, TICK, size, bold=True, align="right")


def _link(c: Canvas, source: tuple[float, float], target: tuple[float, float]) -> None:
    """A line from a box's right edge to a place in the next round's box."""
    (x1, y1), (x2, y2) = source, target
    bend = (x1 + x2) / 2
    c.saveState()
    c.setStrokeColor(GREY)
    c.setLineWidth(0.7)
    path = c.beginPath()
    path.moveTo(x1, y1)
    path.lineTo(bend, y1)
    path.lineTo(bend, y2)
    path.lineTo(x2, y2)
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def _page(
    sheet: Sheet,
    tree: _Tree,
    rounds: Sequence[BracketRound],
    top: float,
    collapsed: frozenset[int],
    third: bool,
) -> None:
    c = sheet.canvas
    where, count = _positions(tree, collapsed)
    columns = len(rounds) + 1
    width = sheet.right - sheet.left
    column = width / columns
    box = min(column - max(7 * MM, column * 0.16), 75 * MM)
    labels = top - 4 * MM
    for number, round_ in enumerate(rounds, start=1):
        x = sheet.left + (number - 1) * column
        draw_text(c, x, labels, round_.name, 10, bold=True)
        if round_.byes and number == 1:
            draw_text(c, x, labels - 9, f"{len(round_.byes)} bye(s): top seeds", 7, color=GREY)
    draw_text(c, sheet.left + len(rounds) * column, labels, "Champion", 10, bold=True)
    tree_top = labels - 6 * MM
    units = count + (1.2 if third else 0)
    unit = min(32 * MM, (tree_top - sheet.bottom - 4 * MM) / max(units, 1))
    frame = _Frame(sheet.left, tree_top, column, box, unit, min(8 * MM, unit * 0.4))
    for match_id, spot in where.items():
        match = tree.matches[match_id]
        x, middle = frame.x(match.round), frame.y(spot)
        _box(c, tree, frame, match, x, middle)
        for k, slot in enumerate((match.home, match.away)):
            if slot.source in where and not slot.loser:
                feeder = tree.matches[slot.source]
                start = (frame.x(feeder.round) + box, frame.y(where[feeder.id]))
                _link(c, start, (x, middle + frame.row / 2 - k * frame.row))
    final = tree.final
    middle = frame.y(where[final.id])
    x = frame.x(len(rounds) + 1)
    _link(c, (frame.x(final.round) + box, middle), (x, middle))
    size = min(13.0, frame.row * 0.6)
    c.saveState()
    c.setStrokeColor(BLACK)
    c.setLineWidth(1.2)
    c.rect(x, middle - frame.row * 0.7, box, frame.row * 1.4, stroke=1, fill=0)
    c.restoreState()
    if final.winner is not None:
        text = tree.slot_text(final, Slot(source=final.id), final.winner)
        fitted_line(text, size, box - 2 * MM, bold=True).draw(c, x + MM, middle + size * 0.64)
    if third and tree.third is not None:
        spot = count + 0.35
        draw_text(c, frame.x(final.round), frame.y(spot) + frame.row + 2 * MM, "Third place", 8)
        _box(c, tree, frame, tree.third, frame.x(final.round), frame.y(spot))


def bracket_pdf(
    title: str,
    date: str | datetime.date | None,
    rounds: Sequence[BracketRound],
    names: Mapping[int, str] | None = None,
    *,
    seeds: Sequence[int] = (),
    paper: str = "a4",
) -> bytes:
    """The bracket as PDF bytes on a page turned sideways (two for a bracket of more than
    MAX_UNITS first matches): `rounds` are the engine's (`Bracket.rounds`), `names` the
    teams' names by number, `seeds` the teams in seed order (best first) to print each
    team's seed before its name."""
    if not rounds or not rounds[-1].matches:
        raise PrintError("rounds: give the bracket's rounds, the final last")
    matches = {match.id: match for round_ in rounds for match in round_.matches}
    last = rounds[-1].matches
    final = next((match for match in last if not match.third_place), None)
    if final is None:
        raise PrintError("rounds: the last round has no final")
    third = next((match for match in last if match.third_place), None)
    tree = _Tree(
        matches, final, third, dict(names or {}), {t: n for n, t in enumerate(seeds, start=1)}
    )
    teams = len(seeds) or len(
        {t for m in matches.values() for t in (m.home.team, m.away.team) if t is not None}
    )
    facts = [f"{teams} teams", "single elimination"]
    if third is not None:
        facts.append("third-place match")
    _, count = _positions(tree, frozenset())
    sides: list[frozenset[int]] = [frozenset()]
    if count > MAX_UNITS and final.home.source is not None and final.away.source is not None:
        sides = [frozenset({final.away.source}), frozenset({final.home.source})]
    sheet = Sheet(paper, title=f"{title.strip() or 'Tournament'}: playoff")
    sheet.begin_part("Playoff", landscape=True)
    for index, collapsed in enumerate(sides):
        if index:
            sheet.new_page()
        flow = Flow(sheet, gap=2 * MM)
        half = []
        if len(sides) > 1:
            half = [f"{'top' if index == 0 else 'bottom'} half (the final is on both pages)"]
        named = f"Playoff: {title.strip()}" if title.strip() else ""
        heading(flow, named, date, facts + half, fallback="Playoff")
        _page(sheet, tree, rounds, flow.y, collapsed, third=index == len(sides) - 1)
    return sheet.finish()
