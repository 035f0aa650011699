"""What spans every format: a whole installation's backup, the restore of any document and a
director's import of any format's JSON, each going through the parts the formats registered
(`registry`), in the order registered.

A backup (`BACKUP_FORMAT`) holds users, clubs and each format's blocks (its documents, and
what else it keeps apart: the teams' leagues), by the keys its part gives. Restoring one checks
it whole before anything is written and refuses, naming them, what is already here.

A director's import of a clubwhist JSON file into a club they direct (an event's, a whist
drive's or a team tournament's; a league's week is one) is told apart by the file's format
marker: the reading and the writing are `manage.py restore`'s (every value checked before the
first row is written, one transaction, ids kept when none is taken here and new ones throughout
otherwise, a refusal naming what is already here), with what makes it safe on a director's
say-so (`documents.document_import`): the club is the one the director chose, and nobody is
linked to an account, or created, by a name the file gives. A whole installation's backup is
not taken here: it names accounts and clubs, so only whoever runs the installation restores it
(`manage.py restore`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import models, transaction
from django.utils import timezone

from tournaments.kernel.audit import User
from tournaments.kernel.backup.documents import ClubBlock, club_create, parse_club
from tournaments.kernel.backup.dump import club_block, user_block
from tournaments.kernel.backup.members import backup_links_check, registers
from tournaments.kernel.backup.registry import (
    InBackup,
    after_restore,
    importable_by_marker,
    part_for,
    parts,
)
from tournaments.kernel.backup.report import Imported, RestoreReport
from tournaments.kernel.backup.rows import check_marker, check_unique, list_in, load_row
from tournaments.kernel.backup.schema import BACKUP_FORMAT, SCORERS, VERSIONS, RestoreRefused
from tournaments.kernel.backup.text import loads
from tournaments.kernel.backup.writing import database_refusals, ensure_users
from tournaments.kernel.models import Club


def backup_document(
    *, clubs: Iterable[Club] | None = None, **chosen: Iterable[Any] | None
) -> dict[str, Any]:
    """A backup (`BACKUP_FORMAT`): clubs, each format's blocks of them (each event, drive or
    tournament a document of its own; the leagues), users and directorships. With no
    argument, the whole database; otherwise the clubs given with all that is theirs, and the
    documents' owners each format's part is chosen by (`events=`, `drives=`,
    `tournaments=`), each with its club, and only the users they name. Choosing events alone
    takes no drive and no tournament: neither is part of an evening's event."""
    known = {part.chosen_by for part in parts()}
    unknown = sorted(set(chosen) - known)
    if unknown:
        raise TypeError(f"backup_document() takes no {unknown[0]!r}")
    whole = clubs is None and all(given is None for given in chosen.values())
    chosen_clubs = {c.pk: c for c in clubs or []}
    if whole:
        chosen_clubs = {c.pk: c for c in Club.objects.all()}
    given_clubs = list(chosen_clubs.values())
    blocks: dict[str, list[Any]] = {}
    named: set[str] = set()
    for part in parts():
        picked = part.pick(given_clubs, chosen.get(part.chosen_by), whole)
        blocks.update(picked.blocks)
        named |= picked.usernames
        for club in picked.clubs:
            chosen_clubs.setdefault(club.pk, club)
    club_blocks = [club_block(c, backup=True) for _, c in sorted(chosen_clubs.items())]
    if whole:
        users = list(AuthUser.objects.order_by("username"))
    else:
        for block in club_blocks:
            named.update(block["directors"], block[SCORERS])
        users = list(AuthUser.objects.filter(username__in=named).order_by("username"))
    return {
        "format": BACKUP_FORMAT,
        "version": VERSIONS[BACKUP_FORMAT],
        "created_at": timezone.now().isoformat(),
        "users": [user_block(u) for u in users],
        "clubs": club_blocks,
        **blocks,
    }


def _clubs_of(document: dict[str, Any]) -> list[ClubBlock]:
    clubs = [
        parse_club(raw, BACKUP_FORMAT, f"Club {i + 1} of the backup")
        for i, raw in enumerate(list_in(document, "clubs", "The backup"))
    ]
    check_unique(
        ((b.club.slug, f"club {b.club.name!r}") for b in clubs), "web address (slug)", "The backup"
    )
    check_unique(((b.club.name, f"club {b.club.slug!r}") for b in clubs), "name", "The backup")
    return clubs


