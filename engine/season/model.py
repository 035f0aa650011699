"""One person's evening as the season counts it, whatever the format.

A pairs event gives each of a pair's two players the pair's rank, matchpoint total and
percentage; a whist drive gives each player their place and their points; a Bid Whist team
tournament gives each of a team's players the team's place, games won and points scored.
Figures are exact fractions (a drive's sit-out average and a pair's percentage are rarely
whole), so a recount from the same appearances gives the same table to the last digit.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

Format = Literal["event", "drive", "tournament"]

#: The formats in the order a season lists them, and how people call them.
FORMATS: dict[str, str] = {
    "event": "Duplicate pairs",
    "drive": "Whist drive",
    "tournament": "Bid Whist teams",
}


@dataclass(frozen=True)
class Appearance:
    """One person at one evening.

    `entrant` names who competed in the evening's own table ("NS3", "7" for a drive's player 7,
    "T4" for team 4): two appearances with the same evening and entrant are partners (a pair)
    or team-mates. `rank` is the evening's place as its table shows it ("2=", "1"); "" when the
    entrant was not ranked (left early, withdrew). `field_size` counts those ranked in the same
    field (a Mitchell's NS line, a drive's room, the teams).
    """

    format: Format
    play_id: int
    play_name: str
    date: dt.date
    entrant: str
    member_id: int | None  # None: a visitor
    name: str  # as played
    rank: str
    field_size: int
    #: A pairs event scored by matchpoints: the pair's percentage (None otherwise).
    percentage: Fraction | None = None
    #: The evening's points: a pair's matchpoints (or total, or IMPs), a drive player's points,
    #: a team's points scored.
    points: Fraction | None = None
    #: A team's games won, a draw counting half (teams only).
    wins: Fraction | None = None

    @property
    def place(self) -> int | None:
        """The rank as a number ("2=" is 2); None when unranked."""
        digits = self.rank.rstrip("=").strip()
        return int(digits) if digits.isdigit() else None

    @property
    def evening(self) -> tuple[str, int]:
        return (self.format, self.play_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "play_id": self.play_id,
            "play_name": self.play_name,
            "date": self.date.isoformat(),
            "entrant": self.entrant,
            "member_id": self.member_id,
            "name": self.name,
            "rank": self.rank,
            "field_size": self.field_size,
            "percentage": _text(self.percentage),
            "points": _text(self.points),
            "wins": _text(self.wins),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Appearance:
        return cls(
            format=data["format"],
            play_id=int(data["play_id"]),
            play_name=str(data["play_name"]),
            date=dt.date.fromisoformat(data["date"]),
            entrant=str(data["entrant"]),
            member_id=data["member_id"],
            name=str(data["name"]),
            rank=str(data["rank"]),
            field_size=int(data["field_size"]),
            percentage=_fraction(data.get("percentage")),
            points=_fraction(data.get("points")),
            wins=_fraction(data.get("wins")),
        )


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _fraction(value: Any) -> Fraction | None:
    return None if value is None else Fraction(str(value))
