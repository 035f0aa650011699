"""A team tournament table's tablet page, and the stream that tells it the tournament moved.

The page embeds the table's state (it shows at once); `static/js/team-table.js` builds the
screens from it (with `static/js/tablet-core.js`) and sends what the teams enter to the tablet
API (`tournaments/teams/api/tablets.py`). The tablet stays on its table all evening; each round
it names the two teams sitting there. When the director (or the round's last confirmation)
draws the next round, every tablet must show it within a second: each keeps one stream open,
woken by Redis pub/sub once the change commits (`tournaments.kernel.live`, TEAM_CHANNEL; without
Redis, a look at the tournament's version twice a second), and the stream sends the table's
new state itself. Each table's state is worked out once per version per process (a table's
tablet and a team's phone share it), the tables' side by side. A table's own game moves no
version and wakes nobody; the other tables' counts come with the page's poll beside the
stream.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.kernel import live
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.streams import STREAM_CHECK, STREAM_POLL, link_refusal, shared_call
from tournaments.kernel.tablet_pages import TabletSite
from tournaments.teams.models import Tournament, TournamentTableAccess
from tournaments.teams.selectors.room import room_states, table_state, team_link

SITE = TabletSite("/tt/", "tournaments/tablets/team_table.html", "js/team-table.js")

team_table_page, team_service_worker = SITE.views(lambda token: table_state(*team_link(token)))


def _version(tournament_id: int) -> int:
    """The tournament's version from its row: one small query, shared by a process's streams."""
    try:
        found = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True)
        return int(found.first() or 0)
    finally:
        connection.close()


def _room_states(tournament_id: int) -> dict[int, dict[str, Any]]:
    """Every linked table's state, worked out once per version per process, in a thread of
    its own: a draw wakes the streams of every table of the room at once, and one reading of
    the room serves them all (`room_states`)."""
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        tables = TournamentTableAccess.objects.filter(
            tournament=tournament, revoked_at__isnull=True
        ).values_list("table", flat=True)
        return room_states(tournament, sorted(set(tables)))
    finally:
        connection.close()


def _table_state(tournament_id: int, table: int) -> dict[str, Any]:
    """One table's state (a table the room's reading did not cover: its link made since)."""
    try:
        return table_state(Tournament.objects.get(pk=tournament_id), table)
    finally:
        connection.close()


@never_cache
@require_GET
def team_table_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """Server-sent events: `state` (the table's state as JSON) as the stream opens and each
    time the tournament's version moves. Capped per link and per process like the drives'
    streams (settings LIVE_STREAMS_*); a tablet turned away polls instead, and asks for a
    stream again later (`static/js/tablet-core.js`)."""
    try:
        tournament, table = team_link(token)
        opening = table_state(tournament, table)
    except (LinkReplaced, LinkUnknown) as exc:
        return link_refusal(exc)
    tournament_id = tournament.pk
    last = int(opening["version"])

    async def newer(last: int) -> int:
        heard = await live.wait_for_newer_async(
            tournament_id, last, fallback=STREAM_CHECK, poll=STREAM_POLL, channel=live.TEAM_CHANNEL
        )
        if heard is not None and heard > last:
            return heard  # the announcement carries the committed version: no query
        # No news (or a message missed): a look at the row, one per process for a moment
        # however many of its streams ask; a look per stream every few seconds opened a
        # database connection each and slowed the tablets' writes.
        return await shared_call(
            f"team-version:{tournament_id}", lambda: _version(tournament_id), keep=True
        )

    async def state_at(version: int) -> dict[str, Any] | None:
        room = await shared_call(
            f"team-room:{tournament_id}:{version}", lambda: _room_states(tournament_id), keep=True
        )
        found = room.get(table)
        if found is not None:
            return found
        return await shared_call(
            f"team-state:{tournament_id}:{version}:{table}",
            lambda: _table_state(tournament_id, table),
            keep=True,
        )

    return SITE.stream(request, token, opening, last, newer, state_at)
