"""The one rule for names and dates, whatever the format: events, drives, tournaments, clubs.

A name (a club's, an event's, a player's, a team's) has no control or bidirectional
characters, at least one visible character when required, and fits its column
(`engine.names` says how); a date lies between `EARLIEST_DATE` and `YEARS_AHEAD` years from
today. Each format refuses in its own class (`refused=`), so its pages and commands catch what
they always caught.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from engine.names import NameRefused, clean_name
from tournaments.kernel.refusals import Refused


class RuleRefused(Refused):
    """A name or a date outside the rule every format shares; the message says which."""


def name_checked(
    value: str,
    *,
    model: Any,
    column: str,
    what: str,
    required: bool = False,
    refused: type[Refused] = RuleRefused,
) -> str:
    """`value` under the one rule for names (`engine.names`: no control characters, trimmed,
    at most the column's `max_length`), or `refused` naming `what` ("NS 3's first player")."""
    limit = model._meta.get_field(column).max_length
    try:
        return clean_name(value, field=what, max_length=limit, required=required)
    except NameRefused as exc:
        raise refused(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None


#: The earliest day an event, drive or tournament may be on: well before any club's records
#: that are typed in or imported from a results file, and far from year 1, which a slip of the
#: keyboard or a hostile request would otherwise store.
EARLIEST_DATE = dt.date(1950, 1, 1)
#: How many years ahead of today one may be set up: a season's fixtures, never year 9999,
#: which would sort first in every "newest first" list for ever.
YEARS_AHEAD = 2


def latest_date(today: dt.date | None = None) -> dt.date:
    """The last day a new event, drive or tournament may be on: `YEARS_AHEAD` years after
    today (the club's own day, `TIME_ZONE`), 28 February when today is 29 February."""
    today = today or timezone.localdate()
    try:
        return today.replace(year=today.year + YEARS_AHEAD)
    except ValueError:  # 29 February, and the year two on is not a leap year
        return today.replace(year=today.year + YEARS_AHEAD, day=28)


def date_checked(
    value: dt.date | None, *, what: str, refused: type[Refused] = RuleRefused
) -> dt.date:
    """The one rule for the date of every format, wherever it comes from (the pages, the API,
    a command's file, a results file's import): today when none is given, else a day from
    `EARLIEST_DATE` to `latest_date()`; outside that window `refused` naming `what` ("the
    drive's date") and the window. A clubwhist document's restore keeps its own, wider bounds
    (`kernel.backup.rows`): it brings back what was stored."""
    today = timezone.localdate()
    if value is None:
        return today
    if isinstance(value, dt.datetime):  # a date and time: its day
        value = value.date()
    if not isinstance(value, dt.date):
        raise refused(f"{what[:1].upper()}{what[1:]} is a date (YYYY-MM-DD).")
    latest = latest_date(today)
    if not EARLIEST_DATE <= value <= latest:
        raise refused(
            f"{what[:1].upper()}{what[1:]} must be between {_day(EARLIEST_DATE)} and "
            f"{_day(latest)} ({YEARS_AHEAD} years from today), not {_day(value)}."
        )
    return value


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B} {day.year}"


def named_and_dated(
    name: str,
    date: dt.date | None,
    *,
    model: Any,
    noun: str,
    refused: type[Refused] = RuleRefused,
) -> tuple[str, dt.date]:
    """A new event's, drive's or tournament's name (required, under the name rule, within
    `model`'s name column) and date (`date_checked`), or `refused` saying which and why:
    every format checks its new play's two the same way."""
    checked = name_checked(
        name, model=model, column="name", what=f"the {noun}'s name", required=True, refused=refused
    )
    return checked, date_checked(date, what=f"the {noun}'s date", refused=refused)
