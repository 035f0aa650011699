"""Pages anyone may open: the home page, the clubs' published results (standings, boards,
pairs' score cards, players' histories, the room display), and the health check.

Anonymous readers see published events and those the director lets everyone follow live;
directors see every event (`selectors_public.event_for_reader`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from engine.charts import bar_chart, filled_bins, line_chart
from engine.dd.analysis import par_line
from engine.diagrams import board_facts, jokers_of, suit_rows
from engine.publishing import board_frequencies, pair_card, percentage_spread, row_for
from engine.scoring.document import StandingsDocument
from tournaments import access, selectors, selectors_public
from tournaments.health import run_checks
from tournaments.models import Club, Event
from tournaments.services import live
from tournaments.services.scoring import scored_version


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_visible(request.user)
    return render(request, "home.html", {"events": events})


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """ok/down for each part, for monitors; the details for staff only (tournaments/health.py)."""
    checks = run_checks()
    healthy = not any(check.failing for check in checks)
    staff = request.user.is_authenticated and request.user.is_staff
    body = {
        "status": "ok" if healthy else "down",
        "checks": {check.name: check.as_dict(detail=staff) for check in checks},
    }
    return JsonResponse(body, status=200 if healthy else 503)


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
        },
    )


# ---- published results --------------------------------------------------------------------


def _reader_event(request: HttpRequest, pk: int) -> Event:
    return selectors_public.event_for_reader(pk, request.user)


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "tournaments/public/club.html",
        {"club": club, "events": selectors_public.club_events(club)},
    )


def _cached_part(key: str, lock: str, render: Callable[[], str]) -> str:
    """A rendered live part: from this process's memory, else the shared cache, else rendered
    by one thread per process (`lock`) while the others wait for its copy. Every reader of a
    live evening wants the same part at the same moment."""
    found = selectors_public.recent_part(key) or cache.get(key)
    if found is None:
        with selectors_public.single_flight(lock):
            found = selectors_public.recent_part(key) or cache.get(key)
            if found is None:
                found = render()
                cache.set(key, found, selectors_public.CACHE_SECONDS)
    selectors_public.keep_part(key, str(found))
    return str(found)


def _scope(request: HttpRequest, event: Event) -> str:
    """Which copy of a page part this reader gets: the whole one, or the public one that hides
    unfinished boards. Part of every cache key, so no reader is served the other's copy."""
    return "all" if selectors_public.sees_everything(event, request.user) else "public"


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
    key = f"part:{snapshot}:{_scope(request, event)}:{request.path}"
    return HttpResponse(
        _cached_part(
            key,
            key,
            lambda: render_to_string(
                template, context(selectors_public.published(event, snapshot)), request=request
            ),
        )
    )


def _common(
    event: Event, results: selectors_public.PublishedEvent, shown: frozenset[int]
) -> dict[str, Any]:
    return {
        "event": event,
        "results": results,
        "document": results.document,
        "rules": results.rules,
        "live": event.status != Event.Status.PUBLISHED,
        "shown": shown,
        "shown_boards": sorted(shown),
        "hidden_boards": len(results.boards) - len(shown),
    }


def _shown(
    request: HttpRequest, event: Event, results: selectors_public.PublishedEvent
) -> frozenset[int]:
    return selectors_public.boards_shown(event, request.user, results)


