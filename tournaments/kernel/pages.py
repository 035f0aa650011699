"""What every format's director pages share: the club an administrator's first event, drive or
tournament goes to, the page for an account that directs no club, the action wrapper that says
how a service call went, and the address the tablets reach this server at."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.kernel.access import NO_CLUB

#: The club an administrator's first event (or imported event) goes to when no club exists
#: yet. It is made when that event is, never by merely opening a form.
FIRST_CLUB = "My whist club"


def no_club(request: HttpRequest) -> HttpResponse:
    """An account that directs no club has nothing to set up: say what to do about it."""
    context = {"message": NO_CLUB}
    return render(request, "tournaments/director/no_club.html", context, status=403)


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


def base_url(request: HttpRequest) -> str:
    """Where the tablets reach this server: the setting, else the address the director used."""
    return settings.BASE_URL or request.build_absolute_uri("/").rstrip("/")
