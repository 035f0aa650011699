"""Who sits where for one hand of a drive, the first hand's seating, and the next hand's.

A `Seating` is the tables (four player numbers each, N, E, S, W; 0 the dummy) and the bench
(the players sitting out, each with the role whose seat they will take back), with the number
of hands each player has sat out so far. `next_seating` applies the move form to each table's
result and then turns the bench over.

Sitting out (docs/games/drives.md): the players who come back from the bench take the seats of
those who go to it, role for role. Those who go are, among the players of that role at the
tables, the ones who have sat out fewest times; among those, first anyone whose partnership is
ending anyway (so a semi-partner drive's winners are not parted), then by table and seat. So
nobody sits out a second time while another player of their role has not sat out once: the
counts within a role never differ by more than one. In a partner drive the pair is the unit.

>>> from engine.drives.settings import DriveSettings
>>> from engine.cards import Side
>>> settings = DriveSettings(players=9)
>>> seating = placed_seating(settings, [(1, 2, 3, 4), (5, 6, 7, 8)], [9])
>>> after = next_seating(settings, seating, [Side.NS, Side.NS])
>>> after.tables, after.bench
(((9, 6, 8, 3), (5, 2, 4, 7)), (1,))
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.cards import Seat, Side
from engine.drives.model import DUMMY, DriveError, Role, role_of_index, seat_of_index
from engine.drives.moves import Table, move_tables
from engine.drives.settings import DriveSettings
from engine.reading import quoted

__all__ = [
    "Place",
    "Seating",
    "check_seating",
    "first_seating",
    "fit_seating",
    "next_seating",
    "placed_seating",
    "seating_in_order",
]

_ROLE_SEATS = {Role.A: (0, 1), Role.B: (2, 3)}


@dataclass(frozen=True)
class Place:
    """A player's place for a hand: a table (from 1) and a seat."""

    table: int
    seat: Seat

    def __str__(self) -> str:
        return f"table {self.table} {self.seat}"


@dataclass(frozen=True)
class Seating:
    """One hand's seating. `rests[p]` counts the hands player p has sat out, this one included
    (index 0, the dummy, is unused)."""

    hand: int
    tables: tuple[Table, ...]
    bench: tuple[int, ...] = ()
    bench_roles: tuple[Role, ...] = ()
    rests: tuple[int, ...] = ()

    @cached_property
    def _index(self) -> dict[int, tuple[int, int]]:
        index = {}
        for t, table in enumerate(self.tables):
            for i, player in enumerate(table):
                index[player] = (t, i)
        for b, player in enumerate(self.bench):
            index[player] = (-1, b)
        return index

    def __contains__(self, player: object) -> bool:
        """Whether `player` is at the drive this hand (at a table or sitting out): a late
        arrival is not before they come, nor a leaver after they went."""
        return player in self._index

    def place(self, player: int) -> Place | None:
        """Where `player` sits this hand; None while sitting out, or not there at all."""
        if player not in self._index:
            return None
        t, i = self._located(player)
        return None if t < 0 else Place(t + 1, seat_of_index(i))

    def partner(self, player: int) -> int | None:
        """The partner this hand (0: the dummy); None while sitting out or not there."""
        if player not in self._index:
            return None
        t, i = self._located(player)
        return None if t < 0 else self.tables[t][i ^ 2]

    def role(self, player: int) -> Role:
        t, i = self._located(player)
        return self.bench_roles[i] if t < 0 else role_of_index(i)

    @property
    def sitting_out(self) -> tuple[int, ...]:
        return tuple(player for player in self.bench if player != DUMMY)

    def _located(self, player: int) -> tuple[int, int]:
        found = self._index.get(player)
        if found is None:
            raise DriveError(f"there is no player {quoted(player)} in this drive")
        return found

    def lines(self, labels: Mapping[int, str] | None = None) -> list[str]:
        """The seating in words, a line a table: 'table 1: N 3, E 7, S 1, W dummy'."""
        names = labels or {}

        def name(player: int) -> str:
            return "dummy" if player == DUMMY else names.get(player, str(player))

        out = [
            f"table {t}: " + ", ".join(f"{seat_of_index(i)} {name(p)}" for i, p in enumerate(table))
            for t, table in enumerate(self.tables, start=1)
        ]
        if self.sitting_out:
            out.append("sitting out: " + ", ".join(name(p) for p in self.sitting_out))
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "tables": [list(table) for table in self.tables],
            "bench": [
                [player, role.value]
                for player, role in zip(self.bench, self.bench_roles, strict=True)
            ],
            "rests": list(self.rests),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seating:
        """The seating `to_dict` wrote (the drive's settings check it: `check_seating`)."""
        try:
            hand = int(data["hand"])
            tables = tuple(_table(t, table) for t, table in enumerate(data["tables"], start=1))
            bench = [(int(p), Role.from_str(r)) for p, r in data.get("bench") or []]
            rests = tuple(int(n) for n in data.get("rests") or [])
        except (KeyError, TypeError, ValueError):
            raise DriveError("a seating is {hand, tables, bench, rests}") from None
        return cls(hand, tables, tuple(p for p, _ in bench), tuple(r for _, r in bench), rests)


