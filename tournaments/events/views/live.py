"""The results pages' live updates: the version check and the stream of new live parts.

"Has anything changed?" for browsers without a stream, or turned away from one; the stream
pushes an open page its new live part the moment newer standings are stored."""

from __future__ import annotations

import asyncio
import functools
import random
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.events.models import Event
from tournaments.events.selectors import public as selectors_public
from tournaments.events.services.scoring import scored_version
from tournaments.events.views.published import (
    board_context,
    boards_shown_to,
    cached_part,
    reader_event,
    reader_scope,
    results_context,
)
from tournaments.kernel import live
from tournaments.kernel.streams import (
    STREAM_CHECK,
    STREAM_POLL,
    in_thread,
    reconnect_ms,
    shared_call,
)


@never_cache
@require_GET
def results_version(request: HttpRequest, pk: int) -> JsonResponse:
    """The cheapest answer to "has anything changed?", for browsers without a stream."""
    event = reader_event(request, pk)
    return JsonResponse({"version": scored_version(event.pk), "status": event.status})


#: Then the browser reconnects by itself (EventSource). Five minutes: an opening costs the
#: web process a thread, its middleware and a query, and with streams of 55 s a room of 1,000
#: readers opened 18 a second, which alone took the tablets' p95 from 44 ms to 55 ms. A
#: proxy sees a heartbeat at least every 20 s (STREAM_POLL + 15), so it never times out.
STREAM_SECONDS = 300
#: Each stream lives STREAM_SECONDS give or take this share, at random: a room of readers who
#: opened the page together (the results go up, everyone looks) would otherwise reconnect
#: together every STREAM_SECONDS, a storm of openings that took the tablets' p95 from 48 ms
#: to 260 ms in the 1,000-reader benchmark.
STREAM_SPREAD = 0.25
#: A stream sends at most one new part every `part_spacing()` seconds: the first change at
#: once, the versions stored meanwhile as one part, the newest. The spacing is as short as the
#: process can afford, so a reader sees a result a moment after it is confirmed: at least
#: PART_SPACING_LEAST, and PART_SPACING_PER_STREAM for each stream the process follows, so it
#: sends at most about a hundred parts a second however many readers it has (a room of 500
#: streams in a process waits 5 s, a club's handful a tenth of a second); never more than
#: PART_SPACING. Rendering is held to a share of the process too (`_RenderBudget`).
PART_SPACING = 5.0
PART_SPACING_LEAST = 0.1
PART_SPACING_PER_STREAM = 0.01
#: A page's part may take PART_RENDER_SHARE of its process's time, with PART_RENDER_BURST
#: seconds of rendering in hand: a big evening's standings (tens of ms of the interpreter, which
#: also answers the tablets) are rendered less often, while a first render, slow because
#: nothing is warm yet, costs the readers nothing.
PART_RENDER_SHARE = 0.2
PART_RENDER_BURST = 0.5
#: A new version reaches every stream of a process at the same moment; each waits a random
#: moment before sending, up to this many seconds for each stream open in the process (2 s
#: for 500), so a room of readers is sent its parts over a second or two instead of in one
#: turn of the event loop, which the tablets' answers would wait behind (the 1,000-reader
#: benchmark: tablets' p95 280-540 ms with the parts sent together).
PART_STAGGER_PER_STREAM = 0.004
PART_STAGGER_MOST = 2.0
#: A reader turned away asks the version endpoint this often instead (static/js/live.js says
#: the same, with a little jitter so a room of them does not ask in step).
BUSY_POLL_SECONDS = 15

T = TypeVar("T")


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
                template,
                context(selectors_public.published_for(event, request.user)),
                request=request,
            ),
        )

    return html


def _client_address(request: HttpRequest) -> str:
    """The reader's address as the login lockout sees it (behind TRUSTED_PROXY_COUNT proxies,
    the client's, not the proxy's): the per-address cap must count people, not the proxy."""
    return str(settings.AXES_CLIENT_IP_CALLABLE(request) or "unknown")


def _caps(request: HttpRequest) -> dict[str, int]:
    """The caps that apply to this stream. Under ASGI a stream is a coroutine and costs no
    thread; under WSGI (`make run`, or gunicorn with threads) each holds a thread the tablets
    may need, so far fewer are let in."""
    threaded = not isinstance(request, ASGIRequest)
    return {
        "per_process": (
            settings.LIVE_STREAMS_THREADED if threaded else settings.LIVE_STREAMS_PER_PROCESS
        ),
        "per_address": settings.LIVE_STREAMS_PER_ADDRESS,
    }


