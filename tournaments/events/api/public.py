"""The read-only public API: the published results as JSON, exactly where the pages are public
(published events, or live ones the director opened; directors see every event)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.events.api.documents import (
    ClubEventsOut,
    PublicBoardOut,
    PublicPairOut,
    PublicStandingsOut,
)
from tournaments.events.models import Event
from tournaments.events.selectors import public as selectors_public
from tournaments.events.selectors.public import PublishedEvent
from tournaments.kernel.models import Club


class PublicView(APIView):
    permission_classes = [AllowAny]

    def reader_event(self, request: Request, pk: int) -> tuple[Event, PublishedEvent]:
        event = selectors_public.event_for_reader(pk, request.user)
        return event, selectors_public.published_for(event, request.user)

    def shown(self, request: Request, event: Event, results: PublishedEvent) -> frozenset[int]:
        """The boards this reader may see (cards are secret until played: see
        `selectors_public.boards_shown`)."""
        return selectors_public.boards_shown(event, request.user, results)


class ClubEventsApi(PublicView):
    """A club's published events and those followed live, newest first."""

    @extend_schema(responses=ClubEventsOut)
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(selectors_public.club_events_document(club).to_dict())


class PublicStandingsApi(PublicView):
    """The standings document (docs/reference/standings-document.md) and the results version."""

    @extend_schema(responses=PublicStandingsOut)
    def get(self, request: Request, pk: int) -> Response:
        event, results = self.reader_event(request, pk)
        shown = self.shown(request, event, results)
        return Response(selectors_public.standings_document(event, results, shown).to_dict())


class PublicBoardApi(PublicView):
    """A board: its deal as PBN, par when known, and the frequency of every result."""

    @extend_schema(responses=PublicBoardOut)
    def get(self, request: Request, pk: int, number: int) -> Response:
        event, results = self.reader_event(request, pk)
        if number not in results.boards:
            raise NotFound(f"There is no board {number} in this event.")
        if number not in self.shown(request, event, results):
            raise PermissionDenied(
                f"Board {number} is still being played: its hands and results are shown once "
                "every table has played it."
            )
        return Response(selectors_public.board_document(results, number).to_dict())


class PublicPairApi(PublicView):
    """A pair's score card: every board with the opponents, result, points and against par."""

    @extend_schema(responses=PublicPairOut)
    def get(self, request: Request, pk: int, key: str) -> Response:
        event, results = self.reader_event(request, pk)
        card = selectors_public.pair_document(results, key, self.shown(request, event, results))
        if card is None:
            raise NotFound(f"There is no pair {key} in this event.")
        return Response(card.to_dict())
