"""What every director's page shares: the event lookup, the action wrapper, the no-club page.

Kept apart from the job modules so that printing and exports (and each job) import these from
one place, none of them from another job's module.
"""

from __future__ import annotations

from django.http import HttpRequest

from tournaments.events import access
from tournaments.events.models import Event


def event_for_scorer(request: HttpRequest, pk: int) -> Event:
    """The event if the signed-in account may enter and correct its results: its club's
    directors and scorers (the result entry and correction pages only)."""
    return access.event_for_scoring(
        request.user, pk, Event.objects.select_related("club").prefetch_related("sections")
    )


def event_for_director(request: HttpRequest, pk: int) -> Event:
    """The event if the signed-in account directs its club; another club's answers 404."""
    return access.event_for(
        request.user, pk, Event.objects.select_related("club").prefetch_related("sections")
    )
