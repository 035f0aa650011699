"""The drive's room display and its tablets' links, for the director.

The room display is the hall's big screen: the hand being played and its trumps, which
tables are done, and where everyone sits for this hand (alphabetically, so a player finds
their name at a glance). It is read every few seconds; one read of the drive as the tablets
read it (`drive_tablets.build_states`) gives all of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.drives import DUMMY, Seating
from tournaments.drives.models import Drive, DriveSeating, DriveTableAccess
from tournaments.drives.selectors.drives import drive_settings, player_names
from tournaments.drives.selectors.tablets import DriveMoveOut, DriveTabletState, build_states


@dataclass(frozen=True)
class DriveLink:
    table: int
    url: str


def drive_links(drive: Drive, base_url: str) -> list[DriveLink]:
    """Each table's live tablet link, as the tablets open it."""
    rows = DriveTableAccess.objects.filter(drive=drive, revoked_at__isnull=True).order_by("table")
    return [DriveLink(row.table, f"{base_url}/d/{row.token}/") for row in rows]


@dataclass(frozen=True)
class RoomView:
    drive: Drive
    tables: tuple[DriveTabletState, ...]
    places: tuple[DriveMoveOut, ...]  # everyone's seat for this hand, by name
    #: Who joins at this hand and who went home after the last one, by name.
    joining: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()

    @property
    def first(self) -> DriveTabletState | None:
        return self.tables[0] if self.tables else None

    @property
    def done(self) -> int:
        return self.tables[0].done if self.tables else 0

    @property
    def waiting(self) -> tuple[int, ...]:
        return self.tables[0].waiting if self.tables else ()


def room_view(drive: Drive) -> RoomView:
    states = tuple(build_states(drive))
    places = [
        DriveMoveOut(seat.name, seat.player, state.table, seat.seat, seat.role)
        for state in states
        for seat in state.seats
        if seat.player
    ]
    row = DriveSeating.objects.filter(drive=drive, hand=drive.hand).first()
    joining: list[str] = []
    gone: list[str] = []
    if row is not None:
        seating = Seating.from_dict(row.seating)
        settings = drive_settings(drive)
        names = player_names(drive)
        joining = [names.get(p, str(p)) for p, hand in settings.arrivals if hand == drive.hand]
        gone = [names.get(p, str(p)) for p, last in settings.departures if last == drive.hand - 1]
        places += [
            DriveMoveOut(names.get(p, str(p)), p, 0, "out", settings.role_label(role))
            for p, role in zip(seating.bench, seating.bench_roles, strict=True)
            if p != DUMMY
        ]
    places.sort(key=lambda p: (p.name.casefold(), p.player))
    return RoomView(drive, states, tuple(places), tuple(joining), tuple(gone))
