"""The REST API: one view per operation, with nested input and output serializers.

Each view validates its input, calls one service and returns. Errors raised by the engine or
the services are `ValueError`s; `tournaments.api.errors.exception_handler` turns them into
HTTP 400 with their message, so a client sees exactly what a director would.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.movements import advise
from tournaments import access, selectors
from tournaments.api.entry_schema import EntryJsonField
from tournaments.models import Board, Event, Pair, Result
from tournaments.services import closing as closing_services
from tournaments.services import events as event_services
from tournaments.services import results as result_services
from tournaments.services.scoring import standings_compute


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


def _events() -> QuerySet[Event]:
    """Events with what `EventOut` reads, so a list costs the same few queries however long."""
    return Event.objects.select_related("club").prefetch_related("sections")


def _event(request: Request, pk: int) -> Event:
    """The event if the caller directs its club; another club's answers 404 (see `access`)."""
    return access.event_for(request.user, pk, _events())


class DirectorEventApi(APIView):
    """An API view about one event: the caller's right to it is checked before the request's
    body is even read, so another club's director learns nothing from a validation error."""

    event: Event

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.event = _event(request, kwargs["pk"])


class EventListApi(APIView):
    class CreateIn(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=160)
        date = serializers.DateField(required=False)
        game = serializers.CharField(max_length=20)
        options = serializers.DictField(required=False, default=dict)
        method = serializers.ChoiceField(choices=Event.Method.choices, default="mp")
        scale = serializers.ChoiceField(choices=Event.Scale.choices, default="ebu")
        movement_kind = serializers.CharField(max_length=30)
        movement_params = serializers.DictField()
        seed = serializers.CharField(required=False, allow_blank=False, max_length=64)
        club = serializers.CharField(
            required=False,
            max_length=120,
            help_text="The club's name or slug; may be left out by a director of one club.",
        )
        advance = serializers.ChoiceField(choices=Event.Advance.choices, default="table")

    @extend_schema(responses=EventOut(many=True))
    def get(self, request: Request) -> Response:
        events = access.events_for(request.user, _events())[:200]
        return Response(EventOut(events, many=True).data)

    @extend_schema(request=CreateIn, responses={201: EventOut})
    def post(self, request: Request) -> Response:
        data = self.CreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        club = access.club_for_new_event(request.user, values.pop("club", None))
        event = event_services.event_create(club=club, user=request.user, **values)
        return Response(EventOut(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(DirectorEventApi):
    @extend_schema(responses=EventOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOut(self.event).data)


class AdviceApi(APIView):
    @extend_schema(
        parameters=[
            inline_serializer(
                "AdviceQuery",
                {"pairs": serializers.IntegerField(), "boards": serializers.IntegerField()},
            )
        ],
        responses=inline_serializer(
            "Advice", {"suggestions": serializers.ListField(child=serializers.DictField())}
        ),
    )
    def get(self, request: Request) -> Response:
        class AdviceIn(serializers.Serializer[Any]):
            pairs = serializers.IntegerField(min_value=2, max_value=400)
            boards = serializers.IntegerField(min_value=1, max_value=200)

        query = AdviceIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        suggestions = advise(query.validated_data["pairs"], query.validated_data["boards"])
        return Response(
            {
                "suggestions": [
                    {
                        "kind": s.kind,
                        "params": dict(s.params),
                        "tables": s.tables,
                        "rounds": s.rounds,
                        "boards_per_round": s.boards_per_round,
                        "boards_per_pair": s.boards_per_pair,
                        "total_boards": s.total_boards,
                        "winners": s.winners,
                        "sit_out": s.sit_out,
                        "description": s.description,
                    }
                    for s in suggestions
                ]
            }
        )


class ReasonIn(serializers.Serializer[Any]):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class EventStartApi(DirectorEventApi):
    """Lock the movement and boards and open result entry."""

    @extend_schema(request=None, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        event = event_services.event_start(event=self.event, user=request.user)
        return Response(EventOut(_event(request, event.pk)).data)


class EventFinishApi(DirectorEventApi):
    """Close result entry; the final standings are computed at once. While boards have no
    result, results wait for confirmation or are disputed, or calls are open, the answer is
    400 saying so: send `missing` ("not-played" or "average") for boards with no result and
    `confirm: true` to close over the rest."""

    class FinishIn(serializers.Serializer[Any]):
        missing = serializers.ChoiceField(
            choices=list(closing_services.MISSING_CHOICES), required=False, allow_null=True
        )
        confirm = serializers.BooleanField(required=False, default=False)

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
        return Response(EventOut(_event(request, event.pk)).data)


class EventPublishApi(DirectorEventApi):
    """Make the final standings public."""

    @extend_schema(request=None, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        event = event_services.event_publish(event=self.event, user=request.user)
        return Response(EventOut(_event(request, event.pk)).data)


class EventReopenApi(DirectorEventApi):
    """Open a closed or published event again, with the reason for the audit trail."""

    @extend_schema(request=ReasonIn, responses=EventOut)
    def post(self, request: Request, pk: int) -> Response:
        data = ReasonIn(data=request.data)
        data.is_valid(raise_exception=True)
        event = event_services.event_reopen(
            event=self.event, reason=data.validated_data["reason"], user=request.user
        )
        return Response(EventOut(_event(request, event.pk)).data)


class PairsApi(DirectorEventApi):
    class NamesIn(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        player1 = serializers.CharField(max_length=120, allow_blank=True)
        player2 = serializers.CharField(max_length=120, allow_blank=True)

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
        event_services.pairs_register(event=event, names=names, user=request.user)
        return Response(PairOut(Pair.objects.filter(section__event=event), many=True).data)


class BoardsImportApi(DirectorEventApi):
    class BoardsImportIn(serializers.Serializer[Any]):
        pbn = serializers.CharField()

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
        fouled = serializers.BooleanField()
        reason = serializers.CharField()

    @extend_schema(
        request=BoardFouledIn,
        responses=inline_serializer("Fouled", {"fouled": serializers.BooleanField()}),
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        data = self.BoardFouledIn(data=request.data)
        data.is_valid(raise_exception=True)
        board = get_object_or_404(Board, event=self.event, number=number)
        board = result_services.board_mark_fouled(
            board=board, user=request.user, **data.validated_data
        )
        return Response({"fouled": board.fouled})


class ResultsApi(DirectorEventApi):
    class ResultsIn(serializers.Serializer[Any]):
        round = serializers.IntegerField(min_value=1)
        table = serializers.IntegerField(min_value=1)
        board = serializers.IntegerField(min_value=1)
        entry = EntryJsonField()
        idempotency_key = serializers.CharField(max_length=80, required=False)
        confirm = serializers.BooleanField(default=False)
        device = serializers.CharField(max_length=80, required=False, default="api")

    @extend_schema(responses=ResultOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        results = Result.objects.filter(section__event=self.event).select_related(
            "ns_pair", "ew_pair"
        )
        return Response(ResultOut(results, many=True).data)

    @extend_schema(request=ResultsIn, responses={201: ResultOut, 200: ResultOut})
    def post(self, request: Request, pk: int) -> Response:
        event = self.event
        data = self.ResultsIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result, created = result_services.result_submit(
            section=event.section,
            round=v["round"],
            table=v["table"],
            board_number=v["board"],
            entry=v["entry"],
            idempotency_key=v.get("idempotency_key"),
            device=v["device"],
            user=request.user,
            confirm=v["confirm"],
        )
        return Response(
            ResultOut(result).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


def _result(event: Event, result_id: int) -> Result:
    return get_object_or_404(Result, pk=result_id, section__event=event)


def _result_out(result: Result) -> Response:
    fresh = Result.objects.select_related("ns_pair", "ew_pair").get(pk=result.pk)
    return Response(ResultOut(fresh).data)


class ResultConfirmApi(DirectorEventApi):
    """The opponents agree: the result counts from now on."""

    @extend_schema(request=None, responses=ResultOut)
    def post(self, request: Request, pk: int, result_id: int) -> Response:
        result = result_services.result_confirm(
            result=_result(self.event, result_id), user=request.user
        )
        return _result_out(result)


class ResultDisputeApi(DirectorEventApi):
    """The opponents do not agree: the result waits for the director, who is called."""

    class DisputeIn(serializers.Serializer[Any]):
        note = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(request=DisputeIn, responses=ResultOut)
    def post(self, request: Request, pk: int, result_id: int) -> Response:
        data = self.DisputeIn(data=request.data)
        data.is_valid(raise_exception=True)
        result = result_services.result_dispute(
            result=_result(self.event, result_id), note=data.validated_data["note"]
        )
        return _result_out(result)


class ResultCorrectApi(DirectorEventApi):
    """The director replaces a result's entry, saying why (kept in the audit trail)."""

    class CorrectIn(serializers.Serializer[Any]):
        entry = EntryJsonField()
        reason = serializers.CharField(required=False, allow_blank=True, default="")
        seen = serializers.CharField(
            required=False,
            max_length=40,
            help_text="The result's `revision` this correction was decided from: if the "
            "result has changed since, nothing is saved and the answer is 409 with the "
            "stored result. Without it corrections apply one after the other.",
        )

    @extend_schema(request=CorrectIn, responses=ResultOut)
    def post(self, request: Request, pk: int, result_id: int) -> Response:
        data = self.CorrectIn(data=request.data)
        if not data.is_valid() and "entry" in data.errors:
            raise serializers.ValidationError({"entry": "A correction needs the new entry."})
        data.is_valid(raise_exception=True)
        result = result_services.result_correct(
            result=_result(self.event, result_id),
            entry=data.validated_data["entry"],
            reason=data.validated_data["reason"],
            user=request.user,
            seen=data.validated_data.get("seen"),
        )
        return _result_out(result)


class ArtificialApi(DirectorEventApi):
    class ArtificialIn(serializers.Serializer[Any]):
        round = serializers.IntegerField(min_value=1)
        table = serializers.IntegerField(min_value=1)
        board = serializers.IntegerField(min_value=1)
        code = serializers.CharField(max_length=8)
        reason = serializers.CharField()

    @extend_schema(request=ArtificialIn, responses=ResultOut)
    def post(self, request: Request, pk: int) -> Response:
        event = self.event
        data = self.ArtificialIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result = result_services.result_set_artificial(
            section=event.section,
            round=v["round"],
            table=v["table"],
            board_number=v["board"],
            code=v["code"],
            reason=v["reason"],
            user=request.user,
        )
        return Response(ResultOut(result).data)


class StandingsApi(APIView):
    """The newest stored standings: live for directors, for anyone once published.

    A read never scores: `behind` says that newer results are being scored (the document then
    lags by a moment); before anything was ever stored the standings are worked out for this
    answer only, with no result yet counting.
    """

    permission_classes = [AllowAny]

    @extend_schema(
        responses=inline_serializer(
            "Standings",
            {
                "version": serializers.IntegerField(),
                "behind": serializers.BooleanField(),
                "sections": serializers.ListField(child=serializers.DictField()),
            },
        )
    )
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(_events(), pk=pk)
        director = access.directs(request.user, event)
        if not director and event.status != Event.Status.PUBLISHED:
            return Response({"detail": "No published results here."}, status=404)
        stored = selectors.latest_standings(event)
        if stored is None and not director:
            return Response({"detail": "No standings yet."}, status=404)
        data = stored.data if stored is not None else standings_compute(event=event)
        return Response({**data, "behind": data["version"] < event.results_version})


class RoomApi(DirectorEventApi):
    @extend_schema(responses=inline_serializer("Room", {"tables": serializers.ListField()}))
    def get(self, request: Request, pk: int) -> Response:
        room = selectors.room_view(self.event)
        return Response(
            {
                "results_in": room["results_in"],
                "results_expected": room["results_expected"],
                "tables": [
                    {
                        "table": t.table,
                        "round": t.round,
                        "ns": t.ns,
                        "ew": t.ew,
                        "boards": [t.boards.start, t.boards.stop - 1],
                        "entered": t.entered,
                        "confirmed": t.confirmed,
                        "disputed": t.disputed,
                        "missing": t.missing,
                        "sit_out": t.sit_out,
                        "state": t.state,
                        "director_called": bool(t.calls),
                    }
                    for t in room["tables"]
                ],
            }
        )
