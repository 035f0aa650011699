"""Who may see and change what: the one place the app answers that question.

The rules (docs/directors/who-can-do-what.md says the same in words):
- an administrator (a superuser) directs every club;
- a director (any other signed-in account) directs the clubs whose `directors` include them,
  and sees and changes only those clubs' events, on the pages, the API and the exports;
- a table's link reaches only that table's meetings (see `services.tablets`);
- everyone else, signed in or not, reads only published events, and running ones whose director
  switched live results on.

"Owned by a club this user directs" is the kernel's rule (`kernel.directors`), one filter for
every format's rows. Another club's event answers 404, not 403: a director has no business
learning which event ids exist elsewhere. The Django admin is for administrators only
(`ClubAdminSite`), so it needs no per-club filtering of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from tournaments.drive_models import Drive
from tournaments.kernel.directors import directed, directs_club, signed_in
from tournaments.kernel.directors import is_admin as is_admin
from tournaments.models import Club, Event
from tournaments.team_models import League, Tournament

NO_CLUB = (
    "Your account does not direct any club yet. Ask your club's administrator to add you to "
    "the club's directors (in the admin, or with the command: python manage.py clubs "
    "add-director CLUB YOUR-USERNAME)."
)


def clubs_for(user: Any) -> QuerySet[Club]:
    """The clubs this account directs (all of them for an administrator)."""
    if is_admin(user):
        return Club.objects.all()
    if not signed_in(user):
        return Club.objects.none()
    return Club.objects.filter(directors=user)


def events_for(user: Any, queryset: QuerySet[Event] | None = None) -> QuerySet[Event]:
    """The events this account may direct."""
    return directed(user, Event.objects.all() if queryset is None else queryset)


def directs(user: Any, event: Event) -> bool:
    return directs_club(user, event.club_id)


def event_for(user: Any, pk: int, queryset: QuerySet[Event] | None = None) -> Event:
    """The event `pk` if this account directs its club; 404 otherwise (also for another club's)."""
    try:
        return events_for(user, queryset).get(pk=pk)
    except Event.DoesNotExist:
        raise Http404("No such event among your clubs' events.") from None


def drives_for(user: Any, queryset: QuerySet[Drive] | None = None) -> QuerySet[Drive]:
    """The drives this account may direct: the same rule as events (their clubs' drives)."""
    return directed(user, Drive.objects.all() if queryset is None else queryset)


def drive_for(user: Any, pk: int, queryset: QuerySet[Drive] | None = None) -> Drive:
    """The drive `pk` if this account directs its club; 404 otherwise (also for another club's)."""
    try:
        return drives_for(user, queryset).get(pk=pk)
    except Drive.DoesNotExist:
        raise Http404("No such drive among your clubs' drives.") from None


def directs_drive(user: Any, drive: Drive) -> bool:
    return directs_club(user, drive.club_id)


def club_for(user: Any, slug: str) -> Club:
    try:
        return clubs_for(user).get(slug=slug)
    except Club.DoesNotExist:
        raise Http404("No such club among the clubs you direct.") from None


def readable_events(user: Any) -> QuerySet[Event]:
    """The events whose public pages this reader may open: their clubs' events for a director
    (to check the pages before publishing), published or live ones for everyone."""
    public = Q(status=Event.Status.PUBLISHED) | Q(status=Event.Status.RUNNING, live_public=True)
    if is_admin(user):
        return Event.objects.all()
    if signed_in(user):
        return Event.objects.filter(public | Q(club__directors=user)).distinct()
    return Event.objects.filter(public)


@dataclass(frozen=True)
class NewClub:
    """An administrator's answer for a club that does not exist yet: the services make it."""

    name: str


def club_for_new_event(user: Any, name: str | None = None) -> Club | NewClub:
    """The club a new event (or an imported one) goes to, or the club to make for it.

    A director names one of their clubs (by name or slug) or, directing exactly one, may leave
    it out. An administrator may name a club that does not exist yet (or, directing none, gets
    "My whist club"): the answer is then a `NewClub`, which `services.clubs.club_for_new_event`
    makes; this module decides and never writes. Anyone else is refused with what to do.
    """
    clubs = clubs_for(user)
    if name:
        club = clubs.filter(Q(name=name) | Q(slug=name)).first()
        if club is not None:
            return club
        if is_admin(user):
            return NewClub(name)
        mine = ", ".join(clubs.values_list("name", flat=True)) or "none"
        raise PermissionDenied(
            f"You do not direct a club called {name!r}. The clubs you direct: {mine}."
        )
    count = clubs.count()
    if count == 1:
        return clubs.get()
    if count == 0:
        if is_admin(user):
            return NewClub("My whist club")
        raise PermissionDenied(NO_CLUB)
    raise PermissionDenied(
        "You direct several clubs: say which club the event is for ("
        + ", ".join(clubs.values_list("name", flat=True))
        + ")."
    )


def tournaments_for(
    user: Any, queryset: QuerySet[Tournament] | None = None
) -> QuerySet[Tournament]:
    """The team tournaments this account may direct: the same rule as events."""
    return directed(user, Tournament.objects.all() if queryset is None else queryset)


def tournament_for(user: Any, pk: int, queryset: QuerySet[Tournament] | None = None) -> Tournament:
    """The tournament `pk` if this account directs its club; 404 otherwise."""
    try:
        return tournaments_for(user, queryset).get(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404("No such tournament among your clubs' tournaments.") from None


def league_for(user: Any, pk: int) -> League:
    """The league `pk` if this account directs its club; 404 otherwise."""
    try:
        return directed(user, League.objects.all()).get(pk=pk)
    except League.DoesNotExist:
        raise Http404("No such league among your clubs' leagues.") from None


def tournament_readable(user: Any, pk: int) -> Tournament:
    """The tournament `pk` if anyone may read it (published, or live standings on) or this
    account directs it; 404 otherwise (the public pages and the public API ask this)."""
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is not None and (
        tournament.is_public or tournaments_for(user).filter(pk=pk).exists()
    ):
        return tournament
    raise Http404("No such tournament is public.")
