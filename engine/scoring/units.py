"""Each method's points for every board of a session, in whole numbers of one denominator.

Every figure of a session is held as a whole number of 1/D, one denominator D for the whole
session, and only becomes a `Fraction` where it is handed out
(`ScoredLine.ns_points` and the like, the standings). Why: building and adding Fractions (a
gcd at every step) was most of a rescore, several times the cost of the integer sums. Why it
is exact: D is chosen as a common multiple of the denominator of every figure the session
can produce, so each figure x is u/D with u a whole number, the sum of such figures is
(sum of the u)/D, and Python's integers have no size limit; nothing is ever rounded. The
scale D is the least common multiple of what the method produces, known before any board
is scored:
- matchpoints: an EBU board scored as played needs 1, on the ACBL scale 2 (half points); a
  Neuberg-factored board, n results where N were expected, scores ((M + 1) N - n) / n EBU
  and half that ACBL, so it needs n (EBU) or 2n (ACBL);
- cross-IMPs: the IMPs summed over n - 1 comparisons, so n - 1 for a board with n results;
- Butler: whole IMPs, 1;
- total points: the scores' own denominators (1 for tricks and points);
- artificial scores (a percentage of the top: 60 % of a top of 16 is 48/5; with the session
  reading, of a pair's own percentage) are the only figures not known in advance: they are
  worked out as Fractions, then D is multiplied by the least common multiple of their
  denominators and every figure already worked is scaled up to match.
So on the usual club night (every board played as often as the movement expects, EBU scale)
D is 1 and a matchpoint is the integer itself. Each pair's figures are integer sums of its
lines' numbers and become Fractions once (`engine.scoring.standings`, which also keeps
compass whist's plus or minus over D times the boards' result counts); ranks compare them
as whole numbers over their common denominator.

The functions here fill `ns_units`/`ew_units` (by line) and `top_of` (by board) and return
the denominator D they worked in; `engine.scoring.session` calls them, then widens D for the
artificial scores.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from engine.scoring.matchpoints import BRIDGE_IMP_SCALE, butler_datum, ebu_matchpoints, imps
from engine.scoring.model import TravellerLine

#: A board as scoring sees it: its number, its lines with a real score, those scores, and the
#: number of results expected on it.
Board = tuple[int, list[int], list[int | Fraction], int]


def whole(value: Fraction) -> int:
    """A figure that the scaled denominator makes whole, as the int it is."""
    assert value.denominator == 1, f"{value} should be whole in the session's units"
    return value.numerator


def artificial_points(
    lines: list[TravellerLine],
    pending: list[int],
    boards: list[Board],
    pairs: tuple[list[int], list[int], int],
    worked: tuple[list[int], list[int], dict[int, int], int],
    *,
    method: str,
    reading: str,
    percentages: tuple[int, int, int],
    imps_given: tuple[int, int, int],
) -> list[tuple[int, Fraction, Fraction]]:
    """Each artificial line's NS and EW points (NP lines have none) in units of the session's
    denominator so far, as exact Fractions: they may need a finer denominator."""
    ns_of, ew_of, pair_count = pairs
    ns_units, ew_units, top_of, denominator = worked
    real_pct: dict[int, Fraction] = {}
    if reading == "session" and method == "mp" and pending:
        got = [0] * pair_count
        avail = [0] * pair_count
        for board, real, _, _ in boards:
            top = top_of[board]
            for i in real:
                got[ns_of[i]] += ns_units[i]
                got[ew_of[i]] += ew_units[i]
                avail[ns_of[i]] += top
                avail[ew_of[i]] += top
        # Both sums are in units of the same denominator, which cancels.
        real_pct = {k: Fraction(got[k] * 100, a) for k, a in enumerate(avail) if a}
    pct_of = {code: Fraction(p) for code, p in zip(("A+", "A", "A-"), percentages, strict=True)}
    imp_of = dict(zip(("A+", "A", "A-"), imps_given, strict=True))
    out = []
    for i in pending:
        codes = lines[i].artificial
        assert codes is not None
        if codes == ("NP", "NP"):
            continue
        side_points = []
        for code, pair in ((codes[0], ns_of[i]), (codes[1], ew_of[i])):
            if code == "NP":  # one side not played (its opponents were absent, or it was)
                side_points.append(Fraction(0))
                continue
            if method != "mp":
                side_points.append(Fraction(imp_of[code] * denominator))
                continue
            pct = pct_of[code]
            if reading == "session" and code != "A":
                own = real_pct.get(pair, Fraction(50))
                pct = max(pct_of["A+"], own) if code == "A+" else min(pct_of["A-"], own)
            side_points.append(pct * top_of[lines[i].board] / 100)
        out.append((i, side_points[0], side_points[1]))
    return out


def matchpoint_units(
    boards: list[Board],
    scale: str,
    ns_units: list[int],
    ew_units: list[int],
    top_of: dict[int, int],
) -> int:
    """Matchpoints in whole numbers of 1/D; D (returned) as the module docstring says."""
    halves = 1 if scale == "ebu" else 2
    denominator = lcm(halves, *(halves * len(s) for _, _, s, n in boards if s and len(s) != n))
    for board, real, scores, expected in boards:
        top = (2 * (expected - 1) if scale == "ebu" else expected - 1) * denominator
        top_of[board] = top
        if not scores:
            continue
        n = len(scores)
        points = ebu_matchpoints(scores)
        if n == expected:  # M / halves
            step = denominator // halves
            for i, ebu in zip(real, points, strict=True):
                ns_units[i] = units = ebu * step
                ew_units[i] = top - units
        else:  # Neuberg: ((M + 1) N - n) / (halves n)
            step = denominator // (halves * n)
            for i, ebu in zip(real, points, strict=True):
                ns_units[i] = units = ((ebu + 1) * expected - n) * step
                ew_units[i] = top - units
    return denominator


def cross_imp_units(
    boards: list[Board],
    imp_scale: tuple[int, ...] | None,
    ns_units: list[int],
    ew_units: list[int],
    top_of: dict[int, int],
) -> int:
    """IMPs against every other result on the board over n - 1, in whole numbers of 1/D."""
    scale_used = imp_scale or BRIDGE_IMP_SCALE
    denominator = lcm(1, *(len(s) - 1 for _, _, s, _ in boards if len(s) > 1))
    for board, real, scores, _ in boards:
        top_of[board] = 0
        if len(scores) < 2:
            continue  # a lone result has nothing to be compared with: 0
        step = denominator // (len(scores) - 1)
        for position, (i, mine) in enumerate(zip(real, scores, strict=True)):
            swing = 0
            for other_position, other in enumerate(scores):
                if other_position != position:
                    swing += imps(mine - other, scale_used)
            ns_units[i] = swing * step
            ew_units[i] = -swing * step
    return denominator


def butler_units(
    boards: list[Board],
    imp_scale: tuple[int, ...] | None,
    rounding: int | None,
    ns_units: list[int],
    ew_units: list[int],
    top_of: dict[int, int],
) -> int:
    """IMPs against the board's Butler datum: whole IMPs, so D is 1."""
    scale_used = imp_scale or BRIDGE_IMP_SCALE
    for board, real, scores, _ in boards:
        top_of[board] = 0
        if scores:
            datum = butler_datum(scores, rounding)
            for i, score in zip(real, scores, strict=True):
                ns_units[i] = swing = imps(score - datum, scale_used)
                ew_units[i] = -swing
    return 1


def total_units(
    boards: list[Board],
    complement: int | None,
    ns_units: list[int],
    ew_units: list[int],
    top_of: dict[int, int],
) -> int:
    """Each side's own score; D is the least common multiple of the scores' denominators."""
    denominator = lcm(1, *(score.denominator for _, _, s, _ in boards for score in s))
    for board, real, scores, _ in boards:
        top_of[board] = 0
        for i, score in zip(real, scores, strict=True):
            ns_units[i] = units = score.numerator * (denominator // score.denominator)
            ew_units[i] = complement * denominator - units if complement is not None else -units
    return denominator
