"""The live updates every format shares: server-sent event streams over Redis pub/sub
(`kernel.live`), with a poll fallback. How long a stream lives, how many one link may hold and
the admission that caps them; reads and renders shared by a process's streams (`shared_call`);
and a stream run for a WSGI server (`in_thread`). The events' results pages and every format's
tablets stream through these.

A tablet keeps one stream open all evening and is woken through it when its table's state
changes (`static/js/tablet-core.js` polls instead when a stream is refused). Each format
counts its tablets' streams in slots of its own (`tournaments.kernel.live.StreamSlots`), apart from
the results pages' readers: a club's tablets share one Wi-Fi address, which the readers'
per-address cap would turn away.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase

from tournaments.kernel import live
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.tokens import token_digest

logger = logging.getLogger(__name__)

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


def link_refusal(exc: LinkUnknown | LinkReplaced) -> HttpResponse:
    """A stream asked for by a link the director replaced (403) or no table has (404): the
    tablet's script shows the message and stops asking."""
    return plain(str(exc), 403 if isinstance(exc, LinkReplaced) else 404)


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


#: How long EventSource waits before it opens a dropped stream again, in ms, drawn per
#: stream between these: a web node that dies (or restarts) drops hundreds of streams in
#: the same instant, and were they all to come back after the same wait, the node that takes
#: them would spend seconds opening streams while the tablets' requests waited for a core.
RECONNECT_MS = (2000, 10000)


def reconnect_ms() -> int:
    """A stream's `retry:` (see RECONNECT_MS)."""
    return random.randint(*RECONNECT_MS)


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
    slot = slots.take(link, **caps)
    if slot is None:
        yield "event: busy\ndata: this server is following all the tablets it can\n\n"
        return
    try:
        yield f"retry: {reconnect_ms()}\nevent: state\ndata: {json.dumps(opening)}\n\n"
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
    except DatabaseError:
        # The database went away under an open stream (restarted, or gone with its test):
        # the stream ends quietly and the tablet asks again after the one retry policy's
        # wait, polling meanwhile, rather than the server logging a broken stream.
        logger.info("a tablet's stream ended: the database did not answer", exc_info=True)
    finally:
        slots.give_back(slot)


def table_stream(
    request: HttpRequest,
    token: str,
    slots: live.StreamSlots,
    opening: dict[str, Any],
    last: int,
    newer: Callable[[int], Awaitable[int]],
    state_at: Callable[[int], Awaitable[dict[str, Any] | None]],
) -> HttpResponseBase:
    """A tablet's stream response, once its format has read the table's `opening` state and
    the version it stands at (`last`): admitted against the caps (or a 503 to retry), then
    `state_events`. From here on the stream reads only in threads of its own (`shared_call`),
    so this thread's connection goes back first (never inside a transaction: a test's, say)."""
    link, caps, busy = admission(request, token, slots)
    if busy is not None:
        return busy
    if not connection.in_atomic_block:
        connection.close()
    return event_stream(request, state_events(slots, link, caps, opening, last, newer, state_at))


STREAM_CHECK = 0.5  # seconds between two looks at the cached version without Redis pub/sub
STREAM_POLL = 3.0  # with pub/sub: a look anyway this often, in case a message was missed
#: A shared read or render is kept this long for the streams that come for it after it ran:
#: twice the longest wait between two parts of a results page (`PART_SPACING`, 5 s).
SHARED_KEPT_SECONDS = 10.0

T = TypeVar("T")

_SHARED: dict[tuple[int, str], asyncio.Future[Any]] = {}
_KEPT: dict[tuple[int, str], tuple[float, Any]] = {}


async def shared_call(key: str, call: Callable[[], T], *, keep: bool = False) -> T:
    """Run blocking `call` in a thread once for all of this loop's streams that ask for `key`
    while it runs (and, with `keep`, for SHARED_KEPT_SECONDS after: for keys whose answer
    cannot change, as a version's part): a room of readers woken by one new version makes
    one cache read and one render per process, however their sends are spread, and never
    blocks the event loop (which also serves the tablets). A call that failed is not kept:
    the next stream tries again."""
    slot = (id(asyncio.get_running_loop()), key)
    kept = _KEPT.get(slot)
    if kept is not None and time.monotonic() - kept[0] < SHARED_KEPT_SECONDS:
        found: T = kept[1]
        return found
    running = _SHARED.get(slot)
    if running is None:
        running = _SHARED[slot] = asyncio.ensure_future(asyncio.to_thread(call))
        running.add_done_callback(functools.partial(_keep, slot, keep))
    result: T = await asyncio.shield(running)
    return result


def _keep(slot: tuple[int, str], keep: bool, done: asyncio.Future[Any]) -> None:
    """In the loop, as a shared call ends: keep its result a while, forget what has aged."""
    _SHARED.pop(slot, None)
    now = time.monotonic()
    for old in [k for k, (at, _) in _KEPT.items() if now - at >= SHARED_KEPT_SECONDS]:
        del _KEPT[old]
    if keep and not done.cancelled() and done.exception() is None:
        _KEPT[slot] = (now, done.result())


def in_thread(stream: AsyncIterator[str]) -> Iterator[str]:
    """The stream for a WSGI server (`make run`): an event loop in a thread of its own drives
    the coroutine, and the request's thread waits for each piece, so both servers run one and
    the same stream (and the request's thread may have a loop of its own running, as a test's
    does under a browser driver). Closing the response (the reader left) closes the
    coroutine, which gives its slot back."""
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, name="live-stream", daemon=True)
    runner.start()

    async def step() -> str:
        return await anext(stream)

    def run(coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    try:
        while True:
            try:
                yield run(step())
            except StopAsyncIteration:
                return
    finally:
        run(stream.aclose())  # type: ignore[attr-defined]
        run(loop.shutdown_default_executor())
        loop.call_soon_threadsafe(loop.stop)
        runner.join()
        loop.close()
