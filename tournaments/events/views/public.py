"""Pages anyone may open: the home page, the clubs' published results, the health check.

The published results: standings, boards, pairs' score cards, players' histories, the room
display.

Anonymous readers see published events and those the director lets everyone follow live;
directors see every event (`selectors_public.event_for_reader`). What the pages show is built
in `events.views.published`, shared with the live stream (`events.views.live`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine.charts import line_chart
from engine.names import name_problem
from engine.publishing import board_frequencies, pair_card, row_for
from engine.scoring.document import StandingsDocument
from tournaments.events import access, selectors
from tournaments.events.models import Event, Pair
from tournaments.events.selectors import public as selectors_public
from tournaments.events.selectors.handicapped import event_handicapped
from tournaments.events.views.published import (
    board_context,
    boards_shown_to,
    cached_part,
    common_context,
    reader_event,
    reader_scope,
    results_context,
)
from tournaments.kernel.models import Club


@require_GET
def event_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Directors see live standings, updating themselves as results are scored (the page's
    live part, `?part=1`); everyone else only once the results are published."""
    event = get_object_or_404(Event, pk=pk)
    if event.status != Event.Status.PUBLISHED and not access.directs(request.user, event):
        if request.user.is_authenticated:
            raise Http404("No published results here.")
        return redirect(f"{reverse('login')}?next={request.path}")
    standings = selectors.latest_standings(event)
    document = StandingsDocument.from_dict(standings.data) if standings else None
    rows = [
        row
        for section in (document.sections if document else ())
        for field in section.fields
        for row in field.rows
    ]
    few = max((row.boards for row in rows), default=0) / 2
    template = (
        "tournaments/public/_event_standings.html"
        if request.GET.get("part")  # the live part, fetched again when a new version is stored
        else "tournaments/public/event_standings.html"
    )
    return render(
        request,
        template,
        {
            "event": event,
            "standings": document,
            "computed_at": standings.computed_at if standings else None,
            "few_boards": few,  # a pair under half the busiest pair's boards is marked *
            "has_few": any(row.boards < few for row in rows),
            "handicapped": event_handicapped(event, document),
            "many_sections": len(document.sections) > 1 if document else False,
        },
    )


# ---- published results --------------------------------------------------------------------


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "tournaments/public/club.html",
        {"club": club, "events": selectors_public.club_events(club)},
    )


def _live_part(
    request: HttpRequest,
    event: Event,
    template: str,
    context: Callable[[selectors_public.PublishedEvent], dict[str, Any]],
) -> HttpResponse:
    """A page's live part (what an open page fetches when new results are stored), rendered
    once per results snapshot and reader scope; when it is cached the snapshot is not even
    loaded."""
    snapshot = selectors_public.snapshot_key(event)
    key = f"part:{snapshot}:{reader_scope(request, event)}:{request.path}"
    return HttpResponse(
        cached_part(
            key,
            key,
            lambda: render_to_string(
                template,
                context(selectors_public.published_for(event, request.user, snapshot)),
                request=request,
            ),
        )
    )


@require_GET
def results_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's standings per field, with the field's spread of percentages."""
    event = reader_event(request, pk)
    if request.GET.get("part"):
        return _live_part(
            request,
            event,
            "tournaments/public/_standings.html",
            lambda results: results_context(
                event, results, boards_shown_to(request, event, results)
            ),
        )
    results = selectors_public.published_for(event, request.user)
    return render(
        request,
        "tournaments/public/results.html",
        results_context(event, results, boards_shown_to(request, event, results)),
    )


@require_GET
def board_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A board: the deal, dealer and trumps, double dummy and par when known, and every result
    with how often it happened and what it earned."""
    event = reader_event(request, pk)
    if not event.boards.filter(number=number).exists():
        raise Http404(f"There is no board {number} in this event.")
    if request.GET.get("part"):
        return _live_part(
            request,
            event,
            "tournaments/public/_board_results.html",
            lambda results: board_context(
                event, results, number, boards_shown_to(request, event, results)
            ),
        )
    results = selectors_public.published_for(event, request.user)
    context = board_context(event, results, number, boards_shown_to(request, event, results))
    return render(request, "tournaments/public/board.html", context)


