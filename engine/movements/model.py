"""The data a movement is made of: who sits where, with which boards, round by round.

A movement is a plain table of meetings (round x table -> NS pair, EW pair, board set); every
builder in this package produces one and every check (`engine.movements.validate`) reads one,
so a movement imported from a file is treated exactly like one the engine constructs.

Pair numbers: pair 0 is the phantom (a sit-out). In a two-winner movement NS pair 3 and EW
pair 3 are different pairs (the traditional Mitchell numbering); in a one-winner movement a
number names one pair whichever seat it takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from engine import EngineError
from engine.reading import quoted, whole_number

PHANTOM = 0


class MovementError(EngineError):
    """A movement cannot be built or used as asked (bad size, unknown pair, broken invariant)."""


class MovementFileError(MovementError):
    """A movement file is malformed or describes a movement that breaks an invariant."""


@dataclass(frozen=True, order=True)
class Meeting:
    """One table in one round: the pair holding the NS cards, the pair holding EW, the set.

    On an arrow-switched round the pair that normally sits EW plays the NS cards, so it is the
    `ns` of that meeting: travellers always name the pair that held each hand.
    """

    round: int
    table: int
    ns: int
    ew: int
    set: int

    @property
    def sit_out(self) -> bool:
        return PHANTOM in (self.ns, self.ew)


@dataclass(frozen=True)
class PairSlot:
    """A pair of the movement and the direction it belongs to (None in a one-winner Howell)."""

    number: int
    direction: str | None

    def __str__(self) -> str:
        return f"{self.direction or ''}{self.number}"

    @classmethod
    def from_str(cls, text: str) -> PairSlot:
        """Read `NS3`, `EW3` or `3` back (the form `str()` writes)."""
        cleaned = text.strip().upper()
        for direction in ("NS", "EW"):
            number = whole_number(cleaned[2:]) if cleaned.startswith(direction) else None
            if number is not None:
                return cls(number, direction)
        number = whole_number(cleaned)
        if number is not None:
            return cls(number, None)
        raise MovementError(f"{quoted(text)} is not a pair: write e.g. NS3, EW3 or 3")


@dataclass(frozen=True)
class GuideRow:
    """One line of a guide card.

    For a pair's guide `seat` is the seat it takes ('NS'/'EW'), `opponents` the pair it meets
    (0: it sits out) and `next_table` where it goes next round. For a table's guide `seat` and
    `opponents` are None and `next_table` is where the EW pair goes. `boards_next_table` is the
    table the board set goes to next round (None when it rests or goes to the relay stand).
    """

    round: int
    table: int
    ns: int
    ew: int
    seat: str | None
    opponents: int | None
    set: int
    boards: range
    next_table: int | None
    boards_next_table: int | None


@dataclass(frozen=True)
class NextPlaces:
    """After a round at one table: the NS pair's and the EW pair's next (table, seat), and the
    table the boards go to; None where there is no next round for them."""

    ns: tuple[int, str] | None
    ew: tuple[int, str] | None
    boards: int | None
    #: When the boards are not played next round (a relay or bye stand, a Howell set that
    #: rests): the (round, table) where they are played next; None when never again.
    boards_later: tuple[int, int] | None = None


@dataclass(frozen=True)
class Movement:
    """A complete movement; `engine.movements.validate` checks its invariants.

    `shared_tables` names groups of tables that may hold the same set in the same round by
    design (the share of a share-and-relay Mitchell, the small Howells); any other double use
    of a set is a defect.
    """

    kind: str
    tables: int
    rounds: int
    sets: int
    boards_per_round: int
    meetings: tuple[Meeting, ...]
    relay_sets: tuple[tuple[int, int], ...] = ()
    one_winner: bool = False
    arrow_switch_rounds: frozenset[int] = frozenset()
    pairs: tuple[PairSlot, ...] = ()
    shared_tables: tuple[tuple[int, ...], ...] = ()
    description: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return (
            f"<Movement {self.kind} tables={self.tables} rounds={self.rounds} sets={self.sets} "
            f"boards_per_round={self.boards_per_round} one_winner={self.one_winner}>"
        )

    # -- boards ---------------------------------------------------------------------------

    def boards_for_set(self, set_number: int) -> range:
        """Board numbers of a set: set s holds boards (s-1)k+1 .. sk for k boards a round."""
        if not 1 <= set_number <= self.sets:
            raise MovementError(f"there is no board set {set_number} (sets are 1..{self.sets})")
        k = self.boards_per_round
        return range((set_number - 1) * k + 1, set_number * k + 1)

    def board_count(self) -> int:
        return self.sets * self.boards_per_round

    def set_of_board(self, board: int) -> int:
        if not 1 <= board <= self.board_count():
            raise MovementError(f"there is no board {board} (boards are 1..{self.board_count()})")
        return (board - 1) // self.boards_per_round + 1

    # -- tables -----------------------------------------------------------------------------

    @cached_property
    def idle_tables(self) -> frozenset[int]:
        """The tables at which nobody ever plays: every meeting there, round after round, is
        a sit-out (a stationary phantom pair: the Howell for an odd number of pairs keeps its
        sit-out at one table, as does a Mitchell whose phantom sits North-South). The pair
        that goes there sits out that round: no boards are played there."""
        played = {m.table for m in self.meetings if not m.sit_out}
        return frozenset(t for t in range(1, self.tables + 1) if t not in played)

    @property
    def tables_in_play(self) -> tuple[int, ...]:
        """The tables at which boards are played, in order: every table but the idle ones."""
        return tuple(t for t in range(1, self.tables + 1) if t not in self.idle_tables)

    # -- lookups --------------------------------------------------------------------------

    @cached_property
    def _by_place(self) -> dict[tuple[int, int], Meeting]:
        return {(m.round, m.table): m for m in self.meetings}

    def meeting(self, round: int, table: int) -> Meeting:
        try:
            return self._by_place[(round, table)]
        except KeyError:
            raise MovementError(f"no one plays at table {table} in round {round}") from None

    def pair_numbers(self, direction: str | None = None) -> tuple[int, ...]:
        """The real pairs (no phantom), optionally only those of one direction."""
        return tuple(p.number for p in self.pairs if direction is None or p.direction == direction)

    def field_of(self, pair: int, board: int, direction: str | None = None) -> str:
        """The field a pair's result on a board is ranked in.

        'ALL' in a one-winner movement. In a two-winner movement a pair's field is its
        direction; as NS 3 and EW 3 are different pairs there, pass `direction` when the
        number is used on both sides.
        """
        self.set_of_board(board)
        if self.one_winner:
            if pair not in self.pair_numbers():
                raise MovementError(f"pair {pair} is not in this movement")
            return "ALL"
        sides = [p.direction for p in self.pairs if p.number == pair]
        if direction is not None:
            if direction not in sides:
                raise MovementError(f"there is no {direction} pair {pair} in this movement")
            return direction
        if not sides:
            raise MovementError(f"pair {pair} is not in this movement")
        if len(sides) > 1:
            raise MovementError(
                f"pair {pair} exists both NS and EW in this two-winner movement: say which"
            )
        return str(sides[0])

    # -- guide cards ----------------------------------------------------------------------

    @cached_property
    def _set_places(self) -> dict[tuple[int, int], int]:
        """(round, set) -> lowest table holding it (the board's next stop for guides)."""
        places: dict[tuple[int, int], int] = {}
        for m in sorted(self.meetings):
            places.setdefault((m.round, m.set), m.table)
        return places

    def _pair_key(self, m: Meeting, seat: str) -> tuple[str, int]:
        """Identity of the pair in a seat: its number, plus its direction in two-winner."""
        number = m.ns if seat == "NS" else m.ew
        if self.one_winner:
            return ("ALL", number)
        home = seat
        if m.round in self.arrow_switch_rounds:
            home = "EW" if seat == "NS" else "NS"
        return (home, number)

    @cached_property
    def _rounds_by_pair(self) -> dict[tuple[str, int], dict[int, tuple[Meeting, str]]]:
        """Each pair's meetings by round, built once: a tablet asks where the pairs of every
        table go on each request, and a scan of the meetings per question made that
        quadratic in the tables (a 100-table Mitchell: 35 % of a web worker's time)."""
        index: dict[tuple[str, int], dict[int, tuple[Meeting, str]]] = {}
        for m in self.meetings:
            for seat in ("NS", "EW"):
                index.setdefault(self._pair_key(m, seat), {})[m.round] = (m, seat)
        return index

    def _pair_rounds(self, key: tuple[str, int]) -> Mapping[int, tuple[Meeting, str]]:
        return self._rounds_by_pair.get(key, {})

    @cached_property
    def _feeders(self) -> dict[tuple[int, int], frozenset[int]]:
        """(round, table) -> the tables of the round before whose pairs or boards go there."""
        found: dict[tuple[int, int], set[int]] = {}
        for m in self.meetings:
            after = self.next_places(m.round, m.table)
            for place in (
                after.boards,
                after.ns[0] if after.ns else None,
                after.ew[0] if after.ew else None,
            ):
                if place is not None:
                    found.setdefault((m.round + 1, place), set()).add(m.table)
        return {key: frozenset(tables) for key, tables in found.items()}

    def feeders(self, round: int, table: int) -> frozenset[int]:
        """The tables of round `round - 1` that send `table` its pairs or boards for `round`
        (a table that moves on by itself waits for them; the table itself may be one)."""
        return self._feeders.get((round, table), frozenset())

    def guide_for_pair(self, pair: int, direction: str | None = None) -> list[GuideRow]:
        """The round-by-round card a pair carries: table, seat, opponents, boards, next table.

        `direction` picks NS or EW pair `pair` in a two-winner movement, where both exist.
        """
        if pair == PHANTOM:
            raise MovementError("pair 0 is the phantom: it has no guide card")
        if self.one_winner:
            key = ("ALL", pair)
            if pair not in self.pair_numbers():
                raise MovementError(f"pair {pair} is not in this movement")
        else:
            key = (self.field_of(pair, 1, direction), pair)
        rounds = self._pair_rounds(key)
        rows = []
        for r in sorted(rounds):
            m, seat = rounds[r]
            nxt = rounds.get(r + 1)
            rows.append(
                GuideRow(
                    round=r,
                    table=m.table,
                    ns=m.ns,
                    ew=m.ew,
                    seat=seat,
                    opponents=m.ew if seat == "NS" else m.ns,
                    set=m.set,
                    boards=self.boards_for_set(m.set),
                    next_table=nxt[0].table if nxt else None,
                    boards_next_table=self._set_places.get((r + 1, m.set)),
                )
            )
        return rows

    def next_places(self, round: int, table: int) -> NextPlaces:
        """Where the pairs and the boards of one table go after `round`: what a table's tablet
        tells the players at the end of the round (None: the session is over for them)."""
        m = self.meeting(round, table)

        def after(seat: str) -> tuple[int, str] | None:
            number = m.ns if seat == "NS" else m.ew
            if number == PHANTOM:
                return None
            following = self._pair_rounds(self._pair_key(m, seat)).get(round + 1)
            return (following[0].table, following[1]) if following else None

        boards = self._set_places.get((round + 1, m.set))
        later = None
        if boards is None:
            later = next(
                (
                    (r, self._set_places[(r, m.set)])
                    for r in range(round + 2, self.rounds + 1)
                    if (r, m.set) in self._set_places
                ),
                None,
            )
        return NextPlaces(ns=after("NS"), ew=after("EW"), boards=boards, boards_later=later)

    def guide_for_table(self, table: int) -> list[GuideRow]:
        """The card left on a table: each round's pairs and set, where EW and the boards go."""
        if not 1 <= table <= self.tables:
            raise MovementError(f"there is no table {table} (tables are 1..{self.tables})")
        rows = []
        for r in range(1, self.rounds + 1):
            m = self._by_place.get((r, table))
            if m is None:
                continue
            next_table = None
            if m.ew != PHANTOM:
                following = self._pair_rounds(self._pair_key(m, "EW")).get(r + 1)
                next_table = following[0].table if following else None
            rows.append(
                GuideRow(
                    round=r,
                    table=table,
                    ns=m.ns,
                    ew=m.ew,
                    seat=None,
                    opponents=None,
                    set=m.set,
                    boards=self.boards_for_set(m.set),
                    next_table=next_table,
                    boards_next_table=self._set_places.get((r + 1, m.set)),
                )
            )
        return rows
