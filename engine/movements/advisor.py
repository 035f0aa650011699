"""Which movements suit tonight's room: the director says how many pairs came and roughly how
many boards they want; the advisor lists the movements that fit, best first.

Candidates (every one is built and validated, so the figures are those of the real movement):
- Howell, one winner, for up to 10 tables (longer Howells take too long to play in a
  session); complete, or cut short when the complete one would have too many boards;
- Mitchell, two winners, from 3 tables: plain for an odd count, skip and share-and-relay for
  an even one; also the same with an arrow switch (one winner) on the last round(s);
- an odd number of pairs adds a phantom, so one pair sits out each round.

Boards per round 1..6 and any number of rounds up to the complete movement are considered.
Ordering: closest to the target number of boards a pair plays, then complete movements
(every pair meets its whole field), then the smaller number of boards per round.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.movements.mitchell import default_arrow_switch
from engine.movements.model import PHANTOM, Movement, MovementError
from engine.movements.registry import build

MAX_ADVISED_HOWELL_TABLES = 10


@dataclass(frozen=True)
class Suggestion:
    """One movement the director could run; `params` rebuilds it with `build()`."""

    kind: str
    params: dict[str, Any]
    tables: int
    rounds: int
    boards_per_round: int
    boards_per_pair: int
    total_boards: int
    winners: int
    sit_out: bool
    description: str
    complete: bool = True
    #: The tables at which boards are played: all but one where the sit-out stays at one
    #: table all evening (`Movement.idle_tables`).
    tables_in_play: int = 0

    def movement(self) -> Movement:
        return build(self.kind, **self.params)


def boards_per_pair(movement: Movement) -> int:
    """Boards the busiest pair plays (a pair that sits out plays one round fewer)."""
    counts: dict[tuple[str, int], int] = {}
    for m in movement.meetings:
        if PHANTOM in (m.ns, m.ew):
            continue
        for seat, p in (("NS", m.ns), ("EW", m.ew)):
            key = ("ALL" if movement.one_winner else seat, p)
            counts[key] = counts.get(key, 0) + movement.boards_per_round
    return max(counts.values(), default=0)


def _candidates(tables: int, phantom: bool) -> Iterator[tuple[str, dict[str, Any], int]]:
    """(kind, params, full rounds) for each family that fits the number of tables."""
    if 2 <= tables <= MAX_ADVISED_HOWELL_TABLES:
        yield "howell", {"tables": tables, "phantom": phantom}, 2 * tables - 1
    if tables >= 3:
        if tables % 2:
            yield "mitchell", {"tables": tables, "phantom": phantom}, tables
        else:
            yield "skip-mitchell", {"tables": tables, "phantom": phantom}, tables - 1
            yield "relay-mitchell", {"tables": tables, "phantom": phantom}, tables


def advise(pairs_present: int, target_boards: int) -> list[Suggestion]:
    """Suitable movements for `pairs_present` pairs playing about `target_boards` boards."""
    if pairs_present < 3:
        raise MovementError(f"{pairs_present} pairs cannot play a duplicate session (3 at least)")
    if target_boards < 1:
        raise MovementError("the target number of boards must be at least 1")
    tables = (pairs_present + 1) // 2
    phantom = pairs_present % 2 == 1
    tolerance = max(2, target_boards // 5)
    found: list[tuple[tuple[int, ...], Suggestion]] = []
    for kind, base, full in _candidates(tables, phantom):
        for k in range(1, 7):
            wanted = round(target_boards / k) + (1 if phantom else 0)
            rounds_options = {min(full, max(1, wanted))}
            if abs(full * k - target_boards) <= tolerance + k:
                rounds_options.add(full)
            for rounds in sorted(rounds_options):
                arrow_options: list[frozenset[int]] = [frozenset()]
                if kind.endswith("mitchell"):
                    arrow_options.append(default_arrow_switch(rounds))
                for arrows in arrow_options:
                    params = dict(base, rounds=rounds, boards_per_round=k)
                    if arrows:
                        params["arrow_switch"] = sorted(arrows)
                    try:
                        movement = build(kind, **params)
                    except MovementError:
                        continue
                    per_pair = boards_per_pair(movement)
                    gap = abs(per_pair - target_boards)
                    if gap > tolerance:
                        continue
                    complete = rounds == full
                    suggestion = Suggestion(
                        kind=kind,
                        params=params,
                        tables=tables,
                        rounds=rounds,
                        boards_per_round=k,
                        boards_per_pair=per_pair,
                        total_boards=movement.board_count(),
                        winners=1 if movement.one_winner else 2,
                        sit_out=phantom,
                        description=movement.description,
                        complete=complete,
                        tables_in_play=len(movement.tables_in_play),
                    )
                    # Best first: not a shortened Howell (its boards are played unequally
                    # often; a Mitchell cut to fewer rounds is the usual club evening); then
                    # near the boards asked for (within 3 counts as
                    # near); then 2-4 boards a round (fewer is slow to move, more is long to
                    # wait); then a Howell for a small room (everyone meets) and a Mitchell
                    # for a large one; then the nearest; then without arrow switches.
                    usual = 0 if 2 <= k <= 4 else 1
                    small = tables <= 4
                    fit = 0 if (kind == "howell") == small else 1
                    cut_howell = 1 if kind == "howell" and not complete else 0
                    rank = (cut_howell, gap // 4, usual, fit, gap, len(arrows))
                    found.append((rank, suggestion))
    found.sort(key=lambda item: item[0])
    unique: list[Suggestion] = []
    for _, s in found:
        if all(s.params != u.params or s.kind != u.kind for u in unique):
            unique.append(s)
    return unique


def why(suggestion: Suggestion, *, minutes_per_board: int = 7) -> str:
    """The suggestion in one sentence, for the director choosing: what each pair plays, how
    long it takes at the club's pace, how many winners, and the sit-out."""
    s = suggestion
    # The room plays every round, whoever sits out: a pair that sits out a round waits it out,
    # so the evening lasts all its rounds (not the boards one pair plays), plus the moves.
    minutes = s.rounds * s.boards_per_round * minutes_per_board + (s.rounds - 1) * 2
    hours, rest = divmod(minutes, 60)
    length = f"{hours} h {rest:02d}" if hours else f"{rest} minutes"
    winners = "one winner" if s.winners == 1 else "two winners (North-South and East-West)"
    sentence = (
        f"Each pair plays {s.boards_per_pair} boards in {s.rounds} rounds of "
        f"{s.boards_per_round}, about {length} at {minutes_per_board} minutes a board; "
        f"{winners}"
    )
    if s.sit_out:
        sentence += "; one pair sits out each round"
    if not s.complete and s.kind == "howell":
        sentence += "; shortened, so boards are played unequally often"
    return sentence + "."
