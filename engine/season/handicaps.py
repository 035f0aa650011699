"""Handicaps for duplicate pairs, from each member's average percentage.

The rule (docs/directors/season.md works an example): a member's handicap is 50 less their
average percentage over their last `window` pairs sessions (matchpoint events only), once they
have played at least `min_sessions` of them; fewer, and their handicap is 0. A 45 % player
gets +5, a 58 % player -8. A pair's handicap is the mean of its two players' (a visitor counts
0), and its handicapped percentage is its percentage plus the pair's handicap. Handicaps are
kept exact and shown to two decimals, like every percentage.

The window ends before the evening being handicapped: with a season's handicaps fixed at its
start, it ends at the start for every evening; fluctuating, it ends before each evening.

>>> from fractions import Fraction as F
>>> rule = HandicapRule(window=4, min_sessions=3)
>>> handicap_of([F(45), F(47), F(43)], rule)
Fraction(5, 1)
>>> handicap_of([F(60), F(40)], rule)   # two sessions: too few for a handicap
Fraction(0, 1)
>>> handicap_of([F(70), F(40), F(50), F(52), F(55)], rule)   # the last four: 49.25
Fraction(3, 4)
>>> pair_handicap(F(5), F(3, 4))
Fraction(23, 8)
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.scoring.model import format_points
from engine.season.model import Appearance

__all__ = [
    "HandicapRule",
    "HandicappedLine",
    "handicap_if_any",
    "handicap_of",
    "handicapped_standings",
    "handicaps_before",
    "handicaps_standing",
    "pair_handicap",
    "signed",
]

#: The percentage a handicap levels every player towards.
PAR_PERCENTAGE = Fraction(50)
ZERO = Fraction(0)


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of fractions, over their least common denominator in whole numbers:
    the same as `sum(values, Fraction(0))`, without reducing after every addition (a season's
    tables add thousands of percentages, and reducing is most of the cost).

    >>> exact_sum([Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)])
    Fraction(1, 1)
    """
    values = list(values)
    if not values:
        return ZERO
    common = math.lcm(*(v.denominator for v in values))
    return Fraction(sum(v.numerator * (common // v.denominator) for v in values), common)


@dataclass(frozen=True)
class HandicapRule:
    """Over how many of a member's latest sessions their average is taken (`window`), and how
    many they must have played to have a handicap at all (`min_sessions`)."""

    window: int = 10
    min_sessions: int = 3

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError("a handicap's window is at least one session")
        if self.min_sessions < 0:
            raise ValueError("the sessions a handicap needs cannot be negative")


def handicap_of(percentages: Sequence[Fraction], rule: HandicapRule) -> Fraction:
    """A member's handicap from their percentages, oldest first (only the last `window`
    count); 0 with fewer than `rule.min_sessions` of them."""
    recent = list(percentages)[-rule.window :]
    if not recent or len(recent) < rule.min_sessions:
        return Fraction(0)
    return PAR_PERCENTAGE - exact_sum(recent) / len(recent)


def pair_handicap(first: Fraction, second: Fraction) -> Fraction:
    """A pair's handicap: the mean of its two players' (a visitor's is 0)."""
    return (first + second) / 2


def handicap_if_any(percentages: Sequence[Fraction], rule: HandicapRule) -> Fraction | None:
    """A member's handicap from their percentages, oldest first; None (no handicap, counted as
    0) until they have played the rule's minimum, and at least one session."""
    if len(percentages[-rule.window :]) < max(rule.min_sessions, 1):
        return None
    return handicap_of(percentages, rule)


def handicaps_standing(
    history: Mapping[int, Sequence[Fraction]], rule: HandicapRule
) -> dict[int, Fraction]:
    """Each member's handicap from their percentages so far (oldest first), for those who
    have one."""
    found = {}
    for member, percentages in history.items():
        figure = handicap_if_any(percentages, rule)
        if figure is not None:
            found[member] = figure
    return found


def handicaps_before(
    appearances: Iterable[Appearance], rule: HandicapRule, before: dt.date
) -> dict[int, Fraction]:
    """Every member's handicap as it stands on `before`: from their pairs percentages of
    evenings dated before it (oldest first, by date then evening). Members with no handicap
    are absent (their handicap is 0)."""
    history: dict[int, list[tuple[dt.date, int, Fraction]]] = {}
    for a in appearances:
        if a.format != "event" or a.member_id is None or a.percentage is None:
            continue
        if a.date < before:
            history.setdefault(a.member_id, []).append((a.date, a.play_id, a.percentage))
    ordered = {member: [p for _, _, p in sorted(rows)] for member, rows in history.items()}
    return handicaps_standing(ordered, rule)


@dataclass(frozen=True)
class HandicappedLine:
    """One pair in an evening's handicapped standings: its scratch percentage, its handicap
    and the two added up, ranked ("2=" for a tie)."""

    key: str
    percentage: Fraction
    handicap: Fraction
    rank: str

    @property
    def handicapped(self) -> Fraction:
        return self.percentage + self.handicap


def handicapped_standings(
    pairs: Iterable[tuple[str, Fraction, Fraction]],
) -> list[HandicappedLine]:
    """A field's pairs (key, percentage, pair handicap) ranked by percentage plus handicap,
    best first; pairs level share a place ("2=") and the next place is skipped, as the
    scratch standings do. Pairs keep their given order among equals.

    >>> from fractions import Fraction as F
    >>> [(line.key, line.rank) for line in handicapped_standings(
    ...     [("1", F(60), F(-5)), ("2", F(50), F(5)), ("3", F(52), F(0))])]
    [('1', '1='), ('2', '1='), ('3', '3')]
    """
    lines = sorted(pairs, key=lambda pair: -(pair[1] + pair[2]))
    ranked: list[HandicappedLine] = []
    position = 0
    while position < len(lines):
        level = lines[position][1] + lines[position][2]
        tied = [line for line in lines[position:] if line[1] + line[2] == level]
        label = f"{position + 1}=" if len(tied) > 1 else str(position + 1)
        ranked += [HandicappedLine(key, pct, handicap, label) for key, pct, handicap in tied]
        position += len(tied)
    return ranked


def signed(value: Fraction) -> str:
    """A handicap as people read it: two decimals with its sign ("+2.88", "-8.00", "0.00")."""
    text = format_points(value)
    return f"+{text}" if value > 0 else text
