"""The gate every table link's write passes first: once play is over, a table changes nothing.

An event, a drive or a team tournament that has finished (or whose results are published)
has final standings the director has looked at, and perhaps read out or printed. A tablet
left on the last round's screen, or an old link kept on a phone, must not move them behind
the director's back: a late mistake is the director's to put right (a correction, or
reopening the event), with the audit trail saying who and why.

So each write a table link can send (entering a result or a game, its preview, confirming,
disputing, saying a result is wrong, calling the director or taking the call back) calls
`table_writes_open` before it reads or changes anything else. One check with one sentence
for every kind of play: a late write is refused the same way wherever it comes from (the
API or a page), and a retry of something accepted before the end is refused too, rather
than answered as if it had just been taken.
"""

from __future__ import annotations

from tournaments.drive_models import Drive
from tournaments.kernel.refusals import Kind, Refused
from tournaments.models import Event
from tournaments.team_models import Tournament

#: Each kind of play: what the tablets call it, and its states in which play is over.
_OVER: dict[type[Event | Drive | Tournament], tuple[str, frozenset[str]]] = {
    Event: ("event", frozenset({Event.Status.FINISHED, Event.Status.PUBLISHED})),
    Drive: ("drive", frozenset({Drive.Status.FINISHED, Drive.Status.PUBLISHED})),
    Tournament: (
        "tournament",
        frozenset({Tournament.Status.FINISHED, Tournament.Status.PUBLISHED}),
    ),
}


class TableWritesClosed(Refused):
    """A table link's write after the end of play (HTTP 409): nothing was changed, and the
    message tells the players to ask the director."""

    kind = Kind.CLOSED


def table_writes_open(play: Event | Drive | Tournament) -> None:
    """Refuse (TableWritesClosed) when `play` has finished or is published; return quietly
    while a table may still write. `play` is the row as the caller has just read it."""
    noun, over = _OVER[type(play)]
    if play.status in over:
        raise TableWritesClosed(
            f"The {noun} has finished: results can no longer be changed from a table. "
            "Ask the director."
        )
