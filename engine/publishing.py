"""What members read the morning after: each board's frequency table, each pair's score card
with its result against double dummy, and the running percentage behind the charts.

Built from the standings document (`engine.scoring.document`), which holds the points, and
from each result's details the document does not (`ResultInfo`: round, table, the result in
short, tricks against double dummy), which the caller reads from wherever results live.

>>> from engine.scoring import TravellerLine, score_session
>>> from engine.scoring.document import section_standings
>>> lines = [TravellerLine(1, 1, 1, 8), TravellerLine(1, 2, 2, 8), TravellerLine(1, 3, 3, 6)]
>>> doc = section_standings("A", score_session(lines), one_winner=False)
>>> [(row.ns_score, row.count, row.ns_points.display) for row in board_frequencies(doc, 1)]
[(8, 2, '3.00'), (6, 1, '0.00')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.scoring.document import BoardLine, Points, SectionStandings, StandingRow
from engine.scoring.model import pair_key

__all__ = [
    "CardRow",
    "FrequencyRow",
    "ResultInfo",
    "board_frequencies",
    "pair_card",
    "percentage_spread",
]


@dataclass(frozen=True)
class ResultInfo:
    """A result's details beside its points: where it was played, how it reads, and its
    tricks against double dummy (+1: one more than par, for the side named `versus_side`)."""

    round: int | None = None
    table: int | None = None
    text: str = ""
    versus_par: int | None = None


@dataclass(frozen=True)
class FrequencyRow:
    """One score on a board: how often it happened and what it earned each side."""

    ns_score: int | None
    artificial: str
    count: int
    ns_points: Points | None
    ew_points: Points | None
    results: tuple[str, ...]  # how the results with this score read ("8♥ N 10"), distinct


def board_frequencies(
    section: SectionStandings,
    board: int,
    info: Mapping[tuple[int, int], ResultInfo] | None = None,
) -> list[FrequencyRow]:
    """The board's results grouped by NS score, best for NS first, artificial scores last.

    `info` is keyed by (board, NS pair number).
    """
    info = info or {}
    groups: dict[tuple[int | None, str], list[BoardLine]] = {}
    for line in section.boards.get(str(board), ()):
        groups.setdefault((line.ns_score, line.artificial), []).append(line)

    def order(key: tuple[int | None, str]) -> tuple[int, int]:
        score, artificial = key
        return (1, 0) if artificial or score is None else (0, -score)

    rows = []
    for key in sorted(groups, key=order):
        lines = groups[key]
        texts = []
        for line in lines:
            text = info.get((board, line.ns), ResultInfo()).text
            if text and text not in texts:
                texts.append(text)
        rows.append(
            FrequencyRow(
                ns_score=key[0],
                artificial=key[1],
                count=len(lines),
                ns_points=lines[0].ns_points,
                ew_points=lines[0].ew_points,
                results=tuple(texts),
            )
        )
    return rows


@dataclass(frozen=True)
class CardRow:
    """One board of a pair's session, from the pair's side."""

    board: int
    round: int | None
    table: int | None
    direction: str  # the seat the pair held: "NS" or "EW"
    opponents: int
    result: str
    score: int | None  # the pair's own side's score (NS score, or its negation for EW)
    artificial: str
    points: Points | None
    top: Points | None
    versus_par: int | None
    running_percentage: Points | None  # the pair's percentage after this board


def pair_card(
    section: SectionStandings,
    row: StandingRow,
    info: Mapping[tuple[int, int], ResultInfo] | None = None,
) -> list[CardRow]:
    """A pair's boards in play order (round, then board) with the running percentage.

    In a two-winner field the pair is the NS or EW pair of its number; in a one-winner field it
    may have held either seat on a board.
    """
    info = info or {}
    found: list[CardRow] = []
    earned = Fraction(0)
    available = Fraction(0)
    for number, lines in section.boards.items():
        for line in lines:
            for seat, own, other in (("NS", line.ns, line.ew), ("EW", line.ew, line.ns)):
                if own != row.pair or (row.direction and row.direction != seat):
                    continue
                details = info.get((int(number), line.ns), ResultInfo())
                points = line.ns_points if seat == "NS" else line.ew_points
                score = line.ns_score
                found.append(
                    CardRow(
                        board=int(number),
                        round=details.round,
                        table=details.table,
                        direction=seat,
                        opponents=other,
                        result=details.text or line.artificial,
                        score=None if score is None else (score if seat == "NS" else -score),
                        artificial=line.artificial,
                        points=points,
                        top=line.top,
                        versus_par=None
                        if details.versus_par is None
                        else (details.versus_par if seat == "NS" else -details.versus_par),
                        running_percentage=None,
                    )
                )
    found.sort(key=lambda r: (r.round or 0, r.board))
    out = []
    for card in found:
        if card.points is not None and card.top is not None and card.top.value:
            earned += card.points.value
            available += card.top.value
        share = Points.of(earned / available * 100) if available else None
        out.append(
            CardRow(**{**card.__dict__, "running_percentage": share})  # frozen: rebuild
        )
    return out


def percentage_spread(section: SectionStandings, width: int = 5) -> list[tuple[str, int]]:
    """How many pairs finished in each band of `width` percent ("45-50", 3): the field's
    spread, for a histogram. Only methods with percentages have one."""
    counts: dict[int, int] = {}
    for field in section.fields:
        for standing in field.rows:
            if standing.percentage is None:
                continue
            band = int(standing.percentage.value // width) * width
            counts[band] = counts.get(band, 0) + 1
    return [(f"{band}-{band + width}", counts[band]) for band in sorted(counts)]


def row_for(section: SectionStandings, key: str) -> StandingRow | None:
    """The standings row of pair `key` ("3", "NS3"), or None."""
    for field in section.fields:
        for standing in field.rows:
            if pair_key(standing.pair, standing.direction or None) == key:
                return standing
    return None
