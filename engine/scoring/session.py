"""Scoring a whole session: check the travellers, score every board, total and rank the pairs.

Methods:
- `mp`: matchpoints on the EBU or ACBL scale, Neuberg-factored where a board has fewer
  comparable results than expected (engine.scoring.matchpoints). Percentage = matchpoints /
  matchpoints available on the boards the pair played x 100 (REFERENCE.md, "Matchpoints").
- `cross-imps`: IMPs against every other result on the board, divided by n-1.
- `butler`: IMPs against the Butler datum.
- `total`: each side keeps its own score (total tricks for classic whist, points for Bid and
  Candid Whist); each pair is also shown plus or minus against the average of its own
  direction on each board it played ("compass whist", REFERENCE.md, "Traditional whist
  scoring in duplicate"), and is ranked on that, so a pair that sat out a round is not
  penalised for it. EW's score is `total_complement - NS` when a complement is given (13
  for tricks), else `-NS` (zero-sum points).

Artificial scores (Law 12C2, REFERENCE.md, "Artificial scores") are never compared with
real results; the real results on that board are factored up to the expected count instead.
With `artificial="fixed"` Ave+/Ave/Ave- are 60/50/40 % of the board's top (a setting:
`artificial_percentages`); with `artificial="session"` Ave+ is the better of 60 % and the
pair's percentage on its real boards, Ave- the worse of 40 % and that percentage, Ave 50 %.
In IMP methods they are +3/0/-3 IMPs (`artificial_imps`). NP (not played) gives no score and
leaves the board out of the pair's percentage. Total-points scoring has no artificial scores:
an adjusted score there must be entered as a score.

Adjustments (procedural penalties, Candid Whist bag penalties...) are added to the pair's
total in the method's own unit; they count towards the percentage but not the maximum.

Exact in whole numbers: every figure is held as a whole number of one denominator for the
session and becomes a `Fraction` only where it is handed out; `engine.scoring.units` says
why, how the denominator is chosen and why nothing is ever rounded.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from itertools import repeat
from math import lcm
from typing import TYPE_CHECKING

from engine.scoring.model import (
    DuplicateMeetingError,
    ScoredLine,
    ScoringError,
    SessionScore,
    TravellerLine,
    UnknownPairError,
    WrongBoardError,
    method_scope,
)
from engine.scoring.standings import PairKey, Tallies, rank_pairs
from engine.scoring.units import (
    Board,
    artificial_points,
    butler_units,
    cross_imp_units,
    matchpoint_units,
    total_units,
    whole,
)

if TYPE_CHECKING:
    from engine.movements.model import Movement

METHODS = ("mp", "cross-imps", "butler", "total")


def two_winner(line: TravellerLine, side: str) -> str:
    """The default field rule: NS pairs form one field and EW pairs another."""
    return side


def one_winner(line: TravellerLine, side: str) -> str:
    """One field for everyone (Howell, arrow switch)."""
    return "ALL"


def _refuse_line(line: TravellerLine, movement: Movement) -> None:
    """Say why `line` is not a meeting of the movement on a board of that meeting's set."""
    ns_numbers = {m.ns for m in movement.meetings}
    ew_numbers = {m.ew for m in movement.meetings}
    if movement.one_winner:
        ns_numbers = ew_numbers = ns_numbers | ew_numbers
    ns_numbers.discard(0)
    ew_numbers.discard(0)
    boards = movement.board_count()
    if line.board > boards:
        raise ScoringError(f"{line.where()}: the movement has boards 1..{boards} only")
    if line.ns not in ns_numbers:
        raise UnknownPairError(f"{line.where()}: there is no NS pair {line.ns} in the movement")
    if line.ew not in ew_numbers:
        raise UnknownPairError(f"{line.where()}: there is no EW pair {line.ew} in the movement")
    meetings = {(m.set, m.ns, m.ew) for m in movement.meetings}
    if movement.one_winner and (movement.set_of_board(line.board), line.ew, line.ns) in meetings:
        raise WrongBoardError(
            f"{line.where()}: on this board pair {line.ew} sat NS and pair {line.ns} EW"
        )
    raise WrongBoardError(
        f"{line.where()}: these pairs do not play board {line.board} against each other "
        "in this movement"
    )


# What scoring needs of a movement: how often each board is played and every (board, NS, EW)
# a traveller may hold. Both come from walking every meeting, and a live event is rescored
# after every burst of results with the same (immutable) movement object, so once per object.
_MOVEMENT_FACTS: dict[
    int, tuple[weakref.ref[Movement], dict[int, int], frozenset[tuple[int, int, int]]]
] = {}