def first_seating(settings: DriveSettings, seed: int | None = None) -> Seating:
    """The first hand's seating drawn at random (repeatable with a seed): the players in the
    drawn order fill the tables N, E, S, W, table by table (a partner drive: pairs in drawn
    order, two to a table), and the last ones drawn sit out first."""
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    order = list(settings.present(1))
    rng.shuffle(order)
    return seating_in_order(settings, order)


def seating_in_order(settings: DriveSettings, order: Sequence[int]) -> Seating:
    """The first hand's seating with the players in this order: N, E, S, W table by table (a
    partner drive: consecutive players are partners, two pairs a table), the rest sitting out."""
    units = [*order, *([DUMMY] if settings.has_dummy else [])]
    count = settings.tables
    if settings.pairs:
        pairs = [(units[i], units[i + 1]) for i in range(0, len(units), 2)]
        tables = [
            (pairs[2 * t][0], pairs[2 * t + 1][0], pairs[2 * t][1], pairs[2 * t + 1][1])
            for t in range(count)
        ]
        bench = [player for pair in pairs[2 * count :] for player in pair]
    else:
        tables = [
            (units[4 * t], units[4 * t + 1], units[4 * t + 2], units[4 * t + 3])
            for t in range(count)
        ]
        bench = units[4 * count :]
    return placed_seating(settings, tables, bench)


def placed_seating(
    settings: DriveSettings,
    tables: Sequence[Sequence[int]],
    bench: Sequence[int | Sequence[int | Role | str]] = (),
) -> Seating:
    """The first hand's seating as the director placed it: each table's players N, E, S, W
    (0 for the dummy) and the players sitting out, each with the role whose seat they take
    back (by default A, B, A in turn; a partner drive's bench is pairs, A then B)."""
    players: list[Any] = []  # checked by check_seating below
    roles: list[Role] = []
    for b, item in enumerate(bench):
        if isinstance(item, Sequence) and not isinstance(item, str):
            if len(item) != 2:
                raise DriveError(
                    f"seating: a bench place is a player and a role, not {quoted(item)}"
                )
            players.append(item[0])
            roles.append(Role.from_str(item[1]))
        else:
            players.append(item)
            roles.append(Role.A if b % 2 == 0 else Role.B)
    rests = [0] * (settings.players + 1)
    for player in players:
        if isinstance(player, int) and 0 < player <= settings.players:
            rests[player] = 1
    seating = Seating(
        1,
        tuple(_table(t, table) for t, table in enumerate(tables, start=1)),
        tuple(players),
        tuple(roles),
        tuple(rests),
    )
    check_seating(settings, seating)
    return seating


