"""The event's pairs: their players' names, who is absent, and two pairs changing places."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tournaments.events.models import Pair
from tournaments.events.services import events as event_services
from tournaments.events.views.director._common import event_for_director
from tournaments.kernel.numbers import NumberRefused, whole
from tournaments.kernel.pages import act


@login_required
@require_POST
def event_pairs(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the names (and absences) typed into the event page's pair list, all at once."""
    event = event_for_director(request, pk)
    names = {}
    absent = {}
    for pair_id in Pair.objects.filter(section__event=event).values_list("pk", flat=True):
        first = request.POST.get(f"pair-{pair_id}-1")
        second = request.POST.get(f"pair-{pair_id}-2")
        if first is not None and second is not None:
            names[pair_id] = (first, second)
        absent[pair_id] = request.POST.get(f"pair-{pair_id}-absent") == "on"
    act(
        request,
        event_services.pairs_update,
        "Pair names saved.",
        event=event,
        names=names,
        absent=absent,
    )
    return redirect(event)


@login_required
@require_POST
def event_move_pair(request: HttpRequest, pk: int) -> HttpResponse:
    """Swap two pairs' places in the movement (a pair seated at the wrong table)."""
    event = event_for_director(request, pk)
    pairs = Pair.objects.filter(section__event=event)
    try:
        first = pairs.get(pk=whole(request.POST.get("first"), "The first pair", low=1))
        second = pairs.get(pk=whole(request.POST.get("second"), "The second pair", low=1))
    except (Pair.DoesNotExist, NumberRefused):
        messages.error(request, "Choose two pairs of this event.")
        return redirect(event)
    act(
        request,
        event_services.pairs_swap,
        f"{first.label} and {second.label} have changed places.",
        event=event,
        first=first,
        second=second,
        reason=request.POST.get("reason", ""),
    )
    return redirect(event)
