"""A drive table's tablet page, and the stream that tells it the drive moved on.

The page embeds the table's state (it shows at once) and `static/js/drive-table.js` builds
the screens from it and talks to the tablet API (`tournaments/drives/api/tablets.py`) through
`static/js/tablet-core.js`; a service worker under /d/ keeps a copy of the page, so a tablet
reloaded without a network still shows its table and keeps what it has not sent. When
the last table confirms, every tablet must know its players' next seats within a second,
with 250 tables in the room: each tablet keeps one stream open, woken by Redis pub/sub the
moment the move commits (`tournaments.kernel.live`, DRIVE_CHANNEL; without Redis, a look at the
cached number twice a second), and the stream sends the table's new state itself. The
states of all the tables are worked out once per move per process and shared by its streams.
A table's own results never wake the streams: its tablet has the answer to its own request,
and the counts of tables done come with its poll every few seconds.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.drives.selectors.tablets import (
    DriveLinkReplaced,
    DriveLinkUnknown,
    drive_link,
    drive_states,
    table_state,
)
from tournaments.kernel import live
from tournaments.kernel.streams import (
    STREAM_CHECK,
    STREAM_POLL,
    admission,
    event_stream,
    plain,
    shared_call,
    state_events,
)
from tournaments.kernel.tablet_pages import (
    CORE_FILES,
    files_cache_name,
    tablet_page,
    worker_response,
)

#: What the drive table page needs to show itself again from the service worker's copy.
DRIVE_FILES = (*CORE_FILES, "js/drive-table.js")
SCOPE = "/d/"

#: The drive tablets' streams, counted apart (`kernel.streams` says how long each
#: lives and how many one link may hold).
SLOTS = live.StreamSlots()


@never_cache
@require_GET
def drive_table_page(request: HttpRequest, token: str) -> HttpResponse:
    def context() -> dict[str, object]:
        drive_id, table = drive_link(token)
        return {"state": table_state(drive_id, table)}

    return tablet_page(
        request,
        "tournaments/tablets/drive_table.html",
        context,
        token=token,
        api=f"/api/d/{token}/",
        scope=SCOPE,
        cache_name=cache_name(),
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
        return plain(str(exc), 403)
    except DriveLinkUnknown as exc:
        return plain(str(exc), 404)
    link, caps, busy = admission(request, token, SLOTS)
    if busy is not None:
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

    async def newer(last: int) -> int:
        heard = await live.wait_for_newer_async(
            drive_id, last, fallback=STREAM_CHECK, poll=STREAM_POLL, channel=live.DRIVE_CHANNEL
        )
        now = await shared_call(f"drive-moved:{drive_id}", lambda: _moved(drive_id))
        return heard if heard is not None and heard > now else now

    async def state_at(version: int) -> dict[str, Any] | None:
        found = await shared_call(f"drive-states:{drive_id}:{version}", states, keep=True)
        return found.get(table)

    events = state_events(SLOTS, link, caps, opening, last, newer, state_at)
    return event_stream(request, events)
