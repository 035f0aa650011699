"""Matchpoints, Neuberg factoring and IMPs on one board (REFERENCE.md, "Matchpoints", "IMPs").

- EBU scale: 2 per result beaten, 1 per result tied, top 2(n-1).
- ACBL scale: 1 per result beaten, 1/2 per tie, top n-1. Same percentages.
- Neuberg, for a board played n times where N were expected (fewer results, or artificial
  scores left out of the comparison): EBU M' = (M + 1) N / n - 1; ACBL M' = (M + 1/2) N / n
  - 1/2. The top becomes that of N results. REFERENCE.md's example: 10 results where 11
  expected, the sole top 18 of 18 becomes 19 x 1.1 - 1 = 19.9 of 20.
- IMPs: the bridge thresholds 20, 50, 90, ... 4000 for 1..24 IMPs.

`ebu_matchpoints` is the whole-number core the session scorer builds on; `matchpoint_board`
hands the same figures out as Fractions.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction

from engine.scoring.model import ScoringError

SCALES = ("ebu", "acbl")

BRIDGE_IMP_SCALE: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip

# A trick-difference scale for whist scored by tricks (a setting: pass your own): a one-trick
# swing is 1 IMP, two tricks 2, then the steps widen as in the bridge table, to 8 IMPs.
WHIST_TRICK_SCALE: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 13)


def _check_scale(scale: str) -> None:
    if scale not in SCALES:
        raise ScoringError(f"unknown matchpoint scale {scale!r}: use ebu or acbl")


def top(results: int, scale: str = "ebu") -> Fraction:
    """The top on a board with `results` comparable results: 2(n-1) EBU, n-1 ACBL."""
    _check_scale(scale)
    return Fraction(2 * (results - 1) if scale == "ebu" else results - 1)


def ebu_matchpoints(scores: Sequence[int | Fraction]) -> list[int]:
    """EBU matchpoints of each NS score among `scores`, as whole numbers: 2 per result it
    beats and 1 per other result it ties, which is the number of results below it plus the
    number at or below it, less itself (two binary searches in the sorted scores).

    >>> ebu_matchpoints([420, 420, 400, 450])
    [3, 3, 0, 6]
    """
    ordered = sorted(scores)
    return [bisect_left(ordered, s) + bisect_right(ordered, s) - 1 for s in scores]


def matchpoint_board(
    scores: Sequence[int | Fraction], *, scale: str = "ebu", expected: int | None = None
) -> list[Fraction]:
    """NS matchpoints of each NS score (higher is better for NS), Neuberg-factored up to
    `expected` results when fewer were compared. EW get top(expected) minus the NS figure.

    >>> matchpoint_board([420, 420, 400, 450])
    [Fraction(3, 1), Fraction(3, 1), Fraction(0, 1), Fraction(6, 1)]
    """
    _check_scale(scale)
    n = len(scores)
    if n == 0:
        return []
    big_n = n if expected is None else expected
    if big_n < n:
        raise ScoringError(f"{n} results on a board where only {big_n} were expected")
    # ACBL points are half the EBU ones, and both Neuberg forms share ((M + 1) N - n) / n.
    halves = 1 if scale == "ebu" else 2
    if big_n == n:
        return [Fraction(ebu, halves) for ebu in ebu_matchpoints(scores)]
    return [Fraction((ebu + 1) * big_n - n, halves * n) for ebu in ebu_matchpoints(scores)]


def imps(difference: int | Fraction, scale: Sequence[int] = BRIDGE_IMP_SCALE) -> int:
    """IMPs for a score difference: the number of thresholds the difference reaches, signed.

    >>> imps(430), imps(-10), imps(20)
    (10, 0, 1)
    """
    # An int stays an int: no Fraction built for each of the thousands of comparisons.
    magnitude: int | Fraction = -difference if difference < 0 else difference
    size = 0
    for threshold in scale:  # at most 24 steps; bisect would need a typed key for Fractions
        if magnitude < threshold:
            break
        size += 1
    return size if difference >= 0 else -size


def butler_datum(scores: Sequence[int | Fraction], rounding: int | None = 10) -> Fraction:
    """Butler datum: the mean after dropping the top and bottom ceil((n-10)/15)+1 results
    each when n > 3, rounded to the nearest `rounding` (10 for bridge points; None keeps
    the exact mean, for small trick scores). REFERENCE.md, "IMPs, Butler, cross-IMPs"."""
    n = len(scores)
    if n == 0:
        raise ScoringError("a Butler datum needs at least one result")
    ordered = sorted(scores)
    if n > 3:
        drop = -((10 - n) // 15) + 1  # ceil((n - 10) / 15) + 1 in integers
        if 2 * drop < n:
            ordered = ordered[drop : n - drop]
    mean = Fraction(sum(ordered, Fraction(0))) / len(ordered)
    if rounding is None:
        return mean
    steps = mean / rounding
    whole = int(abs(steps) + Fraction(1, 2))
    return Fraction(whole * rounding if steps >= 0 else -whole * rounding)
