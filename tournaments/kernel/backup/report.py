"""What a restore did (or, in a dry run, would do), in sentences for the person who ran it."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.drives.models import Drive
from tournaments.events.models import Event
from tournaments.teams.models import Tournament


@dataclass
class RestoredEvent:
    event: Event
    original_id: int | None
    counts: str
    checked: bool  # standings stored, scored again and found identical

    def describe(self) -> str:
        moved = ""
        if self.original_id is not None and self.original_id != self.event.pk:
            moved = f" (its id {self.original_id} is taken here)"
        checked = (
            "scored again here: the standings are identical"
            if self.checked
            else "nothing scored yet"
        )
        return (
            f"event {self.event.pk}{moved}: {self.event.name!r} of {self.event.date:%d %b %Y}, "
            f"{self.event.game}, {self.event.get_status_display().lower()}; {self.counts}; "
            f"{checked}"
        )


@dataclass
class RestoredDrive:
    drive: Drive
    original_id: int | None
    counts: str

    def describe(self) -> str:
        moved = ""
        if self.original_id is not None and self.original_id != self.drive.pk:
            moved = f" (its id {self.original_id} is taken here)"
        return (
            f"drive {self.drive.pk}{moved}: {self.drive.name!r} of {self.drive.date:%d %b %Y}, "
            f"{self.drive.game}, {self.drive.get_status_display().lower()}; {self.counts}"
        )


@dataclass
class RestoredTournament:
    tournament: Tournament
    original_id: int | None
    counts: str

    def describe(self) -> str:
        t = self.tournament
        moved = ""
        if self.original_id is not None and self.original_id != t.pk:
            moved = f" (its id {self.original_id} is taken here)"
        week = "" if t.league is None else f", week {t.week} of the league {t.league.name!r}"
        return (
            f"tournament {t.pk}{moved}: {t.name!r} of {t.date:%d %b %Y}{week}, "
            f"{t.get_status_display().lower()}; {self.counts}"
        )


@dataclass
class RestoreReport:
    """What a restore did (or, in a dry run, would do), for people."""

    dry_run: bool = False
    events: list[RestoredEvent] = field(default_factory=list)
    drives: list[RestoredDrive] = field(default_factory=list)
    tournaments: list[RestoredTournament] = field(default_factory=list)
    clubs: list[str] = field(default_factory=list)
    leagues: list[str] = field(default_factory=list)
    users_from_backup: list[str] = field(default_factory=list)
    users_inactive: list[str] = field(default_factory=list)
    users_kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        done = "Would restore" if self.dry_run else "Restored"
        out = []
        if self.clubs:
            out.append(f"{done} {len(self.clubs)} club(s): {', '.join(self.clubs)}.")
        out += [f"{done} {e.describe()}." for e in self.events]
        out += [f"{done} {d.describe()}." for d in self.drives]
        if self.leagues:
            out.append(f"{done} {len(self.leagues)} league(s): {', '.join(self.leagues)}.")
        out += [f"{done} {t.describe()}." for t in self.tournaments]
        if self.users_from_backup:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} "
                f"{len(self.users_from_backup)} user(s) from the backup, with their passwords: "
                f"{', '.join(self.users_from_backup)}."
            )
        if self.users_inactive:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} {len(self.users_inactive)} "
                f"user(s) the document names, inactive and without a password (an "
                f"administrator can give them one): {', '.join(self.users_inactive)}."
            )
        if self.users_kept:
            out.append(
                f"Kept {len(self.users_kept)} user(s) already here as they are: "
                f"{', '.join(self.users_kept)}."
            )
        out += self.notes
        if self.dry_run:
            out.append(
                "Dry run: everything was checked and restored, then rolled back; nothing changed."
            )
        return out
