"""The room on the night: the tables' state, starting rounds, the round clock, the calls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.events import selectors
from tournaments.events.services import results as result_services
from tournaments.events.services import tablets as tablet_services
from tournaments.events.views.director._common import event_for_director
from tournaments.kernel.numbers import NumberRefused, optional_whole, whole
from tournaments.kernel.pages import act, base_url


@never_cache  # each table's tablet link and QR code is on it: credentials, never kept
@login_required
@require_GET
def event_room(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table's round, board and results, with the calls and the flagged results."""
    event = event_for_director(request, pk)
    links = {link.table: link for link in selectors.tablet_links(event, base_url(request))}
    return render(
        request,
        "tournaments/director/event_room.html",
        {
            "event": event,
            "room": selectors.room_view(event),
            "links": links,
            "default_clock": event.club.minutes_per_board * event.section.boards_per_round,
            "flagged": selectors.flagged_results(event),
            "unfinished_default": tablet_services.unfinished_average_code(event),
        },
    )


@login_required
@require_POST
def event_round_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Move every tablet on to the round the director names."""
    event = event_for_director(request, pk)
    try:
        number = whole(request.POST.get("round"), "The round", low=1)
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect("event-room", pk=event.pk)
    act(
        request,
        tablet_services.round_start,
        f"Round {number} has started: the tablets move on.",
        event=event,
        round=number,
        unfinished=request.POST.get("unfinished") or None,
    )
    return redirect("event-room", pk=event.pk)


@login_required
@require_POST
def event_round_clock(request: HttpRequest, pk: int) -> HttpResponse:
    """Start, restart or stop the round clock the room shows."""
    event = event_for_director(request, pk)
    if request.POST.get("stop"):
        act(request, tablet_services.round_clock_stop, "The round clock is stopped.", event=event)
        return redirect("event-room", pk=event.pk)
    try:
        minutes = optional_whole(request.POST.get("minutes"), "The round's length in minutes")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect("event-room", pk=event.pk)
    minutes = minutes or None  # 0 or nothing: the club's pace sets the clock
    act(
        request,
        tablet_services.round_clock_start,
        "The round clock is running.",
        event=event,
        minutes=minutes,
    )
    return redirect("event-room", pk=event.pk)


@login_required
@require_POST
def call_handled(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    """A table's call for the director has been answered: off the room's list."""
    event = event_for_director(request, pk)
    result_services.call_mark_handled(event=event, call_id=call_id, user=request.user)
    return redirect("event-room", pk=event.pk)
