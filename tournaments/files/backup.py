"""The backup across the formats: which formats' parts the kernel's backup framework holds, and
the names callers (commands, exports, the import page and API) use.

A whole event, drive or team tournament is one JSON document, a whole database one backup
holding every format's documents; restoring either checks the whole document before anything
is written, writes it in one transaction and refuses, rolling everything back, naming what is
wrong and where (`RestoreRefused`). The framework is the kernel's (`tournaments.kernel.backup`:
the format, rows, checks, the report, the whole backup, any restore, a director's import);
each format's part is in its own package (`<format>.selectors.backup` writes its documents,
`<format>.services.backup_parse` checks them, `<format>.services.backup` restores and imports
them and holds its `PART`). `FORMATS` lists the parts, in the order a backup holds them;
`register_formats` (called as Django starts, from `tournaments.apps`) registers them. A fourth
format writes its part in its own package and adds it here; its documents in the backup make
the backup's next version (`kernel.backup.schema.VERSIONS`).
"""

from tournaments.drives.selectors.backup import DRIVE_CHILDREN, DRIVE_FORMAT, drive_document
from tournaments.drives.services import backup as drives_backup
from tournaments.drives.services.backup import drive_import, drive_restore
from tournaments.events.selectors.backup import EVENT_FORMAT, SECTION_CHILDREN, event_document
from tournaments.events.services import backup as events_backup
from tournaments.events.services.backup import event_import_text, event_restore
from tournaments.kernel.backup.driver import (
    backup_document,
    backup_restore,
    document_import_text,
    restore,
)
from tournaments.kernel.backup.dump import club_block, consistent_read, user_block
from tournaments.kernel.backup.members import MEMBERS
from tournaments.kernel.backup.registry import (
    BackupPart,
    register,
    register_after_restore,
    register_backup_club_part,
)
from tournaments.kernel.backup.report import Imported, RestoreReport
from tournaments.kernel.backup.schema import (
    ADDED_LATER,
    BACKUP_FORMAT,
    FIELDS,
    IMPLIED,
    OMITTED,
    OMITTED_MODELS,
    READABLE_VERSIONS,
    VERSIONS,
    RestoreRefused,
)
from tournaments.kernel.backup.text import dumps, loads, looks_like_json, read_file, write_file
from tournaments.kernel.backup.trails import TRAILS, trails_after_restore
from tournaments.teams.selectors.backup import (
    TOURNAMENT_CHILDREN,
    TOURNAMENT_FORMAT,
    tournament_document,
)
from tournaments.teams.services import backup as teams_backup
from tournaments.teams.services.backup import tournament_import, tournament_restore

#: The formats' parts, in the order a backup holds them (and a report says them).
FORMATS: tuple[BackupPart, ...] = (events_backup.PART, drives_backup.PART, teams_backup.PART)


def register_formats() -> None:
    """Register every format's part with the kernel, and the kernel's own member register
    (a club's block in a whole backup)."""
    for part in FORMATS:
        register(part)
    register_backup_club_part(MEMBERS)
    for trail in TRAILS:
        register_backup_club_part(trail)
    register_after_restore(trails_after_restore)


__all__ = [
    "ADDED_LATER",
    "BACKUP_FORMAT",
    "DRIVE_CHILDREN",
    "DRIVE_FORMAT",
    "EVENT_FORMAT",
    "FIELDS",
    "FORMATS",
    "IMPLIED",
    "OMITTED",
    "OMITTED_MODELS",
    "READABLE_VERSIONS",
    "SECTION_CHILDREN",
    "TOURNAMENT_CHILDREN",
    "TOURNAMENT_FORMAT",
    "VERSIONS",
    "Imported",
    "RestoreRefused",
    "RestoreReport",
    "backup_document",
    "backup_restore",
    "club_block",
    "consistent_read",
    "document_import_text",
    "drive_document",
    "drive_import",
    "drive_restore",
    "dumps",
    "event_document",
    "event_import_text",
    "event_restore",
    "loads",
    "looks_like_json",
    "read_file",
    "register_formats",
    "restore",
    "tournament_document",
    "tournament_import",
    "tournament_restore",
    "user_block",
    "write_file",
]
