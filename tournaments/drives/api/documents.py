"""The OpenAPI serializers of the drive director's documents, generated from their dataclasses
(`tournaments.drives.selectors.documents`), and the schema of a drive's settings.

The views send `to_dict()` of the documents; these serializers only describe it. The settings
are stored as the engine's `DriveSettings.to_dict()`; they are described here field by field,
and a request's settings are read as sent and checked by the engine with its own words.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework_dataclasses.serializers import DataclassSerializer

from tournaments.drives.selectors.documents import (
    DriveDocument,
    DriveHandLine,
    DriveHandTable,
    DriveHead,
    DriveTotals,
)
from tournaments.kernel.api.entry_schema import StoredEntryField
from tournaments.kernel.api.fields import TrueOrFalse

#: A game option's or a move form's parameter: a yes/no, a number or a word.
_SETTING_VALUE = {"anyOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string"}]}


@extend_schema_field(
    {
        "type": "object",
        "description": "The drive game's options by name (see docs/games/), each a yes/no, a "
        "number or a word; any left out take their default.",
        "additionalProperties": _SETTING_VALUE,
    }
)
class GameOptionsField(serializers.DictField):
    """A game's options (which names, the drive's game says)."""


@extend_schema_field(
    {
        "type": "object",
        "description": "The move form: `form` names it (`custom`: its four `rows`); the "
        "form's parameters are further keys.",
        "properties": {
            "form": {"type": "string"},
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "outcome": {"type": "string"},
                        "role": {"type": "string"},
                        "offset": {"type": "integer"},
                        "seat": {"type": "string"},
                    },
                },
            },
        },
        "required": ["form"],
        "additionalProperties": _SETTING_VALUE,
    }
)
class MoveFormField(serializers.DictField):
    """A move form (the engine's `MoveForm.to_dict()`)."""


class DrivePrizeSetting(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="highest, first_half, booby, ... (docs/games/drives.md)")
    role = serializers.CharField(required=False)
    everyone = TrueOrFalse(required=False)
    label = serializers.CharField(required=False)  # type: ignore[assignment]


class DriveSettingsSchema(serializers.Serializer[Any]):
    """A drive's settings (the engine's `DriveSettings`, docs/games/drives.md): each left out
    takes its default; in a drive's answer, `players` is there too."""

    players = serializers.IntegerField(required=False)
    hands = serializers.IntegerField(required=False)
    half_time = serializers.IntegerField(required=False, allow_null=True)
    game = serializers.CharField(required=False)
    game_options = GameOptionsField(required=False)
    scoring = serializers.CharField(required=False, allow_null=True)
    trumps = serializers.CharField(required=False)
    no_trump_every = serializers.IntegerField(required=False)
    roles = serializers.ListField(child=serializers.CharField(), required=False)
    move = MoveFormField(required=False)
    ends = serializers.CharField(required=False)
    short_table = serializers.CharField(required=False)
    sit_out_score = serializers.CharField(required=False)
    sit_out_tricks = serializers.IntegerField(required=False)
    prizes = DrivePrizeSetting(many=True, required=False, allow_null=True)
    one_prize_each = TrueOrFalse(required=False)
    tie_rule = serializers.CharField(required=False)
    arrivals = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        help_text="Late arrivals as [player, first hand played]; written by the arrive action.",
    )
    departures = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        help_text="Leavers as [player, last hand played]; written by the leave action.",
    )
    late_score = serializers.CharField(
        required=False, help_text="A late arrival's missed hands: nothing, lowest or average."
    )
    leavers_in_prizes = TrueOrFalse(required=False)


@extend_schema_field(DriveSettingsSchema)
class DriveSettingsField(serializers.DictField):
    """A drive's settings, read as sent (the engine checks them); described field by field."""


class DriveHeadOut(DataclassSerializer[DriveHead]):
    settings = DriveSettingsSchema()

    class Meta:
        dataclass = DriveHead


class DriveHandTableOut(DataclassSerializer[DriveHandTable]):
    result = StoredEntryField(allow_null=True, help_text="The table's result as entered.")

    class Meta:
        dataclass = DriveHandTable


class DriveHandLineOut(DataclassSerializer[DriveHandLine]):
    tables = DriveHandTableOut(many=True)

    class Meta:
        dataclass = DriveHandLine


class DriveDocumentOut(DataclassSerializer[DriveDocument]):
    drive = DriveHeadOut()
    hand = DriveHandLineOut(allow_null=True)

    class Meta:
        dataclass = DriveDocument


class DriveTotalsOut(DataclassSerializer[DriveTotals]):
    class Meta:
        dataclass = DriveTotals
