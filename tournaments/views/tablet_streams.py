"""What the drive and team tablets' live streams share: how long a stream lives, how many one
link may hold, and the admission that caps them.

A tablet keeps one stream open all evening and is woken through it when its table's state
changes (`static/js/tablet-core.js` polls instead when a stream is refused). Each format
counts its tablets' streams in slots of its own (`tournaments.live.StreamSlots`), apart from
the results pages' readers: a club's tablets share one Wi-Fi address, which the readers'
per-address cap would turn away.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from tournaments import live
from tournaments.selectors.tablet_cache import token_digest
from tournaments.views.live import in_thread

#: A stream lives ten minutes, give or take a quarter (so a room that opened together does
#: not reopen together), then the tablet reconnects.
STREAM_SECONDS = 600
STREAM_SPREAD = 0.25
#: Streams one link may hold (a tablet reloading opens a new one before the old one closes).
PER_LINK = 3


def plain(message: str, status: int) -> HttpResponse:
    """A refusal the tablet's script shows as it is (a replaced or unknown link, a full
    server)."""
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def admission(
    request: HttpRequest, token: str, slots: live.StreamSlots
) -> tuple[str, dict[str, int], HttpResponse | None]:
    """The link's digest (its slots' key), the caps this stream counts against and, when
    they are full, the 503 to answer instead, with a Retry-After the tablet honours. Under
    ASGI a stream is a coroutine and costs no thread; under WSGI each holds one the tablets'
    requests may need, so far fewer are let in."""
    threaded = not isinstance(request, ASGIRequest)
    caps = {
        "per_process": (
            settings.LIVE_STREAMS_THREADED if threaded else settings.LIVE_STREAMS_PER_PROCESS
        ),
        "per_address": PER_LINK,
    }
    link = token_digest(token)
    refusal = slots.refusal(link, **caps)
    if refusal is None:
        return link, caps, None
    busy = plain(refusal, 503)
    busy["Retry-After"] = "15"
    return link, caps, busy


def stream_ends() -> float:
    """When a stream opened now closes (`time.monotonic()`), spread as STREAM_SPREAD says."""
    return time.monotonic() + STREAM_SECONDS * random.uniform(1 - STREAM_SPREAD, 1 + STREAM_SPREAD)


def event_stream(request: HttpRequest, events: AsyncIterator[str]) -> StreamingHttpResponse:
    """The stream's response: the coroutine itself under ASGI, run in a thread of its own
    under WSGI (`make run`); never buffered by a proxy in front."""
    threaded = not isinstance(request, ASGIRequest)
    stream: Iterator[str] | AsyncIterator[str] = in_thread(events) if threaded else events
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["X-Accel-Buffering"] = "no"
    return response


async def state_events(
    slots: live.StreamSlots,
    link: str,
    caps: dict[str, int],
    opening: dict[str, Any],
    last: int,
    newer: Callable[[int], Awaitable[int]],
    state_at: Callable[[int], Awaitable[dict[str, Any] | None]],
) -> AsyncIterator[str]:
    """A tablet's stream: its table's state as it opens, then again each time the play's
    version moves past `last` (`newer` waits for that and answers the version now, `state_at`
    gives the table's state at a version, None for none), a comment now and then so a proxy
    keeps the line open, until the stream's time is up. It holds one of `slots` while it
    runs."""
    if not slots.take(link, **caps):
        yield "event: busy\ndata: this server is following all the tablets it can\n\n"
        return
    try:
        yield f"retry: 2000\nevent: state\ndata: {json.dumps(opening)}\n\n"
        ends = stream_ends()
        beat = time.monotonic()
        while time.monotonic() < ends:
            now = await newer(last)
            if now > last:
                last = now
                state = await state_at(now)
                if state is not None:
                    yield f"event: state\nid: {now}\ndata: {json.dumps(state)}\n\n"
            elif time.monotonic() - beat > 15:
                beat = time.monotonic()
                yield ": still here\n\n"
    finally:
        slots.give_back(link)
