"""Who directs what, for every format: "owned by a club this user directs", written once.

An administrator (an active superuser) directs every club; any other signed-in, active account
directs the clubs whose `directors` include it; nobody else directs anything. A club's scorers
(`scorers`) may enter and correct its results and nothing more: `scored` and `scores_club` say
so, beside `directed` and `directs_club`, and only the result views ask them. Every format's
plays (events, drives, tournaments, leagues) hang off a club by a `club` column, so one
queryset filter answers for all of them. `tournaments.events.access` builds its answers on these.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from django.db.models import Q, QuerySet

Play = TypeVar("Play", bound=models.Model)


def is_admin(user: Any) -> bool:
    return bool(getattr(user, "is_active", False) and getattr(user, "is_superuser", False))


def signed_in(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def directed(user: Any, plays: QuerySet[Play]) -> QuerySet[Play]:
    """`plays` (any format's rows with a `club`) narrowed to those of the clubs `user`
    directs: all of them for an administrator, none for anyone not signed in."""
    if is_admin(user):
        return plays
    if not signed_in(user):
        return plays.none()
    return plays.filter(club__directors=user)


def directs_club(user: Any, club_id: int) -> bool:
    """Whether `user` directs the club `club_id` (one read of the directors' table)."""
    if is_admin(user):
        return True
    if not signed_in(user):
        return False
    return bool(
        user.directed_clubs.through.objects.filter(club_id=club_id, user_id=user.pk).exists()
    )


def scored(user: Any, plays: QuerySet[Play]) -> QuerySet[Play]:
    """`plays` narrowed to those whose results `user` may enter and correct: the clubs they
    direct and the clubs they score for (a scorer's right stops at the results: every other
    page and operation asks `directed`)."""
    if is_admin(user):
        return plays
    if not signed_in(user):
        return plays.none()
    return plays.filter(Q(club__directors=user) | Q(club__scorers=user)).distinct()


def scores_club(user: Any, club_id: int) -> bool:
    """Whether `user` may enter and correct the results of the club `club_id`'s evenings: its
    directors, its scorers and the administrators."""
    if directs_club(user, club_id):
        return True
    if not signed_in(user):
        return False
    return bool(user.scored_clubs.through.objects.filter(club_id=club_id, user_id=user.pk).exists())


def scorer_only(user: Any, club_id: int) -> bool:
    """Whether `user` scores for the club `club_id` without directing it: what they ask of a
    director's page is refused with words rather than hidden (they know the club is there)."""
    return scores_club(user, club_id) and not directs_club(user, club_id)
