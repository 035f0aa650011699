"""What every director's page shares: the event lookup, the action wrapper, the no-club page.

Kept apart from the job modules so that printing and exports (and each job) import these from
one place, none of them from another job's module.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import access
from tournaments.models import Event

#: The club an administrator's first event (or imported event) goes to when no club exists
#: yet. It is made when that event is, never by merely opening a form.
FIRST_CLUB = "My whist club"


def no_club(request: HttpRequest) -> HttpResponse:
    """An account that directs no club has nothing to set up: say what to do about it."""
    context = {"message": access.NO_CLUB}
    return render(request, "tournaments/director/no_club.html", context, status=403)


def event_for_director(request: HttpRequest, pk: int) -> Event:
    """The event if the signed-in account directs its club; another club's answers 404."""
    return access.event_for(
        request.user, pk, Event.objects.select_related("club").prefetch_related("sections")
    )


def act(request: HttpRequest, action: Any, success: str, **kwargs: Any) -> bool:
    """Call one service as the signed-in director and say how it went (its `ValueError`'s
    text, or `success`) in the next page's messages; True when it was done."""
    try:
        action(user=request.user, **kwargs)
    except ValueError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, success)
    return True
