"""What scoring reads and writes: traveller lines in, scored lines and standings out.

Everything is exact; `format_points` is the only place a value is rounded, and only for
display. Whist scored by tricks ties far more often than bridge, so a float anywhere would
sooner or later split a tie that is real. A scored line holds its figures as whole numbers
of one session-wide `denominator` (see `engine.scoring.units`) and hands them out as
`Fraction`s; standings hold `Fraction`s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from engine import EngineError
from engine.reading import quoted

ARTIFICIAL_CODES = ("A+", "A", "A-", "NP")


class ScoringError(EngineError):
    """Results cannot be scored as entered (bad line, impossible count, bad setting)."""


class ArtificialCodeError(ScoringError):
    """An artificial score code is not one of A+, A, A-, NP or a split like A+/A-."""


class DuplicateMeetingError(ScoringError):
    """The same pair has two results on one board (a meeting entered twice)."""


class UnknownPairError(ScoringError):
    """A traveller line names a pair that is not in the movement."""


class WrongBoardError(ScoringError):
    """A traveller line has two pairs that did not meet on that board in the movement."""


def parse_artificial(code: str) -> tuple[str, str]:
    """Read an artificial score: `A+/A-` gives NS Ave+ and EW Ave-; one code (`A`, `NP`)
    applies to both sides. Codes: A+ (average plus), A (average), A- (average minus),
    NP (not played: the board is left out of the pair's percentage).

    NP may be given to one side only (`A+/NP`): the meeting of a pair with opponents who had
    left or not yet come, where the pair left waiting is given an average and the absent
    pair nothing (the board is simply not in its percentage).

    >>> parse_artificial("A+/A-")
    ('A+', 'A-')
    >>> parse_artificial("a")
    ('A', 'A')
    >>> parse_artificial("A+/NP")
    ('A+', 'NP')
    """
    parts = [part.strip().upper() for part in code.strip().split("/")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or any(part not in ARTIFICIAL_CODES for part in parts):
        raise ArtificialCodeError(
            f"{quoted(code)} is not an artificial score: use A+, A, A-, NP or NS/EW like A+/A-"
        )
    return (parts[0], parts[1])


@dataclass(frozen=True)
class MethodScope:
    """What a scoring method can score, declared so that a result it cannot score is refused
    when the director gives it, before anything is stored, instead of making every standings
    and export of the event fail afterwards.

    `artificial` is the artificial codes the method can score (see `parse_artificial`); a
    fouled board is scored Average to both sides, so a method without `A` cannot score one.
    """

    method: str
    title: str
    artificial: frozenset[str]

    @property
    def scores_fouled_boards(self) -> bool:
        return "A" in self.artificial

    def artificial_refusal(self, codes: tuple[str, str]) -> str | None:
        """Why `codes` (NS, EW) cannot be scored by this method, or None when they can."""
        if all(code in self.artificial for code in codes):
            return None
        allowed = ", ".join(c for c in ARTIFICIAL_CODES if c in self.artificial) or "none"
        return (
            f"{self.title} scoring has no artificial score {'/'.join(dict.fromkeys(codes))} "
            f"(it can give: {allowed}); enter the adjusted score itself as a correction"
        )

    def fouled_refusal(self) -> str | None:
        """Why a fouled board cannot be scored by this method, or None when it can."""
        if self.scores_fouled_boards:
            return None
        return (
            f"{self.title} scoring has no Average to give a fouled board; correct each "
            "table's result to the adjusted score instead, or mark a board not played (NP)"
        )


_ALL_CODES = frozenset(ARTIFICIAL_CODES)
#: Every scoring method's scope, by the method's name (`engine.scoring.METHODS`).
METHOD_SCOPES = {
    scope.method: scope
    for scope in (
        MethodScope("mp", "Matchpoint", _ALL_CODES),
        MethodScope("cross-imps", "Cross-IMP", _ALL_CODES),
        MethodScope("butler", "Butler", _ALL_CODES),
        # Each side keeps its own score: an Average has no number of tricks or points.
        MethodScope("total", "Total-points", frozenset({"NP"})),
    )
}


def method_scope(method: str) -> MethodScope:
    """The scope of `method`; ScoringError for a method that does not exist.

    >>> method_scope("total").artificial_refusal(("NP", "NP")) is None
    True
    >>> method_scope("total").artificial_refusal(("A+", "A-"))[:50]
    'Total-points scoring has no artificial score A+/A-'
    """
    scope = METHOD_SCOPES.get(method)
    if scope is None:
        known = ", ".join(METHOD_SCOPES)
        raise ScoringError(f"unknown scoring method {quoted(method)}: use {known}")
    return scope


def pair_key(pair: int, direction: str | None) -> str:
    """How a pair is named across a session: "3" in a one-winner field (Howell, arrow switch),
    "NS3" or "EW3" where each direction is its own field (the same pair number exists twice).

    >>> pair_key(3, None), pair_key(3, "EW")
    ('3', 'EW3')
    """
    return f"{direction}{pair}" if direction else str(pair)


@dataclass(frozen=True)
class TravellerLine:
    """One result on a board: NS pair, EW pair and the NS score, or an artificial score.

    `source_line` (not compared) is where the line came from, so errors can name it.
    """

    board: int
    ns: int
    ew: int
    ns_score: int | Fraction | None
    artificial: tuple[str, str] | None = None
    source_line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Checked for every result on every rescore: the description of the line is built only
        # for a refusal, and a plain int (nearly every score) skips the slower type checks.
        score = self.ns_score
        if (score is None) == (self.artificial is None):
            raise ScoringError(
                f"{self.where()}: give either a score or an artificial score, not both"
            )
        if (
            score is not None
            and type(score) is not int
            and (isinstance(score, bool) or not isinstance(score, int | Fraction))
        ):
            raise ScoringError(f"{self.where()}: the score must be a whole number or a fraction")
        if self.artificial is not None:
            parse_artificial("/".join(self.artificial))
        if self.board < 1 or self.ns < 1 or self.ew < 1:
            raise ScoringError(f"{self.where()}: boards and pairs are numbered from 1")

    def where(self) -> str:
        at = f"line {self.source_line}" if self.source_line is not None else "traveller line"
        return f"{at} (board {self.board}, NS {self.ns} v EW {self.ew})"


class ScoredLine(NamedTuple):
    """A traveller line with its points; `top` is the board's top (matchpoints) or 0.

    `ns_available`/`ew_available` are the points each side could have had (the top, or 0 on
    a board not played), which is what a pair's percentage is measured against.

    The figures are stored as whole numbers of 1/`denominator`, the one denominator of the
    whole session (`ns_points == Fraction(ns_units, denominator)`), and read as Fractions.
    Why a named tuple: a rescore makes one of these per result, and a frozen dataclass costs
    some 2 us each to build against 0.3 us for a tuple (a 30-table evening's whole rescore is
    meant to take under 2 ms); a tuple is as immutable.
    """

    line: TravellerLine
    ns_units: int
    ew_units: int
    top_units: int
    ns_available_units: int = 0
    ew_available_units: int = 0
    denominator: int = 1

    @property
    def ns_points(self) -> Fraction:
        return Fraction(self.ns_units, self.denominator)

    @property
    def ew_points(self) -> Fraction:
        return Fraction(self.ew_units, self.denominator)

    @property
    def top(self) -> Fraction:
        return Fraction(self.top_units, self.denominator)

    @property
    def ns_available(self) -> Fraction:
        return Fraction(self.ns_available_units, self.denominator)

    @property
    def ew_available(self) -> Fraction:
        return Fraction(self.ew_available_units, self.denominator)


@dataclass(frozen=True)
class PairStanding:
    """A pair's session: total (adjustments included), what it could have scored, and rank.

    `percentage` is None for IMP and total-points scoring, which have no maximum; there
    `versus_average` (total points methods) says how far the pair is above its field.
    """

    pair: int
    direction: str | None
    total: Fraction
    max_total: Fraction
    percentage: Fraction | None
    rank: str
    boards_played: int
    adjustments: Fraction
    field: str = "ALL"
    versus_average: Fraction | None = None


@dataclass(frozen=True)
class SessionScore:
    """Every scored line and the standings, best first within each field."""

    lines: tuple[ScoredLine, ...]
    standings: tuple[PairStanding, ...]
    method: str = "mp"
    scale: str = "ebu"
    #: The denominator every scored line's figures are whole numbers of.
    denominator: int = 1

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.field for s in self.standings))

    def for_field(self, field: str) -> tuple[PairStanding, ...]:
        """The standings of one field ('NS', 'EW' in a two-winner event; 'ALL' in one)."""
        if field not in self.fields:
            raise ScoringError(
                f"there is no field {quoted(field)} (fields: {', '.join(self.fields)})"
            )
        return tuple(s for s in self.standings if s.field == field)

    def standing(self, pair: int, field: str | None = None) -> PairStanding:
        for s in self.standings:
            if s.pair == pair and (field is None or s.field == field):
                return s
        raise ScoringError(f"pair {pair} has no result")


def format_points(value: Fraction | int, places: int = 2) -> str:
    """Round for display only, halves away from zero: 199/10 -> '19.90', 5/8 -> '0.63'.

    >>> format_points(Fraction(2, 3))
    '0.67'
    """
    if isinstance(value, int):
        numerator, denominator = value, 1
    else:
        numerator, denominator = value.numerator, value.denominator
    scale = 10**places
    # floor(|n| * scale / d + 1/2) in integers: the same exact rounding without building
    # Fractions (a standings document formats thousands of figures on every rescore).
    rounded = (2 * abs(numerator) * scale + denominator) // (2 * denominator)
    sign = "-" if numerator < 0 and rounded else ""
    whole, part = divmod(rounded, scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"
