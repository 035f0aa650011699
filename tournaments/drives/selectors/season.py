"""A published whist drive as the season counts it: each player's place and points
(`engine.season.Appearance`), as the drive's final table shows them.

A player who went home early is listed unranked when the director left them out of the prizes
(their card closed when they left); everyone else has the place the table gives. An evening
not published gives nothing.
"""

from __future__ import annotations

from fractions import Fraction

from engine.season import Appearance
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.drives.selectors.drives import drive_state


def published_drives(club_id: int) -> list[int]:
    """The club's published drives, by id."""
    return list(
        Drive.objects.filter(club_id=club_id, status=Drive.Status.PUBLISHED)
        .order_by("date", "pk")
        .values_list("pk", flat=True)
    )


def drive_appearances(drive_id: int) -> tuple[int | None, list[Appearance]]:
    """The drive's club and its players' appearances; (None, []) for no such drive, and
    (club, []) for one not published."""
    drive = Drive.objects.filter(pk=drive_id).first()
    if drive is None:
        return None, []
    if drive.status != Drive.Status.PUBLISHED:
        return drive.club_id, []
    state = drive_state(drive)
    members = dict(DrivePlayer.objects.filter(drive=drive).values_list("number", "member_id"))
    totals = {line.player: Fraction(line.total) for line in state.standings}
    found = [
        Appearance(
            format="drive",
            play_id=drive.pk,
            play_name=drive.name,
            date=drive.date,
            entrant=str(line.player),
            member_id=members.get(line.player),
            name=line.name,
            rank=str(line.place) + ("=" if _shared(state.lines, line.place) else ""),
            field_size=len(state.lines),
            points=totals.get(line.player),
        )
        for line in state.lines
    ]
    return drive.club_id, found


def _shared(lines: tuple[object, ...], place: int) -> bool:
    return sum(1 for line in lines if getattr(line, "place", None) == place) > 1
