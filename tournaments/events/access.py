"""Who may see and change which event: the kernel's rule (a club's directors direct its rows,
`kernel.access`) for duplicate pairs events, and who may read an event's public pages.

- a director sees and changes only their clubs' events, on the pages, the API and the exports;
- a table's link reaches only that table's meetings (see `events.services.tablets`);
- everyone else, signed in or not, reads only published events, and running ones whose director
  switched live results on.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.events.models import Event
from tournaments.kernel.access import directed_row, scored_row
from tournaments.kernel.directors import directed, directs_club, is_admin, signed_in


def events_for(user: Any, queryset: QuerySet[Event] | None = None) -> QuerySet[Event]:
    """The events this account may direct."""
    return directed(user, Event.objects.all() if queryset is None else queryset)


def directs(user: Any, event: Event) -> bool:
    return directs_club(user, event.club_id)


def event_for(user: Any, pk: int, queryset: QuerySet[Event] | None = None) -> Event:
    """The event `pk` if this account directs its club; 404 otherwise (also for another club's)."""
    return directed_row(user, Event.objects.all() if queryset is None else queryset, pk, "events")


def event_for_scoring(user: Any, pk: int, queryset: QuerySet[Event] | None = None) -> Event:
    """The event `pk` if this account may enter and correct its results (its club's directors
    and scorers); 404 otherwise. Only the result entry and correction pages and operations ask
    this; everything else asks `event_for`."""
    return scored_row(user, Event.objects.all() if queryset is None else queryset, pk, "events")


def readable_events(user: Any) -> QuerySet[Event]:
    """The events whose public pages this reader may open: their clubs' events for a director
    (to check the pages before publishing), published or live ones for everyone."""
    public = Q(status=Event.Status.PUBLISHED) | Q(status=Event.Status.RUNNING, live_public=True)
    if is_admin(user):
        return Event.objects.all()
    if signed_in(user):
        return Event.objects.filter(public | Q(club__directors=user)).distinct()
    return Event.objects.filter(public)
