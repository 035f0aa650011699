"""Par for the event's boards: asking for it, and how far the computation has got."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from tournaments.events.services import analysis as analysis_services
from tournaments.events.views.director._common import event_for_director


@login_required
@require_POST
def event_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue the double-dummy analysis of every board still without its par."""
    event = event_for_director(request, pk)
    queued = analysis_services.boards_analyse_request(event=event, user=request.user)
    if queued:
        messages.success(request, f"Par is being computed for {queued} board(s).")
    else:
        messages.info(request, "Every board already has its par.")
    return redirect(event)


@login_required
@require_GET
def event_analysis_progress(request: HttpRequest, pk: int) -> JsonResponse:
    """How many boards have their par, for the event page's progress bar."""
    return JsonResponse(analysis_services.analysis_progress(event_for_director(request, pk)))
