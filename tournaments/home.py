"""The front page and the health check: what spans every format. The front page lists what a
reader may open in each format (events, drives, team tournaments), so it sits above them, as
the URL maps do; the health check asks the services every format relies on."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drives_visible
from tournaments.events import selectors
from tournaments.events.models import Event
from tournaments.kernel.access import clubs_for
from tournaments.kernel.directors import signed_in
from tournaments.kernel.health import run_checks
from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament
from tournaments.teams.selectors.teams import tournaments_visible


def scored_only_clubs(user: Any) -> QuerySet[Club]:
    """The clubs `user` scores for without directing them."""
    if not signed_in(user):
        return Club.objects.none()
    return Club.objects.filter(scorers=user).exclude(directors=user)


def results_to_enter(clubs: list[Club]) -> list[dict[str, Any]]:
    """For a scorer, the evenings of `clubs` (those they score for and do not direct) whose
    results may still be entered or corrected, each with the page that enters them: a scorer
    sees nothing else of a club's evenings before they are published."""
    if not clubs:
        return []  # most readers score for no club: no need to ask each format
    open_ = ("running", "finished")
    found: list[dict[str, Any]] = []
    for event in Event.objects.filter(club__in=clubs, status__in=open_).select_related("club"):
        found.append(
            {"play": event, "kind": "Event", "url": reverse("event-enter", args=[event.pk])}
        )
    for drive in Drive.objects.filter(club__in=clubs, status__in=open_).select_related("club"):
        found.append(
            {"play": drive, "kind": "Whist drive", "url": reverse("drive-detail", args=[drive.pk])}
        )
    teams = Tournament.objects.filter(club__in=clubs, status__in=("running", "playoff", "finished"))
    for tournament in teams.select_related("club"):
        found.append(
            {
                "play": tournament,
                "kind": "Bid Whist tournament",
                "url": reverse("tournament-detail", args=[tournament.pk]),
            }
        )
    return sorted(found, key=lambda row: (row["play"].date, row["play"].pk), reverse=True)[:50]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_visible(request.user)
    drives = drives_visible(request.user)
    teams = tournaments_visible(request.user)
    scored = list(scored_only_clubs(request.user))
    context = {
        "events": events,
        "drives": drives,
        "tournaments": teams,
        "clubs": clubs_for(request.user),  # the director's: each with its member register
        "to_enter": results_to_enter(scored),  # a scorer's evenings
        "scored_clubs": [club.name for club in scored],
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
