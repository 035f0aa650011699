"""A whole event, drive or team tournament as one JSON document, a whole database as one backup,
and restoring them.

An event's document holds everything the event is: its club, its own settings, its sections
with their movement rows, pairs, results (entries, statuses, idempotency keys, who entered
them), tablet links and director calls, the boards exactly as stored, the audit trail and the
newest standings (`schema` says what is carried of every model and what is left out, and why).
A drive's document holds its club, its settings and state, its players, each hand's seating,
each table's result (confirmed or waiting), its tablet links and its audit trail. A team
tournament's document (a Bid Whist tournament, or one week of a league) holds its club, its
league (by name; null for a tournament on its own), every column of the tournament (settings,
status, the round being played, the seed, the bracket), its teams, each round's tables as
drawn, each game as entered and as counted (forfeits, withdrawals, byes and playoff matches
included), its tablet links and its audit trail: everything its standings and bracket are
worked out from. A backup holds its clubs' events, drives, leagues and tournaments.

Restoring checks the whole document before anything is written (format, version, every value
and every reference), writes it in one transaction, scores the event again and refuses,
rolling everything back, unless the standings come out exactly as stored. Each refusal is a
`RestoreRefused` whose message names what is wrong and where.

Rows keep their ids when the database holds none of them yet (a restore into an empty
database: the same pages, links and ids); otherwise the event is given new ids throughout and
keeps everything else, tablet tokens included. Users are named by username: a restore
(`manage.py restore`) links them to accounts, a backup of the whole database carrying them
(password hashes included) and a user an event names who exists neither here nor in the
backup being created inactive, without a usable password. A director's import of an event
(`event_import_text`) links nobody and creates nobody: a file's names are anybody's words, so
they are kept as text. A director imports a drive's or a tournament's JSON the same way
(`importing`, which tells the three apart by their format marker): into the club chosen, its
audit keeping names as text (`user_name`). A tournament's league is matched here by club and
name, or made.

The package's modules, by job: `schema` (the format), `dump` (documents from the database),
`text` (JSON text and files), `rows`, `checks`, `parse`, `drive_parse`, `team_parse` and
`team_checks` (checking a document), `writing`, `restoring`, `drive_restoring`,
`team_restoring` and `report` (writing it back, and saying what was done), `importing` (a
director's import of any of the three). Callers use the
names below.
"""

from tournaments.files.backup.drive_parse import ParsedDrive, parse_drive
from tournaments.files.backup.drive_restoring import drive_already_here, drive_restore
from tournaments.files.backup.dump import (
    backup_document,
    club_block,
    consistent_read,
    drive_document,
    event_document,
    tournament_document,
    user_block,
)
from tournaments.files.backup.importing import (
    IMPORTABLE,
    Imported,
    document_import_text,
    drive_import,
    tournament_import,
)
from tournaments.files.backup.parse import ClubBlock, ParsedEvent, parse_club, parse_event
from tournaments.files.backup.report import (
    RestoredDrive,
    RestoredEvent,
    RestoredTournament,
    RestoreReport,
)
from tournaments.files.backup.restoring import (
    already_here,
    backup_restore,
    event_import_text,
    event_restore,
    restore,
)
from tournaments.files.backup.schema import (
    ADDED_LATER,
    BACKUP_FORMAT,
    DRIVE_CHILDREN,
    DRIVE_FORMAT,
    EVENT_FORMAT,
    FIELDS,
    IMPLIED,
    OMITTED,
    OMITTED_MODELS,
    READABLE_VERSIONS,
    SECTION_CHILDREN,
    TOURNAMENT_CHILDREN,
    TOURNAMENT_FORMAT,
    VERSIONS,
    RestoreRefused,
)
from tournaments.files.backup.team_parse import ParsedTournament, parse_tournament
from tournaments.files.backup.team_restoring import (
    tournament_already_here,
    tournament_restore,
)
from tournaments.files.backup.text import dumps, loads, looks_like_json, read_file, write_file

__all__ = [
    "ADDED_LATER",
    "BACKUP_FORMAT",
    "DRIVE_CHILDREN",
    "DRIVE_FORMAT",
    "EVENT_FORMAT",
    "FIELDS",
    "IMPLIED",
    "IMPORTABLE",
    "OMITTED",
    "OMITTED_MODELS",
    "READABLE_VERSIONS",
    "SECTION_CHILDREN",
    "TOURNAMENT_CHILDREN",
    "TOURNAMENT_FORMAT",
    "VERSIONS",
    "ClubBlock",
    "Imported",
    "ParsedDrive",
    "ParsedEvent",
    "ParsedTournament",
    "RestoreRefused",
    "RestoreReport",
    "RestoredDrive",
    "RestoredEvent",
    "RestoredTournament",
    "already_here",
    "backup_document",
    "backup_restore",
    "club_block",
    "consistent_read",
    "document_import_text",
    "drive_already_here",
    "drive_document",
    "drive_import",
    "drive_restore",
    "dumps",
    "event_document",
    "event_import_text",
    "event_restore",
    "loads",
    "looks_like_json",
    "parse_club",
    "parse_drive",
    "parse_event",
    "parse_tournament",
    "read_file",
    "restore",
    "tournament_already_here",
    "tournament_document",
    "tournament_import",
    "tournament_restore",
    "user_block",
    "write_file",
]
