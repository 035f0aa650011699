"""Importing an event's results through the API (exports are in `public.PublicExportApi`)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Club
from tournaments.services import exports as export_services


class ImportApi(APIView):
    """A USEBIO or PBN-with-results file as a new, closed event (201 with its id); 400 with
    the reason, and nothing created, when any part is refused."""

    class ImportIn(serializers.Serializer[Any]):
        text = serializers.CharField(trim_whitespace=False, max_length=5 * 1024 * 1024)
        club = serializers.SlugField()

    @extend_schema(
        request=ImportIn,
        responses={201: inline_serializer("EventImported", {"event": serializers.IntegerField()})},
    )
    def post(self, request: Request) -> Response:
        data = self.ImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        club = get_object_or_404(Club, slug=data.validated_data["club"])
        event = export_services.event_import(
            text=data.validated_data["text"], club=club, user=request.user
        )
        return Response({"event": event.pk}, status=status.HTTP_201_CREATED)
