"""The results pages' live updates: the version check and the stream of new live parts.

"Has anything changed?" for browsers without a stream; the stream pushes an open page its new
live part the moment newer standings are stored."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from django.db import connection
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import live
from tournaments.models import Event
from tournaments.selectors import public as selectors_public
from tournaments.services.scoring import scored_version
from tournaments.views.published import (
    board_context,
    boards_shown_to,
    cached_part,
    reader_event,
    reader_scope,
    results_context,
)


@never_cache
@require_GET
def results_version(request: HttpRequest, pk: int) -> JsonResponse:
    """The cheapest answer to "has anything changed?", for browsers without a stream."""
    event = reader_event(request, pk)
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
            return results_context(event, results, boards_shown_to(request, event, results))

    elif match.url_name == "public-board":
        number = int(match.kwargs["number"])
        template = "tournaments/public/_board_results.html"

        def context(results: selectors_public.PublishedEvent) -> dict[str, Any]:
            return board_context(event, results, number, boards_shown_to(request, event, results))

    else:
        return None
    scope = reader_scope(request, event)

    def html(version: int) -> str:
        # Keyed by the version the stream was told of, so no database is asked to find it.
        return cached_part(
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
    web server with threads for it (see docs/operations/production.md).
    """
    event = reader_event(request, pk)
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
