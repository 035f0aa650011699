"""Who may direct which club: the clubs an account directs, and the club a new event, drive
or tournament goes to. Each format's `access` module answers the same question for its own rows
with `kernel.directors.directed` (their clubs' rows) and `directed_row` (one of them, or 404).

The rules (docs/directors/who-can-do-what.md says the same in words):
- an administrator (a superuser) directs every club;
- a director (any other signed-in account) directs the clubs whose `directors` include them,
  and sees and changes only those clubs' rows, on the pages, the API and the exports;
- a scorer (a signed-in account in a club's `scorers`) enters and corrects the results of that
  club's evenings (`scored_row`, asked only by the result entry and correction views of each
  format) and is refused everything else of the club with a 403 saying so (`SCORERS_STOP`);
- a table's link reaches only that table (each format's tablet services);
- everyone else, signed in or not, reads only what a director made public.

Another club's row answers 404, not 403: a director has no business learning which ids exist
elsewhere. The Django admin is for administrators only (`ClubAdminSite`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import Model, Q, QuerySet
from django.http import Http404

from tournaments.kernel.directors import directed, scored, scorer_only, signed_in
from tournaments.kernel.directors import is_admin as is_admin
from tournaments.kernel.models import Club

M = TypeVar("M", bound=Model)

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


#: What a scorer is told of a director's page or operation of their club.
SCORERS_STOP = (
    "You score for {club}: you may enter and correct its results, and only its directors may "
    "do this. Ask one of them if it needs doing."
)


def club_for(user: Any, slug: str) -> Club:
    try:
        return clubs_for(user).get(slug=slug)
    except Club.DoesNotExist:
        scored_club = Club.objects.filter(slug=slug).first()
        if scored_club is not None and scorer_only(user, scored_club.pk):
            raise PermissionDenied(SCORERS_STOP.format(club=scored_club.name)) from None
        raise Http404("No such club among the clubs you direct.") from None


def directed_row(user: Any, queryset: QuerySet[M], pk: int, what: str) -> M:
    """Row `pk` of `queryset` if this account directs its club; 404 otherwise, also for another
    club's row (`what` names the rows in the message: "drives", "tournaments")."""
    try:
        return directed(user, queryset).get(pk=pk)
    except ObjectDoesNotExist:
        _refuse_a_scorer(user, queryset, pk)
        raise Http404(f"No such {what[:-1]} among your clubs' {what}.") from None


def scored_row(user: Any, queryset: QuerySet[M], pk: int, what: str) -> M:
    """Row `pk` of `queryset` if this account may enter and correct its results (its club's
    directors and scorers: `kernel.directors.scored`); 404 otherwise."""
    try:
        return scored(user, queryset).get(pk=pk)
    except ObjectDoesNotExist:
        raise Http404(f"No such {what[:-1]} among your clubs' {what}.") from None


def _refuse_a_scorer(user: Any, queryset: QuerySet[Any], pk: int) -> None:
    """A scorer asking for a director's page of their own club's row is told why not (403),
    not told that the row they just entered results for does not exist."""
    if not signed_in(user):
        return
    row = scored(user, queryset).filter(pk=pk).select_related("club").first()
    if row is not None and scorer_only(user, row.club_id):
        raise PermissionDenied(SCORERS_STOP.format(club=row.club.name))


@dataclass(frozen=True)
class NewClub:
    """An administrator's answer for a club that does not exist yet: the services make it."""

    name: str


def new_club_choice(user: Any, name: str | None = None) -> Club | NewClub:
    """The club a new event (or an imported one) goes to, or the club to make for it.

    A director names one of their clubs (by name or slug) or, directing exactly one, may leave
    it out. An administrator may name a club that does not exist yet (or, directing none, gets
    "My whist club"): the answer is then a `NewClub`, which
    `kernel.clubs.club_for_new_event` makes; this module decides and never writes. Anyone else is
    refused with what to do.
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
