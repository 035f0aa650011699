"""A member's page: who may see it, and everything it shows, read from the season's ledger.

The public sees a member's page only when the member's public-name choice is not "hidden"
and the member was not erased; the club's directors always see it, with full names. On the
public version every name follows its owner's choice: the member's own, and each partner's
or team-mate's (a member by their choice, a visitor by the name played under). The page, its
PDF, its CSV and the API all read `member_page`, so they show the same thing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.season import Appearance, signed
from engine.season.member import MemberHistory, member_history
from tournaments.kernel.access import clubs_for
from tournaments.kernel.models import Club, Member, PublicName
from tournaments.seasons.models import Season
from tournaments.seasons.selectors.handicaps import current_handicap
from tournaments.seasons.selectors.ledger import appearances

#: How an erased member is shown to everyone: their name is gone, their evenings stay.
FORMER_MEMBER = "Former member"


def directs(user: Any, club: Club) -> bool:
    """Whether this account directs the club (an administrator directs every club)."""
    return clubs_for(user).filter(pk=club.pk).exists()


def member_for_reader(club: Club, member_id: int, *, director: bool) -> Member | None:
    """The member if this reader may open their page: always for the club's directors; for
    everyone else only a member who chose to be shown (full name or initials) and was not
    erased. None otherwise (the page answers 404, not saying whether the member exists)."""
    member = Member.objects.filter(club=club, pk=member_id).first()
    if member is None or director:
        return member
    if member.erased_at is not None or member.public_name == PublicName.HIDDEN:
        return None
    return member


def name_for(member: Member, *, director: bool) -> str:
    """A member's name as this reader sees it."""
    if member.erased_at is not None:
        return FORMER_MEMBER
    return member.name if director else member.shown_name()


@dataclass(frozen=True)
class MemberPage:
    """What the member's page shows."""

    club: Club
    member: Member
    name: str  # as this reader sees it
    director: bool
    history: MemberHistory
    handicap: Fraction
    handicap_rule: str
    season: Season | None  # the season chosen (None: every evening)
    seasons: tuple[Season, ...]

    @property
    def handicap_text(self) -> str:
        return signed(self.handicap)

    def to_dict(self) -> dict[str, Any]:
        """The API's answer (docs/reference/api.md)."""
        return {
            "club": self.club.slug,
            "member": self.member.pk,
            "name": self.name,
            "season": None
            if self.season is None
            else {
                "id": self.season.pk,
                "name": self.season.name,
                "starts": self.season.starts.isoformat(),
                "ends": self.season.ends.isoformat(),
            },
            "handicap": self.handicap_text,
            "handicap_rule": self.handicap_rule,
            "summaries": [s.to_dict() for s in self.history.summaries],
            "evenings": [e.to_dict() for e in self.history.evenings],
        }


def season_choice(club: Club, raw: str | None) -> Season | None:
    """The season a `?season=` names, if it is one of the club's; None (every evening)
    otherwise."""
    if not raw or not raw.isdigit() or len(raw) > 12:
        return None
    return Season.objects.filter(club=club, pk=int(raw)).first()


def member_page(
    club: Club,
    member: Member,
    *,
    director: bool,
    season: Season | None = None,
    today: dt.date | None = None,
) -> MemberPage:
    """The member's page for this reader: every published evening (of `season`'s dates, or
    all), each partner named as this reader may see them, the summary, the charts' series
    and the handicap for the club's next evening."""
    today = today or dt.date.today()
    found = appearances(
        club.pk,
        starts=season.starts if season else None,
        ends=season.ends if season else None,
    )
    names = _names(club, (a.member_id for a in found), director=director)

    def shown(a: Appearance) -> str:
        if a.member_id is not None and a.member_id in names:
            return names[a.member_id]
        return a.name  # a visitor: the name played under

    handicap, rule = current_handicap(club.pk, member.pk, today)
    return MemberPage(
        club=club,
        member=member,
        name=name_for(member, director=director),
        director=director,
        history=member_history(found, member.pk, shown=shown),
        handicap=handicap,
        handicap_rule=rule,
        season=season,
        seasons=tuple(Season.objects.filter(club=club).order_by("-starts", "-id")),
    )


def _names(club: Club, ids: Iterable[int | None], *, director: bool) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    return {
        m.pk: name_for(m, director=director)
        for m in Member.objects.filter(club=club, pk__in=wanted)
    }