def _table(number: int, table: Sequence[int]) -> Table:
    if isinstance(table, str) or not isinstance(table, Sequence) or len(table) != 4:
        raise DriveError(f"seating: table {number} seats four (N, E, S, W), not {quoted(table)}")
    n, e, s, w = table
    return (n, e, s, w)


def check_seating(settings: DriveSettings, seating: Seating) -> None:
    """DriveError unless every player there for the hand sits exactly once, at the settings'
    tables and bench for that hand (late arrivals and leavers change them)."""
    hand = seating.hand
    count, tables, bench_size = (
        settings.count_at(hand),
        settings.tables_at(hand),
        settings.bench_at(hand),
    )
    if len(seating.tables) != tables:
        raise DriveError(
            f"seating: {count} players make {tables} tables here, not {len(seating.tables)}"
        )
    if len(seating.bench) != bench_size or len(seating.bench_roles) != len(seating.bench):
        raise DriveError(
            f"seating: {bench_size} places sit out each hand, not {len(seating.bench)}"
        )
    seen: dict[int, str] = {}
    dummies = 0
    everyone = [
        (player, f"table {t} {seat_of_index(i)}")
        for t, table in enumerate(seating.tables, start=1)
        for i, player in enumerate(table)
    ] + [(player, "sitting out") for player in seating.bench]
    for player, where in everyone:
        if isinstance(player, bool) or not isinstance(player, int):
            raise DriveError(f"seating: {where} holds {quoted(player)}, not a player number")
        if player == DUMMY:
            dummies += 1
            continue
        if not 1 <= player <= settings.players:
            raise DriveError(f"seating: {where}: players are 1 to {settings.players}, not {player}")
        if player in seen:
            raise DriveError(f"seating: player {player} sits twice ({seen[player]} and {where})")
        if not settings.is_there(player, hand):
            raise DriveError(f"seating: player {player} is not at the drive for hand {hand}")
        seen[player] = where
    missing = sorted(set(settings.present(hand)) - set(seen))
    if missing:
        raise DriveError(f"seating: player {missing[0]} has no seat")
    wanted = 1 if settings.dummy_at(hand) else 0
    if dummies != wanted:
        raise DriveError(f"seating: this drive has {wanted} dummy hand(s), not {dummies}")
    if settings.pairs:
        for b in range(0, len(seating.bench), 2):
            if seating.bench_roles[b : b + 2] != (Role.A, Role.B):
                raise DriveError("seating: a partner drive's bench is pairs, A then B")
    elif DUMMY in seating.bench:
        raise DriveError("seating: the dummy hand makes up a table; it never sits out")
    # A seating stored before a late arrival was written counts only the players before them.
    if not max(seen, default=0) < len(seating.rests) <= settings.players + 1 or any(
        not isinstance(n, int) or n < 0 for n in seating.rests
    ):
        raise DriveError("seating: rests counts each player's hands sat out, players 0 to n")


def next_seating(settings: DriveSettings, seating: Seating, winners: Sequence[Side]) -> Seating:
    """The next hand's seating, from this one and the winning side at each table."""
    if seating.hand >= settings.hands:
        raise DriveError(f"the drive has {settings.hands} hands: hand {seating.hand} is the last")
    if len(winners) != len(seating.tables):
        raise DriveError(
            f"hand {seating.hand}: {len(seating.tables)} tables played, "
            f"but {len(winners)} results were given"
        )
    moved = move_tables(seating.tables, winners, settings.move, settings.ends)
    rests = list(seating.rests) + [0] * (settings.players + 1 - len(seating.rests))
    if not seating.bench:
        after = Seating(seating.hand + 1, tuple(moved), (), (), tuple(rests))
        return fit_seating(settings, after)
    tables = [list(table) for table in moved]
    if settings.pairs:
        bench, roles = _turn_pairs(seating, tables, rests)
    else:
        bench, roles = _turn_players(seating, tables, rests)
    after = Seating(
        seating.hand + 1,
        tuple((t[0], t[1], t[2], t[3]) for t in tables),
        bench,
        roles,
        tuple(rests),
    )
    return fit_seating(settings, after)


