"""The OpenAPI schemas of an event's free-form values: its game's options, its movement's
settings, and a board's double-dummy analysis.

The event stores each as a JSON object whose keys belong to someone else: the options to the
event's game (`OptionSpec`), the settings to the movement kind (`engine.movements.registry.
check_params`), the analysis to the double-dummy engine (`BoardAnalysis.to_dict`). The schemas
are worked out from those owners where they list their keys, so a new option or game is
described without touching this module; the engine still checks every value with its own
words.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.games import find_variant, variant_names
from engine.movements.registry import (
    KINDS,
    MAX_ARROW_ROUNDS,
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    MAX_TABLES,
)
from tournaments.kernel.api.entry_schema import options_schema
from tournaments.kernel.api.fields import TrueOrFalse


def game_options_schema() -> dict[str, Any]:
    """Any game's options: one object per game, titled with its name (the event's `game`
    says which applies; the engine refuses an option the game does not have)."""
    shapes = []
    for name in variant_names():
        shape = options_schema(name)
        shapes.append({**shape, "title": f"{find_variant(name).title} ({name})"})
    return {
        "anyOf": shapes,
        "description": "The event's game's options by name (see docs/games/); any left out "
        "take their default.",
    }


#: A movement's settings, as `check_params` takes them (its limits are the engine's).
MOVEMENT_PARAMS: dict[str, Any] = {
    "type": "object",
    "description": "The movement's settings (which a kind takes, the engine says): any "
    "left out take the kind's default.",
    "properties": {
        "tables": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_TABLES,
            "description": "How many tables (a Howell's limit is lower).",
        },
        "rounds": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_ROUNDS,
            "nullable": True,
            "description": "How many rounds; null or left out: the full movement.",
        },
        "boards_per_round": {"type": "integer", "minimum": 1, "maximum": MAX_BOARDS_PER_ROUND},
        "even": {
            "type": "string",
            "enum": ["skip", "relay"],
            "description": "A Mitchell with an even number of tables: skip, or share and relay.",
        },
        "phantom_seat": {
            "type": "string",
            "enum": ["NS", "EW"],
            "description": "Where the phantom pair sits.",
        },
        "phantom": {"type": "boolean", "description": "Whether a phantom pair fills the field."},
        "arrow_switch": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "maxItems": MAX_ARROW_ROUNDS,
            "description": "The rounds played with the arrows switched.",
        },
    },
}


@extend_schema_field(game_options_schema())
class GameOptionsField(serializers.DictField):
    """An event's game options (the game checks them, with its own words)."""


@extend_schema_field(MOVEMENT_PARAMS)
class MovementParamsField(serializers.DictField):
    """A movement's settings (the engine checks them, with its own words)."""


class MovementOut(serializers.Serializer[Any]):
    """An event's movement as `EventOut` sends it."""

    kind = serializers.ChoiceField(choices=list(KINDS))
    params = MovementParamsField()
    boards_per_round = serializers.IntegerField()
    one_winner = TrueOrFalse()


_TRICKS = {"type": "object", "additionalProperties": {"type": "integer"}}

#: A board's stored analysis (`BoardAnalysis.to_dict()`, with its one-line `summary`).
ANALYSIS: dict[str, Any] = {
    "type": "object",
    "description": "The board's double-dummy analysis, as the game's analysis gives it "
    "(docs/development/double-dummy.md).",
    "properties": {
        "board": {"type": "integer"},
        "tricks": {
            "type": "object",
            "nullable": True,
            "description": "The board as dealt (a game whose board fixes trumps): its trumps, "
            "the leader, and the tricks of each side (`ns`, `ew`) or, three players, of each "
            "seat (`tricks`). Null for an auction game.",
            "properties": {
                "trumps": {"type": "string"},
                "leader": {"type": "string"},
                "ns": {"type": "integer"},
                "ew": {"type": "integer"},
                "tricks": {**_TRICKS, "description": "Tricks by seat."},
            },
        },
        "table": {
            "type": "object",
            "nullable": True,
            "description": "By declarer seat, the declaring side's tricks for each strain or "
            "contract type; Bid Whist adds `approximate`, the cells a budget left unproven. "
            "Null until worked out.",
            "additionalProperties": {
                "anyOf": [_TRICKS, {"type": "array", "items": {"type": "string"}}]
            },
        },
        "par": {
            "type": "object",
            "nullable": True,
            "properties": {
                "board": {"type": "integer"},
                "contracts": {"type": "array", "items": {"type": "string"}},
                "ns_score": {"type": "integer", "nullable": True},
                "tricks": _TRICKS,
                "approximate": {"type": "boolean"},
            },
        },
        "error": {"type": "string", "nullable": True, "description": "Why it failed."},
        "summary": {"type": "string", "nullable": True, "description": "Par in one line."},
    },
}
