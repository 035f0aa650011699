"""Mitchell movements: NS pairs stay put, EW pairs move up a table, boards move down one.

Formulas (docs/games/classic.md, "Duplicate whist": "all
N/S pairs sit, while E/W pairs move one table up each round ... boards go down one table"),
with n tables, round r, table t, EW pair p:

- EW pair p sits at table ((p + r - 2) mod n) + 1;
- the set at table t is ((t + r - 2) mod n) + 1;
- skip Mitchell (n even): for r > n/2 the EW table is ((p + r - 1) mod n) + 1, so n - 1 rounds
  at most; without the skip EW pairs would meet their boards again in round n/2 + 1;
- share-and-relay (n even): the boards travel round n places, tables 1..n/2, then the relay
  (bye) stand, then tables n/2+1..n-1; table n shares the set of table 1; n rounds.

A phantom (pair 0) completes a half table; by default it is the NS pair of the last table, so
the sit-out is always at one table (EBU advice: make the missing pair a stationary one).

Arrow switch: on the chosen rounds the EW pair plays the NS cards, which merges the two fields
into one; pairs are then numbered 1..n (NS) and n+1..2n (EW) so a number names one pair.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.movements.model import PHANTOM, Meeting, Movement, MovementError, PairSlot
from engine.movements.validate import validate


def default_arrow_switch(rounds: int) -> frozenset[int]:
    """EBU practice, about one board in eight switched: the last round up to 11 rounds,
    the last two from 12 (REFERENCE.md, "Arrow switch")."""
    count = max(1, (rounds + 4) // 8)
    return frozenset(range(rounds - count + 1, rounds + 1))


def mitchell(
    tables: int,
    *,
    rounds: int | None = None,
    boards_per_round: int = 3,
    even: str = "skip",
    arrow_switch: Iterable[int] = (),
    phantom: bool = False,
    phantom_seat: str = "NS",
) -> Movement:
    """A Mitchell for `tables` tables; `even` ('skip' or 'relay') says how an even count is
    handled. `rounds` may cut the movement short (each set is then played `rounds` times).

    >>> m = mitchell(3, boards_per_round=2)
    >>> m.meeting(2, 1)
    Meeting(round=2, table=1, ns=1, ew=3, set=2)
    """
    if tables < 3:
        raise MovementError(f"a Mitchell needs at least 3 tables, not {tables}")
    if boards_per_round < 1:
        raise MovementError("a round needs at least one board")
    if even not in ("skip", "relay"):
        raise MovementError(f"even must be 'skip' or 'relay', not {even!r}")
    if phantom_seat not in ("NS", "EW"):
        raise MovementError(f"the phantom sits NS or EW, not {phantom_seat!r}")
    n = tables
    kind = "mitchell" if n % 2 else f"{even}-mitchell"
    full = n - 1 if kind == "skip-mitchell" else n
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= full:
        raise MovementError(f"a {n}-table {kind} has 1..{full} rounds, not {rounds}")
    switched = frozenset(arrow_switch)
    for r in switched:
        if not 1 <= r <= rounds:
            raise MovementError(f"cannot arrow-switch round {r}: rounds are 1..{rounds}")
    one_winner = bool(switched)
    ew_offset = n if one_winner else 0

    # Board places in travel order; the boards at place q in round r: ((q + r - 2) mod n) + 1.
    relay_place = n // 2 + 1
    if kind == "relay-mitchell":
        place_of = {t: (t if t <= n // 2 else t + 1) for t in range(1, n)}
        place_of[n] = 1
    else:
        place_of = {t: t for t in range(1, n + 1)}

    meetings = []
    relay_sets = []
    for r in range(1, rounds + 1):
        if kind == "relay-mitchell":
            relay_sets.append((r, (relay_place + r - 2) % n + 1))
        for p in range(1, n + 1):
            skip = 1 if kind == "skip-mitchell" and r > n // 2 else 0
            t = (p + r - 2 + skip) % n + 1
            ns = t
            ew = p + ew_offset
            if phantom and phantom_seat == "NS" and ns == n:
                ns = PHANTOM
            if phantom and phantom_seat == "EW" and p == n:
                ew = PHANTOM
            if r in switched:
                ns, ew = ew, ns
            meetings.append(Meeting(r, t, ns, ew, (place_of[t] + r - 2) % n + 1))
    pairs = [PairSlot(t, "NS") for t in range(1, n + 1)]
    pairs += [PairSlot(p + ew_offset, "EW") for p in range(1, n + 1)]
    if phantom:
        missing = n if phantom_seat == "NS" else n + ew_offset
        pairs = [s for s in pairs if not (s.number == missing and s.direction == phantom_seat)]
    movement = Movement(
        kind=kind,
        tables=n,
        rounds=rounds,
        sets=n,
        boards_per_round=boards_per_round,
        meetings=tuple(sorted(meetings)),
        relay_sets=tuple(relay_sets),
        one_winner=one_winner,
        arrow_switch_rounds=switched,
        pairs=tuple(pairs),
        shared_tables=((1, n),) if kind == "relay-mitchell" else (),
        description=_describe(kind, n, rounds, boards_per_round, switched, phantom),
    )
    return checked(movement)


def _describe(
    kind: str, n: int, rounds: int, k: int, switched: frozenset[int], phantom: bool
) -> str:
    text = {
        "mitchell": "Mitchell",
        "skip-mitchell": "skip Mitchell (EW skip a table after round {half})",
        "relay-mitchell": "share-and-relay Mitchell (tables 1 and {n} share, a relay stand)",
    }[kind].format(half=n // 2, n=n)
    text = f"{n}-table {text}, {rounds} rounds of {k} boards"
    if switched:
        text += ", arrow switch in round " + ", ".join(str(r) for r in sorted(switched))
    if phantom:
        text += ", one pair sits out each round"
    return text


def checked(movement: Movement) -> Movement:
    """Refuse to hand out a movement that breaks an invariant (a bug guard for builders)."""
    report = validate(movement)
    if not report.ok:
        raise MovementError(f"{movement.kind} is broken: " + "; ".join(report.problems[:5]))
    return movement
