"""The API for Bid Whist team tournaments: the director's (list and create, teams, the door,
the draw, a table's game, a forfeit, a withdrawal, the next round, the playoff, the end) and
the public standings.

The same services as the pages; a refusal is a 400 with its text, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.teams.model import MAX_TEAMS
from tournaments.kernel.api.fields import MemberChoiceField, NameField, TextField, TrueOrFalse
from tournaments.kernel.api.plays import club_field, new_play
from tournaments.kernel.numbers import WholeNumberField
from tournaments.teams.access import (
    tournament_for,
    tournament_for_scoring,
    tournament_readable,
    tournaments_for,
)
from tournaments.teams.api.documents import (
    BidWhistHandField,
    TeamPublicStandingsOut,
    TeamScoreField,
    TournamentDocumentOut,
    TournamentSettingsField,
)
from tournaments.teams.models import Tournament
from tournaments.teams.selectors.room import public_standings, tournament_document
from tournaments.teams.selectors.teams import TournamentState, tournament_state
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import teams as team_services
from tournaments.teams.services.input import TOO_MANY_TEAMS


class TournamentOut(serializers.ModelSerializer[Tournament]):
    club = TextField(source="club.name", read_only=True)
    settings = TournamentSettingsField(required=False)

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "date", "club", "league", "week", "status", "round", "live_public",
            "moves_on", "settings",
        ]  # fmt: skip


def state_out(state: TournamentState) -> dict[str, Any]:
    """The tournament as it stands (`TournamentDocument`): teams, this round's tables and
    games, the standings, the playoff."""
    return tournament_document(state).to_dict()


class DirectorTournamentApi(APIView):
    """An API view about one tournament: the caller's right to it is checked before the body
    is read, so another club's director learns nothing from a validation error."""

    tournament: Tournament

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.tournament = tournament_for(request.user, kwargs["pk"])

    def answer(self, code: int = status.HTTP_200_OK) -> Response:
        self.tournament.refresh_from_db()
        return Response(state_out(tournament_state(self.tournament)), status=code)


class ScorerTournamentApi(DirectorTournamentApi):
    """An API view that enters or corrects a tournament's games: its club's scorers reach it
    as its directors do (`tournament_for_scoring`), checked before the body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        APIView.initial(self, request, *args, **kwargs)
        self.tournament = tournament_for_scoring(request.user, kwargs["pk"])


def _valid(serializer: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    checked = serializer(data=request.data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class TeamIn(serializers.Serializer[Any]):
    """A team's names, each under the one rule for names (`NameField`): refused with the
    reason, never quietly trimmed of a new line or a control character."""

    name = NameField(max_length=120)
    city = NameField(max_length=80, required=False, allow_blank=True)
    player_one = NameField(max_length=120, required=False, allow_blank=True)
    player_two = NameField(max_length=120, required=False, allow_blank=True)
    member_one = MemberChoiceField()
    member_two = MemberChoiceField()


class TournamentIn(serializers.Serializer[Any]):
    name = NameField(max_length=160)
    date = serializers.DateField(required=False)
    settings = TournamentSettingsField(required=False, help_text="docs/reference/api.md")
    teams: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=TeamIn(),
        required=False,
        max_length=MAX_TEAMS,  # checked before any team is read
        error_messages={"max_length": TOO_MANY_TEAMS},
    )
    club = club_field()


class TournamentListApi(APIView):
    """The tournaments of the caller's clubs; POST creates one (a draft)."""

    @extend_schema(responses=TournamentOut(many=True))
    def get(self, request: Request) -> Response:
        rows = tournaments_for(request.user).select_related("club")[:200]
        return Response(TournamentOut(rows, many=True).data)

    @extend_schema(request=TournamentIn, responses={201: TournamentDocumentOut})
    def post(self, request: Request) -> Response:
        club, data = new_play(request, TournamentIn)
        tournament = team_services.tournament_create(
            club=club,
            name=data["name"],
            date=data.get("date"),
            settings=data.get("settings") or {},
            teams=data.get("teams") or [],
            user=request.user,
        )
        return Response(state_out(tournament_state(tournament)), status=status.HTTP_201_CREATED)


class TournamentApi(DirectorTournamentApi):
    """The tournament as it stands (its director's view: teams, money, this round)."""

    @extend_schema(responses=TournamentDocumentOut)
    def get(self, request: Request, pk: int) -> Response:
        return self.answer()


class TeamsApi(DirectorTournamentApi):
    """Add a team (before the draw)."""

    @extend_schema(request=TeamIn, responses={201: TournamentDocumentOut})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(TeamIn, request)
        team_services.team_add(tournament=self.tournament, data=data, user=request.user)
        return self.answer(status.HTTP_201_CREATED)


class ArriveIn(serializers.Serializer[Any]):
    present = TrueOrFalse(default=True)
    paid_cents = WholeNumberField(min_value=0, max_value=10_000_000, required=False)
    in_pot = TrueOrFalse(required=False)


class ArriveApi(DirectorTournamentApi):
    """At the door: both players of team `number` are here (and what they paid)."""

    @extend_schema(request=ArriveIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int, number: int) -> Response:
        if not self.tournament.teams.filter(number=number).exists():
            # The address names a team that is not there: not found, as for any other path.
            raise NotFound(f"There is no team {number} in this tournament.")
        data = _valid(ArriveIn, request)
        team_services.team_arrive(
            tournament=self.tournament,
            number=number,
            present=data["present"],
            paid_cents=data.get("paid_cents"),
            in_pot=data.get("in_pot"),
            user=request.user,
        )
        return self.answer()


