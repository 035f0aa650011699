"""Move forms: where each of a table's four players goes after a hand, as data plus a function.

A form is four rows, one for each (outcome, role): the winning A, the winning B, the losing A
and the losing B of every table go `offset` tables on (+1 up, -1 down, 0 stay) and sit on the
`side` given at that table, in the seat of their own role. Since every table sends exactly one
player of each (outcome, role), a form whose two rows of a role take different sides gives every
seat of every table exactly one player when the tables form a ring (`ends="wrap"`), whatever the
offsets: that is the whole validation of a rule table.

The named forms (docs/games/drives.md):

- `semi_partner`: the winners stay together; the losers move, A up and B down (or both up);
- `progressive`: as semi-partner, but the winning B crosses to the other side, so every
  player has a new partner every hand;
- `partner_drive`: fixed partnerships; the winners (or the losers) move up (or down) a table;
- `rule_table`: a director's own four rows, for house customs.

With `ends="stay"` the first and last tables are not joined: a player who would move past an
end stays at the end table and swaps with whoever the ring would have put in the seat of the
other outcome at that table (the end table keeps its winners in a partner drive, a ladder's
winners and losers bounce). Forms that send both players of a role the same way, move more than
one table, or must keep the winners together (semi-partner, progressive) need the ring.

>>> form = progressive()
>>> form.row(Outcome.LOST, Role.B)
MoveRow(outcome=Outcome.LOST, role=Role.B, offset=-1, side=Side.NS)
>>> move_tables([(1, 2, 3, 4), (5, 6, 7, 8)], [Side.NS, Side.EW], form)
[(1, 5, 7, 3), (6, 2, 4, 8)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.cards import CardError, Seat, Side
from engine.drives.model import (
    DUMMY,
    SEAT_INDEX,
    DriveError,
    Outcome,
    Role,
    index_of,
    role_of_index,
    seat_of_index,
    side_of_index,
)
from engine.reading import quoted, signed_number

__all__ = [
    "ENDS",
    "FORMS",
    "MAX_OFFSET",
    "MoveForm",
    "MoveRow",
    "Table",
    "check_ends",
    "move_form",
    "move_tables",
    "partner_drive",
    "progressive",
    "rule_table",
    "semi_partner",
]

#: A table's four places, N, E, S, W, each a player number (0 = the dummy).
Table = tuple[int, int, int, int]

#: How far a rule table may send a player in one hand (a house custom of "two tables up" is
#: known; more than three is a typing slip).
MAX_OFFSET = 3

ENDS = ("wrap", "stay")

_ORDER = [(o, r) for o in Outcome for r in Role]


@dataclass(frozen=True)
class MoveRow:
    """Where the players with this outcome and role go: `offset` tables on, on `side`."""

    outcome: Outcome
    role: Role
    offset: int
    side: Side

    @property
    def seat(self) -> Seat:
        """The seat at the new table: the player's role on the side given."""
        return seat_of_index(index_of(self.side, self.role))

    def words(self) -> str:
        where = {0: "stay", 1: "up 1", -1: "down 1"}.get(
            self.offset, f"{'up' if self.offset > 0 else 'down'} {abs(self.offset)}"
        )
        return f"{self.outcome.value} {self.role.value}: {where}, sit {self.seat}"

    def to_dict(self) -> dict[str, object]:
        return {
            "outcome": self.outcome.value,
            "role": self.role.value,
            "offset": self.offset,
            "seat": str(self.seat),
        }


