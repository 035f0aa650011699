"""The API a team tournament table's tablet uses: the token in the URL is the only credential.

Answers a tablet can act on: 200 the table's state (after a write, the state with it), 201 a
game entered, 400 a game the rules refuse or a request the tournament cannot take (its
message), 403 a replaced link, 404 an unknown link, 409 the other team entered different
figures (with both, and the state) or the tournament is over (with the state: every write,
and the preview, is refused then), 429 too many requests (Retry-After).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from engine.teams import TeamsError
from tournaments.kernel.api.fields import TextField, TrueOrFalse
from tournaments.kernel.refusals import Refused
from tournaments.kernel.tablet_api import TableLinkThrottle, TabletApiView
from tournaments.teams.api.director import DirectorTournamentApi
from tournaments.teams.api.documents import (
    BidWhistHandField,
    GamePreviewOut,
    TeamScoreField,
    TeamTableStateOut,
)
from tournaments.teams.models import Tournament
from tournaments.teams.selectors.room import (
    TeamLinkReplaced,
    TeamLinkUnknown,
    table_document,
    table_state,
    team_link,
    team_links,
)
from tournaments.teams.selectors.table_reads import tournament_now
from tournaments.teams.services import tablets as team_tablets


class TeamTableThrottle(TableLinkThrottle):
    """Requests per tournament table link, at the tablets' rate (`kernel.tablet_api`)."""

    key_scope = "team-table"
    hits_prefix = "team-hits:"


class TeamTabletView(TabletApiView):
    """A tournament table link's view (`kernel.tablet_api`): a replaced link answers 403, the
    other team's different figures or the tournament over 409, with the table's state."""

    throttle_classes = [TeamTableThrottle]

    tournament: Tournament
    table: int

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """The link first: an unknown or replaced link learns nothing more."""
        super().initial(request, *args, **kwargs)
        try:
            self.tournament, self.table = team_link(kwargs["token"])
        except TeamLinkReplaced as exc:
            raise PermissionDenied(str(exc)) from None
        except TeamLinkUnknown as exc:
            raise NotFound(str(exc)) from None

    def state(self, code: int = status.HTTP_200_OK, *, written: bool = True) -> Response:
        """The table's state; after a write (`written`) from the tournament's row read again,
        as the write may have moved it on. A read answers from the row the link came with,
        read in this request."""
        if written:
            self.tournament = tournament_now(self.tournament.pk)
        return Response(table_document(self.tournament, self.table).to_dict(), status=code)

    def refusal_body(self, exc: Refused) -> dict[str, Any]:
        """A conflict or a closed tournament shows the table's state with it."""
        if exc.status != status.HTTP_409_CONFLICT:
            return {}
        self.tournament = tournament_now(self.tournament.pk)
        return {"state": table_state(self.tournament, self.table)}


class TableGameIn(serializers.Serializer[Any]):
    side = serializers.ChoiceField(choices=["home", "away"], help_text="Who enters it.")
    score = TeamScoreField(
        required=False,
        help_text="The final score: home_points, away_points, and as the game needs "
        "home_hands, away_hands, home_bostons, away_bostons.",
    )
    hands = serializers.ListField(
        child=BidWhistHandField(),
        required=False,
        max_length=200,
        help_text="The game's hands in play order, each a Bid Whist result "
        '({"declarer": "N", "bid": 4, "kind": "uptown", "trumps": "S", "books": 10}).',
    )
    replace = TrueOrFalse(
        required=False,
        default=False,
        help_text="True to replace the entry waiting for confirmation (the tablet's \"change "
        'what we sent"), whichever team entered it; the other team then confirms the new one.',
    )


class SideIn(serializers.Serializer[Any]):
    side = serializers.ChoiceField(choices=["home", "away"])
    note = TextField(required=False, allow_blank=True, max_length=200)


_STATE = TeamTableStateOut
_REFUSED = inline_serializer("TeamTableRefused", {"detail": TextField()})


def _valid(serializer: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    checked = serializer(data=request.data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class TeamTableStateApi(TeamTabletView):
    """This round's two teams at the table, where their game stands, the tables done."""

    @extend_schema(responses={200: _STATE, 403: _REFUSED, 404: _REFUSED})
    def get(self, request: Request, token: str) -> Response:
        return self.state(written=False)


class TeamTableEnterApi(TeamTabletView):
    """One team's entry of the game; it waits for the other team (or counts at once when the
    other team entered the same figures)."""

    @extend_schema(request=TableGameIn, responses={201: _STATE, 200: _STATE})
    def post(self, request: Request, token: str) -> Response:
        data = _valid(TableGameIn, request)
        _, new = team_tablets.tablet_enter(
            tournament=self.tournament,
            table=self.table,
            side=data["side"],
            score=data.get("score"),
            hands=data.get("hands"),
            replace=data.get("replace", False),
        )
        # 201 for an entry stored now; 200 when it counted at once (the other team had entered
        # the same) or was already stored as sent (a retry after a lost answer).
        return self.state(status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class HandsIn(serializers.Serializer[Any]):
    hands = serializers.ListField(child=BidWhistHandField(), max_length=200)


class TeamTablePreviewApi(TeamTabletView):
    """The score sheet of the hands so far (nothing is stored): each hand's points, the
    running totals, and whether the game is over; 400 names a hand the rules refuse."""

    @extend_schema(request=HandsIn, responses={200: GamePreviewOut})
    def post(self, request: Request, token: str) -> Response:
        data = _valid(HandsIn, request)
        try:
            return Response(
                team_tablets.tablet_preview(
                    tournament=self.tournament, hands=data["hands"], table=self.table
                ).to_dict()
            )
        except TeamsError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)


class TeamTableConfirmApi(TeamTabletView):
    """The other team agrees: the game counts."""

    @extend_schema(request=SideIn, responses={200: _STATE})
    def post(self, request: Request, token: str) -> Response:
        data = _valid(SideIn, request)
        team_tablets.tablet_confirm(tournament=self.tournament, table=self.table, side=data["side"])
        return self.state()


class TeamTableDisputeApi(TeamTabletView):
    """The other team does not agree: the director is called."""

    @extend_schema(request=SideIn, responses={200: _STATE})
    def post(self, request: Request, token: str) -> Response:
        data = _valid(SideIn, request)
        team_tablets.tablet_dispute(
            tournament=self.tournament,
            table=self.table,
            side=data["side"],
            note=data.get("note", ""),
        )
        return self.state()


class TeamLinkOut(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    url = TextField()


class TeamLinksApi(DirectorTournamentApi):
    """Each table's tablet link (made at the draw), for the tournament's director."""

    @extend_schema(responses=TeamLinkOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        base = settings.BASE_URL or request.build_absolute_uri("/").rstrip("/")
        links = team_links(self.tournament, base)
        response = Response([{"table": link.table, "url": link.url} for link in links])
        add_never_cache_headers(response)  # the links are credentials: never kept
        return response
