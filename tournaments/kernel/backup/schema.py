"""The backup format: its markers and versions, what each block carries of each model, the refusal.

`FIELDS` names what a document carries of every model; `IMPLIED` the relations a row's place in
the document says; `OMITTED` and `OMITTED_MODELS` what is left out on purpose and why (a test
checks that these account for every field of every model, so a new field cannot be forgotten).
Writing, reading and restoring all follow these tables, so the format is said in one place.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import models

from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    PrintJob,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.kernel.models import Club
from tournaments.kernel.refusals import Refused
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)

EVENT_FORMAT = "clubwhist-event"
DRIVE_FORMAT = "clubwhist-drive"
TOURNAMENT_FORMAT = "clubwhist-tournament"
BACKUP_FORMAT = "clubwhist-backup"
#: The version each kind of document is written in. Each kind counts its own versions, so a
#: change to one does not make the others unreadable to an older clubwhist: an event's JSON
#: from this clubwhist still imports into one that knows no drives. Backup version 2 added
#: "drives" (issue #26), version 3 "leagues" and "tournaments" (issue #27); an older backup has
#: none of them, and is read as holding none.
VERSIONS: dict[str, int] = {
    EVENT_FORMAT: 1,
    DRIVE_FORMAT: 1,
    TOURNAMENT_FORMAT: 1,
    BACKUP_FORMAT: 3,
}
#: What a reader takes; it refuses any other version by name (a newer document would lose
#: what this clubwhist does not know of, without a word).
READABLE_VERSIONS: dict[str, frozenset[int]] = {
    EVENT_FORMAT: frozenset({1}),
    DRIVE_FORMAT: frozenset({1}),
    TOURNAMENT_FORMAT: frozenset({1}),
    BACKUP_FORMAT: frozenset({1, 2, 3}),
}
#: The first backup version that carries drives.
BACKUP_DRIVES_SINCE = 2
#: The first backup version that carries team tournaments and leagues.
BACKUP_TOURNAMENTS_SINCE = 3

Model = type[models.Model]

#: What a document carries of each model, by the model's own field names (a relation to a user
#: as the username, a result's pairs as their keys "NS3"/"EW2"/"3", the club's directors as
#: usernames).
FIELDS: dict[Model, tuple[str, ...]] = {
    AuthUser: (
        "username",
        "email",
        "password",
        "first_name",
        "last_name",
        "is_active",
        "is_staff",
        "is_superuser",
        "date_joined",
        "last_login",
    ),
    Club: ("id", "name", "slug", "created_at", "paper", "minutes_per_board", "directors"),
    Player: ("id", "name"),
    Event: (
        "id",
        "name",
        "date",
        "game",
        "options",
        "method",
        "scale",
        "status",
        "advance",
        "live_public",
        "created_by",
        "created_at",
        "results_version",
        "scored_version",
    ),
    Section: (
        "id",
        "name",
        "movement_kind",
        "movement_params",
        "tables",
        "rounds",
        "boards_per_round",
        "one_winner",
        "relay_sets",
        "released_round",
        "clock_ends_at",
        "clock_minutes",
    ),
    Pair: ("id", "number", "direction", "player1", "player2", "is_phantom", "arrived_late"),
    Board: ("id", "number", "record", "par", "par_status", "fouled"),
    MovementRow: ("id", "round", "table", "ns_pair", "ew_pair", "board_set"),
    Result: (
        "id",
        "board_number",
        "round",
        "table",
        "ns_pair",
        "ew_pair",
        "entry",
        "ns_score",
        "status",
        "artificial_code",
        "entered_by_device",
        "entered_by",
        "idempotency_key",
        "flag",
        "confirmed_at",
        "created_at",
        "updated_at",
    ),
    AuditEntry: ("id", "user", "user_name", "at", "action", "target", "before", "after", "reason"),
    Standings: ("id", "version", "computed_at", "data"),
    TableAccess: ("id", "table", "token", "created_at", "revoked_at"),
    DirectorCall: (
        "id",
        "table",
        "round",
        "note",
        "reason",
        "cancelled",
        "board_number",
        "created_at",
        "handled_at",
    ),
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
    DrivePlayer: ("id", "number", "name"),
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
    DriveTableAccess: ("id", "table", "token", "created_at", "revoked_at"),
    DriveAudit: ("id", "user", "user_name", "at", "action", "target", "before", "after", "reason"),
    League: ("id", "name", "created_by", "created_at"),
    Tournament: (
        "id",
        "week",
        "name",
        "date",
        "settings",
        "status",
        "round",
        "round_started_at",
        "seed",
        "live_public",
        "moves_on",
        "version",
        "bracket",
        "created_by",
        "created_at",
    ),
    TournamentTeam: (
        "id",
        "number",
        "name",
        "city",
        "player_one",
        "player_two",
        "paid_cents",
        "in_pot",
        "present",
        "withdrawn_after",
        "league_team",
    ),
    TournamentRound: ("id", "number", "tables", "drawn_at"),
    TournamentGame: (
        "id",
        "round",
        "table",
        "match",
        "home",
        "away",
        "kind",
        "status",
        "hands",
        "score",
        "result",
        "entered_by",
        "note",
        "source",
        "entered_at",
        "confirmed_at",
    ),
    TournamentTableAccess: ("id", "table", "token", "created_at", "revoked_at"),
    TournamentAudit: (
        "id",
        "user",
        "user_name",
        "at",
        "action",
        "target",
        "before",
        "after",
        "reason",
    ),
}

#: Fields added after documents were first written: an older document without them is read
#: with these values (what the field meant before it existed).
ADDED_LATER: dict[Model, dict[str, Any]] = {
    DirectorCall: {"reason": "other", "cancelled": False, "board_number": None},
    # Score cards came after the first drive documents: those drives had none.
    Drive: {"cards": {}},
    # A drive's and a tournament's audit kept no name in words before migration 0015: their
    # lines said who only by the account.
    DriveAudit: {"user_name": ""},
    TournamentAudit: {"user_name": ""},
    # A league kept its teams by each week's numbers before migration 0016: None reads a
    # team by its number on the night, as the league table then did.
    TournamentTeam: {"league_team": None},
}

#: Relations a row does not carry: where it sits in the document says them.
IMPLIED: dict[Model, dict[str, str]] = {
    Player: {"club": "listed under its club"},
    Event: {"club": "the document's club (or the club it is imported into)"},
    Section: {"event": "listed under its event"},
    Pair: {"section": "listed under its section"},
    Board: {"event": "listed under its event"},
    MovementRow: {"section": "listed under its section"},
    Result: {"section": "listed under its section"},
    AuditEntry: {"event": "listed under its event"},
    Standings: {"event": "listed under its event"},
    TableAccess: {"section": "listed under its section"},
    DirectorCall: {"section": "listed under its section"},
    Drive: {"club": "the document's club"},
    DrivePlayer: {"drive": "listed under its drive"},
    DriveSeating: {"drive": "listed under its drive"},
    DriveResult: {"drive": "listed under its drive"},
    DriveTableAccess: {"drive": "listed under its drive"},
    DriveAudit: {"drive": "listed under its drive"},
    League: {"club": "the document's club (a backup's league block names its club's slug)"},
    Tournament: {
        "club": "the document's club",
        "league": "the document's league block (null: not a league week)",
    },
    TournamentTeam: {"tournament": "listed under its tournament"},
    TournamentRound: {"tournament": "listed under its tournament"},
    TournamentGame: {"tournament": "listed under its tournament"},
    TournamentTableAccess: {"tournament": "listed under its tournament"},
    TournamentAudit: {"tournament": "listed under its tournament"},
}

#: Fields left out on purpose, and why.
OMITTED: dict[Model, dict[str, str]] = {
    AuthUser: {
        "id": "users are matched by username; ids differ from one database to another",
        "groups": "clubwhist grants nothing through groups (directors are a club's directors)",
        "user_permissions": "clubwhist grants nothing through per-user permissions",
    },
    Event: {
        "rescore_queued_at": "a claim on the results-processing queue of the machine that "
        "wrote the backup; a restored event has nothing queued (its standings are current)",
    },
}

#: Models left out whole, and why.
OMITTED_MODELS: dict[Model, str] = {
    PrintJob: "print packs are PDFs made from the event on request; the print page makes "
    "them again from the restored event",
}

#: Under a drive, its rows by the models' related names, in the order they are written back.
DRIVE_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("players", DrivePlayer),
    ("seatings", DriveSeating),
    ("results", DriveResult),
    ("table_access", DriveTableAccess),
    ("audit", DriveAudit),
)

#: Under a tournament, its rows by the models' related names, in the order they are written back.
TOURNAMENT_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("teams", TournamentTeam),
    ("rounds", TournamentRound),
    ("games", TournamentGame),
    ("table_access", TournamentTableAccess),
    ("audit", TournamentAudit),
)

#: Under each section (and the event), the children by the models' related names.
SECTION_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("pairs", Pair),
    ("movement_rows", MovementRow),
    ("results", Result),
    ("table_access", TableAccess),
    ("calls", DirectorCall),
)


class RestoreRefused(Refused):
    """A document that cannot be restored. The message names what is wrong and where, and
    nothing has been changed."""


def model_field(model: Model, name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field), f"{model.__name__}.{name} is not a field"
    return found
