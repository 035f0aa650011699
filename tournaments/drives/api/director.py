"""The director's API for whist drives: list and create, players, start, a table's result,
a correction, the next hand, and the totals with the prizes.

The same services as the pages (`drives.services.drives`); a refusal is a 400 with its text. A
tablet API for drives can call `result_enter` as it is.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.drives.settings import MAX_PLAYERS
from tournaments.drives.access import drive_for, drive_for_scoring, drives_for
from tournaments.drives.api.documents import DriveDocumentOut, DriveSettingsField, DriveTotalsOut
from tournaments.drives.models import Drive
from tournaments.drives.selectors.documents import drive_document, drive_totals
from tournaments.drives.selectors.drives import DriveState, drive_state
from tournaments.drives.services import cards as drive_cards
from tournaments.drives.services import comings as drive_comings
from tournaments.drives.services import drives as drive_services
from tournaments.drives.services import paper as drive_paper
from tournaments.kernel.api.entry_schema import EntryJsonField
from tournaments.kernel.api.fields import (
    BoundedListField,
    MemberChoiceField,
    NameField,
    TextField,
)
from tournaments.kernel.api.plays import club_field, new_play
from tournaments.kernel.api.schema import PAPER_PARAMETER
from tournaments.kernel.member_links import member_id_of
from tournaments.kernel.numbers import NumberRefused, WholeNumberField, whole
from tournaments.kernel.pdf import pdf_response


class DriveOut(serializers.ModelSerializer[Drive]):
    club = TextField(source="club.name", read_only=True)
    settings = DriveSettingsField(required=False)

    class Meta:
        model = Drive
        fields = ["id", "name", "date", "club", "game", "status", "hand", "live_public", "settings"]


def state_out(state: DriveState) -> dict[str, Any]:
    """The drive as it stands (`DriveDocument`): players, the hand being played (seats,
    results), totals and prizes."""
    return drive_document(state).to_dict()


#: The schema of every director's answer about one drive.
DriveStateOut = DriveDocumentOut


class DirectorDriveApi(APIView):
    """An API view about one drive: the caller's right to it is checked before the body is
    read, so another club's director learns nothing from a validation error."""

    drive: Drive

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.drive = drive_for(request.user, kwargs["pk"])

    def answer(self) -> Response:
        self.drive.refresh_from_db()
        return Response(state_out(drive_state(self.drive)))