class SeedIn(serializers.Serializer[Any]):
    seed = WholeNumberField(min_value=0, required=False)


class StartApi(DirectorTournamentApi):
    """The draw of round 1."""

    @extend_schema(request=SeedIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(SeedIn, request)
        team_services.tournament_start(
            tournament=self.tournament, seed=data.get("seed"), user=request.user
        )
        return self.answer()


class NextRoundApi(DirectorTournamentApi):
    """Draw the next round (every table of this one must count)."""

    @extend_schema(request=None, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        team_services.round_next(tournament=self.tournament, user=request.user)
        return self.answer()


class GameIn(serializers.Serializer[Any]):
    table = WholeNumberField(min_value=1, max_value=999)
    round = WholeNumberField(min_value=1, max_value=99, required=False)
    score = TeamScoreField(required=False)
    hands = serializers.ListField(child=BidWhistHandField(), required=False, max_length=200)
    reason = TextField(required=False, allow_blank=True, max_length=500)


class GameApi(ScorerTournamentApi):
    """A table's game from the director: it counts at once (a correction needs a reason)."""

    @extend_schema(request=GameIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(GameIn, request)
        team_games.game_enter(
            tournament=self.tournament,
            table=data["table"],
            round=data.get("round"),
            score=data.get("score"),
            hands=data.get("hands"),
            reason=data.get("reason", ""),
            user=request.user,
        )
        return self.answer()


class ForfeitIn(serializers.Serializer[Any]):
    table = WholeNumberField(min_value=1, max_value=999)
    late = WholeNumberField(min_value=1, max_value=9999)


class ForfeitApi(DirectorTournamentApi):
    """A late team forfeits its game once the grace minutes have run out."""

    @extend_schema(request=ForfeitIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ForfeitIn, request)
        team_games.game_forfeit(
            tournament=self.tournament, table=data["table"], late=data["late"], user=request.user
        )
        return self.answer()


class WithdrawIn(serializers.Serializer[Any]):
    number = WholeNumberField(min_value=1, max_value=9999)
    reason = TextField(required=False, allow_blank=True, max_length=500)


class WithdrawApi(DirectorTournamentApi):
    """A team leaves the tournament for good."""

    @extend_schema(request=WithdrawIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(WithdrawIn, request)
        team_games.team_withdraw(
            tournament=self.tournament,
            number=data["number"],
            reason=data.get("reason", ""),
            user=request.user,
        )
        return self.answer()


class PlayoffIn(serializers.Serializer[Any]):
    match = WholeNumberField(min_value=1, max_value=999, required=False)
    score = TeamScoreField(required=False)
    hands = serializers.ListField(child=BidWhistHandField(), required=False, max_length=200)


class PlayoffApi(DirectorTournamentApi):
    """Without `match`: seed the playoff from the standings; with it: that match's game."""

    @extend_schema(request=PlayoffIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(PlayoffIn, request)
        if "match" not in data:
            team_playoff.playoff_start(tournament=self.tournament, user=request.user)
        else:
            team_playoff.playoff_enter(
                tournament=self.tournament,
                match=data["match"],
                score=data.get("score"),
                hands=data.get("hands"),
                user=request.user,
            )
        return self.answer()


class TieGameIn(serializers.Serializer[Any]):
    teams = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=999),
        min_length=2,
        max_length=2,
        help_text="The two teams level on every ranking key, the first sitting North-South.",
    )
    score = TeamScoreField(required=False)
    hands = serializers.ListField(child=BidWhistHandField(), required=False, max_length=200)


class TieGameApi(ScorerTournamentApi):
    """A tie for a place played off in one game (where the settings allow it): the winner is
    ranked above the loser; entered again, it replaces the one before."""

    @extend_schema(request=TieGameIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(TieGameIn, request)
        first, second = data["teams"]
        team_playoff.tie_game_enter(
            tournament=self.tournament,
            teams=(first, second),
            score=data.get("score"),
            hands=data.get("hands"),
            user=request.user,
        )
        return self.answer()


class FinishApi(DirectorTournamentApi):
    @extend_schema(request=None, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        team_games.tournament_finish(tournament=self.tournament, user=request.user)
        return self.answer()


class PublishApi(DirectorTournamentApi):
    """A finished tournament's results for everyone."""

    @extend_schema(request=None, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        team_games.tournament_publish(tournament=self.tournament, user=request.user)
        return self.answer()


class SwitchIn(serializers.Serializer[Any]):
    on = TrueOrFalse()


class LiveApi(DirectorTournamentApi):
    """Live standings on the public page while the tournament runs (on), or not (off)."""

    @extend_schema(request=SwitchIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(SwitchIn, request)
        team_games.tournament_live(tournament=self.tournament, live=data["on"], user=request.user)
        return self.answer()


class MovesOnApi(DirectorTournamentApi):
    """Draw the next round by itself when the round's last game counts (on), or wait for the
    director (off)."""

    @extend_schema(request=SwitchIn, responses=TournamentDocumentOut)
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(SwitchIn, request)
        team_games.moves_on_set(tournament=self.tournament, on=data["on"], user=request.user)
        return self.answer()


class PublicStandingsApi(APIView):
    """The standings anyone may read: a published tournament, or a running one whose
    director switched live standings on."""

    permission_classes = [AllowAny]

    @extend_schema(responses=TeamPublicStandingsOut)
    def get(self, request: Request, pk: int) -> Response:
        try:
            tournament = tournament_readable(request.user, pk)
        except Http404 as exc:
            raise NotFound(str(exc)) from None
        return Response(public_standings(tournament, tournament_state(tournament)).to_dict())
