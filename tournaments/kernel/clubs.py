"""The clubs' writes every format shares: the club a new event, drive or tournament goes to.

Events, drives and team tournaments all belong to a club, and the pages, the API, the
commands and the imports of every format make a club the same way: under the one rule for
names (`kernel.names`), with a slug of its own. The kernel's one write: the club is the
kernel's row (`kernel.models`).
"""

from __future__ import annotations

from itertools import chain, count

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tournaments.kernel.access import NewClub, new_club_choice
from tournaments.kernel.audit import User
from tournaments.kernel.models import Club
from tournaments.kernel.names import name_checked

#: Slugs no club may take: their addresses under /clubs/ are pages of their own.
RESERVED_SLUGS = frozenset({"new"})


def club_for_new_event(*, user: User, name: str | None = None) -> Club:
    """The club a new event, drive or tournament (or an imported one) goes to, as
    `kernel.access.new_club_choice` decides, made here when an administrator names a club that
    does not exist yet."""
    choice = new_club_choice(user, name)
    return club_get_or_create(name=choice.name) if isinstance(choice, NewClub) else choice


def club_get_or_create(*, name: str) -> Club:
    """The club called `name`, made if new, with a slug of its own: two names can make the
    same slug ("Riverside!" and "riverside", or any two without a letter), which once ended
    in a 500 from the unique constraint (found by the API fuzzing). A name outside the rule
    is refused (`kernel.names.RuleRefused`)."""
    name = name_checked(name, model=Club, column="name", what="the club's name", required=True)
    club = Club.objects.filter(name=name).first()
    if club is not None:
        return club
    base = slugify(name)[:54] or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS  # /clubs/new/ is the page that makes a club
    # Lazily: the candidates are tried in turn until one is free (at most len(taken) + 1 of
    # them), never all built first.
    candidates = chain((base,), (f"{base}-{n}" for n in count(2)))
    slug = next(s for s in candidates if s not in taken)
    try:
        with transaction.atomic():
            return Club.objects.create(name=name, slug=slug)
    except IntegrityError:  # made meanwhile by another request: that one is the club
        return Club.objects.get(name=name)