def fit_seating(settings: DriveSettings, seating: Seating) -> Seating:
    """The seating with the players who come and go for its hand (docs/games/drives.md,
    "Late arrivals and leavers"); the seating itself when nobody does.

    A leaver's seat comes free, and so does the dummy's once the players fill every table.
    Tables open or close at the top end of the room as the players there make more or fewer
    tables (the top table's players then take free seats; nobody else moves). Free seats are
    taken first by newcomers, then by the players of a closed table, then by those sitting out
    who have sat out most; a player takes a seat of their own role where one is free. A
    three-handed table's dummy takes a free seat when the drive has one (`short_table`); the
    players left over sit out, a newcomer in the role fewer of those sitting out have."""
    hand = seating.hand
    want = set(settings.present(hand))
    here = {p for table in seating.tables for p in table if p != DUMMY} | set(seating.sitting_out)
    tables_wanted = settings.tables_at(hand)
    dummy_wanted = settings.dummy_at(hand)
    has_dummy = DUMMY in seating.bench or any(DUMMY in table for table in seating.tables)
    if (
        here == want
        and len(seating.tables) == tables_wanted
        and has_dummy == dummy_wanted
        and len(seating.rests) == settings.players + 1
    ):
        return seating
    if settings.pairs:
        raise DriveError("a partner drive keeps its pairs all evening")
    rests = list(seating.rests) + [0] * (settings.players + 1 - len(seating.rests))
    was_out = set(seating.bench)
    free = None  # a seat no one holds yet
    tables: list[list[int | None]] = [
        [p if p == DUMMY or p in want else free for p in table] for table in seating.tables
    ]
    if not dummy_wanted:
        tables = [[free if p == DUMMY else p for p in table] for table in tables]
    # (priority, order, player, role or None): newcomers first, then a closed table's players,
    # then those sitting out, most hands sat out before this one first.
    pool: list[tuple[int, int, int, Role | None]] = []
    while len(tables) > tables_wanted:
        closed = tables.pop()
        pool += [
            (1, 0, p, role_of_index(i)) for i, p in enumerate(closed) if p not in (free, DUMMY)
        ]
    while len(tables) < tables_wanted:
        tables.append([free] * 4)
    seated = {p for table in tables for p in table if p not in (free, DUMMY)}
    if dummy_wanted and not any(DUMMY in table for table in tables):
        t, i = next((t, i) for t in range(len(tables)) for i in range(4) if tables[t][i] is free)
        tables[t][i] = DUMMY
    newcomers = sorted(want - seated - set(seating.bench) - {item[2] for item in pool})
    pool += [(0, 0, p, None) for p in newcomers]
    pool += [
        (2, -(rests[p] - 1), p, role)
        for p, role in zip(seating.bench, seating.bench_roles, strict=True)
        if p in want
    ]
    pool.sort(key=lambda item: (item[0], item[1]))
    holes = [(t, i) for t in range(len(tables)) for i in range(4) if tables[t][i] is free]
    playing, resting = pool[: len(holes)], pool[len(holes) :]
    left_over = []
    for _, _, player, role in playing:  # own role first
        spot = next((h for h in holes if role is not None and role_of_index(h[1]) is role), None)
        if spot is None:
            left_over.append(player)
            continue
        holes.remove(spot)
        tables[spot[0]][spot[1]] = player
    for player, (t, i) in zip(left_over, holes, strict=True):
        tables[t][i] = player
    bench = [player for _, _, player, _ in resting]
    roles = _bench_roles([role for _, _, _, role in resting])
    for player in bench:
        if player not in was_out:
            rests[player] += 1
    for table in tables:
        for seated_player in table:
            if seated_player is not None and seated_player in was_out:
                rests[seated_player] -= 1
    done = Seating(
        hand,
        tuple((_filled(t[0]), _filled(t[1]), _filled(t[2]), _filled(t[3])) for t in tables),
        tuple(bench),
        tuple(roles),
        tuple(rests),
    )
    check_seating(settings, done)
    return done


