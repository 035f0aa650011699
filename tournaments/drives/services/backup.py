"""The drives' part of the backup, writing: a drive's document restored (`manage.py restore`),
imported into a club, and carried in a whole backup; the part the drives register with the
kernel (`PART`).

The same rules as an event's restore: one transaction, ids kept when none is taken here (else
new ones throughout, tokens and everything else kept), users linked by username (made inactive
when missing), refused, naming it, when the drive is already here. A director's import of a
drive into a club of their choice writes it through `restore_parsed_drive` too, linking nobody:
its audit keeps each name as text (`user_name`, as the events' `AuditEntry` does), a result
keeps none (its table and hand say where it came from), the drive is the importer's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from tournaments.drives.models import Drive, DriveTableAccess
from tournaments.drives.selectors.backup import (
    DRIVE_CHILDREN,
    DRIVE_FORMAT,
    TABLES,
    drives_picked,
)
from tournaments.drives.selectors.tablets import link_key
from tournaments.drives.services.backup_parse import ParsedDrive, parse_drive
from tournaments.drives.services.base import audit as drive_audit
from tournaments.kernel import live
from tournaments.kernel.audit import User
from tournaments.kernel.backup.documents import (
    DocumentsInBackup,
    document_import,
    document_restore,
    import_note,
    read_backup,
)
from tournaments.kernel.backup.registry import BackupPart
from tournaments.kernel.backup.report import Imported, RestoreReport, moved
from tournaments.kernel.backup.rows import list_in
from tournaments.kernel.backup.schema import RestoreRefused
from tournaments.kernel.backup.writing import (
    ids_kept,
    insert_rows,
    links_here,
    move_sequences_past,
    refuse_if_here,
    same_here,
)
from tournaments.kernel.commits import after_commit
from tournaments.kernel.models import Club

#: What to do when the drive's club name is taken here under another web address.
CLUB_ADVICE = (
    "give the club here the document's web address, or restore into another database (a "
    "drive is restored into the club with its web address)"
)
#: The first backup version that carries drives.
BACKUP_DRIVES_SINCE = 2


@dataclass
class RestoredDrive:
    drive: Drive
    original_id: int | None
    counts: str

    def describe(self) -> str:
        return (
            f"drive {self.drive.pk}{moved(self.original_id, self.drive.pk)}: "
            f"{self.drive.name!r} of {self.drive.date:%d %b %Y}, {self.drive.game}, "
            f"{self.drive.get_status_display().lower()}; {self.counts}"
        )


def drive_already_here(parsed: ParsedDrive) -> str | None:
    """Why the database cannot take this drive, naming what is there; None when it can.

    The drive is here when a drive with its name, date and creation time is (an id proves
    nothing across databases); a copy of it shows by its tablet tokens, unique in a
    database."""
    return same_here(Drive, parsed.drive, parsed.title, "drive") or links_here(
        DriveTableAccess,
        [link.token for link in parsed.table_access],
        parsed.title,
        "drive",
        "drive",
    )


def restore_parsed_drive(parsed: ParsedDrive, club: Club) -> RestoredDrive:
    """Write a checked drive under `club` (its people already linked to accounts, or kept as
    text); call inside a transaction, which a refusal rolls back."""
    refuse_if_here(drive_already_here(parsed))
    original_id = parsed.drive.pk
    keep = ids_kept(parsed.rows)
    drive = parsed.drive
    drive.club = club
    insert_rows(Drive, [drive])
    for key, model in DRIVE_CHILDREN:
        rows = getattr(parsed, key)
        for row in rows:
            row.drive = drive
        insert_rows(model, rows)
    if keep:
        move_sequences_past(parsed.rows())
    # What the cache holds under this id (a deleted drive's version, its tablets' links and
    # states) is another drive's; the states are keyed by the drive's epoch as well.
    after_commit(live.forget_drive, drive.pk)
    links = [link_key(row.token) for row in parsed.table_access]
    after_commit(cache.delete_many, links)
    return RestoredDrive(drive, original_id, parsed.counts())


def drive_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore one drive document (`drive_document`), all of it or nothing, into the club
    with the document's web address (made as the document has it when there is none), its
    users linked by username and made, inactive, when missing. A dry run does everything,
    checks included, then rolls back."""
    parsed = parse_drive(document)

    def write(target: Club, report: RestoreReport) -> None:
        report.of("drives").append(restore_parsed_drive(parsed, target))

    return document_restore(parsed, write, advice=CLUB_ADVICE, dry_run=dry_run)


def drive_import(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """A drive's JSON (`drive_document`) into `club`, all of it or nothing: checked whole
    first (its totals and prizes worked out from its rows), its people kept as text."""
    parsed = parse_drive(document)

    def write(target: Club, report: RestoreReport, named: list[str]) -> RestoredDrive:
        restored = restore_parsed_drive(parsed, target)
        drive = restored.drive
        drive_audit(
            drive,
            imported_by,
            "drive imported",
            f"drive {drive.pk}",
            after=import_note("drive", restored.original_id, named),
            bump=False,  # the drive is as the file has it; nobody is watching it yet
        )
        return restored

    restored, _ = document_import(parsed, write, club=club, imported_by=imported_by)
    assert isinstance(restored, RestoredDrive)
    drive = restored.drive
    said = (
        f"Imported whole: {drive.name}, {restored.counts}. Its totals and prizes are worked "
        "out here from its hands, as they were where it was exported."
    )
    return Imported("drive", drive, said)


def drives_read(document: dict[str, Any], slugs: set[str]) -> DocumentsInBackup:
    """The backup's drives, checked: a list since version 2; a version 1 backup has none, and
    one that says it has some was edited (they would be dropped without a word)."""
    if document["version"] >= BACKUP_DRIVES_SINCE:
        listed = list_in(document, "drives", "The backup")
    elif "drives" in document:
        raise RestoreRefused(
            f"The backup is version {document['version']} of the format, which has no drives, "
            f"yet it lists some: drives are in backups from version {BACKUP_DRIVES_SINCE}."
        )
    else:
        listed = []
    drives = read_backup(listed, parse_drive, "Drive", "drive", slugs)
    return DocumentsInBackup(
        "drives",
        drives,
        drive_already_here,
        lambda parsed, club, report: restore_parsed_drive(parsed, club),
    )


PART = BackupPart(
    marker=DRIVE_FORMAT,
    version=2,
    readable=frozenset({1, 2}),
    kind="drive",
    whose="a whist drive's",
    importable="a whist drive",
    tables=TABLES,
    report_kinds=(("drives", None),),
    pick=drives_picked,
    chosen_by="drives",
    read=drives_read,
    restore=drive_restore,
    import_document=drive_import,
)
