"""The invariants every movement must keep (REFERENCE.md, "Invariants every movement must pass").

Each builder in this package runs `validate` on what it made before handing it out, and the
file importers run it on what they read, so a movement that reaches a director has passed:

- every meeting is at a table 1..tables, in a round 1..rounds, with a set 1..sets, and no
  table is used twice in a round;
- no pair sits at two tables in one round, and no pair plays itself;
- no pair meets the same opponents twice (no revenge rounds are offered);
- no pair plays a board (a set) twice;
- a set is at one place per round (one table, or the relay stand), unless the tables holding
  it form a group that shares by design (`Movement.shared_tables`);
- how many times each board is played (`times_played`); unequal counts are not a defect but
  are listed in `notes`, because scoring must Neuberg-factor those boards.

Pair identity: in a two-winner movement NS 3 and EW 3 are different pairs (with the arrow
switch excepted, which is one-winner); in a one-winner movement the number is the pair.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from engine.movements.model import PHANTOM, Meeting, Movement


@dataclass
class ValidationReport:
    """What `validate` found: `problems` break the movement, `notes` are for the scorer."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    times_played: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _who(movement: Movement, m: Meeting, seat: str) -> tuple[str, int]:
    number = m.ns if seat == "NS" else m.ew
    if movement.one_winner:
        return ("ALL", number)
    return (seat, number)


def _name(key: tuple[str, int]) -> str:
    side, number = key
    return f"pair {number}" if side == "ALL" else f"{side} pair {number}"


def validate(movement: Movement) -> ValidationReport:
    """Check every invariant of `movement`; never raises for a broken movement."""
    report = ValidationReport()
    problems = report.problems
    places: set[tuple[int, int]] = set()
    seated: dict[tuple[int, tuple[str, int]], int] = {}
    met: dict[frozenset[tuple[str, int]], int] = {}
    sets_played: dict[tuple[str, int], dict[int, int]] = defaultdict(dict)
    set_tables: dict[tuple[int, int], list[int]] = defaultdict(list)
    shared = [frozenset(group) for group in movement.shared_tables]
    plays: Counter[int] = Counter()

    for m in movement.meetings:
        where = f"round {m.round} table {m.table}"
        if not 1 <= m.round <= movement.rounds:
            problems.append(f"{where}: round outside 1..{movement.rounds}")
        if not 1 <= m.table <= movement.tables:
            problems.append(f"{where}: table outside 1..{movement.tables}")
        if not 1 <= m.set <= movement.sets:
            problems.append(f"{where}: set {m.set} outside 1..{movement.sets}")
        if (m.round, m.table) in places:
            problems.append(f"{where}: the table is used twice in the round")
        places.add((m.round, m.table))
        if m.ns == PHANTOM and m.ew == PHANTOM:
            problems.append(f"{where}: two phantoms at one table (leave the table out instead)")
            continue
        if m.ns == m.ew and movement.one_winner:
            problems.append(f"{where}: pair {m.ns} plays against itself")
        set_tables[(m.round, m.set)].append(m.table)
        players = [_who(movement, m, seat) for seat in ("NS", "EW")]
        for key in players:
            if key[1] == PHANTOM:
                continue
            if (m.round, key) in seated:
                problems.append(
                    f"{where}: {_name(key)} is also at table {seated[(m.round, key)]} this round"
                )
            seated[(m.round, key)] = m.table
            earlier = sets_played[key].get(m.set)
            if earlier is not None:
                problems.append(
                    f"{where}: {_name(key)} plays set {m.set} again (already in round {earlier})"
                )
            else:
                sets_played[key][m.set] = m.round
        if PHANTOM in (m.ns, m.ew):
            continue
        pairing = frozenset(players)
        if pairing in met:
            problems.append(
                f"{where}: {_name(players[0])} meets {_name(players[1])} again "
                f"(already in round {met[pairing]})"
            )
        else:
            met[pairing] = m.round
        for board in movement.boards_for_set(m.set) if 1 <= m.set <= movement.sets else ():
            plays[board] += 1

    for (rnd, set_number), tables in sorted(set_tables.items()):
        if len(tables) > 1 and not any(set(tables) <= group for group in shared):
            listed = ", ".join(str(t) for t in sorted(tables))
            problems.append(f"round {rnd}: set {set_number} is at tables {listed} at once")
    for rnd, set_number in movement.relay_sets:
        if (rnd, set_number) in set_tables:
            problems.append(
                f"round {rnd}: set {set_number} is on the relay stand and at table "
                f"{set_tables[(rnd, set_number)][0]} at once"
            )

    report.times_played = {b: plays.get(b, 0) for b in range(1, movement.board_count() + 1)}
    counts = Counter(report.times_played.values())
    if len(counts) > 1:
        spread = ", ".join(f"{c} played {t}x" for t, c in sorted(counts.items()))
        report.notes.append(
            f"boards are played unequally often (boards: {spread}); scoring factors them"
        )
    return report
