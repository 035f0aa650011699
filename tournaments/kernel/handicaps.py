"""Where a format asks for the members' handicaps on a date, without knowing the seasons.

The handicaps come from the club's seasons (the rule: a season's window, its minimum sessions,
fixed at its start or fluctuating) and the season's ledger; both live in `tournaments.seasons`,
which sits above the formats (it reads every format's results). A pairs event's results page
needs the figures, but the events package may not import seasons (`.importlinter`: a lower
layer never imports a higher one). So the kernel, below both, keeps one slot: seasons puts
its function in it as Django starts (`tournaments/apps.py`), and the events' selectors call
it when it is there. The same shape as the kernel's backup registry and its jobs sent by name:
the lower layer names what it needs, the higher one provides it.

Nothing registered (a test that builds the app without the seasons, a command run before
`ready`): no handicaps, and the events' pages simply show no handicapped table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from fractions import Fraction

#: (club id, the evening's date) -> each member's handicap (members without one absent), or
#: None when no season of the club covers the date (then no handicapped standings at all).
HandicapSource = Callable[[int, dt.date], dict[int, Fraction] | None]

_source: list[HandicapSource] = []


def register(source: HandicapSource) -> None:
    """Put the seasons' function in the slot (again at each `ready`: the last one counts)."""
    _source[:] = [source]


def handicaps_for(club_id: int, date: dt.date) -> dict[int, Fraction] | None:
    """The club's members' handicaps for an evening on `date`; None when there are none to
    show (no season covers the date, or nothing registered)."""
    if not _source:
        return None
    return _source[0](club_id, date)
