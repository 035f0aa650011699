"""The read-only public API: the published results as JSON, exactly where the pages are public
(published events, or live ones the director opened; directors see every event)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import pbn
from engine.dd.analysis import par_summary
from engine.publishing import board_frequencies, pair_card, row_for
from tournaments import access, selectors_public
from tournaments.models import Club, Event


def _points(value: Any) -> dict[str, str] | None:
    return None if value is None else value.to_dict()


class PublicView(APIView):
    permission_classes = [AllowAny]

    def reader_event(self, request: Request, pk: int) -> tuple[Event, Any]:
        event = selectors_public.event_for_reader(pk, request.user)
        return event, selectors_public.published(event)

    def shown(self, request: Request, event: Event, results: Any) -> frozenset[int]:
        """The boards this reader may see (cards are secret until played: see
        `selectors_public.boards_shown`)."""
        return selectors_public.boards_shown(event, request.user, results)


class ClubEventsApi(PublicView):
    @extend_schema(
        responses=inline_serializer(
            "ClubEvents", {"events": serializers.ListField(child=serializers.DictField())}
        )
    )
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(
            {
                "club": club.name,
                "events": [
                    {
                        "id": e.pk,
                        "name": e.name,
                        "date": e.date.isoformat(),
                        "game": e.game,
                        "status": e.status,
                        "live": e.status != Event.Status.PUBLISHED,
                    }
                    for e in selectors_public.club_events(club)
                ],
            }
        )


class PublicStandingsApi(PublicView):
    """The standings document (see README, "The standings document") and the results version."""

    @extend_schema(
        responses=inline_serializer(
            "PublicStandings",
            {
                "version": serializers.IntegerField(),
                # null until the first standings are stored
                "document": serializers.DictField(allow_null=True),
            },
        )
    )
    def get(self, request: Request, pk: int) -> Response:
        event, results = self.reader_event(request, pk)
        document = selectors_public.document_for(results, self.shown(request, event, results))
        return Response({"version": event.scored_version, "document": document})


class PublicBoardApi(PublicView):
    """A board: its deal as PBN, par when known, and the frequency of every result."""

    @extend_schema(
        responses=inline_serializer(
            "PublicBoard",
            {
                "board": serializers.IntegerField(),
                "pbn": serializers.CharField(),
                "par": serializers.CharField(allow_null=True),
                "frequencies": serializers.ListField(child=serializers.DictField()),
            },
        )
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        event, results = self.reader_event(request, pk)
        if number not in results.boards:
            raise NotFound(f"There is no board {number} in this event.")
        if number not in self.shown(request, event, results):
            raise PermissionDenied(
                f"Board {number} is still being played: its hands and results are shown once "
                "every table has played it."
            )
        rows = (
            board_frequencies(results.document.sections[0], number, results.info)
            if results.document
            else []
        )
        analysis = results.analyses.get(number)
        return Response(
            {
                "board": number,
                "pbn": pbn.dumps([results.board(number)]),
                "par": par_summary(analysis) if analysis else None,
                "analysis": analysis,
                "frequencies": [
                    {
                        "ns_score": row.ns_score,
                        "artificial": row.artificial,
                        "count": row.count,
                        "ns_points": _points(row.ns_points),
                        "ew_points": _points(row.ew_points),
                        "results": list(row.results),
                    }
                    for row in rows
                ],
            }
        )


class PublicPairApi(PublicView):
    """A pair's score card: every board with the opponents, result, points and against par."""

    @extend_schema(
        responses=inline_serializer(
            "PublicPair",
            {"pair": serializers.DictField(), "boards": serializers.ListField()},
        )
    )
    def get(self, request: Request, pk: int, key: str) -> Response:
        event, results = self.reader_event(request, pk)
        shown = self.shown(request, event, results)
        for section in results.document.sections if results.document else ():
            row = row_for(section, key)
            if row is not None:
                card = [r for r in pair_card(section, row, results.info) if r.board in shown]
                return Response(
                    {
                        "pair": row.to_dict(),
                        "boards": [
                            {
                                "board": r.board,
                                "round": r.round,
                                "table": r.table,
                                "seat": r.direction,
                                "opponents": r.opponents,
                                "result": r.result,
                                "score": r.score,
                                "points": _points(r.points),
                                "top": _points(r.top),
                                "versus_par": r.versus_par,
                                "running_percentage": _points(r.running_percentage),
                            }
                            for r in card
                        ],
                    }
                )
        raise NotFound(f"There is no pair {key} in this event.")


class PublicExportApi(PublicView):
    """An event's results as USEBIO, PBN with results or CSV: published events for anyone,
    every event for directors (a live event's results are not final, so not exported). The
    whole event's JSON is not here (404): it is the director's (`EventExportApi`)."""

    @extend_schema(
        responses={
            # One media type per format (tournaments.services.exports.FORMATS).
            (200, "application/xml"): OpenApiTypes.STR,
            (200, "application/x-pbn"): OpenApiTypes.STR,
            (200, "text/csv"): OpenApiTypes.STR,
        }
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        from tournaments.views.exports import export_response

        event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
        if event.status != Event.Status.PUBLISHED and not access.directs(request.user, event):
            raise NotFound("No published results here.")
        return export_response(event, fmt, public=True)
