"""The director's API views' common ground: an event is looked up, and the caller's right to
it checked, before anything else."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.events import access
from tournaments.events.models import Event


def events_query() -> QuerySet[Event]:
    """Events with what `EventOut` reads, so a list costs the same few queries however long."""
    return Event.objects.select_related("club").prefetch_related("sections")


def director_event(request: Request, pk: int) -> Event:
    """The event if the caller directs its club; another club's answers 404 (see `access`)."""
    return access.event_for(request.user, pk, events_query())


class DirectorEventApi(APIView):
    """An API view about one event: the caller's right to it is checked before the request's
    body is even read, so another club's director learns nothing from a validation error."""

    event: Event

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.event = director_event(request, kwargs["pk"])


class ScorerEventApi(DirectorEventApi):
    """An API view that enters or corrects an event's results: its club's scorers reach it as
    its directors do (`access.event_for_scoring`), checked before the body is read."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        APIView.initial(self, request, *args, **kwargs)
        self.event = access.event_for_scoring(request.user, kwargs["pk"], events_query())
