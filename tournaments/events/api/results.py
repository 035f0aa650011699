"""The director's API for results: list and enter, confirm, dispute, correct, and artificial
scores."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.events.api.director import DirectorEventApi, ScorerEventApi
from tournaments.events.api.serializers import ResultOut
from tournaments.events.models import Event, Result
from tournaments.events.services import corrections
from tournaments.events.services import results as result_services
from tournaments.events.services.results import NOTE_MAX
from tournaments.kernel.api.entry_schema import EntryJsonField
from tournaments.kernel.api.fields import TextField, TrueOrFalse
from tournaments.kernel.numbers import WholeNumberField


class ResultsApi(ScorerEventApi):
    #: Another result stored for the meeting (`kernel.api.schema`).
    error_statuses = (409,)

    class ResultsIn(serializers.Serializer[Any]):
        round = WholeNumberField(min_value=1)
        table = WholeNumberField(min_value=1)
        board = WholeNumberField(min_value=1)
        entry = EntryJsonField()
        idempotency_key = TextField(max_length=80, required=False)
        confirm = TrueOrFalse(default=False)
        device = TextField(max_length=80, required=False, default="api")

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
        # As the table's own dispute allows (`NOTE_MAX`: room for the call's prefix).
        note = TextField(required=False, allow_blank=True, max_length=NOTE_MAX, default="")

    @extend_schema(request=DisputeIn, responses=ResultOut)
    def post(self, request: Request, pk: int, result_id: int) -> Response:
        data = self.DisputeIn(data=request.data)
        data.is_valid(raise_exception=True)
        result = result_services.result_dispute(
            result=_result(self.event, result_id), note=data.validated_data["note"]
        )
        return _result_out(result)


class ResultCorrectApi(ScorerEventApi):
    """The director replaces a result's entry, saying why (kept in the audit trail)."""

    #: The result changed since the `seen` revision (`kernel.api.schema`).
    error_statuses = (409,)

    class CorrectIn(serializers.Serializer[Any]):
        entry = EntryJsonField()
        reason = TextField(required=False, allow_blank=True, default="")
        seen = TextField(
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
        result = corrections.result_correct(
            result=_result(self.event, result_id),
            entry=data.validated_data["entry"],
            reason=data.validated_data["reason"],
            user=request.user,
            seen=data.validated_data.get("seen"),
        )
        return _result_out(result)


class ArtificialApi(ScorerEventApi):
    class ArtificialIn(serializers.Serializer[Any]):
        round = WholeNumberField(min_value=1)
        table = WholeNumberField(min_value=1)
        board = WholeNumberField(min_value=1)
        code = TextField(max_length=8)
        reason = TextField()

    @extend_schema(request=ArtificialIn, responses=ResultOut)
    def post(self, request: Request, pk: int) -> Response:
        event = self.event
        data = self.ArtificialIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result = corrections.result_set_artificial(
            section=event.section,
            round=v["round"],
            table=v["table"],
            board_number=v["board"],
            code=v["code"],
            reason=v["reason"],
            user=request.user,
        )
        return Response(ResultOut(result).data)
