"""A member's history through the API: the same answer as the member's page, under the same
rule (public for a member who chose to be shown; the club's directors always, with full
names). GET only; a hidden, erased or unknown member is a 404."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.kernel.models import Club
from tournaments.seasons.models import CompetitionPlay
from tournaments.seasons.selectors.members import (
    directs,
    member_for_reader,
    member_page,
    season_choice,
)


class MemberSeasonOut(serializers.Serializer[Any]):
    """The season a member's page is limited to (its dates only)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField()


class SummaryOut(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=CompetitionPlay.Format.choices)
    evenings = serializers.IntegerField()
    average_percentage = serializers.CharField(allow_null=True)
    best_percentage = serializers.CharField(allow_null=True)
    best_place = serializers.CharField(help_text='"1", "2=": "" when never ranked.')
    won = serializers.IntegerField(help_text="Evenings finished first (or first equal).")


class EveningOut(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=CompetitionPlay.Format.choices)
    play_id = serializers.IntegerField()
    play_name = serializers.CharField()
    date = serializers.DateField()
    partners = serializers.ListField(child=serializers.CharField())
    rank = serializers.CharField()
    field_size = serializers.IntegerField()
    place = serializers.CharField()
    percentage = serializers.CharField(allow_null=True)
    points = serializers.CharField(allow_null=True)
    wins = serializers.CharField(allow_null=True)


class MemberHistoryOut(serializers.Serializer[Any]):
    club = serializers.CharField()
    member = serializers.IntegerField()
    name = serializers.CharField(help_text="As this reader may see it.")
    season = MemberSeasonOut(allow_null=True)
    handicap = serializers.CharField()
    handicap_rule = serializers.CharField()
    summaries = SummaryOut(many=True)
    evenings = EveningOut(many=True)


class MemberHistoryApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "season", str, description="A season's id: only its dates (default: all)."
            )
        ],
        responses=MemberHistoryOut,
    )
    def get(self, request: Request, slug: str, member_id: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        director = directs(request.user, club)
        member = member_for_reader(club, member_id, director=director)
        if member is None:
            raise Http404("No member's page here.")
        season = season_choice(club, request.query_params.get("season"))
        return Response(member_page(club, member, director=director, season=season).to_dict())