@dataclass(frozen=True)
class MoveForm:
    """A move form: its name, its four rows, the parameters it was built from, and whether it
    needs the tables in a ring. Build one with the functions below or `move_form`."""

    form: str
    rows: tuple[MoveRow, ...]
    params: tuple[tuple[str, str], ...] = ()
    ring_only: bool = False
    _plan: dict[Side, tuple[tuple[int, int], ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        by_key = {(row.outcome, row.role): row for row in self.rows}
        if len(self.rows) != 4 or len(by_key) != 4:
            raise DriveError(
                "move: a rule table has exactly four rows, one for each of won A, won B, "
                "lost A and lost B"
            )
        for number, (outcome, role) in enumerate(_ORDER, start=1):
            row = by_key[(outcome, role)]
            if isinstance(row.offset, bool) or not isinstance(row.offset, int):
                raise DriveError(
                    f"move: row {number} ({outcome.value} {role.value}): the "
                    f"offset is a whole number of tables, not {quoted(row.offset)}"
                )
            if abs(row.offset) > MAX_OFFSET:
                raise DriveError(
                    f"move: row {number} ({outcome.value} {role.value}) moves {row.offset} "
                    f"tables; at most {MAX_OFFSET} either way"
                )
        for role in Role:
            if by_key[(Outcome.WON, role)].side is by_key[(Outcome.LOST, role)].side:
                raise DriveError(
                    f"move: the winning and the losing {role.value} both sit "
                    f"{by_key[(Outcome.WON, role)].side}: the two players of a role need "
                    "different sides, or one seat would get two players and one none"
                )
        object.__setattr__(self, "rows", tuple(by_key[key] for key in _ORDER))
        plan = {}
        for winners in Side:
            moves = []
            for index in range(4):
                won = side_of_index(index) is winners
                row = by_key[(Outcome.WON if won else Outcome.LOST, role_of_index(index))]
                moves.append((row.offset, index_of(row.side, row.role)))
            plan[winners] = tuple(moves)
        object.__setattr__(self, "_plan", plan)

    def row(self, outcome: Outcome, role: Role) -> MoveRow:
        return self.rows[_ORDER.index((outcome, role))]

    @property
    def keeps_partners(self) -> bool:
        """True when partners always move together (a partner drive): the A and B of each
        outcome go to the same table and side."""
        return all(
            (self.row(o, Role.A).offset, self.row(o, Role.A).side)
            == (self.row(o, Role.B).offset, self.row(o, Role.B).side)
            for o in Outcome
        )

    def describe(self) -> str:
        params = ", ".join(f"{key}={value}" for key, value in self.params)
        head = f"{self.form} ({params})" if params else self.form
        return head + ": " + "; ".join(row.words() for row in self.rows)

    def to_dict(self) -> dict[str, object]:
        if self.form == "custom":
            return {"form": "custom", "rows": [row.to_dict() for row in self.rows]}
        return {"form": self.form, **dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MoveForm:
        if not isinstance(data, Mapping):
            raise DriveError(f"move: expected an object with a form, not {quoted(data)}")
        params = dict(data)
        name = str(params.pop("form", ""))
        if name == "custom":
            rows = params.pop("rows", None)
            if params:
                raise DriveError(f"move: a custom form has no setting {quoted(next(iter(params)))}")
            if not isinstance(rows, Sequence) or isinstance(rows, str):
                raise DriveError("move: a custom form lists its rows")
            return rule_table(rows)
        return move_form(name, **{key: str(value) for key, value in params.items()})


def _rows(*spec: tuple[int, Side]) -> tuple[MoveRow, ...]:
    """Rows in the order won A, won B, lost A, lost B."""
    return tuple(
        MoveRow(outcome, role, offset, side)
        for (outcome, role), (offset, side) in zip(_ORDER, spec, strict=True)
    )


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise DriveError(f"move: {name} is {' or '.join(allowed)}, not {quoted(value)}")
    return value


def semi_partner(losers: str = "split") -> MoveForm:
    """The winners stay together at their table; the losing A moves up a table and the losing
    B down one (`losers="split"`, so both meet new partners), or both up (`"up"`: the losers
    stay partners and meet new opponents)."""
    _choice("losers", losers, ("split", "up"))
    lost_b = -1 if losers == "split" else 1
    rows = _rows((0, Side.NS), (0, Side.NS), (1, Side.EW), (lost_b, Side.EW))
    return MoveForm("semi-partner", rows, (("losers", losers),), ring_only=True)


def progressive(losers: str = "split") -> MoveForm:
    """As semi-partner, but the winning B crosses to the other side: the winners part, each
    partnering one of the arriving losers, so nobody keeps a partner two hands running."""
    _choice("losers", losers, ("split", "up"))
    lost_b = -1 if losers == "split" else 1
    rows = _rows((0, Side.NS), (0, Side.EW), (1, Side.EW), (lost_b, Side.NS))
    return MoveForm("progressive", rows, (("losers", losers),), ring_only=True)


def partner_drive(movers: str = "winners", direction: str = "up") -> MoveForm:
    """Fixed partnerships: the winning pair moves a table up (or down) and the losers stay,
    or (`movers="losers"`) the losers move and the winners stay."""
    _choice("movers", movers, ("winners", "losers"))
    step = 1 if _choice("direction", direction, ("up", "down")) == "up" else -1
    won, lost = (step, 0) if movers == "winners" else (0, step)
    rows = _rows((won, Side.NS), (won, Side.NS), (lost, Side.EW), (lost, Side.EW))
    return MoveForm("partner", rows, (("movers", movers), ("direction", direction)))


def rule_table(rows: Sequence[Mapping[str, object] | Sequence[object]]) -> MoveForm:
    """A director's own form: four rows of (outcome, role, offset, seat), as mappings with
    those keys or as 4-item sequences, e.g. ``("won", "A", 1, "N")``. The seat must be one of
    the role's (A: N or E; B: S or W); it names the side at the new table."""
    built = []
    for number, raw in enumerate(rows, start=1):
        if isinstance(raw, Mapping):
            unknown = sorted(set(raw) - {"outcome", "role", "offset", "seat"})
            if unknown:
                raise DriveError(f"move: row {number} has no setting {quoted(unknown[0])}")
            values = [raw.get(key) for key in ("outcome", "role", "offset", "seat")]
        elif isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == 4:
            values = list(raw)
        else:
            raise DriveError(
                f"move: row {number} is (outcome, role, offset, seat), not {quoted(raw)}"
            )
        outcome, role = Outcome.from_str(values[0]), Role.from_str(values[1])
        offset = values[2]
        if isinstance(offset, str) and signed_number(offset) is not None:
            offset = signed_number(offset)
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise DriveError(
                f"move: row {number}: the offset is a whole number of tables, "
                f"not {quoted(values[2])}"
            )
        try:
            seat = Seat.from_str(str(values[3]))
        except CardError:
            raise DriveError(f"move: row {number}: {quoted(values[3])} is not a seat") from None
        if role_of_index(SEAT_INDEX[seat]) is not role:
            seats = " or ".join(str(seat_of_index(i)) for i in range(4) if role_of_index(i) is role)
            raise DriveError(
                f"move: row {number}: a role-{role.value} player sits {seats}, not {seat}"
            )
        built.append(MoveRow(outcome, role, offset, seat.side))
    return MoveForm("custom", tuple(built))


#: The named forms and their builders.
FORMS: dict[str, Callable[..., MoveForm]] = {
    "semi-partner": semi_partner,
    "progressive": progressive,
    "partner": partner_drive,
}


def move_form(form: str, **params: str) -> MoveForm:
    """A named form with its parameters: `move_form("partner", movers="losers")`."""
    builder = FORMS.get(form)
    if builder is None:
        known = ", ".join([*FORMS, "custom"])
        raise DriveError(f"move: no move form {quoted(form)} (forms: {known})")
    try:
        return builder(**params)
    except TypeError:
        raise DriveError(
            f"move: the {form} form takes no setting {quoted(next(iter(params)))}"
        ) from None


def check_ends(form: MoveForm, ends: str) -> None:
    """DriveError unless `form` can run with these ends ('wrap': the tables form a ring;
    'stay': the first and last tables are not joined)."""
    if ends not in ENDS:
        raise DriveError(f"ends: wrap or stay, not {quoted(ends)}")
    if ends == "wrap":
        return
    if form.ring_only:
        raise DriveError(
            f"ends: a {form.form} drive needs its tables in a ring (ends=wrap): a loser moving "
            "past the top table could only stay there if a winner left it"
        )
    for row in form.rows:
        if abs(row.offset) > 1:
            raise DriveError(
                f"ends: with ends=stay a player moves at most one table, but {row.words()}"
            )
    for role in Role:
        won, lost = form.row(Outcome.WON, role).offset, form.row(Outcome.LOST, role).offset
        if won == lost != 0:
            raise DriveError(
                f"ends: both players of role {role.value} move {'up' if won > 0 else 'down'}, "
                "so with ends=stay the end table would fill up: use ends=wrap"
            )


def move_tables(
    tables: Sequence[Sequence[int]], winners: Sequence[Side], form: MoveForm, ends: str = "wrap"
) -> list[Table]:
    """The next hand's tables from this hand's and each table's winning side.

    `ends` must have passed `check_ends`. At each new table the two sides may swap compass
    directions (partners and opponents stay the same) so that as many players as possible keep
    the chair they sat in: winners who stay do not get up.
    """
    count = len(tables)
    plan = form._plan
    new = [[DUMMY] * 4 for _ in range(count)]
    crossing: list[tuple[int, int, int, int]] = []
    for t in range(count):
        row = tables[t]
        moves = plan[winners[t]]
        for index in range(4):
            offset, seat = moves[index]
            goes = t + offset
            new[goes % count][seat] = row[index]
            if (goes < 0 or goes >= count) and ends == "stay" and count > 1:
                crossing.append((t, index, goes % count, seat))
    if crossing:
        settled: set[int] = set()
        for t, index, to_table, to_seat in crossing:
            player = tables[t][index]
            if player in settled:
                continue
            # The seat, at this end table, of the same role's other outcome: whoever the ring
            # put there comes from beyond the end too, or would have stayed; they swap.
            other_seat = plan[winners[t]][index ^ 1][1]
            occupant = new[t][other_seat]
            new[t][other_seat] = player
            new[to_table][to_seat] = occupant
            settled.update((player, occupant))
    result: list[Table] = []
    for t in range(count):
        n, e, s, w = new[t]
        as_is, swapped = (n, e, s, w), (e, n, w, s)
        turn = _count(tables[t], swapped) > _count(tables[t], as_is)
        result.append(swapped if turn else as_is)
    return result


def _count(before: Sequence[int], after: Sequence[int]) -> int:
    """How many players (the dummy aside) sit in the same chair in both."""
    return sum(1 for a, b in zip(before, after, strict=True) if a == b and a != DUMMY)
