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
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.drives.selectors.tablets import (
    drive_link,
    drive_states,
    table_state,
)
from tournaments.kernel import live
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.streams import STREAM_CHECK, STREAM_POLL, link_refusal, shared_call
from tournaments.kernel.tablet_pages import TabletSite

SITE = TabletSite("/d/", "tournaments/tablets/drive_table.html", "js/drive-table.js")

drive_table_page, drive_service_worker = SITE.views(lambda token: table_state(*drive_link(token)))


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
    except (LinkReplaced, LinkUnknown) as exc:
        return link_refusal(exc)
    last = _moved(drive_id)

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

    return SITE.stream(request, token, opening, last, newer, state_at)
