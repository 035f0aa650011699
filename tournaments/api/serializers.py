"""The director's API's shared serializers: an event, its pairs and its results out, names in."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.names import name_problem
from tournaments.models import Event, Pair, Result
from tournaments.services import results as result_services


class NameField(serializers.CharField):
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


class PairOut(serializers.ModelSerializer[Pair]):
    pair_label = serializers.CharField(source="label", read_only=True)
    names = serializers.CharField(read_only=True)

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
    club = serializers.CharField(source="club.name")
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
