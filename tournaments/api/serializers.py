"""The director's API's shared serializers: an event, its pairs and its results out, names in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.names import name_problem
from tournaments.api.entry_schema import StoredEntryField
from tournaments.api.event_schemas import GameOptionsField, MovementOut
from tournaments.models import Event, Pair, Result
from tournaments.services import results as result_services


class TextField(serializers.CharField):
    """Text in a request is text: a number, true or a list where the schema says string is
    refused (DRF's own CharField would turn 6.1e-05 into "6.1e-05" and store it), so what the
    API takes is what its schema documents. Every string field of the API is one of these."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class SlugText(serializers.SlugField):
    """A slug (a club's web address) under the same rule as `TextField`: text only."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class NameField(TextField):
    """A name under the one rule for names (`engine.names`): a control character or a name
    longer than `max_length` is a 400 naming the field and saying what is wrong; the value is
    trimmed by the rule, not before it, so "Ann\\n" is refused rather than quietly cut."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = name_problem(value, self.max_length or len(value))
        if problem is not None:
            raise serializers.ValidationError(f"{problem[:1].upper()}{problem[1:]}.")
        return value.strip()


class BoundedListField(serializers.ListField):
    """A list refused by its length before any item is read. DRF's ListField checks
    `max_length` only after validating every item, and 5 MB of JSON holds a million short
    names; a list serializer (`many=True`) checks it first already."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, list) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class PairOut(serializers.ModelSerializer[Pair]):
    pair_label = TextField(source="label", read_only=True)
    names = TextField(read_only=True)

    class Meta:
        model = Pair
        fields = [
            "id",
            "number",
            "direction",
            "pair_label",
            "player1",
            "player2",
            "names",
            "is_phantom",
        ]


class EventOut(serializers.ModelSerializer[Event]):
    club = TextField(source="club.name")
    options = GameOptionsField(required=False)
    tables = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    movement = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "name",
            "date",
            "game",
            "options",
            "method",
            "scale",
            "advance",
            "status",
            "tables",
            "rounds",
            "movement",
            "results_version",
            "scored_version",
        ]

    def get_tables(self, event: Event) -> int:
        return int(event.section.tables)

    def get_rounds(self, event: Event) -> int:
        return int(event.section.rounds)

    @extend_schema_field(MovementOut)
    def get_movement(self, event: Event) -> dict[str, Any]:
        section = event.section
        return {
            "kind": section.movement_kind,
            "params": section.movement_params,
            "boards_per_round": section.boards_per_round,
            "one_winner": section.one_winner,
        }


class ResultOut(serializers.ModelSerializer[Result]):
    ns_pair = serializers.IntegerField(source="ns_pair.number")
    ew_pair = serializers.IntegerField(source="ew_pair.number")
    revision = serializers.SerializerMethodField(
        help_text="What a correction replaces, fingerprinted: send it back as `seen`."
    )
    entry = StoredEntryField(
        allow_null=True, help_text="The result as entered; null for an artificial score."
    )

    def get_revision(self, result: Result) -> str:
        return result_services.result_revision(result)

    class Meta:
        model = Result
        fields = [
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
            "idempotency_key",
            "created_at",
            "updated_at",
            "revision",
        ]
