"""The OpenAPI output serializers of the typed documents, generated from their dataclasses.

Each serializer here is a `DataclassSerializer`: its fields are the dataclass's
(`tournaments.events.selectors.documents`, and the engine's standings document), so the schema names
every key the screens read. Only what the dataclass cannot say is declared: a value whose keys
are another's (a stored entry, the double-dummy analysis, a movement's parameters, typed in
`entry_schema` and `event_schemas`), a fixed pair of numbers, a time, and the nested
serializers that carry those. The views send `to_dict()` of the documents; these serializers
describe it and are never used to write the answers.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework_dataclasses.serializers import DataclassSerializer

from engine.scoring.document import (
    FieldStandings,
    SectionStandings,
    StandingRow,
    StandingsDocument,
)
from tournaments.events.api.event_schemas import ANALYSIS, MovementParamsField
from tournaments.events.selectors.documents import (
    Advice,
    ClubEvents,
    LiveStandings,
    MovementAdvice,
    PublicBoard,
    PublicPair,
    PublicStandings,
    Room,
    RoomTable,
    RoundClock,
    TabletAnswer,
    TabletBoard,
    TabletResult,
    TabletRound,
)
from tournaments.kernel.api.entry_schema import EntryFieldViewOut, StoredEntryField

# ---- the tablet state ----------------------------------------------------------------------


class TabletResultOut(DataclassSerializer[TabletResult]):
    # `anyOf`, not the request's `oneOf` (`EntryJsonField`): the shapes of one game's option
    # settings overlap, so a stored entry matches several.
    entry = StoredEntryField(
        allow_null=True,
        help_text="The result as entered: the game's entry (see `entry` of a submission); "
        "null for an artificial score.",
    )

    class Meta:
        dataclass = TabletResult


class TabletBoardOut(DataclassSerializer[TabletBoard]):
    result = TabletResultOut(allow_null=True)

    class Meta:
        dataclass = TabletBoard


class TabletRoundOut(DataclassSerializer[TabletRound]):
    boards = TabletBoardOut(many=True)

    class Meta:
        dataclass = TabletRound


class RoundClockOut(DataclassSerializer[RoundClock]):
    ends_at = serializers.DateTimeField()

    class Meta:
        dataclass = RoundClock


class TabletAnswerOut(DataclassSerializer[TabletAnswer]):
    current = TabletRoundOut()
    previous = TabletRoundOut(allow_null=True)
    clock = RoundClockOut(allow_null=True)
    # A declared field, popped by DRF's metaclass: the class's `fields` stays the serializer's.
    fields = EntryFieldViewOut(many=True)  # type: ignore[assignment]
    server_time = serializers.DateTimeField()

    class Meta:
        dataclass = TabletAnswer


# ---- the room and the movement advice ------------------------------------------------------


class RoomTableOut(DataclassSerializer[RoomTable]):
    boards = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="The first and last board of the table's round.",
    )

    class Meta:
        dataclass = RoomTable


class RoomOut(DataclassSerializer[Room]):
    tables = RoomTableOut(many=True)

    class Meta:
        dataclass = Room


class MovementAdviceOut(DataclassSerializer[MovementAdvice]):
    params = MovementParamsField(help_text="The movement kind's own parameters.")

    class Meta:
        dataclass = MovementAdvice


class AdviceOut(DataclassSerializer[Advice]):
    suggestions = MovementAdviceOut(many=True)

    class Meta:
        dataclass = Advice


# ---- the standings document ----------------------------------------------------------------


class StandingRowOut(DataclassSerializer[StandingRow]):
    """A pair's line. A game's session figures (Candid Whist's "bags") are further integer
    keys of the row, named by the section's `session_columns`."""

    class Meta:
        dataclass = StandingRow
        exclude = ("session",)  # flattened into the row's keys by `StandingRow.to_dict`
        extra_kwargs = {"withdrew": {"help_text": "Present (true) only for a pair that left."}}


class FieldStandingsOut(DataclassSerializer[FieldStandings]):
    rows = StandingRowOut(many=True)

    class Meta:
        dataclass = FieldStandings


class SectionStandingsOut(DataclassSerializer[SectionStandings]):
    fields = FieldStandingsOut(many=True)  # type: ignore[assignment]  # as in TabletAnswerOut

    class Meta:
        dataclass = SectionStandings


class StandingsDocumentOut(DataclassSerializer[StandingsDocument]):
    sections = SectionStandingsOut(many=True)

    class Meta:
        dataclass = StandingsDocument


class LiveStandingsOut(StandingsDocumentOut):
    class Meta:
        dataclass = LiveStandings


# ---- the public documents ------------------------------------------------------------------


class ClubEventsOut(DataclassSerializer[ClubEvents]):
    class Meta:
        dataclass = ClubEvents


class PublicStandingsOut(DataclassSerializer[PublicStandings]):
    document = StandingsDocumentOut(allow_null=True)

    class Meta:
        dataclass = PublicStandings


@extend_schema_field(ANALYSIS)
class AnalysisField(serializers.DictField):
    """A board's stored double-dummy analysis."""


class PublicBoardOut(DataclassSerializer[PublicBoard]):
    analysis = AnalysisField(
        allow_null=True, help_text="The double-dummy analysis; its shape is the game's."
    )

    class Meta:
        dataclass = PublicBoard


class PublicPairOut(DataclassSerializer[PublicPair]):
    pair = StandingRowOut()

    class Meta:
        dataclass = PublicPair
