"""The front page and the health check: what spans every format. The front page lists what a
reader may open in each format (events, drives, team tournaments), so it sits above them, as
the URL maps do; the health check asks the services every format relies on."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.drives.selectors.drives import drives_visible
from tournaments.events import selectors
from tournaments.kernel.access import clubs_for
from tournaments.kernel.health import run_checks
from tournaments.teams.selectors.teams import tournaments_visible


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_visible(request.user)
    drives = drives_visible(request.user)
    teams = tournaments_visible(request.user)
    context = {
        "events": events,
        "drives": drives,
        "tournaments": teams,
        "clubs": clubs_for(request.user),  # the director's: each with its member register
    }
    return render(request, "home.html", context)


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """ok/down for each part, for monitors; the details for staff only
    (tournaments/kernel/health.py)."""
    checks = run_checks()
    healthy = not any(check.failing for check in checks)
    staff = request.user.is_authenticated and request.user.is_staff
    body = {
        "status": "ok" if healthy else "down",
        "checks": {check.name: check.as_dict(detail=staff) for check in checks},
    }
    return JsonResponse(body, status=200 if healthy else 503)
