"""The director's API for events: list and create, read, start, finish, publish and reopen,
the pairs' names, late arrivals and early departures, starting a round, and the boards
(import, fouled)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.events import access
from tournaments.events.api.director import DirectorEventApi, director_event, events_query
from tournaments.events.api.event_schemas import GameOptionsField, MovementParamsField
from tournaments.events.api.serializers import EventOut, PairOut
from tournaments.events.models import Board, Event, Pair
from tournaments.events.services import closing as closing_services
from tournaments.events.services import corrections, presence
from tournaments.events.services import events as event_services
from tournaments.events.services import tablets as tablet_services
from tournaments.kernel.api.fields import MemberChoiceField, NameField, TextField, TrueOrFalse
from tournaments.kernel.api.plays import club_field, new_play
from tournaments.kernel.member_links import member_id_of


class EventListApi(APIView):
    class CreateIn(serializers.Serializer[Any]):
        name = NameField(max_length=160)
        date = serializers.DateField(required=False)
        game = TextField(max_length=20)
        options = GameOptionsField(required=False, default=dict)
        method = serializers.ChoiceField(choices=Event.Method.choices, default="mp")
        scale = serializers.ChoiceField(choices=Event.Scale.choices, default="ebu")
        movement_kind = TextField(max_length=30)
        movement_params = MovementParamsField()
        seed = TextField(required=False, allow_blank=False, max_length=64)
        club = club_field()
        advance = serializers.ChoiceField(choices=Event.Advance.choices, default="table")

    @extend_schema(responses=EventOut(many=True))
    def get(self, request: Request) -> Response:
        events = access.events_for(request.user, events_query())[:200]
        return Response(EventOut(events, many=True).data)

    @extend_schema(request=CreateIn, responses={201: EventOut})
    def post(self, request: Request) -> Response:
        club, values = new_play(request, self.CreateIn)
        event = event_services.event_create(club=club, user=request.user, **values)
        return Response(EventOut(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(DirectorEventApi):
    @extend_schema(responses=EventOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOut(self.event).data)


class ReasonIn(serializers.Serializer[Any]):
    reason = TextField(required=False, allow_blank=True, default="")


class EventStartApi(DirectorEventApi):
    """Lock the movement and boards and open result entry."""

    @extend_schema(request=None, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        event = event_services.event_start(event=self.event, user=request.user)
        return Response(EventOut(director_event(request, event.pk)).data)


class EventFinishApi(DirectorEventApi):
    """Close result entry; the final standings are computed at once. While boards have no
    result, results wait for confirmation or are disputed, or calls are open, the answer is
    400 saying so: send `missing` ("not-played" or "average") for boards with no result and
    `confirm: true` to close over the rest."""

    class FinishIn(serializers.Serializer[Any]):
        missing = serializers.ChoiceField(
            choices=list(closing_services.MISSING_CHOICES), required=False, allow_null=True
        )
        confirm = TrueOrFalse(required=False, default=False)

    @extend_schema(request=FinishIn, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        data = self.FinishIn(data=request.data)
        data.is_valid(raise_exception=True)
        event = closing_services.event_close(
            event=self.event,
            missing=data.validated_data.get("missing"),
            confirm=data.validated_data["confirm"],
            user=request.user,
        )
        return Response(EventOut(director_event(request, event.pk)).data)


class EventPublishApi(DirectorEventApi):
    """Make the final standings public."""

    @extend_schema(request=None, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        event = event_services.event_publish(event=self.event, user=request.user)
        return Response(EventOut(director_event(request, event.pk)).data)


class EventReopenApi(DirectorEventApi):
    """Open a closed or published event again, with the reason for the audit trail."""

    @extend_schema(request=ReasonIn, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        data = ReasonIn(data=request.data)
        data.is_valid(raise_exception=True)
        event = event_services.event_reopen(
            event=self.event, reason=data.validated_data["reason"], user=request.user
        )
        return Response(EventOut(director_event(request, event.pk)).data)


class PairsApi(DirectorEventApi):
    class NamesIn(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        player1 = NameField(max_length=120, allow_blank=True)
        player2 = NameField(max_length=120, allow_blank=True)
        member1 = MemberChoiceField()
        member2 = MemberChoiceField()

    @extend_schema(responses=PairOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        pairs = Pair.objects.filter(section__event=self.event)
        return Response(PairOut(pairs, many=True).data)

    @extend_schema(request=NamesIn(many=True), responses=PairOut(many=True))
    def post(self, request: Request, pk: int) -> Response:
        event = self.event
        data = self.NamesIn(data=request.data, many=True)
        data.is_valid(raise_exception=True)
        names = {row["id"]: (row["player1"], row["player2"]) for row in data.validated_data}
        members = {
            row["id"]: (member_id_of(row, "member1"), member_id_of(row, "member2"))
            for row in data.validated_data
        }
        event_services.pairs_register(event=event, names=names, members=members, user=request.user)
        return Response(PairOut(Pair.objects.filter(section__event=event), many=True).data)


class BoardsImportApi(DirectorEventApi):
    class BoardsImportIn(serializers.Serializer[Any]):
        pbn = TextField()

    @extend_schema(
        request=BoardsImportIn,
        responses=inline_serializer(
            "BoardsImported",
            {"boards": serializers.IntegerField(), "unused": serializers.IntegerField()},
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        data = self.BoardsImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        boards, unused = event_services.boards_import_counted(
            event=self.event, pbn_text=data.validated_data["pbn"], user=request.user
        )
        return Response({"boards": len(boards), "unused": unused})


class BoardFouledApi(DirectorEventApi):
    class BoardFouledIn(serializers.Serializer[Any]):
        fouled = TrueOrFalse()
        reason = TextField()

    @extend_schema(
        request=BoardFouledIn,
        responses=inline_serializer("Fouled", {"fouled": TrueOrFalse()}),
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        data = self.BoardFouledIn(data=request.data)
        data.is_valid(raise_exception=True)
        board = get_object_or_404(Board, event=self.event, number=number)
        board = corrections.board_mark_fouled(board=board, user=request.user, **data.validated_data)
        return Response({"fouled": board.fouled})


AWARD_HELP = (
    "What the meetings the pair misses score, as seen from the pair left waiting and then the "
    'absent pair: "A+/NP" (average-plus to the waiting pair, nothing to the absent one), '
    '"A/NP", "A+/A-", "NP" (nothing either side: a sit-out). Leave it out for the default: '
    '"A+/NP" for a departure, "NP" for a late arrival.'
)


class PairLeaveApi(DirectorEventApi):
    class PairLeaveIn(serializers.Serializer[Any]):
        round = serializers.IntegerField(min_value=1, help_text="The first round it misses.")
        award = serializers.CharField(max_length=8, required=False, help_text=AWARD_HELP)

    @extend_schema(request=PairLeaveIn, responses=PairOut)
    def post(self, request: Request, pk: int, pair_id: int) -> Response:
        """A pair goes home early: from `round` on it is a phantom."""
        data = self.PairLeaveIn(data=request.data)
        data.is_valid(raise_exception=True)
        pair = get_object_or_404(Pair, pk=pair_id, section__event=self.event)
        pair = presence.pair_leave(
            event=self.event,
            pair=pair,
            round=data.validated_data["round"],
            award=data.validated_data.get("award"),
            user=request.user,
        )
        return Response(PairOut(pair).data)


class PairArriveApi(DirectorEventApi):
    class PairArriveIn(serializers.Serializer[Any]):
        round = serializers.IntegerField(min_value=1, help_text="The first round it plays.")
        pair = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="The absent pair slot it fills; null or left out: the movement's phantom.",
        )
        player1 = NameField(max_length=120, required=False, allow_blank=True)
        player2 = NameField(max_length=120, required=False, allow_blank=True)
        award = serializers.CharField(max_length=8, required=False, help_text=AWARD_HELP)

    @extend_schema(request=PairArriveIn, responses=PairOut)
    def post(self, request: Request, pk: int) -> Response:
        """A pair comes late and plays from `round` on, in an absent slot or the phantom's."""
        data = self.PairArriveIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        slot = None
        if values.get("pair") is not None:
            slot = get_object_or_404(Pair, pk=values["pair"], section__event=self.event)
        names = None
        if "player1" in values or "player2" in values:
            names = (values.get("player1", ""), values.get("player2", ""))
        pair = presence.pair_arrive(
            event=self.event,
            round=values["round"],
            pair=slot,
            names=names,
            award=values.get("award"),
            user=request.user,
        )
        return Response(PairOut(pair).data)


