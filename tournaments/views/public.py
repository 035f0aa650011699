"""Pages anyone may open: the home page, published standings, and the health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from engine.scoring.document import StandingsDocument
from tournaments import selectors
from tournaments.health import run_checks
from tournaments.models import Event


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_visible(signed_in=request.user.is_authenticated)
    return render(request, "home.html", {"events": events})


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    healthy = not any(check.failing for check in checks)
    body = {
        "status": "ok" if healthy else "down",
        "checks": {check.name: check.as_dict() for check in checks},
    }
    return JsonResponse(body, status=200 if healthy else 503)


@require_GET
def event_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Directors see live standings; everyone else only once the results are published."""
    event = get_object_or_404(Event, pk=pk)
    if not request.user.is_authenticated and event.status != Event.Status.PUBLISHED:
        return redirect(f"{reverse('login')}?next={request.path}")
    standings = selectors.latest_standings(event)
    return render(
        request,
        "tournaments/public/event_standings.html",
        {
            "event": event,
            "standings": StandingsDocument.from_dict(standings.data) if standings else None,
            "computed_at": standings.computed_at if standings else None,
        },
    )
