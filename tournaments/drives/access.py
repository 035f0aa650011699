"""Who may direct which drive: the kernel's rule (their clubs' drives), for drives."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.drives.models import Drive
from tournaments.kernel.access import directed_row, scored_row
from tournaments.kernel.directors import directed, directs_club


def drives_for(user: Any, queryset: QuerySet[Drive] | None = None) -> QuerySet[Drive]:
    """The drives this account may direct: the same rule as events (their clubs' drives)."""
    return directed(user, Drive.objects.all() if queryset is None else queryset)


def drive_for(user: Any, pk: int, queryset: QuerySet[Drive] | None = None) -> Drive:
    """The drive `pk` if this account directs its club; 404 otherwise (also for another club's)."""
    return directed_row(user, Drive.objects.all() if queryset is None else queryset, pk, "drives")


def drive_for_scoring(user: Any, pk: int, queryset: QuerySet[Drive] | None = None) -> Drive:
    """The drive `pk` if this account may enter and correct its results (its club's directors
    and scorers); 404 otherwise."""
    return scored_row(user, Drive.objects.all() if queryset is None else queryset, pk, "drives")


def directs_drive(user: Any, drive: Drive) -> bool:
    return directs_club(user, drive.club_id)
