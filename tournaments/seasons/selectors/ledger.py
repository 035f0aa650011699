"""The season's ledger read back as the engine's appearances, and where each format's
appearances come from.

`SOURCES` names, for each format, the function giving one published evening's appearances
(each format's `selectors/season.py`), and `PUBLISHED` the one listing a club's published
evenings. A fourth format adds its pair of functions here.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from engine.season import Appearance
from tournaments.drives.selectors.season import drive_appearances, published_drives
from tournaments.events.selectors.season import event_appearances, published_events
from tournaments.seasons.models import SeasonLine
from tournaments.teams.selectors.season import published_tournaments, tournament_appearances

Source = Callable[[int], tuple[int | None, list[Appearance]]]

SOURCES: dict[str, Source] = {
    "event": event_appearances,
    "drive": drive_appearances,
    "tournament": tournament_appearances,
}
PUBLISHED: dict[str, Callable[[int], list[int]]] = {
    "event": published_events,
    "drive": published_drives,
    "tournament": published_tournaments,
}

_FIELDS = (
    "format", "play_id", "play_name", "date", "entrant", "member_id", "name", "rank",
    "field_size", "figures",
)  # fmt: skip


def appearances(
    club_id: int,
    *,
    starts: dt.date | None = None,
    ends: dt.date | None = None,
    formats: tuple[str, ...] | None = None,
) -> list[Appearance]:
    """The club's appearances in the ledger, oldest first, between `starts` and `ends` (both
    included, either open), of `formats` (all when None)."""
    lines = SeasonLine.objects.filter(club_id=club_id)
    if starts is not None:
        lines = lines.filter(date__gte=starts)
    if ends is not None:
        lines = lines.filter(date__lte=ends)
    if formats is not None:
        lines = lines.filter(format__in=formats)
    return [
        appearance_of(row)
        for row in lines.order_by("date", "format", "play_id", "entrant", "id").values_list(
            *_FIELDS
        )
    ]


def appearance_of(row: tuple[Any, ...]) -> Appearance:
    """A ledger row (the values of `_FIELDS`) as the engine's appearance."""
    fmt, play_id, play_name, date, entrant, member_id, name, rank, field_size, figures = row
    return Appearance(
        format=fmt,
        play_id=play_id,
        play_name=play_name,
        date=date,
        entrant=entrant,
        member_id=member_id,
        name=name,
        rank=rank,
        field_size=field_size,
        percentage=_fraction(figures.get("percentage")),
        points=_fraction(figures.get("points")),
        wins=_fraction(figures.get("wins")),
    )


def figures_of(appearance: Appearance) -> dict[str, str]:
    """An appearance's figures as the ledger keeps them: exact fractions as text."""
    return {
        key: str(value)
        for key, value in (
            ("percentage", appearance.percentage),
            ("points", appearance.points),
            ("wins", appearance.wins),
        )
        if value is not None
    }


def _fraction(value: Any) -> Fraction | None:
    return None if value is None else _exact(str(value))


@functools.lru_cache(maxsize=65536)
def _exact(text: str) -> Fraction:
    """A figure's text as its fraction, parsed once: a season's ledger holds the same
    percentages and points many times over, and parsing is most of reading it."""
    return Fraction(text)
