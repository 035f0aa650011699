"""The director's exports and imports through the API (the public exports are
`public.PublicExportApi`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access
from tournaments.api.backup_documents import event_json_schema
from tournaments.api.director import DirectorEventApi
from tournaments.api.serializers import SlugText, TextField
from tournaments.services import exports as export_services
from tournaments.views.exports import export_response


class EventExportApi(DirectorEventApi):
    """An event in any export format, the whole event's clubwhist JSON (`json`) included:
    it carries the tablets' tokens, idempotency keys and usernames, so it is a director's."""

    @extend_schema(
        responses={
            # One media type per format (tournaments.services.exports.FORMATS).
            (200, "application/xml"): OpenApiTypes.STR,
            (200, "application/x-pbn"): OpenApiTypes.STR,
            (200, "text/csv"): OpenApiTypes.STR,
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

    #: A club named in the body that the caller does not direct (`api.schema`).
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
        club = access.club_for(request.user, data.validated_data["club"])
        made = export_services.file_import(
            text=data.validated_data["text"], club=club, user=request.user
        )
        return Response(
            {"kind": made.kind, "id": made.item.pk, made.kind: made.item.pk},
            status=status.HTTP_201_CREATED,
        )