@require_GET
def pair_page(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    """A pair's score card: every board, the opponents, the result, the points, against par."""
    event = reader_event(request, pk)
    results = selectors_public.published_for(event, request.user)
    if results.document is None:
        raise Http404("No results yet.")
    for section in results.document.sections:
        row = row_for(section, key)
        if row is not None:
            break
    else:
        raise Http404(f"There is no pair {key} in this event.")
    shown = boards_shown_to(request, event, results)
    card = [line for line in pair_card(section, row, results.info) if line.board in shown]
    running = [
        (str(r.board), float(r.running_percentage.value))
        for r in card
        if r.running_percentage is not None
    ]
    chart = line_chart(running, title=f"{row.names or key}: running percentage") if running else ""
    return render(
        request,
        "tournaments/public/pair.html",
        {
            **common_context(event, results, shown),
            "row": row,
            "key": key,
            "card": card,
            "chart": chart,
            "session_columns": section.session_columns,
        },
    )


@require_GET
def room_display(request: HttpRequest, pk: int) -> HttpResponse:
    """Full-screen standings for a screen or projector in the club room: large type, cycling
    through the fields and the latest boards, updating itself."""
    event = reader_event(request, pk)
    results = selectors_public.published_for(event, request.user)
    shown = boards_shown_to(request, event, results)
    latest: list[int] = []
    if results.document:
        played = [
            (info.round or 0, number)
            for (number, _ns), info in results.info.items()
            if str(number) in results.document.sections[0].boards and number in shown
        ]
        latest = sorted({n for _, n in sorted(played)[-12:]})
    frequencies = (
        {
            number: board_frequencies(results.document.sections[0], number, results.info)
            for number in latest
        }
        if results.document
        else {}
    )
    return render(
        request,
        "tournaments/public/display.html",
        {**common_context(event, results, shown), "latest": frequencies},
    )


@require_GET
def players_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "tournaments/public/players.html",
        {
            "club": club,
            "players": selectors_public.player_names(club),
            "members": selectors_public.member_pages(club),
        },
    )


def _refuse_unstorable(name: str) -> None:
    """A name the names rule refuses (a NUL, a control character, longer than the column) was
    never stored: not found, without asking the database (which may refuse a NUL outright)."""
    if name_problem(name, max_length=Pair._meta.get_field("player1").max_length or 0):
        raise Http404("No player of that name here.")


@require_GET
def player_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's published events at the club. The name travels as a query parameter
    (`?name=A%2FN%20Other`), never in the path: any name a director may type ("/", "&", "?",
    accents) makes a working link."""
    club = get_object_or_404(Club, slug=slug)
    name = request.GET.get("name", "")
    if not name:
        return redirect("public-players", slug=club.slug)
    _refuse_unstorable(name)
    history = selectors_public.player_history(club, name)
    if not history:
        raise Http404(f"{name} has no published results at {club.name}.")
    points = [
        (f"{h.event.date:%d %b}", float(h.row.percentage.value))
        for h in history
        if h.row is not None and h.row.percentage is not None
    ]
    chart = line_chart(points, title=f"{name}: percentage by event") if points else ""
    return render(
        request,
        "tournaments/public/player.html",
        {
            "club": club,
            "name": name,
            "history": history,
            "chart": chart,
            "member": selectors_public.member_pages(club).get(name),
        },
    )


@require_GET
def player_page_by_path(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """The old address of a player's page (`players/<name>/`), kept so that links already
    shared still work: it sends the reader on to the page's address."""
    club = get_object_or_404(Club, slug=slug)
    _refuse_unstorable(name)
    target = f"{reverse('public-player', kwargs={'slug': club.slug})}?{urlencode({'name': name})}"
    return redirect(target, permanent=True)
