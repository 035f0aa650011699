"""The drives' part of the backup, reading (the drives' models' tables, a drive's document, the
drives a backup takes): the kernel's framework (`tournaments.kernel.backup`) writes it out.

A drive's document holds its club, its settings and state, its players, each hand's seating,
each table's result (confirmed or waiting), its tablet links and its audit trail (`TABLES`
says what is carried of every model). Totals and prizes are not in it: they are worked out
from these rows, here and wherever the document is restored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.kernel.backup.dump import (
    documents_of,
    head,
    member_links_out,
    named_in,
    row,
    usernames,
)
from tournaments.kernel.backup.registry import Picked, Tables
from tournaments.kernel.backup.schema import (
    AUDIT_FIELDS,
    LINK_FIELDS,
    Model,
    listed_under,
)
from tournaments.kernel.models import Club

DRIVE_FORMAT = "clubwhist-drive"

#: What a drive's document carries of each of the drives' models.
TABLES = Tables(
    fields={
        Drive: (
            "id",
            "name",
            "date",
            "game",
            "settings",
            "status",
            "hand",
            "seed",
            "live_public",
            "moves_on",
            "version",
            "cards",
            "created_by",
            "created_at",
        ),
        DrivePlayer: ("id", "number", "name", "member"),
        DriveSeating: ("id", "hand", "seating"),
        DriveResult: (
            "id",
            "hand",
            "table",
            "entry",
            "status",
            "source",
            "confirmed_at",
            "entered_by",
            "entered_at",
        ),
        DriveTableAccess: LINK_FIELDS,
        DriveAudit: AUDIT_FIELDS,
    },
    added_later={
        # Score cards came after the first drive documents: those drives had none.
        Drive: {"cards": {}},
        # A drive's audit kept no name in words before migration 0015: its lines said who only
        # by the account.
        DriveAudit: {"user_name": ""},
        # The links to the member register came with migration 0019 and were carried from
        # version 2 of the document (version 5 of the backup): before, none.
        DrivePlayer: {"member": None},
    },
    implied={
        Drive: {"club": "the document's club"},
        **listed_under(
            "drive", DrivePlayer, DriveSeating, DriveResult, DriveTableAccess, DriveAudit
        ),
    },
)

#: Under a drive, its rows by the models' related names, in the order they are written back.
DRIVE_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("players", DrivePlayer),
    ("seatings", DriveSeating),
    ("results", DriveResult),
    ("table_access", DriveTableAccess),
    ("audit", DriveAudit),
)


def drive_document(drive: Drive, *, backup: bool = False) -> dict[str, Any]:
    """The whole drive as a JSON-ready document (`DRIVE_FORMAT`, its version): its club, its
    own settings and state, and every row under it (players, each hand's seating, each
    table's result as stored, whatever its status, the tablet links with their tokens, the
    audit trail). Totals and prizes are not in it: they are worked out from these rows, here
    and wherever the document is restored. A player's link to the club's members is the
    member's id in a whole backup (`backup`), which carries the register, and the member's
    name in a document on its own (`kernel.backup.dump.member_links_out`). Reads only; call
    inside `consistent_read()` when tablets may be writing."""
    drive = Drive.objects.select_related("club").get(pk=drive.pk)
    rows = {
        key: list(model._default_manager.filter(drive=drive).order_by("pk"))
        for key, model in DRIVE_CHILDREN
    }
    users = usernames(
        [
            drive.created_by_id,
            *DriveResult.objects.filter(drive=drive).values_list("entered_by_id", flat=True),
            *DriveAudit.objects.filter(drive=drive).values_list("user_id", flat=True),
        ]
    )
    members = member_links_out(
        [getattr(p, f"{link}_id") for p in rows["players"] for link in DrivePlayer.MEMBER_NAMES],
        backup=backup,
    )
    document: dict[str, Any] = {
        **head(DRIVE_FORMAT, drive.club),
        "drive": row(drive, Drive, users=users),
    }
    for key, model in DRIVE_CHILDREN:
        document[key] = [row(item, model, users=users, members=members) for item in rows[key]]
    return document


def _named_users_of_drives(documents: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for doc in documents:
        yield from named_in(doc, "drive")
        yield from (r["entered_by"] for r in doc["results"] if r["entered_by"])


def drives_picked(clubs: list[Club], chosen: Iterable[Drive] | None, whole: bool) -> Picked:
    """A backup's "drives": the drives given and those of the clubs given (with `whole`,
    every drive), each a document of its own, with their clubs and the people they name."""
    drives, documents = documents_of(
        chosen,
        clubs,
        lambda club: Drive.objects.filter(club=club).select_related("club"),
        lambda: Drive.objects.select_related("club"),
        whole,
        lambda drive: drive_document(drive, backup=True),
    )
    return Picked(
        blocks={"drives": documents},
        clubs=[d.club for d in drives],
        usernames=set(_named_users_of_drives(documents)),
    )