def _movement_facts(movement: Movement) -> tuple[dict[int, int], frozenset[tuple[int, int, int]]]:
    """How often each board is played, and every (board, NS, EW) a traveller line may hold."""
    from engine.movements.validate import validate

    known = _MOVEMENT_FACTS.get(id(movement))
    if known is not None and known[0]() is movement:
        return known[1], known[2]
    played = validate(movement).times_played
    # A meeting with the phantom (pair 0) holds no result: no traveller names pair 0.
    meetings = frozenset(
        (board, m.ns, m.ew)
        for m in movement.meetings
        if m.ns and m.ew and 1 <= m.set <= movement.sets
        for board in movement.boards_for_set(m.set)
    )
    if len(_MOVEMENT_FACTS) > 256:
        _MOVEMENT_FACTS.clear()
    _MOVEMENT_FACTS[id(movement)] = (weakref.ref(movement), played, meetings)
    return played, meetings


def _pair_indexes(
    lines: list[TravellerLine], field_of: Callable[[TravellerLine, str], str]
) -> tuple[list[PairKey], list[int], list[int]]:
    """Number the pairs in order of appearance (NS before EW on each line) and refuse a pair
    with two results on one board; the pairs' keys, then each line's NS and EW pair numbers.

    This runs for every result on every rescore, so: one dict per field keyed by the pair
    number, the two usual field rules known without calling them for each line, and each
    (pair, board) folded into one integer in a set; only when the set comes out smaller than
    two per line is the offending line looked for.
    """
    keys: list[PairKey] = []
    by_field: dict[str, dict[int, int]] = {}
    ns_of: list[int] = []
    ew_of: list[int] = []

    def number_of(field: str, number: int) -> int:
        numbers = by_field.setdefault(field, {})
        pair = numbers.get(number)
        if pair is None:
            pair = numbers[number] = len(keys)
            keys.append((field, number))
        return pair

    fixed: tuple[str, str] | None = None
    if field_of is two_winner:
        fixed = ("NS", "EW")
    elif field_of is one_winner:
        fixed = ("ALL", "ALL")
    stride = max(line.board for line in lines) + 1 if lines else 1
    spots: set[int] = set()
    if fixed:
        ns_numbers = by_field.setdefault(fixed[0], {})
        ew_numbers = by_field.setdefault(fixed[1], {})
        for line in lines:
            ns = ns_numbers.get(line.ns)
            if ns is None:
                ns = number_of(fixed[0], line.ns)
            ew = ew_numbers.get(line.ew)
            if ew is None:
                ew = number_of(fixed[1], line.ew)
            spots.add(ns * stride + line.board)
            spots.add(ew * stride + line.board)
            ns_of.append(ns)
            ew_of.append(ew)
    else:
        for line in lines:
            ns = number_of(field_of(line, "NS"), line.ns)
            ew = number_of(field_of(line, "EW"), line.ew)
            spots.add(ns * stride + line.board)
            spots.add(ew * stride + line.board)
            ns_of.append(ns)
            ew_of.append(ew)
    if len(spots) < 2 * len(lines):
        _refuse_duplicate(lines, ns_of, ew_of)
    return keys, ns_of, ew_of


def _refuse_duplicate(lines: list[TravellerLine], ns_of: list[int], ew_of: list[int]) -> None:
    """Name the first line whose pair already has a result on its board, NS checked before
    EW (a pair on both sides of one line meets that line itself)."""
    seen: dict[tuple[int, int], int] = {}
    for index, line in enumerate(lines):
        for pair, number in ((ns_of[index], line.ns), (ew_of[index], line.ew)):
            earlier = seen.get((pair, line.board))
            if earlier is not None:
                raise DuplicateMeetingError(
                    f"{line.where()}: pair {number} already has a result on board "
                    f"{line.board} ({lines[earlier].where()})"
                )
            seen[(pair, line.board)] = index


