"""The Fraction scoring the engine had before whole-number scoring, kept as the oracle.

`engine.scoring` now works in whole numbers of a common denominator; these functions are
the earlier code path unchanged (every figure a `Fraction`, built and added as it goes), so
tests can score the same sessions both ways and demand equal values, documents and files.
Nothing outside the tests uses it.
"""

from __future__ import annotations

import weakref
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.movements.validate import validate
from engine.scoring.document import (
    BoardLine,
    FieldStandings,
    Points,
    SectionStandings,
    StandingRow,
)
from engine.scoring.matchpoints import BRIDGE_IMP_SCALE
from engine.scoring.model import (
    DuplicateMeetingError,
    PairStanding,
    ScoringError,
    SessionScore,
    TravellerLine,
    UnknownPairError,
    WrongBoardError,
    method_scope,
    pair_key,
)

if TYPE_CHECKING:
    from engine.movements.model import Movement

SCALES = ("ebu", "acbl")


@dataclass(frozen=True)
class ScoredLine:
    """The scored line as it was: every figure a Fraction."""

    line: TravellerLine
    ns_points: Fraction
    ew_points: Fraction
    top: Fraction
    ns_available: Fraction = Fraction(0)
    ew_available: Fraction = Fraction(0)


def _check_scale(scale: str) -> None:
    if scale not in SCALES:
        raise ScoringError(f"unknown matchpoint scale {scale!r}: use ebu or acbl")


def top(results: int, scale: str = "ebu") -> Fraction:
    """The top on a board with `results` comparable results: 2(n-1) EBU, n-1 ACBL."""
    _check_scale(scale)
    return Fraction(2 * (results - 1) if scale == "ebu" else results - 1)


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
    counts = Counter(scores)
    below = 0
    # Work in half-matchpoints on the ACBL scale so everything stays integral until the end.
    doubled: dict[int | Fraction, int] = {}
    for value in sorted(counts):
        tied = counts[value]
        doubled[value] = 2 * below + (tied - 1)  # EBU points; ACBL is half of this
        below += tied
    result = []
    for value in scores:
        ebu = doubled[value]
        if big_n == n:
            points = Fraction(ebu) if scale == "ebu" else Fraction(ebu, 2)
        elif scale == "ebu":
            points = Fraction((ebu + 1) * big_n, n) - 1
        else:
            points = Fraction((ebu + 1) * big_n, 2 * n) - Fraction(1, 2)
        result.append(points)
    return result


def imps(difference: int | Fraction, scale: Sequence[int] = BRIDGE_IMP_SCALE) -> int:
    """IMPs for a score difference: the number of thresholds the difference reaches, signed.

    >>> imps(430), imps(-10), imps(20)
    (10, 0, 1)
    """
    magnitude: Fraction = Fraction(difference) if difference >= 0 else -Fraction(difference)
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


def _withdrawn_last(rows: list[StandingRow]) -> tuple[StandingRow, ...]:
    """Rank the pairs that stayed 1, 2, 3... in their order (pairs that shared a rank still
    share one, "2="), then the withdrawn pairs, unranked."""
    stayed = [row for row in rows if not row.withdrew]
    if len(stayed) == len(rows):
        return tuple(rows)
    ranked: list[StandingRow] = []
    position = 0
    while position < len(stayed):
        tied = [r for r in stayed[position:] if r.rank == stayed[position].rank]
        label = f"{position + 1}=" if len(tied) > 1 else str(position + 1)
        ranked += [replace(r, rank=label) for r in tied]
        position += len(tied)
    return (*ranked, *(row for row in rows if row.withdrew))


def section_standings(
    name: str,
    score: SessionScore,
    *,
    one_winner: bool,
    names: Mapping[str, str] | None = None,
    absent: Collection[str] = (),
    session: Mapping[str, Mapping[str, int]] | None = None,
    session_columns: tuple[tuple[str, str], ...] = (),
) -> SectionStandings:
    """A scored section as a document section.

    Pairs are keyed by `pair_key` ("3" in one field, "NS3"/"EW3" in two): `names` gives their
    players, `absent` the pairs marked absent: one that played no board never came and is left
    out; one that played some left during the evening: it is listed with its name and boards,
    marked `withdrew`, unranked, after the ranked pairs, and the others are ranked without it
    (ties among them stay ties). `session` is each pair's session figures (see
    `GameRules.session_tally`).
    """
    names = names or {}
    session = session or {}
    fields: dict[str, list[StandingRow]] = {}
    for row in score.standings:
        key = pair_key(row.pair, None if one_winner else row.direction)
        if row.boards_played == 0 and key in absent:
            continue
        field_name = "ALL" if one_winner else (row.direction or "ALL")
        fields.setdefault(field_name, []).append(
            StandingRow(
                pair=row.pair,
                direction=row.direction or "",
                names=names.get(key, ""),
                rank="" if key in absent else row.rank,
                withdrew=key in absent,
                total=Points.of(row.total),
                max=Points.of(row.max_total),
                percentage=Points.of(row.percentage),
                boards=row.boards_played,
                adjustments=Points.of(row.adjustments),
                versus_average=Points.of(row.versus_average),
                session=dict(session.get(key, {})),
            )
        )
    boards: dict[str, list[BoardLine]] = {}
    for scored in score.lines:
        line = scored.line
        boards.setdefault(str(line.board), []).append(
            BoardLine(
                ns=line.ns,
                ew=line.ew,
                ns_score=None if line.ns_score is None else int(line.ns_score),
                artificial="/".join(line.artificial) if line.artificial else "",
                ns_points=Points.of(scored.ns_points),
                ew_points=Points.of(scored.ew_points),
                top=Points.of(scored.top),
            )
        )
    return SectionStandings(
        name=name,
        one_winner=one_winner,
        fields=tuple(FieldStandings(n, _withdrawn_last(rows)) for n, rows in fields.items()),
        boards={number: tuple(lines) for number, lines in boards.items()},
        session_columns=session_columns,
    )
