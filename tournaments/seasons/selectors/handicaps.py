"""The members' handicaps on a date, from the season covering it and the season's ledger.

A season fixed at its start takes every member's handicap once, from the pairs evenings before
the season's first day; a fluctuating one takes it afresh for each evening, from those before
the evening's date (`engine.season.handicaps_before`: the window never includes the evening
itself). `club_handicaps` is what the kernel's slot hands the events' results pages
(`kernel.handicaps`, registered in `tournaments/apps.py`).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from engine.season import HandicapRule, handicaps_before
from tournaments.seasons.models import Season
from tournaments.seasons.selectors.ledger import appearances

#: The rule when the club has no season covering the date (a member's page still shows a
#: handicap): the seasons' own defaults.
DEFAULT_RULE = HandicapRule()


def season_on(club_id: int, date: dt.date) -> Season | None:
    """The club's season covering `date` (the latest starting, should two overlap)."""
    return (
        Season.objects.filter(club_id=club_id, starts__lte=date, ends__gte=date)
        .order_by("-starts", "-id")
        .first()
    )


def rule_of(season: Season) -> HandicapRule:
    return HandicapRule(
        window=max(1, season.handicap_window), min_sessions=season.handicap_min_sessions
    )


def handicaps_on(season: Season, date: dt.date) -> dict[int, Fraction]:
    """Every member's handicap for an evening on `date` under `season`'s rule."""
    before = season.starts if season.handicap_basis == Season.Basis.FIXED else date
    found = appearances(season.club_id, ends=before - dt.timedelta(days=1), formats=("event",))
    return handicaps_before(found, rule_of(season), before)


def club_handicaps(club_id: int, date: dt.date) -> dict[int, Fraction] | None:
    """The handicaps for an evening of the club on `date`; None when no season covers it."""
    season = season_on(club_id, date)
    return None if season is None else handicaps_on(season, date)


def current_handicap(club_id: int, member_id: int, today: dt.date) -> tuple[Fraction, str]:
    """The member's handicap for the club's next evening, and the rule it was taken under in
    words: the current season's (fixed: as of its start; fluctuating: every pairs evening
    so far), else the default rule over every pairs evening so far."""
    season = season_on(club_id, today)
    if season is None:
        rule, before, words = DEFAULT_RULE, today + dt.timedelta(days=1), "the default rule"
    elif season.handicap_basis == Season.Basis.FIXED:
        rule, before, words = rule_of(season), season.starts, f"{season.name}, fixed at its start"
    else:
        rule, before, words = rule_of(season), today + dt.timedelta(days=1), season.name
    found = appearances(club_id, ends=before - dt.timedelta(days=1), formats=("event",))
    figures = handicaps_before(found, rule, before)
    words += f": average of the last {rule.window} pairs sessions, at least {rule.min_sessions}"
    return figures.get(member_id, Fraction(0)), words
