"""The director's API for watching an event: the room, the standings, and the movement
advice."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.events import access, selectors
from tournaments.events.api.director import DirectorEventApi, events_query
from tournaments.events.api.documents import AdviceOut, LiveStandingsOut, RoomOut
from tournaments.events.models import Event
from tournaments.events.selectors.documents import advice
from tournaments.events.selectors.room import room_document
from tournaments.events.selectors.standings import standings_compute
from tournaments.kernel.numbers import WholeNumberField


class AdviceApi(APIView):
    """The movements that fit a number of pairs and about a number of boards, best first."""

    class AdviceIn(serializers.Serializer[Any]):
        pairs = WholeNumberField(min_value=3, max_value=400)  # the advisor's least
        boards = WholeNumberField(min_value=1, max_value=200)

    # The query as `AdviceIn` reads it, ranges included: a schema-valid query is one it takes.
    @extend_schema(parameters=[AdviceIn], responses=AdviceOut)
    def get(self, request: Request) -> Response:
        query = self.AdviceIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = advice(query.validated_data["pairs"], query.validated_data["boards"])
        return Response(found.to_dict())


class StandingsApi(APIView):
    """The newest stored standings: live for directors, for anyone once published.

    A read never scores: `behind` says that newer results are being scored (the document then
    lags by a moment); before anything was ever stored the standings are worked out for this
    answer only, with no result yet counting.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses=LiveStandingsOut)
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(events_query(), pk=pk)
        director = access.directs(request.user, event)
        if not director and event.status != Event.Status.PUBLISHED:
            return Response({"detail": "No published results here."}, status=404)
        stored = selectors.latest_standings(event)
        if stored is None and not director:
            return Response({"detail": "No standings yet."}, status=404)
        # The stored JSON is sent as it was stored (a `LiveStandings` once `behind` is added).
        data = stored.data if stored is not None else standings_compute(event=event)
        return Response({**data, "behind": data["version"] < event.results_version})


class RoomApi(DirectorEventApi):
    """Each table's round, pairs, boards and where its results stand."""

    @extend_schema(responses=RoomOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(room_document(self.event).to_dict())
