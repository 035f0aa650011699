"""The director's API's shared serializers: an event, its pairs and its results out, names in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.events.api.event_schemas import GameOptionsField, MovementOut
from tournaments.events.models import Event, Pair, Result
from tournaments.events.services import results as result_services
from tournaments.kernel.api.entry_schema import StoredEntryField
from tournaments.kernel.api.fields import TextField, TrueOrFalse


class PresenceChangeOut(serializers.Serializer[Any]):
    """One arrival or departure: from `round` on the pair plays (`present`) or is away;
    `award` is what its meetings while away score, NS/EW as seen from the pair left waiting
    and then the absent pair ("A+/NP")."""

    round = serializers.IntegerField(min_value=1)
    present = TrueOrFalse()
    award = TextField(required=False)


class PairOut(serializers.ModelSerializer[Pair]):
    pair_label = TextField(source="label", read_only=True)
    names = TextField(read_only=True)
    presence = PresenceChangeOut(many=True, read_only=True)

    class Meta:
        model = Pair
        fields = [
            "id",
            "number",
            "direction",
            "pair_label",
            "player1",
            "player2",
            "member1",
            "member2",
            "names",
            "is_phantom",
            "presence",
        ]
        read_only_fields = ["member1", "member2"]


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
