"""An event's life for its director: set-up, its page, start, publish, close, reopen, live.

"Live": letting everyone follow the running event's results."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from engine.games import find_variant, variant_names
from engine.movements import advise, why
from tournaments.events import selectors
from tournaments.events.bridge import rules_for
from tournaments.events.forms import (
    EventSetupForm,
    ImportBoardsForm,
    option_fields,
    options_from_post,
)
from tournaments.events.models import Event, Pair
from tournaments.events.selectors import events as selectors_events
from tournaments.events.services import analysis as analysis_services
from tournaments.events.services import closing as closing_services
from tournaments.events.services import events as event_services
from tournaments.events.views.director._common import event_for_director
from tournaments.events.views.director.tablet_links import links_warning
from tournaments.kernel.access import clubs_for, is_admin
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.member_links import member_suggestions
from tournaments.kernel.pages import FIRST_CLUB, act, base_url, no_club


def _games_with_options(posted: Any = None) -> list[dict[str, Any]]:
    return [
        {"name": n, "title": find_variant(n).title, "options": option_fields(n, posted)}
        for n in variant_names()
    ]


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """Two steps on one page: the event's details, then the advisor's movements to pick from.

    An administrator with no club yet sees the form as if the first club were there; that
    club is made when the event is created, so opening the page writes nothing."""
    suggestions = []
    error = ""
    clubs = clubs_for(request.user)
    first_club = not clubs.exists()
    if first_club and not is_admin(request.user):
        return no_club(request)
    form = EventSetupForm(request.POST or None, clubs=clubs, first_club=first_club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game = data["game"]
        options = options_from_post(game, request.POST)
        suggestions = advise(data["pairs"], data["boards"])
        choice = request.POST.get("choice", "")
        if choice:
            chosen = next((s for s in suggestions if _suggestion_id(s) == choice), None)
            if chosen is None:
                error = "That movement is not offered for this number of pairs; pick again."
            else:
                try:
                    event = event_services.event_create(
                        club=data["club"] or club_get_or_create(name=FIRST_CLUB),
                        name=data["name"],
                        date=data["date"],
                        game=game,
                        options=options,
                        method=data["method"],
                        scale=data["scale"],
                        movement_kind=chosen.kind,
                        movement_params=dict(chosen.params),
                        advance=data["advance"] or Event.Advance.TABLE,
                        user=request.user,
                    )
                except ValueError as exc:
                    error = str(exc)
                else:
                    messages.success(request, f"Event created: {event.name}. Now name the pairs.")
                    return redirect(event)
        elif not suggestions:
            error = "No movement suits that number of pairs and boards; change them."
        else:
            try:
                find_variant(game)(options)
            except ValueError as exc:
                error = str(exc)
    return render(
        request,
        "tournaments/director/event_new.html",
        {
            "form": form,
            "games": _games_with_options(request.POST if request.method == "POST" else None),
            "suggestions": [(_suggestion_id(s), s) for s in suggestions],
            "why": why(suggestions[0], minutes_per_board=_club_pace(form, clubs))
            if suggestions
            else "",
            "error": error,
        },
    )


def _club_pace(form: EventSetupForm, clubs: Any) -> int:
    """The minutes a board of the club the event is for (the advisor's timings use it); a
    first club not made yet has the clubs' default."""
    club = form.cleaned_data.get("club") if hasattr(form, "cleaned_data") else None
    club = club or clubs.first()
    return club.minutes_per_board if club is not None else 7


def _suggestion_id(s: Any) -> str:
    params = ",".join(f"{k}={v}" for k, v in sorted(dict(s.params).items()))
    return f"{s.kind}:{params}"


@never_cache  # it shows the tables' links and QR codes, which are credentials: never kept
@login_required
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's page: pairs, boards, par, standings, tablet links and the latest changes."""
    event = event_for_director(request, pk)
    section = event.section
    pairs = sorted(
        Pair.objects.filter(section=section),
        key=lambda p: (p.direction != "NS", p.direction, p.number),
    )
    return render(
        request,
        "tournaments/director/event_detail.html",
        {
            "event": event,
            "section": section,
            "tables_words": selectors_events.tables_words(section),
            "pairs": pairs,
            "member_names": member_suggestions(event.club),
            "rules": rules_for(event),
            "boards": event.boards.count(),
            "analysis": analysis_services.analysis_progress(event),
            "import_form": ImportBoardsForm(),
            "standings": selectors.latest_standings(event),
            "links": selectors.tablet_links(event, base_url(request)),
            "links_warning": links_warning(request, event),
            "unnamed": [p for p in pairs if not p.is_phantom and not (p.player1 or p.player2)],
            "presence": selectors_events.presence_lines(pairs),
            "award_choices": selectors_events.award_choices(event),
            "phantom_place": selectors_events.phantom_place(section),
            "audit": event.audit.select_related("user")[:8],
            "closing": closing_services.closing_report(event)
            if event.status == Event.Status.FINISHED
            else None,
        },
    )


@login_required
@require_POST
def event_status(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Start, publish, finish (through the close page) or reopen the event."""
    event = event_for_director(request, pk)
    actions = {
        "start": (event_services.event_start, "The event has started: result entry is open."),
        "publish": (event_services.event_publish, "The results are published."),
    }
    if action == "publish" and request.POST.get("confirm") != "yes":
        messages.error(request, "Tick “I have checked the standings” to publish them.")
        return redirect(event)
    if action == "start" and request.POST.get("confirm") != "yes":
        # Starting fixes the movement and the boards: asked for, not done on one stray click.
        messages.error(
            request,
            "Tick “Start now” to start the event: the pairs, movement and boards are then fixed.",
        )
        return redirect(event)
    if action == "finish":
        decided = "missing" in request.POST or "confirm" in request.POST
        if not decided:
            # Closing makes the scores final: the close page says what is still missing (or
            # that nothing is) and asks first.
            return redirect("event-close", pk=event.pk)
        done = act(
            request,
            closing_services.event_close,
            "The event is closed and the scores are final.",
            event=event,
            missing=request.POST.get("missing") or None,
            confirm=request.POST.get("confirm") == "yes",
        )
        if not done and event.status == Event.Status.RUNNING:
            return redirect("event-close", pk=event.pk)
    elif action == "reopen":
        act(
            request,
            event_services.event_reopen,
            "The event is open again.",
            event=event,
            reason=request.POST.get("reason", ""),
        )
    elif action in actions:
        service, success = actions[action]
        act(request, service, success, event=event)
    else:
        raise Http404(action)
    return redirect(event)


@login_required
@require_GET
def event_close_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Before closing: what is still missing, and the director's decisions about it."""
    event = event_for_director(request, pk)
    if event.status != Event.Status.RUNNING:
        return redirect(event)
    return render(
        request,
        "tournaments/director/event_close.html",
        {
            "event": event,
            "report": closing_services.closing_report(event),
            "choices": closing_services.MISSING_CHOICES,
        },
    )


@login_required
@require_POST
def event_live_public(request: HttpRequest, pk: int) -> HttpResponse:
    """Let everyone follow the running event's results live, or only its directors."""
    event = event_for_director(request, pk)
    live = request.POST.get("live") == "1"
    act(
        request,
        event_services.event_set_live_public,
        "Everyone can follow the results live." if live else "Live results are for you only.",
        event=event,
        live=live,
    )
    return redirect(event)