class PairPresenceUndoApi(DirectorEventApi):
    class PresenceUndoIn(serializers.Serializer[Any]):
        reason = TextField()

    @extend_schema(request=PresenceUndoIn, responses=PairOut)
    def post(self, request: Request, pk: int, pair_id: int) -> Response:
        """Take back the pair's last arrival or departure (only before anything is played
        after it)."""
        data = self.PresenceUndoIn(data=request.data)
        data.is_valid(raise_exception=True)
        pair = get_object_or_404(Pair, pk=pair_id, section__event=self.event)
        pair = presence.presence_undo(
            event=self.event, pair=pair, reason=data.validated_data["reason"], user=request.user
        )
        return Response(PairOut(pair).data)


class RoundStartApi(DirectorEventApi):
    class RoundStartIn(serializers.Serializer[Any]):
        round = serializers.IntegerField(min_value=1)
        unfinished = serializers.CharField(
            max_length=8,
            required=False,
            allow_blank=True,
            help_text="An artificial score for each board a table of the earlier rounds has no "
            'result for ("A": the average; "A+/A-"...); left out or blank, such a table '
            "plays on.",
        )

    @extend_schema(
        request=RoundStartIn,
        responses=inline_serializer("RoundStarted", {"released_round": serializers.IntegerField()}),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Let the tablets move on to `round` (events that advance on the director's word)."""
        data = self.RoundStartIn(data=request.data)
        data.is_valid(raise_exception=True)
        section = tablet_services.round_start(
            event=self.event,
            round=data.validated_data["round"],
            unfinished=data.validated_data.get("unfinished") or None,
            user=request.user,
        )
        return Response({"released_round": section.released_round})
