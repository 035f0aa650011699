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
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.scoring.matchpoints import (
    BRIDGE_IMP_SCALE,
    butler_datum,
    imps,
    matchpoint_board,
    top,
)
from engine.scoring.model import (
    DuplicateMeetingError,
    PairStanding,
    ScoredLine,
    ScoringError,
    SessionScore,
    TravellerLine,
    UnknownPairError,
    WrongBoardError,
    method_scope,
)

if TYPE_CHECKING:
    from engine.movements.model import Movement

METHODS = ("mp", "cross-imps", "butler", "total")
FIELD_ORDER = {"NS": 0, "EW": 1, "ALL": 2}

PairKey = tuple[str, int]  # (field, pair number)


def two_winner(line: TravellerLine, side: str) -> str:
    """The default field rule: NS pairs form one field and EW pairs another."""
    return side


def one_winner(line: TravellerLine, side: str) -> str:
    """One field for everyone (Howell, arrow switch)."""
    return "ALL"


def _check_against_movement(lines: list[TravellerLine], movement: Movement) -> None:
    """Every line must be a meeting of the movement, on a board of that meeting's set."""
    ns_numbers = {m.ns for m in movement.meetings}
    ew_numbers = {m.ew for m in movement.meetings}
    if movement.one_winner:
        ns_numbers = ew_numbers = ns_numbers | ew_numbers
    ns_numbers.discard(0)
    ew_numbers.discard(0)
    meetings = {(m.set, m.ns, m.ew): m for m in movement.meetings}
    boards = movement.board_count()
    for line in lines:
        if line.board > boards:
            raise ScoringError(f"{line.where()}: the movement has boards 1..{boards} only")
        if line.ns not in ns_numbers:
            raise UnknownPairError(f"{line.where()}: there is no NS pair {line.ns} in the movement")
        if line.ew not in ew_numbers:
            raise UnknownPairError(f"{line.where()}: there is no EW pair {line.ew} in the movement")
        board_set = movement.set_of_board(line.board)
        if (board_set, line.ns, line.ew) in meetings:
            continue
        if movement.one_winner and (board_set, line.ew, line.ns) in meetings:
            raise WrongBoardError(
                f"{line.where()}: on this board pair {line.ew} sat NS and pair {line.ns} EW"
            )
        raise WrongBoardError(
            f"{line.where()}: these pairs do not play board {line.board} against each other "
            "in this movement"
        )


def _adjustment_keys(
    adjustments: Mapping[int | str, Fraction | int], pairs: set[PairKey]
) -> dict[PairKey, Fraction]:
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


def _rank_labels(values: list[Fraction | None]) -> list[str]:
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


_TIMES_PLAYED: dict[int, tuple[weakref.ref[Movement], dict[int, int]]] = {}