def backup_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore a backup (`backup_document`) into a database that has none of its clubs,
    events, drives and tournaments, all of it or nothing; refuses, naming them, when any is
    already here. Each format reads its blocks by the backup's version: a version 1 backup
    (written before drives were backed up) holds no drive, a version 1 or 2 backup no league
    and no tournament, a version 4 or older no link to the member register and no season.
    Every club is written with its register before any document, so each document's links (ids
    in the backup's register, checked before anything is written) follow their members
    (`members`). Once every document is written, the steps registered after a restore run for
    each club (`registry.after_restore`: the seasons' chosen evenings, ledger and tables)."""
    check_marker(document, BACKUP_FORMAT, "backup")
    carried: dict[str, AuthUser] = {}
    for i, raw in enumerate(list_in(document, "users", "The backup")):
        user: AuthUser = load_row(AuthUser, raw, f"User {i + 1} of the backup", fmt=BACKUP_FORMAT)
        if user.username in carried:
            raise RestoreRefused(f"The backup lists the user {user.username!r} twice.")
        carried[user.username] = user
    clubs = _clubs_of(document)
    slugs = {b.club.slug for b in clubs}
    found: list[InBackup] = [part.read(document, slugs) for part in parts()]
    # The links name members of the registers by their ids in the backup: checked now, and
    # followed as the registers are written (new ids included) before any document.
    listed = registers(clubs)
    for items in found:
        for parsed in items.parsed_documents():
            slug = parsed.club.club.slug
            backup_links_check(parsed.member_refs, listed[slug], slug, parsed.place)

    here = [
        f"{c.name!r} ({c.slug})"
        for c in Club.objects.filter(
            models.Q(slug__in=slugs) | models.Q(name__in=[b.club.name for b in clubs])
        )
    ]
    for items in found:
        here += items.here()
    if here:
        raise RestoreRefused(
            "This database already has what the backup would restore: "
            + "; ".join(here)
            + ". Restore into an empty database (a new SQLite file, or a new PostgreSQL "
            "database, migrated), or delete those first."
        )

    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        names = set(carried)
        for block in clubs:
            names.update(block.directors, block.scorers)
        for items in found:
            names |= items.usernames()
        users = ensure_users(names, carried, report)
        made = {}
        # Every club with its register first: the documents' links follow the members.
        for block in clubs:
            made[block.club.slug] = club_create(block, users)
            report.of("clubs").append(f"{block.club.name} ({block.club.slug})")
        for items in found:
            items.write(made, users, report)
        # What names the evenings (a competition's chosen ones) follows the ids they got.
        for block in clubs:
            for step in after_restore():
                step(club=made[block.club.slug], rows=block.rows, report=report)
        if dry_run:
            transaction.set_rollback(True)
    return report


def restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """A backup, or a single document of any format registered, told apart by its format
    marker."""
    part = part_for(document.get("format")) if isinstance(document, dict) else None
    if part is not None:
        return part.restore(document, dry_run=dry_run)
    return backup_restore(document, dry_run=dry_run)


def document_import_text(*, text: str, club: Club, user: User = None) -> Imported:
    """A director's import of a clubwhist JSON file into `club`: an event's, a drive's or a
    tournament's, by its format marker; anything else is refused, saying what it is."""
    document = loads(text)
    marker = document.get("format") if isinstance(document, dict) else None
    part = part_for(marker)
    if part is not None:
        return part.import_document(document, club=club, imported_by=user)
    if marker == BACKUP_FORMAT:
        raise RestoreRefused(
            "This is a backup of a whole installation, not one event's, drive's or "
            "tournament's JSON: whoever runs the installation restores it with `python "
            "manage.py restore FILE`."
        )
    what = ", ".join(importable_by_marker().values())
    if not isinstance(marker, str):
        raise RestoreRefused(
            f'This is not clubwhist JSON: it has no "format" marker. The import takes the '
            f"JSON export of {what}."
        )
    raise RestoreRefused(
        f"This is a {marker[:60]!r} document, which this clubwhist does not import: it takes "
        f"the JSON export of {what}."
    )
