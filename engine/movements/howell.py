"""Complete Howell movements: one field, every pair meets every other pair once.

Construction (REFERENCE.md, "Complete Howell"): 2n pairs at n tables, 2n-1 rounds and 2n-1
board sets. Pair 2n is stationary at table 1; the others and the sets advance cyclically
modulo m = 2n-1. Writing a moving pair as its residue x = pair - 1, in round r (counted from
0) the stationary pair meets residue r, and at table i+1 (i = 1..n-1) residue r+i meets
residue r-i. This is the round-robin "circle" schedule, so every pair meets every other once.

The set at table i+1 in round r is g(i) + r (mod m) for a fixed starter g. Each round then
has n different sets (g is injective), and pair x sees set g(i) + x - d at offset d = x - r,
so it plays every set exactly once when {g(0)} + {g(i) - i} + {g(i) + i} covers all of Z_m.
Such a starter is found by a small depth-first search (instant up to 15 tables).

Seating balance: the pair on the r+i side takes NS, so every moving pair sits NS n-1 times,
EW n-1 times, and once (against the stationary pair) in the seat that pair leaves free; the
stationary pair alternates NS and EW by round.

Two and three tables are the exceptions: a Howell in which every table has its own set each
round is a Room square of side 2n-1, and none exists for sides 3 and 5. So the 2-table Howell
has both tables play the same set every round, and the 3-table Howell (found by exhaustive
search over set assignments of the circle schedule) has all three tables play set 1 in round 1
and different sets afterwards; those tables are declared shared, and every pair still plays
every set exactly once.

A phantom (pair 0) in place of the stationary pair gives the usual Howell for an odd number
of pairs: table 1 is then the sit-out table, and each pair sits out exactly once.
"""

from __future__ import annotations

from functools import cache

from engine.movements.mitchell import checked
from engine.movements.model import PHANTOM, Meeting, Movement, MovementError, PairSlot

MAX_HOWELL_TABLES = 15

# Set residues per round (tables 1..n) for the sizes with no unshared Howell (see above);
# the pairing is the patterned circle schedule, residue r+i NS against r-i at table i+1.
_SHARED_SETS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((0, 0), (1, 1), (2, 2)),
    3: ((0, 0, 0), (1, 2, 3), (3, 2, 4), (4, 1, 3), (2, 1, 4)),
}


@cache
def _starter(n: int) -> tuple[tuple[int, int, int], ...]:
    """(a_i, b_i, g_i) for tables 2..n, as described in the module docstring.

    The patterned starter (a, b) = (i, -i) is tried first; for 3 and 5 tables no set
    assignment fits it, so the search then also chooses the pairing.
    """
    for patterned in (True, False):
        found = _search(n, patterned)
        if found is not None:
            return found
    raise MovementError(f"no {n}-table Howell found")  # pragma: no cover


def _search(n: int, patterned: bool) -> tuple[tuple[int, int, int], ...] | None:
    m = 2 * n - 1
    unpaired = set(range(1, m))
    differences: set[int] = set()
    set_values = {0}
    covered = {0}  # set - pair residue, over the offsets where the pair sits
    chosen: list[tuple[int, int, int]] = []

    def extend() -> bool:
        if not unpaired:
            return True
        a = min(unpaired)
        partners = [(-a) % m] if patterned else sorted(unpaired - {a})
        for b in partners:
            if b not in unpaired or b == a:
                continue
            d1, d2 = (a - b) % m, (b - a) % m
            if d1 in differences or d2 in differences:
                continue
            for g in range(m):
                lo, hi = (g - a) % m, (g - b) % m
                if g in set_values or lo in covered or hi in covered or lo == hi:
                    continue
                unpaired.difference_update((a, b))
                differences.update((d1, d2))
                set_values.add(g)
                covered.update((lo, hi))
                chosen.append((a, b, g))
                if extend():
                    return True
                chosen.pop()
                unpaired.update((a, b))
                differences.difference_update((d1, d2))
                set_values.discard(g)
                covered.difference_update((lo, hi))
        return False

    return tuple(chosen) if extend() else None


def howell(
    tables: int,
    *,
    rounds: int | None = None,
    boards_per_round: int = 2,
    phantom: bool = False,
) -> Movement:
    """A complete Howell for `tables` tables (2n pairs, 2n-1 rounds), or its first `rounds`
    rounds (a shortened Howell, whose boards are then played unequally often).

    >>> h = howell(3)
    >>> h.rounds, h.sets, len(h.pairs)
    (5, 5, 6)
    """
    if not 2 <= tables <= MAX_HOWELL_TABLES:
        raise MovementError(f"a Howell here has 2..{MAX_HOWELL_TABLES} tables, not {tables}")
    if boards_per_round < 1:
        raise MovementError("a round needs at least one board")
    n = tables
    m = 2 * n - 1
    rounds = m if rounds is None else rounds
    if not 1 <= rounds <= m:
        raise MovementError(f"a {n}-table Howell has 1..{m} rounds, not {rounds}")
    if n in _SHARED_SETS:
        shared_sets = _SHARED_SETS[n]
        starter = tuple((i, -i % m, 0) for i in range(1, n))
    else:
        shared_sets = ()
        starter = _starter(n)
    stationary = PHANTOM if phantom else 2 * n
    meetings = []
    for r0 in range(rounds):
        r = r0 + 1
        mover = r0 % m + 1
        first_set = shared_sets[r0][0] + 1 if shared_sets else r0 % m + 1
        if r0 % 2 == 0:
            meetings.append(Meeting(r, 1, stationary, mover, first_set))
        else:
            meetings.append(Meeting(r, 1, mover, stationary, first_set))
        for i, (a, b, g) in enumerate(starter, start=2):
            ns = (r0 + a) % m + 1
            ew = (r0 + b) % m + 1
            board_set = shared_sets[r0][i - 1] + 1 if shared_sets else (g + r0) % m + 1
            meetings.append(Meeting(r, i, ns, ew, board_set))
    pairs = tuple(PairSlot(p, None) for p in range(1, 2 * n + (0 if phantom else 1)))
    complete = "complete" if rounds == m else f"shortened ({rounds} of {m} rounds)"
    movement = Movement(
        kind="howell",
        tables=n,
        rounds=rounds,
        sets=m,
        boards_per_round=boards_per_round,
        meetings=tuple(sorted(meetings)),
        one_winner=True,
        pairs=pairs,
        shared_tables=(tuple(range(1, n + 1)),) if shared_sets else (),
        description=(
            f"{n}-table {complete} Howell, {rounds} rounds of {boards_per_round} boards"
            + (", one pair sits out each round" if phantom else "")
        ),
    )
    return checked(movement)
