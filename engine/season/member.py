"""A member's page in figures: every evening they played in any format, a summary per
format, and the two series the page charts (percentage per pairs evening with its running
average; how often they finished in each place).

Built from the season's appearances alone, so the page, its PDF, its CSV and the API show the
same figures. Names are not decided here: the caller passes `shown`, which gives the name a
reader may see for a partner's appearance (a public reader sees each partner as that partner
chose, a director sees every name), so this module never learns who is reading.

>>> import datetime as dt
>>> from fractions import Fraction as F
>>> day = dt.date(2026, 9, 1)
>>> rows = [
...     Appearance("event", 1, "Monday pairs", day, "A:NS1", 7, "Ann", "1", 6, F(60), F(30)),
...     Appearance("event", 1, "Monday pairs", day, "A:NS1", 8, "Bob", "1", 6, F(60), F(30)),
... ]
>>> history = member_history(rows, 7, shown=lambda a: a.name)
>>> history.evenings[0].partners, history.evenings[0].place
(('Bob',), '1 of 6')
>>> history.summaries[0].average, history.summaries[0].won
(Fraction(60, 1), 1)
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.exports.csv import safe_cell
from engine.scoring.model import format_points
from engine.season.model import FORMATS, Appearance

__all__ = [
    "Evening",
    "FormatSummary",
    "MemberHistory",
    "history_csv",
    "member_history",
    "ordinal",
]


@dataclass(frozen=True)
class Evening:
    """One evening on the member's page: what it was, with whom, and how it went."""

    format: str
    play_id: int
    play_name: str
    date: dt.date
    partners: tuple[str, ...]  # a pair's partner, a team's team-mates; none at a drive
    rank: str  # "2=", "" when unranked
    field_size: int
    percentage: Fraction | None
    points: Fraction | None
    wins: Fraction | None

    @property
    def format_name(self) -> str:
        return FORMATS.get(self.format, self.format)

    @property
    def place(self) -> str:
        """The place as people say it: "3= of 12"; "not ranked" when the entrant was not."""
        if not self.rank:
            return "not ranked"
        return f"{self.rank} of {self.field_size}" if self.field_size else self.rank

    def to_dict(self) -> dict[str, object]:
        return {
            "format": self.format,
            "play_id": self.play_id,
            "play_name": self.play_name,
            "date": str(self.date),
            "partners": list(self.partners),
            "rank": self.rank,
            "field_size": self.field_size,
            "place": self.place,
            "percentage": _shown(self.percentage),
            "points": _shown(self.points),
            "wins": _shown(self.wins),
        }


@dataclass(frozen=True)
class FormatSummary:
    """The member's evenings of one format: how many, their average and best percentage
    (pairs scored by matchpoints only), their best place, and how many they won outright or
    shared first place in."""

    format: str
    evenings: int
    average: Fraction | None
    best_percentage: Fraction | None
    best_place: str
    won: int

    @property
    def format_name(self) -> str:
        return FORMATS.get(self.format, self.format)

    def to_dict(self) -> dict[str, object]:
        return {
            "format": self.format,
            "evenings": self.evenings,
            "average_percentage": _shown(self.average),
            "best_percentage": _shown(self.best_percentage),
            "best_place": self.best_place,
            "won": self.won,
        }


@dataclass(frozen=True)
class MemberHistory:
    """Everything the member's page shows but the name and the handicap, oldest first."""

    evenings: tuple[Evening, ...]
    summaries: tuple[FormatSummary, ...]
    #: Each pairs evening with a percentage: (date label, percentage, running average).
    percentages: tuple[tuple[str, Fraction, Fraction], ...]
    #: How many evenings (any format) the member finished in each place: (place, count),
    #: from first to the worst place they had, places never reached counted 0.
    placings: tuple[tuple[int, int], ...]


def member_history(
    appearances: Iterable[Appearance],
    member_id: int,
    *,
    shown: Callable[[Appearance], str],
) -> MemberHistory:
    """The member's evenings among `appearances` (the club's, any formats), each with its
    partners or team-mates named by `shown`."""
    every = list(appearances)
    by_entrant: dict[tuple[str, int, str], list[Appearance]] = {}
    for a in every:
        by_entrant.setdefault((a.format, a.play_id, a.entrant), []).append(a)
    mine = sorted(
        (a for a in every if a.member_id == member_id),
        key=lambda a: (a.date, a.format, a.play_id),
    )
    evenings: list[Evening] = []
    seen: set[tuple[str, int]] = set()
    for a in mine:
        if a.evening in seen:
            continue  # listed twice in one evening (a director's slip): counted once
        seen.add(a.evening)
        others = [
            other
            for other in by_entrant[(a.format, a.play_id, a.entrant)]
            if other is not a and other.member_id != member_id
        ]
        evenings.append(
            Evening(
                format=a.format,
                play_id=a.play_id,
                play_name=a.play_name,
                date=a.date,
                partners=tuple(shown(other) for other in others),
                rank=a.rank,
                field_size=a.field_size,
                percentage=a.percentage,
                points=a.points,
                wins=a.wins,
            )
        )
    return MemberHistory(
        evenings=tuple(evenings),
        summaries=tuple(_summaries(evenings)),
        percentages=tuple(_running(evenings)),
        placings=tuple(_placings(evenings)),
    )


def _place_of(rank: str) -> int | None:
    digits = rank.rstrip("=").strip()
    return int(digits) if digits.isdigit() else None


def _summaries(evenings: Sequence[Evening]) -> list[FormatSummary]:
    found = []
    for fmt in FORMATS:
        these = [e for e in evenings if e.format == fmt]
        if not these:
            continue
        percentages = [e.percentage for e in these if e.percentage is not None]
        places = [(p, e.rank) for e in these if (p := _place_of(e.rank)) is not None]
        found.append(
            FormatSummary(
                format=fmt,
                evenings=len(these),
                average=sum(percentages, Fraction(0)) / len(percentages) if percentages else None,
                best_percentage=max(percentages) if percentages else None,
                best_place=min(places)[1] if places else "",
                won=sum(1 for place, _ in places if place == 1),
            )
        )
    return found


def _running(evenings: Sequence[Evening]) -> list[tuple[str, Fraction, Fraction]]:
    found: list[tuple[str, Fraction, Fraction]] = []
    total = Fraction(0)
    for e in evenings:
        if e.format != "event" or e.percentage is None:
            continue
        total += e.percentage
        found.append((f"{e.date:%d %b}", e.percentage, total / (len(found) + 1)))
    return found


def _placings(evenings: Sequence[Evening]) -> list[tuple[int, int]]:
    places = [p for e in evenings if (p := _place_of(e.rank)) is not None]
    if not places:
        return []
    return [(n, places.count(n)) for n in range(1, max(places) + 1)]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


#: The member's CSV: one row per evening, oldest first. Figures are two-decimal text.
CSV_COLUMNS = (
    "date", "format", "evening", "partners", "rank", "field_size", "percentage", "points",
    "wins",
)  # fmt: skip


def history_csv(history: MemberHistory) -> str:
    """The member's evenings as CSV text (`CSV_COLUMNS`), every cell made safe from
    spreadsheets' formulas as the other exports are (`safe_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for e in history.evenings:
        row = (
            str(e.date), e.format_name, e.play_name, " & ".join(e.partners), e.rank,
            e.field_size, _shown(e.percentage), _shown(e.points), _shown(e.wins),
        )  # fmt: skip
        writer.writerow(["" if cell is None else safe_cell(cell) for cell in row])
    return out.getvalue()


def _shown(value: Fraction | None) -> str | None:
    return None if value is None else format_points(value)