def _busy(reason: str) -> str:
    """What a reader turned away is told: the reason, and that the page goes on by itself."""
    return (
        f"{reason[0].upper()}{reason[1:]}. This page checks for new results every "
        f"{BUSY_POLL_SECONDS} seconds instead."
    )


def _sse_part(now: int, html: str) -> str:
    lines = "".join(f"data: {line}\n" for line in html.splitlines() or [""])
    return f"event: part\nid: {now}\n{lines}\n"


_RECENT_VERSIONS: dict[int, tuple[float, int | None]] = {}


_PART_TICKS: dict[tuple[int, str], tuple[float, int]] = {}


class _RenderBudget:
    """The seconds of rendering a page's part may still take in this process (a token bucket:
    it fills at PART_RENDER_SHARE of the time, up to PART_RENDER_BURST; each render spends
    what it took). Overdrawn, the page's streams wait until it is back to nothing."""

    def __init__(self) -> None:
        self.left, self.at = PART_RENDER_BURST, time.monotonic()

    def _filled(self, now: float) -> float:
        return min(PART_RENDER_BURST, self.left + (now - self.at) * PART_RENDER_SHARE)

    def full(self, now: float) -> bool:
        return self._filled(now) >= PART_RENDER_BURST

    def spend(self, seconds: float) -> None:
        now = time.monotonic()
        self.left, self.at = self._filled(now) - seconds, now

    def wait(self) -> float:
        """Seconds from now until a render may be started again."""
        return max(0.0, -self._filled(time.monotonic()) / PART_RENDER_SHARE)


_RENDER_BUDGETS: dict[str, _RenderBudget] = {}
_RENDER_BUDGETS_KEPT = 256  # pages; beyond, the full budgets (pages idle a while) are dropped
_RENDER_BUDGETS_LOCK = threading.Lock()  # renders run in threads (several at once under WSGI)


def _spend_rendering(shared_as: str, seconds: float) -> None:
    """Charge a render to its page's budget. A process serves many events' pages over the
    months, so budgets back to full, which say nothing, are forgotten once there are many."""
    with _RENDER_BUDGETS_LOCK:
        if shared_as not in _RENDER_BUDGETS and len(_RENDER_BUDGETS) >= _RENDER_BUDGETS_KEPT:
            now = time.monotonic()
            for page in [k for k, b in _RENDER_BUDGETS.items() if b.full(now)]:
                del _RENDER_BUDGETS[page]
        _RENDER_BUDGETS.setdefault(shared_as, _RenderBudget()).spend(seconds)


def part_spacing(shared_as: str) -> float:
    """How long a stream of this page waits between two parts now (see PART_SPACING_*)."""
    streams = live.SLOTS.counts()[0]
    budget = _RENDER_BUDGETS.get(shared_as)
    rendering = budget.wait() if budget is not None else 0.0
    least = max(PART_SPACING_LEAST, streams * PART_SPACING_PER_STREAM, rendering)
    return min(PART_SPACING, least)


def _part_version(shared_as: str, newest: int, spacing: float) -> tuple[int, float]:
    """Which version's part a stream sends now, and until when that stays the answer: the
    version this process last began sending, if that was under `spacing` ago, else `newest`.
    So a process renders a page's part at most once a spacing however fast versions are
    stored (a busy evening stores several a second, and a render of a 100-table evening's
    standings takes the web process's interpreter for tens of ms)."""
    slot = (id(asyncio.get_running_loop()), shared_as)
    now = time.monotonic()
    tick = _PART_TICKS.get(slot)
    if tick is not None and now - tick[0] < spacing and tick[1] <= newest:
        return tick[1], tick[0] + spacing
    _PART_TICKS[slot] = (now, newest)
    return newest, now + spacing


def _stagger() -> float:
    """How long a stream waits before sending a new version's part (see PART_STAGGER_*)."""
    streams = live.SLOTS.counts()[0]
    return random.uniform(0, min(PART_STAGGER_MOST, streams * PART_STAGGER_PER_STREAM))


async def _recent_version(event_id: int) -> int | None:
    """The cached standings version, read at most every STREAM_CHECK seconds per process."""
    seen = _RECENT_VERSIONS.get(event_id)
    if seen is not None and time.monotonic() - seen[0] < STREAM_CHECK:
        return seen[1]
    found = await shared_call(
        f"version:{event_id}", lambda: scored_version(event_id, database=False)
    )
    _RECENT_VERSIONS[event_id] = (time.monotonic(), found)
    return found


