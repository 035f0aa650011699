"""The OpenAPI schemas of the clubwhist JSON of an event, a drive and a team tournament, worked
out from the backup format's own tables (`tournaments.kernel.backup.schema`, which each format's
part fills as it registers).

Each document is its format marker and version, the moment it was written, the club, and a
block of rows per model; a row is `FIELDS[model]`, each column typed from the model's field as
the reader (`kernel.backup.rows`) takes it back: a relation to a user as the username, a
result's pairs as their keys, a time with its offset, a JSON column as what it holds. So a
column added to the format is in the schema without a word here; a new JSON column says what it
holds in `_JSON` (or is described as a value kept as stored).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from tournaments.drives.models import Drive, DriveAudit, DriveResult, DriveSeating
from tournaments.events.api.event_schemas import ANALYSIS, MOVEMENT_PARAMS, game_options_schema
from tournaments.events.models import AuditEntry, Board, Event, Pair, Player, Result, Section
from tournaments.events.models import Standings as StandingsRow
from tournaments.files.backup import (
    DRIVE_CHILDREN,
    DRIVE_FORMAT,
    EVENT_FORMAT,
    FIELDS,
    SECTION_CHILDREN,
    TOURNAMENT_CHILDREN,
    TOURNAMENT_FORMAT,
    VERSIONS,
)
from tournaments.kernel.api.entry_schema import entry_schema, game_entry_schema
from tournaments.kernel.api.schema import JSON_VALUE
from tournaments.kernel.backup.schema import Model, model_field
from tournaments.kernel.models import Club
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
)


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _kept(what: str) -> dict[str, Any]:
    """A JSON column kept as it is stored, saying what it holds."""
    return {"allOf": [_ref(JSON_VALUE)], "description": what}


def _stored_entry() -> dict[str, Any]:
    return {"anyOf": entry_schema()["oneOf"], "description": "The result as entered."}


def _json_columns() -> dict[tuple[Model, str], dict[str, Any]]:
    """What each JSON column of the format holds (the components named are the API's own
    descriptions of the same values)."""
    before = "What the line changed, as it was before (its keys are the action's)."
    after = "What the line changed, as it is after (its keys are the action's)."
    return {
        (Event, "options"): game_options_schema(),
        (Section, "movement_params"): MOVEMENT_PARAMS,
        (Pair, "presence"): {
            "type": "array",
            "description": "The pair's arrivals and departures during play, in order: from "
            "`round` on it plays (`present` true) or is absent (false); `award` is the "
            "artificial score of its meetings while absent, NS/EW.",
            "items": {
                "type": "object",
                "properties": {
                    "round": {"type": "integer", "minimum": 1},
                    "present": {"type": "boolean"},
                    "award": {"type": "string"},
                },
                "required": ["round", "present"],
            },
        },
        (Section, "relay_sets"): {
            "type": "array",
            "description": "The relay's boards: [round, set] pairs.",
            "items": {"type": "array", "items": {"type": "integer"}},
        },
        (Board, "par"): ANALYSIS,
        (Result, "entry"): _stored_entry(),
        (AuditEntry, "before"): _kept(before),
        (AuditEntry, "after"): _kept(after),
        (StandingsRow, "data"): _kept("The standings document, as the standings API sends it."),
        (Drive, "settings"): _ref("DriveSettingsSchema"),
        (Drive, "cards"): _kept("A paper drive's score cards, by player number."),
        (DriveSeating, "seating"): _kept("The hand's seating, as the engine writes it."),
        (DriveResult, "entry"): _stored_entry(),
        (DriveAudit, "before"): _kept(before),
        (DriveAudit, "after"): _kept(after),
        (Tournament, "settings"): _ref("TournamentSettings"),
        (Tournament, "bracket"): _kept("The playoff bracket, as the engine writes it."),
        (TournamentRound, "tables"): _kept("The round's tables as drawn (the engine's draw)."),
        (TournamentGame, "hands"): {
            "type": "array",
            "description": "The game's hands as entered, home North-South.",
            "items": game_entry_schema("bidwhist"),
        },
        (TournamentGame, "score"): _ref("TeamScore"),
        (TournamentGame, "result"): {"allOf": [_ref("GameResult")], "nullable": True},
        (TournamentAudit, "before"): _kept(before),
        (TournamentAudit, "after"): _kept(after),
    }


def _column(model: Model, name: str, json: dict[tuple[Model, str], dict[str, Any]]) -> Any:
    """A column as the document holds it (see the module's docstring)."""
    f = model_field(model, name)
    schema: dict[str, Any]
    if f.many_to_many:
        return {"type": "array", "items": {"type": "string"}, "description": "Usernames."}
    if f.is_relation and f.related_model is Pair:
        schema = {"type": "string", "description": 'The pair\'s key ("NS3", "EW2", "3").'}
    elif f.is_relation:
        schema = {"type": "string", "description": "The user's username."}
    elif isinstance(f, models.JSONField):
        schema = json[(model, name)]
        if f.null:
            schema = {"anyOf": [schema], "nullable": True}
        return schema
    elif isinstance(f, models.DateTimeField):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(f, models.DateField):
        schema = {"type": "string", "format": "date"}
    elif isinstance(f, models.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(f, models.IntegerField):
        low, high = BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]
        schema = {"type": "integer", "minimum": low if not f.primary_key else 1, "maximum": high}
    else:
        assert isinstance(f, models.CharField | models.TextField), f"{model.__name__}.{name}"
        schema = {"type": "string"}
        if f.choices:
            schema["enum"] = [value for value, _ in f.choices]
    if f.null or (f.primary_key and model is StandingsRow):
        schema["nullable"] = True  # (standings worked out for the document have no row yet)
    return schema


def _row(model: Model, children: dict[str, Any] | None = None) -> dict[str, Any]:
    json = _json_columns()
    properties = {name: _column(model, name, json) for name in FIELDS[model]}
    properties.update(children or {})
    return {
        "type": "object",
        "title": model.__name__,
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _rows(model: Model) -> dict[str, Any]:
    return {"type": "array", "items": _row(model)}


def _document(marker: str, blocks: dict[str, Any], what: str) -> dict[str, Any]:
    club = _row(Club, {"players": _rows(Player)})
    properties = {
        "format": {"type": "string", "enum": [marker]},
        "version": {"type": "integer", "enum": [VERSIONS[marker]]},
        "exported_at": {"type": "string", "format": "date-time"},
        "club": club,
        **blocks,
    }
    return {
        "type": "object",
        "description": f"The whole {what} as clubwhist JSON (docs/reference/file-formats.md): "
        "what a backup holds of it, and what the import takes back.",
        "properties": properties,
        "required": list(properties),
    }


def event_json_schema() -> dict[str, Any]:
    section = _row(Section, {key: _rows(model) for key, model in SECTION_CHILDREN})
    standings = {**_row(StandingsRow), "nullable": True}
    return _document(
        EVENT_FORMAT,
        {
            "event": _row(Event),
            "sections": {"type": "array", "items": section},
            "boards": _rows(Board),
            "audit": _rows(AuditEntry),
            "standings": standings,
        },
        "event",
    )


def drive_json_schema() -> dict[str, Any]:
    blocks = {"drive": _row(Drive), **{key: _rows(model) for key, model in DRIVE_CHILDREN}}
    return _document(DRIVE_FORMAT, blocks, "whist drive")


def tournament_json_schema() -> dict[str, Any]:
    blocks = {
        "league": {**_row(League), "nullable": True},
        "tournament": _row(Tournament),
        **{key: _rows(model) for key, model in TOURNAMENT_CHILDREN},
    }
    return _document(TOURNAMENT_FORMAT, blocks, "team tournament")
