"""A team tournament table's tablet page.

The page embeds the table's state (it shows at once); `static/js/team-table.js` builds the
screens from it, polls the tablet API (`tournaments/api/team_tablets.py`) every few seconds
and sends what the teams enter. The tablet stays on its table all evening; each round it names
the two teams sitting there.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.selectors.team_room import (
    TeamLinkReplaced,
    TeamLinkUnknown,
    table_state,
    team_link,
)
from tournaments.views.tablets import files_cache_name, worker_response

#: What the team table page needs to show itself again from the service worker's copy.
TEAM_FILES = ("js/team-table.js", "css/table.css")
SCOPE = "/tt/"


def cache() -> str:
    return files_cache_name(TEAM_FILES, "clubwhist-team-table")


@never_cache
@require_GET
def team_table_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        tournament, table = team_link(token)
    except TeamLinkReplaced as exc:
        return render(request, "tournaments/tablets/gone.html", {"message": str(exc)}, status=410)
    except TeamLinkUnknown as exc:
        return render(request, "tournaments/tablets/gone.html", {"message": str(exc)}, status=404)
    return render(
        request,
        "tournaments/tablets/team_table.html",
        {
            "token": token,
            "state": table_state(tournament, table),
            "api": f"/api/tt/{token}/",
            "sw": f"{SCOPE}sw.js",
            "cache_name": cache(),
        },
    )


@require_GET
def team_service_worker(request: HttpRequest) -> HttpResponse:
    """The team tablets' service worker, under /tt/: a tablet that reloads without a network
    still shows its table (and what it has not sent yet)."""
    return worker_response(request, SCOPE, TEAM_FILES, cache())
