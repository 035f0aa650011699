"""The event's pairs: their players' names, who is absent, two pairs changing places, and a
pair that comes late or leaves early."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tournaments.events.models import Pair
from tournaments.events.services import events as event_services
from tournaments.events.services import presence
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


def _round_of(request: HttpRequest) -> int | None:
    try:
        return whole(request.POST.get("round"), "The round", low=1)
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return None


@login_required
@require_POST
def event_pair_leave(request: HttpRequest, pk: int) -> HttpResponse:
    """A pair goes home early: a phantom from the round the director names."""
    event = event_for_director(request, pk)
    pair = Pair.objects.filter(section__event=event, pk=request.POST.get("pair") or 0).first()
    rnd = _round_of(request)
    if pair is None:
        messages.error(request, "Choose the pair that leaves.")
    elif rnd is not None:
        act(
            request,
            presence.pair_leave,
            f"{pair.label} leaves: from round {rnd} its opponents sit out.",
            event=event,
            pair=pair,
            round=rnd,
            award=request.POST.get("award") or None,
        )
    return redirect(f"{event.get_absolute_url()}#late-and-leaving")


@login_required
@require_POST
def event_pair_arrive(request: HttpRequest, pk: int) -> HttpResponse:
    """A late pair plays from the round the director names, in an absent slot or the
    phantom's place."""
    event = event_for_director(request, pk)
    chosen = request.POST.get("pair") or "phantom"
    pair: Pair | None = None
    if chosen != "phantom":
        pair = Pair.objects.filter(
            section__event=event, pk=chosen if chosen.isdigit() else 0
        ).first()
        if pair is None:
            messages.error(request, "Choose the pair slot the late pair takes.")
            return redirect(f"{event.get_absolute_url()}#late-and-leaving")
    rnd = _round_of(request)
    if rnd is not None:
        act(
            request,
            presence.pair_arrive,
            f"The late pair plays from round {rnd}.",
            event=event,
            round=rnd,
            pair=pair,
            names=(request.POST.get("player1", ""), request.POST.get("player2", "")),
            award=request.POST.get("award") or None,
        )
    return redirect(f"{event.get_absolute_url()}#late-and-leaving")


@login_required
@require_POST
def event_pair_presence_undo(request: HttpRequest, pk: int, pair_id: int) -> HttpResponse:
    """Take back a pair's last arrival or departure, recorded by mistake."""
    event = event_for_director(request, pk)
    pair = Pair.objects.filter(section__event=event, pk=pair_id).first()
    if pair is None:
        messages.error(request, "That pair is not in this event.")
    else:
        act(
            request,
            presence.presence_undo,
            f"{pair.label}: the last arrival or departure is undone.",
            event=event,
            pair=pair,
            reason=request.POST.get("reason", ""),
        )
    return redirect(f"{event.get_absolute_url()}#late-and-leaving")
