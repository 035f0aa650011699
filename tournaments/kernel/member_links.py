"""The names every format keeps, linked to the club's members: the one matching rule, the
explicit choice the API allows, the name a public reader sees, and the sweep that links the
names already stored (the `members link` command and its API).

A name links to the club's member whose name it is, compared without regard to capitals or
spacing ("sian  o'NEIL" is Siân O'Neil); an erased member never matches, an inactive one does
(a lapsed member still plays now and then). A name no member has is a visitor's: visitors play
without being members. A link is made when a director sets a name, never afterwards behind the
director's back: a member added to the register later, or renamed, changes nothing already
stored until the director runs the sweep (`names_link`), which says what it linked.

Every format registers where it keeps names (`register_link_source`), so the kernel sweeps them
all without importing any format. Kept apart from `kernel.members` (the register's own rows):
linking reads the register, it never changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import models, transaction

from tournaments.kernel.audit import User, audit_write
from tournaments.kernel.models import Club, Member, MemberAudit
from tournaments.kernel.refusals import Refused

#: What a public page shows for a member who asked to be forgotten.
FORMER_NAME = "former member"


class LinkRefused(Refused):
    """An explicit member choice that cannot stand (another club's, erased, or a different
    name); the message says which and what to send instead."""


class ByName:
    """The default of a choice: no member id was sent, the typed name decides."""

    def __repr__(self) -> str:
        return "BY_NAME"


#: No explicit choice: link by the typed name (the pages always; the API when no id is sent).
BY_NAME: Any = ByName()


def name_key(name: str) -> str:
    """A name as the matching compares it: spacing made single, capitals folded (Python's
    casefold, not the database's: SQLite folds only ASCII, and "SIÂN" is "Siân")."""
    return " ".join(str(name).split()).casefold()


def members_by_name(club: Club) -> dict[str, Member]:
    """The club's members a name may link to, by `name_key`: every member not erased, active
    or not. One query, for a service that sets many names at once."""
    found = Member.objects.filter(club=club, erased_at__isnull=True).order_by("id")
    return {name_key(m.name): m for m in found}


def member_for_name(club: Club, name: str) -> Member | None:
    """The club's member `name` is (`members_by_name`'s rule), or None: a visitor."""
    if not name_key(name):
        return None
    return members_by_name(club).get(name_key(name))


def member_suggestions(club: Club) -> list[str]:
    """The names the setup forms suggest as a director types (`<datalist>`): the club's
    active members, not erased, by name."""
    found = Member.objects.filter(club=club, active=True, erased_at__isnull=True)
    return list(found.order_by("name", "id").values_list("name", flat=True))


def shown_player(name: str, member: Member | None) -> str:
    """A player's name as a member of the public reads it: a linked member's `shown_name()`
    (their whole name, initials or "a member", as they chose; "former member" once erased),
    a visitor's name as typed. Directors' pages show the typed name instead."""
    if member is None:
        return name
    if member.erased_at is not None:
        return FORMER_NAME
    return member.shown_name()


class NameLinker:
    """The links a service makes while it sets names: the club's register read once, each
    name set linked by the matching rule or by the member the caller chose.

    `refused` is the format's refusal class, so its pages and API catch what they always
    caught."""

    def __init__(self, club: Club, *, refused: type[Refused] = LinkRefused) -> None:
        self.club = club
        self.refused = refused
        self._register: dict[str, Member] | None = None

    @property
    def register(self) -> dict[str, Member]:
        if self._register is None:
            self._register = members_by_name(self.club)
        return self._register

    def by_name(self, name: str) -> Member | None:
        key = name_key(name)
        return self.register.get(key) if key else None

    def chosen(self, member_id: Any, name: str, *, what: str) -> Member | None:
        """The member an API caller picked for `what` ("pair 3's first player"): None for an
        explicit visitor; a refusal for an id that is not a whole number, not this club's
        member, erased, or whose name differs from the typed `name` (saying both)."""
        if member_id is None:
            return None
        if isinstance(member_id, bool) or not isinstance(member_id, int):
            raise self.refused(
                f"{_cap(what)}'s member is a member's id (a whole number) or null for a visitor."
            )
        member = Member.objects.filter(pk=member_id, club=self.club).first()
        if member is None:
            raise self.refused(
                f"{_cap(what)}: member {member_id} is not in this club's register. Pick one "
                "of the club's members, or send null for a visitor."
            )
        if member.erased_at is not None:
            raise self.refused(
                f"{_cap(what)}: member {member_id} has been erased from the register and can "
                "no longer be linked. Send null for a visitor."
            )
        if name_key(name) != name_key(member.name):
            typed = name.strip() or "(no name)"
            raise self.refused(
                f"{_cap(what)} is \u201c{typed[:80]}\u201d but member {member_id} is "
                f"\u201c{member.name}\u201d: type the member's name, or leave the member out "
                "to link by the name typed."
            )
        return member

    def link(
        self,
        name: str,
        *,
        chosen: Any = BY_NAME,
        what: str,
        before: tuple[str, Member | None] | None = None,
    ) -> Member | None:
        """The member `name` stands for once set: the caller's choice when one was made;
        else, when the name is the one already stored (`before`: the stored name and link),
        the stored link kept (nothing already played changes silently); else the matching
        rule's member, or None for a visitor."""
        if chosen is not BY_NAME:
            return self.chosen(chosen, name, what=what)
        if before is not None and name_key(before[0]) == name_key(name):
            return before[1]
        return self.by_name(name)


def _cap(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}"


def member_id_of(row: Mapping[str, Any], key: str) -> Any:
    """An API row's member choice for `key` ("member1"): its value when sent (an id or
    None), else `BY_NAME`."""
    return row.get(key, BY_NAME)


# ---- the sweep: every unlinked name of a club, in every format -------------------------------


@dataclass(frozen=True)
class LinkSource:
    """Where a format keeps players' names: `model` (with its `MEMBER_NAMES`: link field ->
    name field), the path from a row to its club (`club_path`), and how to name the evening a
    row belongs to (`evening`, with the relations it reads in `related`)."""

    format: str
    model: type[models.Model]
    club_path: str
    evening: Callable[[Any], str]
    related: tuple[str, ...] = ()


_SOURCES: dict[str, LinkSource] = {}


def evening_label(play: Any) -> str:
    """An evening as the sweep's report names it: the play's name and day."""
    return f"{play.name} ({play.date:%d %b %Y})"


def register_link_source(source: LinkSource) -> None:
    """A format says where it keeps names (once, as the app starts); registering the same
    model again replaces it."""
    _SOURCES[source.model._meta.label] = source


def link_sources() -> list[LinkSource]:
    return list(_SOURCES.values())


@dataclass
class LinkedName:
    """One name the sweep linked (or would): the member, in how many places, which evenings."""

    name: str
    member: Member
    places: int = 0
    evenings: list[str] = field(default_factory=list)


@dataclass
class UnmatchedName:
    """One name no member has (each once, whatever its capitals), with its evenings."""

    name: str
    places: int = 0
    evenings: list[str] = field(default_factory=list)


@dataclass
class LinkReport:
    """What `names_link` did (or, dry, would do): per name, and a summary line."""

    linked: list[LinkedName]
    unmatched: list[UnmatchedName]
    dry_run: bool

    @property
    def places(self) -> int:
        return sum(n.places for n in self.linked)

    def summary(self) -> str:
        verb = "would link" if self.dry_run else "linked"
        return (
            f"{verb} {len(self.linked)} name(s) in {self.places} place(s); "
            f"{len(self.unmatched)} name(s) matched no member."
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "linked": [
                {
                    "name": n.name,
                    "member": {"id": n.member.pk, "name": n.member.name},
                    "places": n.places,
                    "evenings": n.evenings,
                }
                for n in self.linked
            ],
            "unmatched": [
                {"name": n.name, "places": n.places, "evenings": n.evenings} for n in self.unmatched
            ],
            "summary": self.summary(),
        }


def _add_evening(evenings: list[str], evening: str) -> None:
    if evening not in evenings:
        evenings.append(evening)


def _unlinked(source: LinkSource, club: Club) -> Iterable[tuple[Any, str, str]]:
    """(row, link field, name) for every named but unlinked place of `club` in `source`."""
    rows = source.model._default_manager.filter(**{source.club_path: club})
    if source.related:
        rows = rows.select_related(*source.related)
    for row in rows.order_by("pk"):
        for link, name_field in source.model.MEMBER_NAMES.items():  # type: ignore[attr-defined]
            name = getattr(row, name_field)
            if name.strip() and getattr(row, f"{link}_id") is None:
                yield row, link, name


@transaction.atomic
def names_link(*, club: Club, dry_run: bool = False, user: User = None) -> LinkReport:
    """Link every unlinked name of `club`, in every format, to the member whose name it is
    (the matching rule: `members_by_name`), and say per name what was linked, in how many
    places and evenings, and what matched no member. Dry, nothing changes. Each name linked
    is one line of the register's audit trail."""
    register = members_by_name(club)
    linked: dict[int, LinkedName] = {}
    unmatched: dict[str, UnmatchedName] = {}
    changes: list[tuple[Any, str, Member]] = []
    for source in link_sources():
        for row, link, name in _unlinked(source, club):
            key = name_key(name)
            evening = source.evening(row)
            member = register.get(key)
            if member is None:
                miss = unmatched.setdefault(key, UnmatchedName(" ".join(name.split())))
                miss.places += 1
                _add_evening(miss.evenings, evening)
                continue
            hit = linked.setdefault(member.pk, LinkedName(member.name, member))
            hit.places += 1
            _add_evening(hit.evenings, evening)
            changes.append((row, link, member))
    if not dry_run:
        for row, link, member in changes:
            type(row)._default_manager.filter(pk=row.pk, **{f"{link}__isnull": True}).update(
                **{link: member}
            )
        for hit in linked.values():
            audit_write(
                MemberAudit, user=user, action="member linked",
                target=f"member {hit.member.name}"[:80], club=club, member=hit.member,
                after={"places": hit.places, "evenings": hit.evenings},
            )  # fmt: skip
    return LinkReport(
        sorted(linked.values(), key=lambda n: name_key(n.name)),
        sorted(unmatched.values(), key=lambda n: name_key(n.name)),
        dry_run,
    )
