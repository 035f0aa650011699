"""The words of a progressive whist drive: roles, outcomes, prizes, seats as table positions.

A drive is played by players, not pairs: four at a table, partners opposite. Each side of a
table has one seat of each role (`Role.A` at North and East, `Role.B` at South and West), and a
player keeps the role drawn or placed for the first hand all evening, so a drive with the
traditional "lady" and "gent" labels can give a prize per role. The labels are the club's
(`DriveSettings.roles`); the engine only knows A and B.

A table is held as four player numbers in the order N, E, S, W (the index of a seat in that
tuple is `SEAT_INDEX`); player 0 is the dummy of a three-handed table.

>>> Role.from_str("b"), role_of_index(1), side_of_index(1)
(Role.B, Role.A, Side.EW)
>>> Prize.from_dict({"kind": "highest", "role": "A"})
Prize(kind='highest', role=Role.A)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from engine import EngineError
from engine.cards import Seat, Side
from engine.reading import quoted

__all__ = [
    "DUMMY",
    "PRIZE_KINDS",
    "SEAT_INDEX",
    "DriveError",
    "Outcome",
    "Prize",
    "Role",
    "index_of",
    "role_of_index",
    "side_of_index",
]

#: The dummy hand of a three-handed table: it sits and moves like a player and scores nothing.
DUMMY = 0

#: Seats in the order a table's tuple holds them.
SEAT_INDEX: dict[Seat, int] = {Seat.N: 0, Seat.E: 1, Seat.S: 2, Seat.W: 3}


class DriveError(EngineError):
    """Drive settings, a seating or a hand's results that the drive cannot use."""


class Role(enum.Enum):
    """A seat role: each side of a table has one seat of each (A at North and East)."""

    A = "A"
    B = "B"

    @classmethod
    def from_str(cls, text: object) -> Role:
        if isinstance(text, Role):
            return text
        key = str(text).strip().upper()
        for role in cls:
            if key == role.value:
                return role
        raise DriveError(f"a role is A or B, not {quoted(text)}")

    @property
    def other(self) -> Role:
        return Role.B if self is Role.A else Role.A

    def __repr__(self) -> str:
        return f"Role.{self.name}"


class Outcome(enum.Enum):
    """How a player's side did at the table in the hand just played."""

    WON = "won"
    LOST = "lost"

    @classmethod
    def from_str(cls, text: object) -> Outcome:
        if isinstance(text, Outcome):
            return text
        key = str(text).strip().lower()
        for outcome in cls:
            if key == outcome.value:
                return outcome
        raise DriveError(f"an outcome is won or lost, not {quoted(text)}")

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


_ROLE_OF_INDEX = (Role.A, Role.A, Role.B, Role.B)
_SIDE_OF_INDEX = (Side.NS, Side.EW, Side.NS, Side.EW)
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def role_of_index(index: int) -> Role:
    """The role of the seat at `index` (0..3 for N, E, S, W)."""
    return _ROLE_OF_INDEX[index]


def side_of_index(index: int) -> Side:
    return _SIDE_OF_INDEX[index]


def seat_of_index(index: int) -> Seat:
    return _SEATS[index]


def index_of(side: Side, role: Role) -> int:
    """The seat (as an index) of `role` on `side`: NS-A North, EW-A East, NS-B South, EW-B West."""
    return (0 if side is Side.NS else 1) + (0 if role is Role.A else 2)


#: The prize categories a director chooses from, and what each ranks players by.
PRIZE_KINDS: dict[str, str] = {
    "highest": "highest total",
    "first_half": "highest first half",
    "second_half": "highest second half",
    "ten_plus": "most hands with 10 or more tricks",
    "booby": "lowest total",
    "raffle": "drawn by lot among those without a prize",
}


@dataclass(frozen=True)
class Prize:
    """One prize on the director's list: its category, optionally one role only (the highest
    gent), and for a raffle whether every player still without a prize gets one.

    The list is awarded in order; the second "highest" on the list goes to the runner-up.
    """

    kind: str
    role: Role | None = None
    everyone: bool = False
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PRIZE_KINDS:
            known = ", ".join(PRIZE_KINDS)
            raise DriveError(f"prizes: no prize kind {quoted(self.kind)} (kinds: {known})")
        if self.role is not None:
            object.__setattr__(self, "role", Role.from_str(self.role))
            if self.kind == "raffle":
                raise DriveError("prizes: a raffle is drawn among everyone, not by role")
        if self.everyone and self.kind != "raffle":
            raise DriveError("prizes: only a raffle can go to everyone without a prize")

    def __repr__(self) -> str:
        extra = "".join(
            [
                f", role={self.role!r}" if self.role else "",
                ", everyone=True" if self.everyone else "",
                f", label={self.label!r}" if self.label else "",
            ]
        )
        return f"Prize(kind={self.kind!r}{extra})"

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind}
        if self.role:
            data["role"] = self.role.value
        if self.everyone:
            data["everyone"] = True
        if self.label:
            data["label"] = self.label
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Prize:
        if not isinstance(data, Mapping):
            raise DriveError(f"prizes: each prize is an object with a kind, not {quoted(data)}")
        unknown = sorted(set(data) - {"kind", "role", "everyone", "label"})
        if unknown:
            raise DriveError(f"prizes: a prize has no setting {quoted(unknown[0])}")
        role = data.get("role")
        everyone = data.get("everyone", False)
        if not isinstance(everyone, bool):
            raise DriveError(f"prizes: everyone is true or false, not {quoted(everyone)}")
        return cls(
            str(data.get("kind", "")),
            None if role in (None, "") else Role.from_str(role),
            everyone,
            str(data.get("label", "") or ""),
        )