@never_cache
@require_GET
def results_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Server-sent events: each time newer standings are stored, the page's new live part
    itself (`part`, with the version as the event id) when the page says which it is
    (`?page=<its path>`: the standings or a board), else a `version` event.

    A reader keeps one open connection instead of asking every few seconds, and gets the new
    part on it instead of asking for it: a room of readers costs one render per version per
    process (single flight, cached) and no request each. The stream is woken by Redis pub/sub
    the moment a version is stored (`tournaments.kernel.live`; without Redis it looks at a cached
    number twice a second), never asks the database between versions, holds a connection
    only while it renders a part, and ends after STREAM_SECONDS so no connection lives for ever.
    A stream sends at most one part a spacing (`part_spacing`: a tenth of a second for a
    club's handful of readers, up to 5 s for a room of hundreds or a slow render): the first
    change at once, the versions stored meanwhile as one part, the newest. A busy evening
    stores several versions a second; a reader sees no difference.

    Served by ASGI (gunicorn's uvicorn worker, as production and the club laptop run it),
    the stream is a coroutine of the event loop and holds no thread: this view runs in a
    thread only to check the reader and find the part. Under WSGI (`make run`) it holds a
    thread, as it must. Either way a process follows at most so many streams, and so many
    from one address (settings LIVE_STREAMS_*): a reader over a cap gets a 503 saying why,
    and the page asks the version endpoint every BUSY_POLL_SECONDS instead
    (static/js/live.js).
    """
    event = reader_event(request, pk)
    address, caps = _client_address(request), _caps(request)
    refusal = live.SLOTS.refusal(address, **caps)
    if refusal is not None:
        busy = HttpResponse(_busy(refusal), status=503, content_type="text/plain; charset=utf-8")
        busy["Retry-After"] = str(BUSY_POLL_SECONDS)
        return busy
    last = scored_version(event.pk)
    page = request.GET.get("page", "")
    part = _stream_part(request, event, page)
    # Streams of one scope and page share each render (see `shared_call`).
    shared_as = f"part:{event.pk}:{reader_scope(request, event)}:{page}"
    # A stream may stay open a minute and needs no database between versions (it reads the
    # cache): give this thread's connection back now, or a room of readers would exhaust
    # PostgreSQL's.
    connection.close()

    def render(now: int) -> str:
        if part is None:
            return f"event: version\ndata: {now}\n\n"
        started = time.thread_time()  # the interpreter's time the render takes, not waits
        try:
            return _sse_part(now, part(now))
        finally:
            connection.close()
            taken = time.thread_time() - started
            _spend_rendering(shared_as, taken)

    async def events() -> AsyncIterator[str]:
        """No thread while it waits; blocking reads and renders in a thread shared by every
        stream of the process that wants them at that moment."""
        nonlocal last
        slot = live.SLOTS.take(address, **caps)
        if slot is None:  # readers arriving together passed the look
            full = _busy("this server is following all the live pages it can")
            yield f"event: busy\ndata: {full}\n\n"
            return
        try:
            yield f"retry: {reconnect_ms()}\nevent: version\ndata: {last}\n\n"
            ends = time.monotonic() + STREAM_SECONDS * random.uniform(
                1 - STREAM_SPREAD, 1 + STREAM_SPREAD
            )
            beat, sent = time.monotonic(), time.monotonic() - PART_SPACING
            spacing = PART_SPACING  # taken afresh with `due`, when a change is noticed
            due: float | None = None  # when the change noticed may be sent (its stagger)
            while time.monotonic() < ends:
                heard = await live.wait_for_newer_async(
                    event.pk, last, fallback=STREAM_CHECK, poll=STREAM_POLL
                )
                now = await _recent_version(event.pk)
                if heard is not None and (now is None or heard > now):
                    now = heard
                if now is not None and now != last:
                    if due is None:
                        due, spacing = time.monotonic() + _stagger(), part_spacing(shared_as)
                    early = max(sent + spacing, due) - time.monotonic()
                    if early > 0:  # versions stored meanwhile go as one part, the newest
                        await asyncio.sleep(min(early, max(0.0, ends - time.monotonic())))
                        continue
                    if part is not None:
                        now, changes = _part_version(shared_as, now, spacing)
                        if last is not None and now <= last:  # it has the process's newest
                            await asyncio.sleep(max(0.0, min(changes, ends) - time.monotonic()))
                            continue
                    due = None
                    last, shown = now, functools.partial(render, now)
                    ready = await shared_call(f"{shared_as}:{now}", shown, keep=True)
                    # The spacing counts from the part ready to send, so a slow render does
                    # not shorten the reader's wait for the next one.
                    sent = time.monotonic()
                    yield ready
                elif time.monotonic() - beat > 15:
                    beat = time.monotonic()
                    yield ": still here\n\n"
        finally:
            live.SLOTS.give_back(slot)

    stream: Iterator[str] | AsyncIterator[str] = (
        events() if isinstance(request, ASGIRequest) else in_thread(events())
    )
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