@require_GET
def results_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's standings per field, with the field's spread of percentages."""
    event = _reader_event(request, pk)
    if request.GET.get("part"):
        return _live_part(
            request,
            event,
            "tournaments/public/_standings.html",
            lambda results: _results_context(event, results, _shown(request, event, results)),
        )
    results = selectors_public.published(event)
    return render(
        request,
        "tournaments/public/results.html",
        _results_context(event, results, _shown(request, event, results)),
    )


def _results_context(
    event: Event, results: selectors_public.PublishedEvent, shown: frozenset[int]
) -> dict[str, Any]:
    sections: list[dict[str, Any]] = []
    for section in results.document.sections if results.document else ():
        spread = percentage_spread(section)
        sections.append(
            {
                "section": section,
                "spread": bar_chart(spread, title="How the field finished (%)") if spread else "",
            }
        )
    most = max(
        (
            row.boards
            for section in (results.document.sections if results.document else ())
            for f in section.fields
            for row in f.rows
        ),
        default=0,
    )
    # A pair that played under half the boards the others did is marked: its percentage
    # rests on few boards (a late arrival, a pair that left early).
    return {**_common(event, results, shown), "sections": sections, "few_boards": most / 2}


@require_GET
def board_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A board: the deal, dealer and trumps, double dummy and par when known, and every result
    with how often it happened and what it earned."""
    event = _reader_event(request, pk)
    if not event.boards.filter(number=number).exists():
        raise Http404(f"There is no board {number} in this event.")
    if request.GET.get("part"):
        return _live_part(
            request,
            event,
            "tournaments/public/_board_results.html",
            lambda results: _board_context(event, results, number, _shown(request, event, results)),
        )
    results = selectors_public.published(event)
    context = _board_context(event, results, number, _shown(request, event, results))
    return render(request, "tournaments/public/board.html", context)


def _board_context(
    event: Event, results: selectors_public.PublishedEvent, number: int, shown: frozenset[int]
) -> dict[str, Any]:
    numbers = sorted(shown)
    around = {
        "previous": max((n for n in numbers if n < number), default=None),
        "next": min((n for n in numbers if n > number), default=None),
    }
    if number not in shown:
        # Still being played somewhere: nothing of the board, not even its par.
        return {**_common(event, results, shown), **around, "number": number, "hidden": True}
    played = results.board(number)
    rows = []
    chart = ""
    if results.document:
        section = results.document.sections[0]
        rows = board_frequencies(section, number, results.info)
        scored = [(f"{row.ns_score:+d}", row.count) for row in rows if row.ns_score is not None]
        scored.sort(key=lambda bar: int(bar[0]))
        bars = filled_bins(scored) + [
            (row.artificial, row.count) for row in rows if row.ns_score is None and row.artificial
        ]
        chart = bar_chart(bars, title=f"Board {number}: NS scores") if bars else ""
    return {
        **_common(event, results, shown),
        **around,
        "hidden": False,
        "number": number,
        "facts": board_facts(played),
        "hands": _hands(played),
        "kitty": suit_rows(played.kitty) if played.kitty else None,
        "kitty_jokers": jokers_of(played.kitty),
        "turned": played.turned_card.pretty() if played.turned_card else "",
        "analysis": results.analyses.get(number),
        "par_text": par_line(results.analyses[number]) if number in results.analyses else "",
        "rows": rows,
        "chart": chart,
    }


def _hands(board: Any) -> list[dict[str, Any]]:
    """Each seat's hand for the diagram: by suit, or as its columns (Open Whist)."""
    hands = []
    for seat in board.seats:
        cards = board.deal.hand(seat)
        columns = board.columns.get(seat) if board.columns else None
        hands.append(
            {
                "seat": seat.full_name,
                "key": seat.value,
                "dealer": seat is board.dealer,
                "rows": suit_rows(cards),
                "jokers": jokers_of(cards),
                "columns": [[c.pretty() for c in column] for column in columns]
                if columns
                else None,
            }
        )
    return hands


@require_GET
def pair_page(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    """A pair's score card: every board, the opponents, the result, the points, against par."""
    event = _reader_event(request, pk)
    results = selectors_public.published(event)
    if results.document is None:
        raise Http404("No results yet.")
    for section in results.document.sections:
        row = row_for(section, key)
        if row is not None:
            break
    else:
        raise Http404(f"There is no pair {key} in this event.")
    shown = _shown(request, event, results)
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
            **_common(event, results, shown),
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
    event = _reader_event(request, pk)
    results = selectors_public.published(event)
    shown = _shown(request, event, results)
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
        {**_common(event, results, shown), "latest": frequencies},
    )


