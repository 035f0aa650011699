"""The club's seasons through the API, thin over the same selectors and services as the pages.

For everyone: a club's seasons and one season with its stored tables, names as the public
pages show them (`/api/public/clubs/<slug>/seasons/...`). For the club's directors: the same
with the register's names, a season set up, changed or removed, a competition added, changed
or removed, and "recompute now" (`/api/clubs/<slug>/seasons/...`; another club's is a 404). A
refusal is a 400 with its text (`SeasonRefused`)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.kernel.access import club_for
from tournaments.kernel.api.fields import BoundedListField, NameField, TrueOrFalse
from tournaments.kernel.models import Club
from tournaments.kernel.numbers import WholeNumberField
from tournaments.seasons.models import Competition, CompetitionPlay, Season
from tournaments.seasons.selectors.seasons import (
    ShownTable,
    chosen_of,
    formats_of,
    season_as_of,
    season_stale,
    season_tables,
    seasons_of,
)
from tournaments.seasons.services import seasons as services

#: The most evenings one competition may name.
MOST_PLAYS = 400


class SeasonOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField()
    handicap_basis = serializers.ChoiceField(choices=Season.Basis.choices)
    handicap_window = serializers.IntegerField()
    handicap_min_sessions = serializers.IntegerField()


class RowOut(serializers.Serializer[Any]):
    place = serializers.CharField(help_text='"1", "2=", or "" for a member not yet qualified.')
    member_id = serializers.IntegerField()
    name = serializers.CharField(help_text="As the reader may see it.")
    played = serializers.IntegerField()
    counted = serializers.IntegerField()
    figure = serializers.CharField(help_text='Exact, as a fraction in text ("1241/20").')
    shown = serializers.CharField(help_text="As the tables show it (two decimals).")
    detail = serializers.CharField()
    qualified = TrueOrFalse()


class PlayOut(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=CompetitionPlay.Format.choices)
    play_id = serializers.IntegerField()


class CompetitionOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Competition.Kind.choices)
    formats = serializers.ListField(child=serializers.CharField())
    best_of = serializers.IntegerField(allow_null=True)
    min_sessions = serializers.IntegerField()
    ties = serializers.ChoiceField(choices=Competition.Ties.choices)
    handicapped = TrueOrFalse()
    plays = PlayOut(many=True, help_text="The evenings chosen; none: every published one.")
    heading = serializers.CharField(help_text="What the figure is called.")
    evenings = serializers.IntegerField(help_text="How many evenings the table counted.")
    computed_at = serializers.DateTimeField(allow_null=True)
    rows = RowOut(many=True)


class SeasonTablesOut(SeasonOut):
    as_of = serializers.DateTimeField(allow_null=True, help_text="The oldest table's time.")
    stale = TrueOrFalse(
        help_text="Evenings were published after the tables were computed (directors only: "
        "always false for everyone else)."
    )
    competitions = CompetitionOut(many=True)


class SeasonIn(serializers.Serializer[Any]):
    name = NameField(max_length=120)
    starts = serializers.DateField()
    ends = serializers.DateField()
    handicap_basis = serializers.ChoiceField(choices=Season.Basis.choices, required=False)
    handicap_window = WholeNumberField(min_value=1, max_value=999, required=False)
    handicap_min_sessions = WholeNumberField(min_value=0, max_value=999, required=False)


class SeasonChangeIn(SeasonIn):
    name = NameField(max_length=120, required=False)
    starts = serializers.DateField(required=False)
    ends = serializers.DateField(required=False)


class PlayIn(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=CompetitionPlay.Format.choices)
    play_id = WholeNumberField(min_value=1, max_value=2_147_483_647)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Both fields, in a change too: DRF's partial update makes the fields of every
        nested item optional, and an evening named without its format was a 500."""
        missing = {n: "This field is required." for n in ("format", "play_id") if n not in attrs}
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class CompetitionIn(serializers.Serializer[Any]):
    name = NameField(max_length=120)
    kind = serializers.ChoiceField(choices=Competition.Kind.choices, required=False)
    count_events = TrueOrFalse(required=False)
    count_drives = TrueOrFalse(required=False)
    count_teams = TrueOrFalse(required=False)
    best_of = WholeNumberField(min_value=1, max_value=999, required=False, allow_null=True)
    min_sessions = WholeNumberField(min_value=0, max_value=999, required=False)
    ties = serializers.ChoiceField(choices=Competition.Ties.choices, required=False)
    handicapped = TrueOrFalse(required=False)
    plays = BoundedListField(
        child=PlayIn(), required=False, max_length=MOST_PLAYS,
        help_text="The evenings it counts; none: every published evening of its formats.",
    )  # fmt: skip


class CompetitionChangeIn(CompetitionIn):
    name = NameField(max_length=120, required=False)


class ChangedOut(serializers.Serializer[Any]):
    changed = serializers.IntegerField(help_text="How many tables were written.")


def _season_out(season: Season) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "handicap_basis": season.handicap_basis,
        "handicap_window": season.handicap_window,
        "handicap_min_sessions": season.handicap_min_sessions,
    }


