"""From scored lines to standings: each pair's totals, percentage and rank.

The sums are kept in whole numbers of the session's denominator (see `engine.scoring.units`)
and each pair's figures become Fractions once, at the end; ranks compare those exact values
as whole numbers over their common denominator (`comparable`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm

from engine.scoring.model import PairStanding, ScoringError, UnknownPairError
from engine.scoring.units import Board

PairKey = tuple[str, int]  # (field, pair number)
FIELD_ORDER = {"NS": 0, "EW": 1, "ALL": 2}


class Tallies:
    """Running sums per pair, the pairs numbered in order of first appearance (`keys`)."""

    def __init__(self, keys: list[PairKey], denominator: int) -> None:
        self.keys = keys
        self.denominator = denominator
        self.total = [0] * len(keys)
        self.available = [0] * len(keys)
        self.boards = [0] * len(keys)
        # Compass whist's plus or minus, in whole numbers of 1/versus_denominator.
        self.versus = [0] * len(keys)
        self.versus_denominator = denominator

    def add_lines(
        self,
        ns_of: list[int],
        ew_of: list[int],
        ns_units: list[int],
        ew_units: list[int],
        tops: list[int],
        ns_played: list[bool],
        ew_played: list[bool] | None = None,
    ) -> None:
        """Add every line a pair played (not an NP) to that pair's total and maximum; each
        side on its own (`ew_played` defaults to `ns_played`): one side may have NP."""
        total, available, boards = self.total, self.available, self.boards
        for ns, ew, ns_points, ew_points, top, ns_counts, ew_counts in zip(
            ns_of, ew_of, ns_units, ew_units, tops, ns_played, ew_played or ns_played, strict=True
        ):
            if ns_counts:
                total[ns] += ns_points
                available[ns] += top
                boards[ns] += 1
            if ew_counts:
                total[ew] += ew_points
                available[ew] += top
                boards[ew] += 1

    def add_versus_average(
        self,
        boards: list[Board],
        ns_of: list[int],
        ew_of: list[int],
        ns_units: list[int],
        ew_units: list[int],
    ) -> None:
        """Each pair's score less its direction's average on each board, summed.

        The average of c results is a sum over c, so the figures are kept in whole numbers of
        1/(D C), C the least common multiple of the boards' result counts (usually one count).
        """
        counts = lcm(1, *(len(real) for _, real, _, _ in boards if real))
        versus = self.versus
        for _, real, _, _ in boards:
            if not real:
                continue
            share = counts // len(real)
            ns_sum = sum(ns_units[i] for i in real) * share
            ew_sum = sum(ew_units[i] for i in real) * share
            for i in real:
                versus[ns_of[i]] += ns_units[i] * counts - ns_sum
                versus[ew_of[i]] += ew_units[i] * counts - ew_sum
        self.versus_denominator = self.denominator * counts


def adjustment_keys(
    adjustments: Mapping[int | str, Fraction | int], pairs: set[PairKey]
) -> dict[PairKey, Fraction]:
    """The adjustments by pair key; a key names a pair like 3, NS3 or EW3."""
    out: dict[PairKey, Fraction] = {}
    for key, value in adjustments.items():
        if isinstance(key, str):
            text = key.strip().upper()
            field = text[:2] if text[:2] in ("NS", "EW") else None
            digits = text[2:] if field else text
            if not digits.isdigit():
                raise ScoringError(f"adjustment for {key!r}: name a pair like 3, NS3 or EW3")
            number = int(digits)
        else:
            field, number = None, key
        matches = [p for p in pairs if p[1] == number and (field is None or p[0] == field)]
        if not matches:
            raise UnknownPairError(f"adjustment for pair {key}: that pair has no result")
        if len(matches) > 1:
            raise ScoringError(f"adjustment for pair {key}: say NS{number} or EW{number}")
        out[matches[0]] = out.get(matches[0], Fraction(0)) + Fraction(value)
    return out


def rank_labels(values: list[int]) -> list[str]:
    """Standard competition ranking with '=' for ties: 1, 2=, 2=, 4 (values best first)."""
    labels = []
    for i, value in enumerate(values):
        first = i
        while first > 0 and values[first - 1] == value:
            first -= 1
        tied = (i > 0 and values[i - 1] == value) or (
            i + 1 < len(values) and values[i + 1] == value
        )
        labels.append(f"{first + 1}{'=' if tied else ''}")
    return labels


def comparable(values: list[Fraction]) -> list[int]:
    """Whole numbers in the same order and with the same ties as `values`: each over the
    least common multiple of their denominators. Sorting and comparing ints is exact and
    several times quicker than Fractions, which cross-multiply at every comparison.

    >>> comparable([Fraction(1, 2), Fraction(2, 3), Fraction(-1)])
    [3, 4, -6]
    """
    common = lcm(1, *(value.denominator for value in values))
    return [value.numerator * (common // value.denominator) for value in values]


ZERO = Fraction(0)
NO_PERCENTAGE = Fraction(-1)  # ranks a pair without a board that counts last


def rank_pairs(
    tallies: Tallies, method: str, adjustments: Mapping[int | str, Fraction | int]
) -> tuple[PairStanding, ...]:
    """Every pair's standing, fields in order (NS, EW, ALL, others), best first in each.

    Matchpoints rank by percentage (a pair with no board that counts ranks last), total
    points by the plus or minus against the direction's average, IMPs by the total.
    """
    adjust = adjustment_keys(adjustments, set(tallies.keys))
    denominator = tallies.denominator
    figures: list[tuple[Fraction, Fraction, Fraction | None, Fraction | None, Fraction]] = []
    merits: list[Fraction] = []
    maxima: dict[int, Fraction] = {}  # most pairs play as many boards: one Fraction for all
    for key, total, available, versus_units in zip(
        tallies.keys, tallies.total, tallies.available, tallies.versus, strict=True
    ):
        points = Fraction(total, denominator)
        maximum = maxima.get(available)
        if maximum is None:
            maximum = maxima[available] = Fraction(available, denominator)
        extra = adjust.get(key)
        percentage: Fraction | None = None
        if extra is None:
            extra = ZERO
            if method == "mp" and available:
                # The denominator cancels: the pair's share of its maxima.
                percentage = Fraction(total * 100, available)
        else:
            points += extra
            if method == "mp" and available:
                percentage = points * 100 / maximum
        versus: Fraction | None = None
        if method == "total":
            versus = Fraction(versus_units, tallies.versus_denominator) + extra
        figures.append((points, maximum, percentage, versus, extra))
        if method == "mp":
            merits.append(NO_PERCENTAGE if percentage is None else percentage)
        else:
            merits.append(points if versus is None else versus)
    by_field: dict[str, list[tuple[int, int, int]]] = {}
    for k, ((field, number), merit) in enumerate(
        zip(tallies.keys, comparable(merits), strict=True)
    ):
        by_field.setdefault(field, []).append((-merit, number, k))
    ordered: list[PairStanding] = []
    for field in sorted(by_field, key=lambda f: (FIELD_ORDER.get(f, 3), f)):
        direction = field if field in ("NS", "EW") else None
        group = sorted(by_field[field])  # best first, then by pair number
        labels = rank_labels([merit for merit, _, _ in group])
        for (_, number, k), label in zip(group, labels, strict=True):
            points, maximum, percentage, versus, extra = figures[k]
            ordered.append(  # by position: keywords double the cost of building one
                PairStanding(
                    number,  # pair
                    direction,
                    points,  # total
                    maximum,  # max_total
                    percentage,
                    label,  # rank
                    tallies.boards[k],  # boards_played
                    extra,  # adjustments
                    field,
                    versus,  # versus_average
                )
            )
    return tuple(ordered)
