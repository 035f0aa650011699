"""Who may direct or read which team tournament or league: the kernel's rule for teams."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from tournaments.kernel.access import directed_row, scored_row
from tournaments.kernel.directors import directed
from tournaments.teams.models import League, Tournament


def tournaments_for(
    user: Any, queryset: QuerySet[Tournament] | None = None
) -> QuerySet[Tournament]:
    """The team tournaments this account may direct: the same rule as events."""
    return directed(user, Tournament.objects.all() if queryset is None else queryset)


def tournament_for(user: Any, pk: int, queryset: QuerySet[Tournament] | None = None) -> Tournament:
    """The tournament `pk` if this account directs its club; 404 otherwise."""
    return directed_row(
        user, Tournament.objects.all() if queryset is None else queryset, pk, "tournaments"
    )


def tournament_for_scoring(
    user: Any, pk: int, queryset: QuerySet[Tournament] | None = None
) -> Tournament:
    """The tournament `pk` if this account may enter and correct its games (its club's
    directors and scorers); 404 otherwise."""
    return scored_row(
        user, Tournament.objects.all() if queryset is None else queryset, pk, "tournaments"
    )


def league_for(user: Any, pk: int) -> League:
    """The league `pk` if this account directs its club; 404 otherwise."""
    return directed_row(user, League.objects.all(), pk, "leagues")


def tournament_readable(user: Any, pk: int) -> Tournament:
    """The tournament `pk` if anyone may read it (published, or live standings on) or this
    account directs it; 404 otherwise (the public pages and the public API ask this)."""
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is not None and (
        tournament.is_public or tournaments_for(user).filter(pk=pk).exists()
    ):
        return tournament
    raise Http404("No such tournament is public.")