def _competition_out(shown: ShownTable) -> dict[str, Any]:
    c = shown.competition
    table = shown.table
    return {
        "id": c.pk,
        "name": c.name,
        "kind": c.kind,
        "formats": list(formats_of(c)),
        "best_of": c.best_of,
        "min_sessions": c.min_sessions,
        "ties": c.ties,
        "handicapped": c.handicapped,
        "plays": [{"format": f, "play_id": p} for f, p in sorted(chosen_of(c))],
        "heading": table.heading if table else "",
        "evenings": table.evenings if table else 0,
        "computed_at": c.computed_at,
        "rows": [{**row.to_dict(), "name": name} for row, name in shown.rows],
    }


def _tables_out(season: Season, *, public: bool, director: bool) -> dict[str, Any]:
    tables = season_tables(season, public=public)
    return {
        **_season_out(season),
        "as_of": season_as_of(season),
        "stale": director and season_stale(season),
        "competitions": [_competition_out(shown) for shown in tables],
    }


def _plays(data: dict[str, Any]) -> dict[str, Any]:
    if "plays" in data:
        data["plays"] = [(p["format"], p["play_id"]) for p in data["plays"]]
    return data


# ---- for everyone -----------------------------------------------------------------------------


class PublicSeasonsApi(APIView):
    """A club's seasons, the latest first."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SeasonOut(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(SeasonOut([_season_out(s) for s in seasons_of(club.pk)], many=True).data)


class PublicSeasonApi(APIView):
    """A season with every competition's stored table, names as the public pages show them
    (erased members as "Former member"; visitors are never in a table)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SeasonTablesOut)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        season = get_object_or_404(Season, club=club, pk=season_id)
        return Response(SeasonTablesOut(_tables_out(season, public=True, director=False)).data)


# ---- for the club's directors ---------------------------------------------------------------


class ClubSeasonsApi(APIView):
    """An API view about one club's seasons: the caller's right to the club is checked before
    the body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.club = club_for(request.user, kwargs["slug"])

    def season(self, season_id: int) -> Season:
        found = Season.objects.filter(club=self.club, pk=season_id).first()
        if found is None:
            raise Http404("No such season in this club.")
        return found


class SeasonsApi(ClubSeasonsApi):
    @extend_schema(responses=SeasonOut(many=True))
    def get(self, request: Request, slug: str) -> Response:
        return Response(
            SeasonOut([_season_out(s) for s in seasons_of(self.club.pk)], many=True).data
        )

    @extend_schema(request=SeasonIn, responses={201: SeasonTablesOut})
    def post(self, request: Request, slug: str) -> Response:
        data = SeasonIn(data=request.data)
        data.is_valid(raise_exception=True)
        season = services.season_create(club=self.club, user=request.user, **data.validated_data)
        body = SeasonTablesOut(_tables_out(season, public=False, director=True)).data
        return Response(body, status=status.HTTP_201_CREATED)


class SeasonApi(ClubSeasonsApi):
    @extend_schema(responses=SeasonTablesOut)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        season = self.season(season_id)
        return Response(SeasonTablesOut(_tables_out(season, public=False, director=True)).data)

    @extend_schema(request=SeasonChangeIn, responses=SeasonTablesOut)
    def patch(self, request: Request, slug: str, season_id: int) -> Response:
        season = self.season(season_id)
        data = SeasonChangeIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = dict(data.validated_data)
        season = services.season_edit(season=season, user=request.user, **values)
        return Response(SeasonTablesOut(_tables_out(season, public=False, director=True)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, season_id: int) -> Response:
        services.season_delete(season=self.season(season_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CompetitionsApi(ClubSeasonsApi):
    @extend_schema(request=CompetitionIn, responses={201: SeasonTablesOut})
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        season = self.season(season_id)
        data = CompetitionIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.competition_add(
            season=season, user=request.user, **_plays(dict(data.validated_data))
        )
        body = SeasonTablesOut(_tables_out(season, public=False, director=True)).data
        return Response(body, status=status.HTTP_201_CREATED)


class CompetitionApi(ClubSeasonsApi):
    def competition(self, season: Season, competition_id: int) -> Competition:
        found = season.competitions.filter(pk=competition_id).first()
        if found is None:
            raise Http404("No such competition in this season.")
        return found

    @extend_schema(request=CompetitionChangeIn, responses=SeasonTablesOut)
    def patch(self, request: Request, slug: str, season_id: int, competition_id: int) -> Response:
        season = self.season(season_id)
        competition = self.competition(season, competition_id)
        data = CompetitionChangeIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.competition_edit(
            competition=competition, user=request.user, **_plays(dict(data.validated_data))
        )
        return Response(SeasonTablesOut(_tables_out(season, public=False, director=True)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, season_id: int, competition_id: int) -> Response:
        season = self.season(season_id)
        services.competition_remove(
            competition=self.competition(season, competition_id), user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonRecomputeApi(ClubSeasonsApi):
    """Every table of the season computed again now (after a lost job)."""

    @extend_schema(request=None, responses=ChangedOut)
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        changed = services.season_recompute(season=self.season(season_id), force=True)
        return Response({"changed": changed})


__all__ = [
    "CompetitionApi",
    "CompetitionsApi",
    "PublicSeasonApi",
    "PublicSeasonsApi",
    "SeasonApi",
    "SeasonRecomputeApi",
    "SeasonsApi",
]