def _times_played(movement: Movement) -> dict[int, int]:
    """How often each board is played, from a full check of the movement.

    The check walks every meeting, and a live event is rescored after every burst of results
    with the same (immutable) movement object, so it is done once per object.
    """
    from engine.movements.validate import validate

    known = _TIMES_PLAYED.get(id(movement))
    if known is not None and known[0]() is movement:
        return dict(known[1])
    played = validate(movement).times_played
    if len(_TIMES_PLAYED) > 256:
        _TIMES_PLAYED.clear()
    _TIMES_PLAYED[id(movement)] = (weakref.ref(movement), played)
    return dict(played)


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
    expected_of: dict[int, int] = {}
    if movement is not None:
        _check_against_movement(lines, movement)
        expected_of = _times_played(movement)
        if field_of is None:
            field_of = one_winner if movement.one_winner else two_winner
    field_of = field_of or two_winner
    if expected is not None:
        expected_of = {}
        for board in {line.board for line in lines}:
            expected_of[board] = expected if isinstance(expected, int) else expected.get(board, 0)

    # One result per pair per board.
    seen: dict[tuple[int, PairKey], TravellerLine] = {}
    line_keys: list[tuple[PairKey, PairKey]] = []
    for line in lines:
        keys = ((field_of(line, "NS"), line.ns), (field_of(line, "EW"), line.ew))
        for key in keys:
            earlier = seen.get((line.board, key))
            if earlier is not None:
                raise DuplicateMeetingError(
                    f"{line.where()}: pair {key[1]} already has a result on board {line.board} "
                    f"({earlier.where()})"
                )
            seen[(line.board, key)] = line
        line_keys.append(keys)

    by_board: dict[int, list[int]] = defaultdict(list)
    for index, line in enumerate(lines):
        by_board[line.board].append(index)

    scored: list[ScoredLine | None] = [None] * len(lines)
    board_top: dict[int, Fraction] = {}
    pending_artificial: list[int] = []
    for board, indexes in by_board.items():
        n_expected = expected_of.get(board) or len(indexes)
        if n_expected < len(indexes):
            raise ScoringError(
                f"board {board} has {len(indexes)} results but only {n_expected} were expected"
            )
        real = [i for i in indexes if lines[i].ns_score is not None]
        scores = [lines[i].ns_score for i in real]
        if method == "mp":
            board_top[board] = top(max(n_expected, 1), scale)
            points = matchpoint_board(scores, scale=scale, expected=n_expected)  # type: ignore[arg-type]
            t = board_top[board]
            for i, p in zip(real, points, strict=True):
                scored[i] = ScoredLine(lines[i], p, t - p, t, t, t)
        elif method == "cross-imps":
            board_top[board] = Fraction(0)
            scale_used = imp_scale or BRIDGE_IMP_SCALE
            values = [Fraction(lines[i].ns_score or 0) for i in real]
            for position, i in enumerate(real):
                mine = values[position]
                swing = 0
                for other_position, other in enumerate(values):
                    if other_position != position:
                        swing += imps(mine - other, scale_used)
                p = Fraction(swing, len(values) - 1) if len(values) > 1 else Fraction(0)
                scored[i] = ScoredLine(lines[i], p, -p, Fraction(0))
        elif method == "butler":
            board_top[board] = Fraction(0)
            scale_used = imp_scale or BRIDGE_IMP_SCALE
            rounding = datum_rounding if imp_scale is not None else (datum_rounding or 10)
            if scores:
                datum = butler_datum(scores, rounding)  # type: ignore[arg-type]
                for i in real:
                    p = Fraction(imps(lines[i].ns_score - datum, scale_used))  # type: ignore[operator]
                    scored[i] = ScoredLine(lines[i], p, -p, Fraction(0))
        else:
            board_top[board] = Fraction(0)
            for i in real:
                ns = Fraction(lines[i].ns_score)  # type: ignore[arg-type]
                ew = total_complement - ns if total_complement is not None else -ns
                scored[i] = ScoredLine(lines[i], ns, ew, Fraction(0))
        for i in indexes:
            codes = lines[i].artificial
            if codes is not None:
                refusal = scope.artificial_refusal(codes)
                if refusal is not None:
                    raise ScoringError(f"{lines[i].where()}: {refusal}")
                pending_artificial.append(i)

    # Artificial scores last: the session reading needs each pair's real-board percentage.
    real_pct: dict[PairKey, Fraction] = {}
    if artificial == "session" and method == "mp":
        got: dict[PairKey, Fraction] = defaultdict(Fraction)
        avail: dict[PairKey, Fraction] = defaultdict(Fraction)
        for i, s in enumerate(scored):
            if s is None:
                continue
            ns_key, ew_key = line_keys[i]
            got[ns_key] += s.ns_points
            got[ew_key] += s.ew_points
            avail[ns_key] += s.ns_available
            avail[ew_key] += s.ew_available
        real_pct = {k: got[k] * 100 / avail[k] for k in avail if avail[k]}
    plus, average, minus = (Fraction(p) for p in artificial_percentages)
    imp_value = dict(zip(("A+", "A", "A-"), artificial_imps, strict=True))
    for i in pending_artificial:
        line = lines[i]
        codes = line.artificial
        assert codes is not None
        if codes == ("NP", "NP"):
            scored[i] = ScoredLine(line, Fraction(0), Fraction(0), board_top[line.board])
            continue
        side_points = []
        for code, key in zip(codes, line_keys[i], strict=True):
            if method != "mp":
                side_points.append(Fraction(imp_value[code]))
                continue
            pct = {"A+": plus, "A": average, "A-": minus}[code]
            if artificial == "session" and code != "A":
                own = real_pct.get(key, Fraction(50))
                pct = max(plus, own) if code == "A+" else min(minus, own)
            side_points.append(pct * board_top[line.board] / 100)
        t = board_top[line.board]
        scored[i] = ScoredLine(line, side_points[0], side_points[1], t, t, t)

    final = [s for s in scored if s is not None]
    return SessionScore(
        lines=tuple(final),
        standings=_standings(lines, scored, line_keys, method, adjustments or {}),
        method=method,
        scale=scale,
    )


