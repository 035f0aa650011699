"""Writing a checked drive back into the database: on its own (`manage.py restore`) or in a backup.

The same rules as an event's restore (`restoring`): one transaction, ids kept when none is
taken here (else new ones throughout, tokens and everything else kept), users linked by
username (made inactive when missing), refused, naming it, when the drive is already here.
A director's import of a drive into a club of their choice (`importing`) writes it through
`restore_parsed_drive` too, linking nobody: its audit keeps each name as text (`user_name`, as
the events' `AuditEntry` does).
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tournaments.drives.models import Drive, DriveTableAccess
from tournaments.drives.selectors.tablets import link_key
from tournaments.files.backup.drive_parse import ParsedDrive, parse_drive
from tournaments.files.backup.report import RestoredDrive, RestoreReport
from tournaments.files.backup.schema import DRIVE_CHILDREN, RestoreRefused
from tournaments.files.backup.writing import (
    batches,
    club_for,
    database_refusals,
    ensure_users,
    ids_free,
    insert_rows,
    link_users,
    move_sequences_past,
)
from tournaments.kernel import live
from tournaments.kernel.models import Club

#: What to do when the drive's club name is taken here under another web address.
CLUB_ADVICE = (
    "give the club here the document's web address, or restore into another database (a "
    "drive is restored into the club with its web address)"
)


def drive_already_here(parsed: ParsedDrive) -> str | None:
    """Why the database cannot take this drive, naming what is there; None when it can.

    The drive is here when a drive with its name, date and creation time is (an id proves
    nothing across databases); a copy of it shows by its tablet tokens, unique in a
    database."""
    d = parsed.drive
    same = (
        Drive.objects.filter(name=d.name, date=d.date, created_at=d.created_at)
        .select_related("club")
        .first()
    )
    if same is not None:
        return (
            f"This database already holds {parsed.title} (drive {same.pk}, club {same.club.name!r})"
        )
    tokens = [link.token for link in parsed.table_access]
    for chunk in batches(tokens):
        clash = DriveTableAccess.objects.filter(token__in=chunk).select_related("drive").first()
        if clash is not None:
            return (
                f"Table {clash.table}'s tablet link of {parsed.title} is already used here by "
                f"drive {clash.drive_id} ({clash.drive.name!r}): that drive is this one or a "
                "copy of it"
            )
    return None


def restore_parsed_drive(parsed: ParsedDrive, club: Club) -> RestoredDrive:
    """Write a checked drive under `club` (its people already linked to accounts, or kept as
    text); call inside a transaction, which a refusal rolls back."""
    refusal = drive_already_here(parsed)
    if refusal is not None:
        raise RestoreRefused(f"{refusal}. Delete it first, or restore into another database.")
    original_id = parsed.drive.pk
    keep = ids_free(parsed.rows())
    if not keep:
        for _, rows in parsed.rows():
            for row in rows:
                row.pk = None
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
    transaction.on_commit(functools.partial(live.forget_drive, drive.pk), robust=True)
    links = [link_key(row.token) for row in parsed.table_access]
    transaction.on_commit(functools.partial(cache.delete_many, links), robust=True)
    return RestoredDrive(drive, original_id, parsed.counts())


def drive_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore one drive document (`drive_document`), all of it or nothing, into the club
    with the document's web address (made as the document has it when there is none), its
    users linked by username and made, inactive, when missing. A dry run does everything,
    checks included, then rolls back."""
    parsed = parse_drive(document)
    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        users = ensure_users(parsed.usernames() | set(parsed.club.directors), {}, report)
        target = club_for(parsed.club, users, report, advice=CLUB_ADVICE)
        link_users(parsed.user_refs, users)
        report.drives.append(restore_parsed_drive(parsed, target))
        if dry_run:
            transaction.set_rollback(True)
    return report