class ScorerDriveApi(DirectorDriveApi):
    """An API view that enters or corrects a drive's results: its club's scorers reach it as
    its directors do (`drive_for_scoring`), checked before the body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        APIView.initial(self, request, *args, **kwargs)
        self.drive = drive_for_scoring(request.user, kwargs["pk"])


class DriveListApi(APIView):
    class DriveCreateIn(serializers.Serializer[Any]):
        name = NameField(max_length=160)
        date = serializers.DateField(required=False)
        settings = DriveSettingsField(help_text="The engine's drive settings, without players.")
        players = BoundedListField(
            child=NameField(max_length=120),
            required=False,
            default=list,
            max_length=MAX_PLAYERS,
            error_messages={"max_length": drive_services.TOO_MANY_PLAYERS},
        )
        members = BoundedListField(
            child=MemberChoiceField(),
            required=False,
            max_length=MAX_PLAYERS,
            help_text="The club member each player is, in the players' order (a member's id, "
            "or null for a visitor); left out, each name links to the member whose name it is.",
        )
        club = club_field()

    @extend_schema(responses=DriveOut(many=True))
    def get(self, request: Request) -> Response:
        drives = drives_for(request.user).select_related("club")[:200]
        return Response(DriveOut(drives, many=True).data)

    @extend_schema(request=DriveCreateIn, responses={201: DriveOut})
    def post(self, request: Request) -> Response:
        club, values = new_play(request, self.DriveCreateIn)
        drive = drive_services.drive_create(club=club, user=request.user, **values)
        return Response(DriveOut(drive).data, status=status.HTTP_201_CREATED)


class DriveDetailApi(DirectorDriveApi):
    @extend_schema(responses=DriveStateOut)
    def get(self, request: Request, pk: int) -> Response:
        return self.answer()


class DrivePlayersApi(DirectorDriveApi):
    """Add a player (before the start), or rename one (`number` given)."""

    class DrivePlayerIn(serializers.Serializer[Any]):
        name = NameField(max_length=120)
        number = WholeNumberField(required=False, min_value=1)
        member = MemberChoiceField()

    @extend_schema(request=DrivePlayerIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = self.DrivePlayerIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        member = member_id_of(values, "member")
        if "number" in values:
            drive_services.player_rename(
                drive=self.drive, number=values["number"], name=values["name"], member=member,
                user=request.user,
            )  # fmt: skip
        else:
            drive_services.player_add(
                drive=self.drive, name=values["name"], member=member, user=request.user
            )
        return self.answer()


@extend_schema_field(
    {
        "anyOf": [
            {"type": "integer", "description": "A player, back in the role of their turn."},
            {
                "type": "array",
                "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "minItems": 2,
                "maxItems": 2,
                "description": "[player, role]: a player and the role they come back in.",
            },
        ]
    }
)
class BenchPlaceField(serializers.Field):  # type: ignore[type-arg]
    """A player sitting out as sent: a number, or a [player, role] pair. Anything else is
    refused here, as the schema says; the engine checks the players and roles themselves."""

    def to_internal_value(self, data: Any) -> Any:
        def plain(item: Any) -> bool:
            return isinstance(item, str) or (isinstance(item, int) and not isinstance(item, bool))

        pair = isinstance(data, list) and len(data) == 2 and all(plain(i) for i in data)
        if not pair and (isinstance(data, str) or not plain(data)):
            raise serializers.ValidationError("A player's number, or [player, role].")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class DriveStartApi(DirectorDriveApi):
    """Start: seats drawn (with `seed` if given), or `tables` as placed (player numbers N, E,
    S, W per table) with `bench` (those sitting out)."""

    class DriveStartIn(serializers.Serializer[Any]):
        seed = WholeNumberField(required=False, min_value=0)
        tables = serializers.ListField(
            child=serializers.ListField(child=WholeNumberField(min_value=1)), required=False
        )
        bench = serializers.ListField(child=BenchPlaceField(), required=False, default=list)

    @extend_schema(request=DriveStartIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = self.DriveStartIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        drive_services.drive_start(
            drive=self.drive,
            seed=values.get("seed"),
            placed=values.get("tables"),
            bench=values["bench"],
            user=request.user,
        )
        return self.answer()


class DriveEntryIn(serializers.Serializer[Any]):
    table = WholeNumberField(min_value=1)
    hand = WholeNumberField(required=False, min_value=1)
    entry = EntryJsonField(help_text='The game\'s fields, such as {"ns_tricks": 9}.')
    reason = TextField(required=False, allow_blank=True, default="", max_length=500)


class DriveResultsApi(ScorerDriveApi):
    """A table's result for the hand being played (`hand`, if given, must be that hand)."""

    @extend_schema(request=DriveEntryIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = DriveEntryIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        drive_services.result_enter(
            drive=self.drive,
            table=values["table"],
            hand=values.get("hand"),
            entry=values["entry"],
            user=request.user,
        )
        return self.answer()


class DriveCorrectApi(ScorerDriveApi):
    """Correct a table's result of any hand entered (`hand` required)."""

    @extend_schema(request=DriveEntryIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = DriveEntryIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if "hand" not in values:
            raise serializers.ValidationError({"hand": "Say which hand to correct."})
        drive_services.result_correct(
            drive=self.drive,
            hand=values["hand"],
            table=values["table"],
            entry=values["entry"],
            reason=values["reason"],
            user=request.user,
        )
        return self.answer()


class CardIn(serializers.Serializer[Any]):
    total = TextField(max_length=12)
    first_half = TextField(max_length=12, required=False, allow_null=True)
    ten_plus = WholeNumberField(required=False, allow_null=True, min_value=0)


@extend_schema_field(CardIn)
class CardField(serializers.DictField):
    """A card as sent: read one by one by `CardIn`, so a refusal names the card's player."""


class DriveCardsApi(ScorerDriveApi):
    """A paper drive's totals from the players' score cards: every player's figures at once
    (`{"cards": {"1": {"total": "84", "first_half": "40", "ten_plus": 2}, ...}}`); the first
    half's totals and the hands of 10+ tricks where the prize list needs them. Typing them
    again replaces them, until published; refused for a drive whose hands have results."""

    CardIn = CardIn

    class CardsIn(serializers.Serializer[Any]):
        cards = serializers.DictField(
            child=CardField(), help_text="Each player's card, by player number."
        )

    @extend_schema(request=CardsIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = self.CardsIn(data=request.data)
        data.is_valid(raise_exception=True)
        cards: dict[int, dict[str, Any]] = {}
        for key, raw in data.validated_data["cards"].items():
            try:
                player = whole(key, "A card's key (the player's number)", low=1)
            except NumberRefused as refused:
                raise serializers.ValidationError({"cards": str(refused)}) from None
            card = self.CardIn(data=raw)
            if not card.is_valid():
                raise serializers.ValidationError({"cards": {key: card.errors}})
            cards[player] = dict(card.validated_data)
        drive_cards.cards_enter(drive=self.drive, cards=cards, user=request.user)
        return self.answer()


class DriveNextApi(DirectorDriveApi):
    """Move on to the next hand once every table has its result."""

    @extend_schema(request=None, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        drive_services.hand_next(drive=self.drive, user=request.user)
        return self.answer()


class DriveArriveIn(serializers.Serializer[Any]):
    name = NameField(
        max_length=120, help_text="The late arrival's name, as the cards and prizes show it."
    )
    member = MemberChoiceField()


class DriveArriveApi(DirectorDriveApi):
    """A player who came late: numbered after everyone, playing from the hand being played if
    no table has a result of it yet, else from the next (docs/directors/drives.md)."""

    @extend_schema(request=DriveArriveIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = DriveArriveIn(data=request.data)
        data.is_valid(raise_exception=True)
        drive_comings.player_arrive(
            drive=self.drive,
            name=data.validated_data["name"],
            member=member_id_of(data.validated_data, "member"),
            user=request.user,
        )
        return self.answer()


class DriveLeaveIn(serializers.Serializer[Any]):
    player = WholeNumberField(min_value=1, help_text="The leaving player's number.")


class DriveLeaveApi(DirectorDriveApi):
    """A player going home: they play no more hands and their card is closed; their place
    is filled by the drive's rule for a missing player."""

    @extend_schema(request=DriveLeaveIn, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        data = DriveLeaveIn(data=request.data)
        data.is_valid(raise_exception=True)
        drive_comings.player_leave(
            drive=self.drive, number=data.validated_data["player"], user=request.user
        )
        return self.answer()


class DriveFinishApi(DirectorDriveApi):
    @extend_schema(request=None, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        drive_services.drive_finish(drive=self.drive, user=request.user)
        return self.answer()


class DrivePublishApi(DirectorDriveApi):
    @extend_schema(request=None, responses=DriveStateOut)
    def post(self, request: Request, pk: int) -> Response:
        drive_services.drive_publish(drive=self.drive, user=request.user)
        return self.answer()


class DriveTotalsApi(DirectorDriveApi):
    """The totals (with half-time figures) and the prizes as they stand."""

    @extend_schema(responses=DriveTotalsOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(drive_totals(drive_state(self.drive)).to_dict())


class DrivePaperApi(DirectorDriveApi):
    """Score cards, table cards or the prize sheet as a PDF (`what`: score-cards, table-cards,
    prizes), drawn from the drive as it is now; 400 with the reason when there is nothing to
    print yet (fewer than four players, or no hand played for the prizes)."""

    @extend_schema(
        operation_id="drives_print_retrieve",
        parameters=[PAPER_PARAMETER],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, pk: int, what: str) -> HttpResponse:
        if what not in drive_paper.DOCUMENTS:
            raise Http404(f"A drive's paper is {', '.join(drive_paper.DOCUMENTS)}.")
        pdf = drive_paper.drive_pdf(
            drive=self.drive, what=what, paper=request.query_params.get("paper")
        )
        return pdf_response(pdf, f"drive-{self.drive.pk}-{what}.pdf", disposition="attachment")