@never_cache
@require_GET
def results_version(request: HttpRequest, pk: int) -> JsonResponse:
    """The cheapest answer to "has anything changed?", for browsers without a stream."""
    event = _reader_event(request, pk)
    return JsonResponse({"version": scored_version(event.pk), "status": event.status})


STREAM_SECONDS = 55  # then the browser reconnects by itself (EventSource)
STREAM_CHECK = 0.5  # seconds between two looks at the cached version without Redis pub/sub
STREAM_POLL = 3.0  # with pub/sub: a look anyway this often, in case a message was missed


def _stream_part(request: HttpRequest, event: Event, page: str) -> Callable[[int], str] | None:
    """For a stream opened by a page with a live part (the standings, a board): a function
    giving that part's HTML now. None for other pages (they are sent the version only)."""
    try:
        match = resolve(page)
    except Resolver404:
        return None
    if match.kwargs.get("pk") != event.pk:
        return None
    if match.url_name == "public-results":
        template = "tournaments/public/_standings.html"

        def context(results: selectors_public.PublishedEvent) -> dict[str, Any]:
            return _results_context(event, results, _shown(request, event, results))

    elif match.url_name == "public-board":
        number = int(match.kwargs["number"])
        template = "tournaments/public/_board_results.html"

        def context(results: selectors_public.PublishedEvent) -> dict[str, Any]:
            return _board_context(event, results, number, _shown(request, event, results))

    else:
        return None
    scope = _scope(request, event)

    def html(version: int) -> str:
        # Keyed by the version the stream was told of, so no database is asked to find it.
        return _cached_part(
            f"livepart:{event.pk}:{version}:{scope}:{page}",
            f"livepart:{event.pk}:{scope}:{page}",
            lambda: render_to_string(
                template, context(selectors_public.published(event)), request=request
            ),
        )

    return html


@never_cache
@require_GET
def results_stream(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """Server-sent events: each time newer standings are stored, the page's new live part
    itself (`part`, with the version as the event id) when the page says which it is
    (`?page=<its path>`: the standings or a board), else a `version` event.

    A reader keeps one open connection instead of asking every few seconds, and gets the new
    part on it instead of asking for it: a room of readers costs one render per version per
    process (single flight, cached) and no request each. The stream is woken by Redis pub/sub
    the moment a version is stored (`services.live`; without Redis it looks at a cached number
    twice a second), never asks the database between versions, holds a connection only while
    it renders a part, and ends after STREAM_SECONDS so no connection lives for ever. Run the
    web server with threads for it (see README).
    """
    event = _reader_event(request, pk)
    last = scored_version(event.pk)
    part = _stream_part(request, event, request.GET.get("page", ""))
    # A stream may stay open a minute and needs no database between versions (it reads the
    # cache): give this thread's connection back now, or a room of readers would exhaust
    # PostgreSQL's.
    connection.close()

    def send(now: int) -> str:
        if part is None:
            return f"event: version\ndata: {now}\n\n"
        try:
            html = part(now)
        finally:
            connection.close()
        lines = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
        return f"event: part\nid: {now}\n{lines}\n"

    def events() -> Iterator[str]:
        nonlocal last
        yield f"retry: 3000\nevent: version\ndata: {last}\n\n"
        ends = time.monotonic() + STREAM_SECONDS
        beat = time.monotonic()
        while time.monotonic() < ends:
            heard = live.wait_for_newer(event.pk, last, fallback=STREAM_CHECK, poll=STREAM_POLL)
            now = scored_version(event.pk, database=False)
            if heard is not None and (now is None or heard > now):
                now = heard
            if now is not None and now != last:
                last = now
                yield send(now)
            elif time.monotonic() - beat > 15:
                beat = time.monotonic()
                yield ": still here\n\n"

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_GET
def players_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "tournaments/public/players.html",
        {"club": club, "players": selectors_public.player_names(club)},
    )


@require_GET
def player_page(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
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
        {"club": club, "name": name, "history": history, "chart": chart},
    )
