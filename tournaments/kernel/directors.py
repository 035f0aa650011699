"""Who directs what, for every format: "owned by a club this user directs", written once.

An administrator (an active superuser) directs every club; any other signed-in, active account
directs the clubs whose `directors` include it; nobody else directs anything. Every format's
plays (events, drives, tournaments, leagues) hang off a club by a `club` column, so one
queryset filter answers for all of them. `tournaments.events.access` builds its answers on these.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from django.db.models import QuerySet

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