def _standings(
    lines: list[TravellerLine],
    scored: list[ScoredLine | None],
    line_keys: list[tuple[PairKey, PairKey]],
    method: str,
    adjustments: Mapping[int | str, Fraction | int],
) -> tuple[PairStanding, ...]:
    total: dict[PairKey, Fraction] = defaultdict(Fraction)
    available: dict[PairKey, Fraction] = defaultdict(Fraction)
    played: dict[PairKey, int] = defaultdict(int)
    versus: dict[PairKey, Fraction] = defaultdict(Fraction)
    if method == "total":
        # Per board and side, the average of the real scores (compass whist).
        sums: dict[tuple[int, str], list[Fraction]] = defaultdict(list)
        for s in scored:
            if s is not None and s.line.ns_score is not None:
                sums[(s.line.board, "NS")].append(s.ns_points)
                sums[(s.line.board, "EW")].append(s.ew_points)
        side_average = {k: sum(v, Fraction(0)) / len(v) for k, v in sums.items()}
    for i, s in enumerate(scored):
        if s is None:
            continue
        ns_key, ew_key = line_keys[i]
        for key in (ns_key, ew_key):
            total.setdefault(key, Fraction(0))
        if s.line.artificial == ("NP", "NP"):
            continue
        total[ns_key] += s.ns_points
        total[ew_key] += s.ew_points
        available[ns_key] += s.ns_available
        available[ew_key] += s.ew_available
        played[ns_key] += 1
        played[ew_key] += 1
        if method == "total":
            versus[ns_key] += s.ns_points - side_average[(s.line.board, "NS")]
            versus[ew_key] += s.ew_points - side_average[(s.line.board, "EW")]
    adjust = _adjustment_keys(adjustments, set(total))
    by_field: dict[str, list[PairStanding]] = defaultdict(list)
    for key in total:
        field, number = key
        extra = adjust.get(key, Fraction(0))
        points = total[key] + extra
        percentage: Fraction | None = None
        if method == "mp" and available[key]:
            percentage = points * 100 / available[key]
        by_field[field].append(
            PairStanding(
                pair=number,
                direction=field if field in ("NS", "EW") else None,
                total=points,
                max_total=available[key],
                percentage=percentage,
                rank="",
                boards_played=played[key],
                adjustments=extra,
                field=field,
                versus_average=versus[key] + extra if method == "total" else None,
            )
        )
    ordered: list[PairStanding] = []
    for field in sorted(by_field, key=lambda f: (FIELD_ORDER.get(f, 3), f)):
        group = by_field[field]

        def merit(st: PairStanding) -> Fraction:
            if method == "mp":
                return st.percentage if st.percentage is not None else Fraction(-1)
            if method == "total":
                assert st.versus_average is not None
                return st.versus_average
            return st.total

        group.sort(key=lambda st: (-merit(st), st.pair))
        labels = _rank_labels([merit(st) for st in group])
        ordered.extend(replace(st, rank=label) for st, label in zip(group, labels, strict=True))
    return tuple(ordered)
