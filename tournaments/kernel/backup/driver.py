"""A director's import of a clubwhist JSON file into a club they direct: an event's, a whist
drive's or a team tournament's (a league's week is one), told apart by the file's format marker.

The reading and the writing are `manage.py restore`'s (every value checked before the first
row is written, one transaction, ids kept when none is taken here and new ones throughout
otherwise, a refusal naming what is already here), with what makes it safe on a director's
say-so, as for an event (`restoring._people_as_text`):

- the club is the one the director chose: the file's club settings are not applied and its
  directors are not made directors here;
- nobody is linked to an account, or created, by a name the file gives: names in a file are
  anybody's words. An audit line keeps its name as text (`user_name`); what has no column for
  a name in words (who made the drive, the tournament or its league, who entered a drive's
  result) is the importer, or nobody; the import's own audit line lists every name the file
  gave, so none is lost without a word.

A whole installation's backup is not taken here: it names accounts and clubs, so only
whoever runs the installation restores it (`manage.py restore`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction

from tournaments.drives.models import Drive, DriveAudit
from tournaments.drives.services.base import audit as drive_audit
from tournaments.events.models import Event
from tournaments.files.backup.drive_parse import ParsedDrive, parse_drive
from tournaments.files.backup.drive_restoring import restore_parsed_drive
from tournaments.files.backup.report import RestoreReport
from tournaments.files.backup.restoring import event_restore
from tournaments.files.backup.schema import (
    BACKUP_FORMAT,
    DRIVE_FORMAT,
    EVENT_FORMAT,
    TOURNAMENT_FORMAT,
    RestoreRefused,
)
from tournaments.files.backup.team_parse import ParsedTournament, parse_tournament
from tournaments.files.backup.team_restoring import restore_parsed_tournament
from tournaments.files.backup.text import loads
from tournaments.files.backup.writing import database_refusals
from tournaments.kernel.audit import User, actor
from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament, TournamentAudit
from tournaments.teams.services.teams import audit as tournament_audit

#: What the import takes, by format marker, in the director's words.
IMPORTABLE = {
    EVENT_FORMAT: "an event",
    DRIVE_FORMAT: "a whist drive",
    TOURNAMENT_FORMAT: "a team tournament (or a league's week)",
}


@dataclass(frozen=True)
class Imported:
    """What an import made, and one sentence for the director who sent the file."""

    kind: str  # "event", "drive" or "tournament"
    item: Event | Drive | Tournament
    said: str


def _names_in(people: list[str]) -> dict[str, str]:
    return {"people named": ", ".join(people)} if people else {}


def _drive_people_as_text(parsed: ParsedDrive, importer: AuthUser | None) -> list[str]:
    """No row of the drive linked to an account by a name in the file: an audit line keeps
    the name as text, a result keeps none (its table and hand say where it came from), the
    drive is the importer's. Returns the names, for the import's own audit line."""
    for ref in parsed.user_refs:
        if isinstance(ref.obj, DriveAudit):
            ref.obj.user_name = ref.username
        setattr(ref.obj, ref.attname, None)
    parsed.drive.created_by = importer
    return sorted(parsed.usernames())


def _tournament_people_as_text(parsed: ParsedTournament, importer: AuthUser | None) -> list[str]:
    """As a drive's (`_drive_people_as_text`): audit lines keep their names as text, the
    tournament (and its league, when it is made here) is the importer's."""
    for ref in parsed.user_refs:
        if isinstance(ref.obj, TournamentAudit):
            ref.obj.user_name = ref.username
        setattr(ref.obj, ref.attname, None)
    parsed.tournament.created_by = importer
    if parsed.league is not None:
        parsed.league.created_by = importer
    return sorted(parsed.usernames())


def drive_import(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """A drive's JSON (`drive_document`) into `club`, all of it or nothing: checked whole
    first (its totals and prizes worked out from its rows), its people kept as text."""
    parsed = parse_drive(document)
    with database_refusals(), transaction.atomic():
        named = _drive_people_as_text(parsed, actor(imported_by))
        restored = restore_parsed_drive(parsed, club)
        drive = restored.drive
        drive_audit(
            drive,
            imported_by,
            "drive imported",
            f"drive {drive.pk}",
            after={"from": "clubwhist JSON", "drive": restored.original_id, **_names_in(named)},
            bump=False,  # the drive is as the file has it; nobody is watching it yet
        )
    said = (
        f"Imported whole: {drive.name}, {restored.counts}. Its totals and prizes are worked "
        "out here from its hands, as they were where it was exported."
    )
    return Imported("drive", drive, said)


def tournament_import(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """A team tournament's JSON (`tournament_document`) into `club`, all of it or nothing: a
    league's week joins the club's league of that name, or makes it; a week that league
    already has is refused. Its people are kept as text."""
    parsed = parse_tournament(document)
    report = RestoreReport(dry_run=False)
    with database_refusals(), transaction.atomic():
        named = _tournament_people_as_text(parsed, actor(imported_by))
        restored = restore_parsed_tournament(parsed, club, report)
        tournament = restored.tournament
        tournament_audit(
            tournament,
            imported_by,
            "tournament imported",
            f"tournament {tournament.pk}",
            after={
                "from": "clubwhist JSON",
                "tournament": restored.original_id,
                **_names_in(named),
            },
            bump=False,
        )
    league = ""
    if tournament.league is not None:
        how = "made here" if report.leagues else "already here"
        league = f", week {tournament.week} of the league {tournament.league.name} ({how})"
    said = (
        f"Imported whole: {tournament.name}{league}; {restored.counts}. Its standings and "
        "bracket are worked out here from its games, as they were where it was exported."
    )
    return Imported("tournament", tournament, said)


def event_import_document(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """An event's JSON into `club` (`event_restore`: scored again and compared)."""
    restored = event_restore(document, club=club, imported_by=imported_by).events[0]
    said = (
        f"Restored whole: {restored.event.name}. Scored again here, its standings are exactly "
        "those stored in the file."
    )
    return Imported("event", restored.event, said)


def document_import_text(*, text: str, club: Club, user: User = None) -> Imported:
    """A director's import of a clubwhist JSON file into `club`: an event's, a drive's or a
    tournament's, by its format marker; anything else is refused, saying what it is."""
    document = loads(text)
    marker = document.get("format") if isinstance(document, dict) else None
    if marker == DRIVE_FORMAT:
        return drive_import(document, club=club, imported_by=user)
    if marker == TOURNAMENT_FORMAT:
        return tournament_import(document, club=club, imported_by=user)
    if marker == EVENT_FORMAT:
        return event_import_document(document, club=club, imported_by=user)
    if marker == BACKUP_FORMAT:
        raise RestoreRefused(
            "This is a backup of a whole installation, not one event's, drive's or "
            "tournament's JSON: whoever runs the installation restores it with `python "
            "manage.py restore FILE`."
        )
    what = ", ".join(IMPORTABLE.values())
    if not isinstance(marker, str):
        raise RestoreRefused(
            f'This is not clubwhist JSON: it has no "format" marker. The import takes the '
            f"JSON export of {what}."
        )
    raise RestoreRefused(
        f"This is a {marker[:60]!r} document, which this clubwhist does not import: it takes "
        f"the JSON export of {what}."
    )
