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

from django.db.models import Model

from tournaments.kernel.refusals import Kind, Refused

#: The states in which play is over, named alike by every format's `Status` choices.
_OVER = frozenset({"finished", "published"})


class TableWritesClosed(Refused):
    """A table link's write after the end of play (HTTP 409): nothing was changed, and the
    message tells the players to ask the director."""

    kind = Kind.CLOSED


def table_writes_open(play: Model) -> None:
    """Refuse (TableWritesClosed) when `play` has finished or is published; return quietly
    while a table may still write. `play` is the row as the caller has just read it (an event,
    a drive or a tournament: each format names its finished and published states so)."""
    if getattr(play, "status", None) in _OVER:
        raise TableWritesClosed(
            f"The {play._meta.verbose_name} has finished: results can no longer be changed "
            "from a table. Ask the director."
        )
