"""A drive table's tablet page, and the stream that tells it the drive moved on.

The page embeds the table's state (it shows at once) and `static/js/drive-table.js` builds
the screens from it and talks to the tablet API (`tournaments/api/drive_tablets.py`) through
`static/js/tablet-core.js`; a service worker under /d/ keeps a copy of the page, so a tablet
reloaded without a network still shows its table and keeps what it has not sent. When
the last table confirms, every tablet must know its players' next seats within a second,
with 250 tables in the room: each tablet keeps one stream open, woken by Redis pub/sub the
moment the move commits (`tournaments.live`, DRIVE_CHANNEL; without Redis, a look at the
cached number twice a second), and the stream sends the table's new state itself. The
states of all the tables are worked out once per move per process and shared by its streams.
A table's own results never wake the streams: its tablet has the answer to its own request,
and the counts of tables done come with its poll every few seconds.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import live
from tournaments.selectors.drive_tablets import (
    DriveLinkReplaced,
    DriveLinkUnknown,
    drive_link,
    drive_states,
    table_state,
)
from tournaments.selectors.tablet_cache import token_digest
from tournaments.views.live import STREAM_CHECK, STREAM_POLL, in_thread, shared_call
from tournaments.views.tablets import CORE_FILES, files_cache_name, worker_response

#: What the drive table page needs to show itself again from the service worker's copy.
DRIVE_FILES = (*CORE_FILES, "js/drive-table.js")
SCOPE = "/d/"

#: A drive's tablets follow it all evening: a stream lives ten minutes, give or take a
#: quarter (so a room that opened together does not reopen together), then reconnects.
STREAM_SECONDS = 600
STREAM_SPREAD = 0.25
#: Streams one link may hold (a tablet reloading opens a new one before the old one closes).
PER_LINK = 3
#: Tablet streams are counted apart from the results pages' readers (a club's tablets share
#: one Wi-Fi address, which the readers' per-address cap would turn away).
SLOTS = live.StreamSlots()


def _gone(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "tournaments/tablets/gone.html", {"message": message}, status=status)


@never_cache
@require_GET
def drive_table_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        drive_id, table = drive_link(token)
        state = table_state(drive_id, table)
    except DriveLinkReplaced as exc:
        return _gone(request, str(exc), 410)
    except DriveLinkUnknown as exc:
        return _gone(request, str(exc), 404)
    return render(
        request,
        "tournaments/tablets/drive_table.html",
        {
            "token": token,
            "state": state,
            "api": f"/api/d/{token}/",
            "stream": f"{SCOPE}{token}/stream/",
            "sw": f"{SCOPE}sw.js",
            "cache_name": cache_name(),
        },
    )


def cache_name() -> str:
    return files_cache_name(DRIVE_FILES, "clubwhist-drive-table")


@require_GET
def drive_service_worker(request: HttpRequest) -> HttpResponse:
    """The drive tablets' service worker, under /d/: a tablet that reloads without a network
    still shows its table (and what it has not sent yet)."""
    return worker_response(request, SCOPE, DRIVE_FILES, cache_name())


def _moved(drive_id: int) -> int:
    found = cache.get(live.drive_moved_key(drive_id))
    return int(found) if found is not None else 0


@never_cache
@require_GET
def drive_table_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """Server-sent events: `state` (the table's state as JSON) as the stream opens and each
    time the drive moves people (a move, a seating worked out again, the end). Capped per
    link and per process like the results streams (settings LIVE_STREAMS_*); a tablet turned
    away polls instead (the page polls anyway every few seconds)."""
    try:
        drive_id, table = drive_link(token)
        opening = table_state(drive_id, table)
    except DriveLinkReplaced as exc:
        return HttpResponse(str(exc), status=403, content_type="text/plain; charset=utf-8")
    except DriveLinkUnknown as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain; charset=utf-8")
    threaded = not isinstance(request, ASGIRequest)
    caps = {
        "per_process": (
            settings.LIVE_STREAMS_THREADED if threaded else settings.LIVE_STREAMS_PER_PROCESS
        ),
        "per_address": PER_LINK,
    }
    link = token_digest(token)
    refusal = SLOTS.refusal(link, **caps)
    if refusal is not None:
        busy = HttpResponse(refusal, status=503, content_type="text/plain; charset=utf-8")
        busy["Retry-After"] = "15"
        return busy
    last = _moved(drive_id)
    # Nothing more from the database but a move's states, read in a thread: give this
    # thread's connection back (never inside a transaction: a test's, say).
    if not connection.in_atomic_block:
        connection.close()

    def states() -> dict[int, dict[str, Any]]:
        try:
            return drive_states(drive_id)
        finally:
            connection.close()

    async def events() -> AsyncIterator[str]:
        nonlocal last
        if not SLOTS.take(link, **caps):
            yield "event: busy\ndata: this server is following all the tablets it can\n\n"
            return
        try:
            yield f"retry: 2000\nevent: state\ndata: {json.dumps(opening)}\n\n"
            ends = time.monotonic() + STREAM_SECONDS * random.uniform(
                1 - STREAM_SPREAD, 1 + STREAM_SPREAD
            )
            beat = time.monotonic()
            while time.monotonic() < ends:
                heard = await live.wait_for_newer_async(
                    drive_id,
                    last,
                    fallback=STREAM_CHECK,
                    poll=STREAM_POLL,
                    channel=live.DRIVE_CHANNEL,
                )
                now = await shared_call(f"drive-moved:{drive_id}", lambda: _moved(drive_id))
                if heard is not None and heard > now:
                    now = heard
                if now > last:
                    last = now
                    found = await shared_call(f"drive-states:{drive_id}:{now}", states, keep=True)
                    state = found.get(table)
                    if state is not None:
                        yield f"event: state\nid: {now}\ndata: {json.dumps(state)}\n\n"
                elif time.monotonic() - beat > 15:
                    beat = time.monotonic()
                    yield ": still here\n\n"
        finally:
            SLOTS.give_back(link)

    stream: Iterator[str] | AsyncIterator[str] = events() if not threaded else in_thread(events())
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["X-Accel-Buffering"] = "no"
    return response
