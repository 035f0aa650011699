"""The drive director's API documents, as frozen dataclasses: the drive as it stands (what
every write answers) and its totals.

As for the events' documents (`events.selectors.documents`), the JSON sent is `to_dict()`, key for
key what scripts have always read, and the OpenAPI serializers are generated from these classes
(`tournaments.drives.api.documents`), so the schema describes the objects the answers are made
from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import DriveState
from tournaments.kernel.documents import Document


@dataclass(frozen=True)
class DriveHead(Document):
    id: int
    name: str
    date: str  # ISO 8601
    club: str  # the club's name
    game: str
    status: str
    hand: int  # the hand being played; 0 before the start
    live_public: bool
    settings: dict[str, Any]  # as stored: the engine's `DriveSettings.to_dict()`


def drive_head(drive: Drive) -> DriveHead:
    date = drive.date if isinstance(drive.date, str) else drive.date.isoformat()
    return DriveHead(
        drive.pk, drive.name, date, drive.club.name, drive.game, drive.status, drive.hand,
        drive.live_public, drive.settings,
    )  # fmt: skip


@dataclass(frozen=True)
class DrivePlayerLine(Document):
    number: int
    name: str


@dataclass(frozen=True)
class DriveSeatLine(Document):
    seat: str  # N, E, S, W
    role: str  # the drive's label for the seat's role
    player: int  # 0 for a short table's dummy
    name: str


@dataclass(frozen=True)
class DriveHandTable(Document):
    table: int
    seats: tuple[DriveSeatLine, ...]
    result: dict[str, Any] | None  # the game's entry, once entered
    text: str


@dataclass(frozen=True)
class SittingOut(Document):
    player: int
    name: str


@dataclass(frozen=True)
class DriveHandLine(Document):
    hand: int
    trumps: str
    tables: tuple[DriveHandTable, ...]
    sitting_out: tuple[SittingOut, ...]


@dataclass(frozen=True)
class DriveTotal(Document):
    place: int
    player: int
    name: str
    role: str
    total: str  # as people read it: a whole number, or a fraction to two places
    first_half: str
    second_half: str
    note: str  # "came for hand 5", "left after hand 12"; "" for the whole evening


@dataclass(frozen=True)
class DrivePrize(Document):
    number: int  # its place on the prize list, from 1
    title: str
    winners: tuple[int, ...]  # players' numbers (more than one when shared)
    text: str


@dataclass(frozen=True)
class DriveTotals(Document):
    hands_played: int
    totals: tuple[DriveTotal, ...]
    prizes: tuple[DrivePrize, ...]


@dataclass(frozen=True)
class DriveDocument(Document):
    """The drive as it stands: every director's read and write answers it."""

    drive: DriveHead
    players: tuple[DrivePlayerLine, ...]
    problem: str  # why the drive cannot be worked out as stored ("" when it can)
    hand: DriveHandLine | None  # None before the start
    hands_played: int
    totals: tuple[DriveTotal, ...]
    prizes: tuple[DrivePrize, ...]


def drive_totals(state: DriveState) -> DriveTotals:
    return DriveTotals(
        state.hands_played,
        tuple(
            DriveTotal(
                line.place,
                line.player,
                line.name,
                line.role,
                line.total,
                line.first_half,
                line.second_half,
                line.note,
            )
            for line in state.lines
        ),
        tuple(DrivePrize(a.number, a.title, tuple(a.winners), a.text) for a in state.awards),
    )


def drive_document(state: DriveState) -> DriveDocument:
    """The drive as it stands: players, the hand being played (seats, results), totals and
    prizes."""
    current = state.current
    hand = None
    if current is not None:
        hand = DriveHandLine(
            current.hand,
            current.trumps,
            tuple(
                DriveHandTable(
                    t.number,
                    tuple(DriveSeatLine(s.seat, s.role, s.player, s.name) for s in t.seats),
                    t.result.entry if t.result else None,
                    t.text,
                )
                for t in current.tables
            ),
            tuple(SittingOut(s.player, s.name) for s in current.sitting_out),
        )
    totals = drive_totals(state)
    return DriveDocument(
        drive=drive_head(state.drive),
        players=tuple(DrivePlayerLine(n, name) for n, name in state.names.items()),
        problem=state.problem,
        hand=hand,
        hands_played=totals.hands_played,
        totals=totals.totals,
        prizes=totals.prizes,
    )
