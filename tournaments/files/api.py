"""The director's exports and imports through the API (the public exports are
`public.PublicExportApi`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.exports.spreadsheet import XLSX_CONTENT_TYPE
from tournaments.drives.api.director import DirectorDriveApi
from tournaments.events import access
from tournaments.events.api.director import DirectorEventApi
from tournaments.events.api.public import PublicView
from tournaments.events.models import Event
from tournaments.files import exports as export_services
from tournaments.files.documents import drive_json_schema, event_json_schema, tournament_json_schema
from tournaments.files.views import drive_json_response, export_response, tournament_json_response
from tournaments.kernel.access import club_for
from tournaments.kernel.api.fields import SlugText, TextField
from tournaments.teams.api.director import DirectorTournamentApi


class EventExportApi(DirectorEventApi):
    """An event in any export format, the whole event's clubwhist JSON (`json`) included:
    it carries the tablets' tokens, idempotency keys and usernames, so it is a director's."""

    @extend_schema(
        responses={
            # One media type per format (tournaments.files.exports.FORMATS).
            (200, "application/xml"): OpenApiTypes.STR,
            (200, "application/x-pbn"): OpenApiTypes.STR,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, XLSX_CONTENT_TYPE): OpenApiTypes.BINARY,
            (200, "application/json"): event_json_schema(),
        }
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        return export_response(self.event, fmt)


class ImportApi(APIView):
    """A USEBIO or PBN-with-results file as a new, closed event, or the clubwhist JSON of an
    event, a drive or a team tournament restored whole into the club: 201 with what it made
    (`kind`, `id`, and the id again under the kind's name, so `{"event": ID}` still answers
    for an event); 400 with the reason, and nothing created, when any part is refused."""

    #: A club named in the body that the caller does not direct (`kernel.api.schema`).
    error_statuses = (404,)

    class ImportIn(serializers.Serializer[Any]):
        text = TextField(trim_whitespace=False, max_length=5 * 1024 * 1024)
        club = SlugText()

    @extend_schema(
        request=ImportIn,
        responses={
            201: inline_serializer(
                "EventImported",
                {
                    "kind": serializers.ChoiceField(choices=["event", "drive", "tournament"]),
                    "id": serializers.IntegerField(),
                    "event": serializers.IntegerField(required=False),
                    "drive": serializers.IntegerField(required=False),
                    "tournament": serializers.IntegerField(required=False),
                },
            )
        },
    )
    def post(self, request: Request) -> Response:
        data = self.ImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_for(request.user, data.validated_data["club"])
        made = export_services.file_import(
            text=data.validated_data["text"], club=club, user=request.user
        )
        return Response(
            {"kind": made.kind, "id": made.item.pk, made.kind: made.item.pk},
            status=status.HTTP_201_CREATED,
        )


class DriveExportApi(DirectorDriveApi):
    """The whole drive as clubwhist JSON (settings, players, seatings, results, tablet links,
    audit), as a backup holds it; a director's, like the event's JSON, since it carries the
    tablets' link tokens and usernames. `manage.py restore` takes it back."""

    @extend_schema(
        operation_id="drives_export_json_retrieve",
        responses={(200, "application/json"): drive_json_schema()},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        return drive_json_response(self.drive)


class TournamentExportApi(DirectorTournamentApi):
    """The whole tournament as clubwhist JSON (for its directors: it carries the tablets'
    link tokens)."""

    @extend_schema(responses={(200, "application/json"): tournament_json_schema()})
    def get(self, request: Request, pk: int) -> HttpResponse:
        return tournament_json_response(self.tournament)


class PublicExportApi(PublicView):
    """An event's results as USEBIO, PBN with results or CSV: published events for anyone,
    every event for directors (a live event's results are not final, so not exported). The
    whole event's JSON is not here (404): it is the director's (`EventExportApi`)."""

    @extend_schema(
        responses={
            # One media type per format (tournaments.files.exports.FORMATS).
            (200, "application/xml"): OpenApiTypes.STR,
            (200, "application/x-pbn"): OpenApiTypes.STR,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, XLSX_CONTENT_TYPE): OpenApiTypes.BINARY,
        }
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
        if event.status != Event.Status.PUBLISHED and not access.directs(request.user, event):
            raise NotFound("No published results here.")
        return export_response(event, fmt, public=True)