def score_session(
    lines: Iterable[TravellerLine],
    *,
    method: str = "mp",
    scale: str = "ebu",
    field_of: Callable[[TravellerLine, str], str] | None = None,
    movement: Movement | None = None,
    expected: int | Mapping[int, int] | None = None,
    artificial: str = "fixed",
    imp_scale: tuple[int, ...] | None = None,
    adjustments: Mapping[int | str, Fraction | int] | None = None,
    artificial_percentages: tuple[int, int, int] = (60, 50, 40),
    artificial_imps: tuple[int, int, int] = (3, 0, -3),
    datum_rounding: int | None = None,
    total_complement: int | None = None,
) -> SessionScore:
    """Score a session; see the module docstring for the methods and rules.

    With a `movement`, every line is checked against it and the fields (one or two winners)
    and expected plays per board come from it. Without one, a board is expected to have as
    many results as it has lines (artificial and not-played lines included), unless
    `expected` says otherwise (one number for every board, or per board).
    """
    if method not in METHODS:
        raise ScoringError(f"unknown scoring method {method!r}: use {', '.join(METHODS)}")
    if scale not in ("ebu", "acbl"):
        raise ScoringError(f"unknown matchpoint scale {scale!r}: use ebu or acbl")
    if artificial not in ("fixed", "session"):
        raise ScoringError(f"artificial scores are 'fixed' or 'session', not {artificial!r}")
    scope = method_scope(method)
    lines = list(lines)
    expected_of: Mapping[int, int] = {}
    if movement is not None:
        expected_of, meetings = _movement_facts(movement)
        for line in lines:
            if (line.board, line.ns, line.ew) not in meetings:
                _refuse_line(line, movement)
        if field_of is None:
            field_of = one_winner if movement.one_winner else two_winner
    field_of = field_of or two_winner
    if expected is not None:
        numbers = {line.board for line in lines}
        expected_of = (
            dict.fromkeys(numbers, expected)
            if isinstance(expected, int)
            else {board: expected.get(board, 0) for board in numbers}
        )
    keys, ns_of, ew_of = _pair_indexes(lines, field_of)

    # Each board's lines with a real score, those scores, and its artificial lines.
    groups: dict[int, tuple[list[int], list[int | Fraction], list[int]]] = {}
    for index, line in enumerate(lines):
        group = groups.get(line.board)
        if group is None:
            group = groups[line.board] = ([], [], [])
        if line.ns_score is not None:
            group[0].append(index)
            group[1].append(line.ns_score)
        else:
            group[2].append(index)

    # The checks board by board in the order boards are met, so the first refusal is the one
    # it always was.
    boards: list[Board] = []
    pending: list[int] = []
    for board, (real, scores, others) in groups.items():
        count = len(real) + len(others)
        n_expected = expected_of.get(board) or count
        if n_expected < count:
            raise ScoringError(
                f"board {board} has {count} results but only {n_expected} were expected"
            )
        for i in others:
            codes = lines[i].artificial
            assert codes is not None  # a line without a score has an artificial score
            refusal = scope.artificial_refusal(codes)
            if refusal is not None:
                raise ScoringError(f"{lines[i].where()}: {refusal}")
            pending.append(i)
        boards.append((board, real, scores, n_expected))

    size = len(lines)
    ns_units = [0] * size
    ew_units = [0] * size
    top_of: dict[int, int] = {}  # a board's top, in units (0 outside matchpoints)
    if method == "mp":
        denominator = matchpoint_units(boards, scale, ns_units, ew_units, top_of)
    elif method == "cross-imps":
        denominator = cross_imp_units(boards, imp_scale, ns_units, ew_units, top_of)
    elif method == "butler":
        rounding = datum_rounding if imp_scale is not None else (datum_rounding or 10)
        denominator = butler_units(boards, imp_scale, rounding, ns_units, ew_units, top_of)
    else:
        denominator = total_units(boards, total_complement, ns_units, ew_units, top_of)

    # Artificial scores last: the session reading needs each pair's real-board percentage.
    extra = artificial_points(
        lines,
        pending,
        boards,
        (ns_of, ew_of, len(keys)),
        (ns_units, ew_units, top_of, denominator),
        method=method,
        reading=artificial,
        percentages=artificial_percentages,
        imps_given=artificial_imps,
    )
    widen = lcm(1, *(v.denominator for _, ns, ew in extra for v in (ns, ew)))
    if widen > 1:  # D times the artificial scores' denominators; what is worked, scaled up
        denominator *= widen
        ns_units = [u * widen for u in ns_units]
        ew_units = [u * widen for u in ew_units]
        top_of = {board: top * widen for board, top in top_of.items()}
    for i, ns_value, ew_value in extra:
        ns_units[i] = whole(ns_value * widen)
        ew_units[i] = whole(ew_value * widen)

    tops = [top_of[line.board] for line in lines]
    # Each side's board counts unless that side's code is NP (not played); one side may have
    # NP and the other an average (a pair whose opponents were absent).
    ns_played = [True] * size
    ew_played = [True] * size
    for i in pending:
        codes = lines[i].artificial
        assert codes is not None
        ns_played[i] = codes[0] != "NP"
        ew_played[i] = codes[1] != "NP"
    # What each side could have had: the top, except on a board not played.
    ns_available = [top if counts else 0 for top, counts in zip(tops, ns_played, strict=True)]
    ew_available = [top if counts else 0 for top, counts in zip(tops, ew_played, strict=True)]
    scored = tuple(
        map(
            ScoredLine._make,
            zip(lines, ns_units, ew_units, tops, ns_available, ew_available, repeat(denominator)),
        )
    )
    tallies = Tallies(keys, denominator)
    tallies.add_lines(ns_of, ew_of, ns_units, ew_units, tops, ns_played, ew_played)
    if method == "total":
        tallies.add_versus_average(boards, ns_of, ew_of, ns_units, ew_units)
    return SessionScore(
        lines=scored,
        standings=rank_pairs(tallies, method, adjustments or {}),
        method=method,
        scale=scale,
        denominator=denominator,
    )