def _bench_roles(own: list[Role | None]) -> list[Role]:
    """The roles whose seats those sitting out take back: as even as a first hand's bench (A,
    B, A), so each role has the seats for its returners; each keeps their own role where the
    balance allows (a newcomer has none yet)."""
    room = {Role.A: (len(own) + 1) // 2, Role.B: len(own) // 2}
    roles: list[Role | None] = [None] * len(own)
    for k, role in enumerate(own):
        if role is not None and room[role]:
            roles[k], room[role] = role, room[role] - 1
    for k in range(len(own)):
        if roles[k] is None:
            role = Role.A if room[Role.A] else Role.B
            roles[k], room[role] = role, room[role] - 1
    return [role for role in roles if role is not None]


def _filled(player: int | None) -> int:
    assert player is not None, "every free seat was taken"
    return player


def _turn_players(
    seating: Seating, tables: list[list[int]], rests: list[int]
) -> tuple[tuple[int, ...], tuple[Role, ...]]:
    """Players from the bench take, role for role, the seats of those who go to it."""
    partner_before = {
        table[i]: table[i ^ 2] for table in seating.tables for i in range(4) if table[i] != DUMMY
    }
    leaving: list[tuple[int, int, int, Role]] = []
    arriving: list[tuple[int, int, int]] = []  # (player, table, seat) coming back
    # Every role's leavers are chosen on the tables as the moves left them, before anyone
    # comes back: a player returning to one role's seat must not make the partnership beside
    # it look as if it were ending anyway (it would part a semi-partner drive's winners).
    for role in Role:
        coming = [p for p, r in zip(seating.bench, seating.bench_roles, strict=True) if r is role]
        if not coming:
            continue
        candidates = [
            (rests[p], int(partner_before[p] == table[i ^ 2]), t, i, p)
            for t, table in enumerate(tables)
            for i in _ROLE_SEATS[role]
            if (p := table[i]) != DUMMY
        ]
        chosen = heapq.nsmallest(len(coming), candidates)
        leaving += [(t, i, p, role) for _, _, t, i, p in chosen]
        places = sorted((t, i) for _, _, t, i, _ in chosen)
        arriving += [(player, t, i) for player, (t, i) in zip(coming, places, strict=True)]
    for player, t, i in arriving:
        tables[t][i] = player
    leaving.sort()
    for _, _, player, _ in leaving:
        rests[player] += 1
    return tuple(p for _, _, p, _ in leaving), tuple(r for _, _, _, r in leaving)


def _turn_pairs(
    seating: Seating, tables: list[list[int]], rests: list[int]
) -> tuple[tuple[int, ...], tuple[Role, ...]]:
    """Pairs from the bench take the sides of the pairs that go to it."""
    coming = [(seating.bench[b], seating.bench[b + 1]) for b in range(0, len(seating.bench), 2)]
    candidates = []
    for t, table in enumerate(tables):
        for side, (a_seat, b_seat) in enumerate(((0, 2), (1, 3))):
            a, b = table[a_seat], table[b_seat]
            candidates.append((rests[a if a != DUMMY else b], t, side, a, b))
    chosen = sorted(heapq.nsmallest(len(coming), candidates), key=lambda c: (c[1], c[2]))
    bench: list[int] = []
    for (a, b), (_, t, side, old_a, old_b) in zip(coming, chosen, strict=True):
        tables[t][side] = a
        tables[t][side + 2] = b
        bench += [old_a, old_b]
        rests[old_a] += 1
        rests[old_b] += 1
    return tuple(bench), tuple(Role.A if k % 2 == 0 else Role.B for k in range(len(bench)))
