"""The club's member register in a backup, and the links of every format's names to it.

The register is carried in each club's block of a whole backup under "members" (a
`registry.ClubPart` of the kernel's own), restored with the club, and read as none from a
backup written before the register existed (version 3 and older).

The links (a pair's, a drive player's, a team's players': each model's `MEMBER_NAMES`) are
carried two ways, by where the document goes (`dump.member_links_out`):

- In a whole backup (version 5 on), each link is the member's id in the backup's register of
  the document's club. The restore writes every club's register before any format's document
  (`driver.backup_restore`), giving a member a new id when its own is taken here, and each link
  follows its member (`backup_links_check`, then `links_to_members` as each document is
  written). An id the register does not list refuses the backup before anything is written.
- An event's, a drive's or a tournament's JSON on its own, which a director hands to another
  club, carries no register (no member's email address, no id meaning anything elsewhere):
  each link is the member's name, {"name": ...}, and the import (or a restore of that one
  document) links it again by the matching rule (`kernel.member_links.member_for_name`) in the
  club it goes into; a name that club's register does not have stays a visitor's
  (`links_by_name`).

Each way refuses the other's form: an id in a document on its own means nothing, a name in a
whole backup would bypass the register it carries. A document written before the links were
carried (a backup of version 4 or older, a format's document of version 1) is read with no
link (`schema.ADDED_LATER`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tournaments.kernel.backup.checks import check_names
from tournaments.kernel.backup.dump import row
from tournaments.kernel.backup.rows import MemberRef, as_object, check_unique, load_row
from tournaments.kernel.backup.schema import BACKUP_FORMAT, Model, RestoreRefused
from tournaments.kernel.backup.writing import ids_kept, insert_rows
from tournaments.kernel.member_links import members_by_name, name_key
from tournaments.kernel.models import Club, Member


class ClubMembers:
    """The club's members, carried in its block of a whole backup."""

    key = "members"

    def check(self, club: Club, where: str) -> None:
        """Nothing of the club itself to check here (its name is checked with its block)."""

    def dump(self, club: Club) -> list[Any]:
        return [row(m, Member, users={}) for m in Member.objects.filter(club=club).order_by("pk")]

    def parse(self, data: dict[str, Any], where: str) -> list[Any]:
        """The block's members, checked: names by the one rule, a name once whatever its
        capitals, a number once; a block without the key (an older backup) has none."""
        raw = data.get(self.key, [])
        if not isinstance(raw, list):
            raise RestoreRefused(f"{where}: {self.key!r} should be a list.")
        members: list[Member] = [
            load_row(Member, as_object(m, f"{where}, member {i + 1}"), f"{where}, member {i + 1}",
                     fmt=BACKUP_FORMAT)
            for i, m in enumerate(raw)
        ]  # fmt: skip
        for i, member in enumerate(members):
            check_names(member, ("name", "number"), f"{where}, member {i + 1}")
        check_unique(
            ((m.name.casefold(), f"member {i + 1}") for i, m in enumerate(members)), "name", where
        )
        check_unique(
            ((m.number, f"member {i + 1}") for i, m in enumerate(members) if m.number),
            "membership number",
            where,
        )
        # The links name members by id: an id twice would make a link mean two members.
        check_unique(
            ((m.pk, f"member {i + 1}") for i, m in enumerate(members) if m.pk), "id", where
        )
        return members

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        """The members under `club`, with their own ids when none is taken here, else every
        one with a new id (a few new ids among kept ones could meet an id kept a moment
        before); the links follow the rows, whatever their ids (`links_to_members`)."""
        for member in rows:
            member.club = club
        ids_kept(lambda: [(Member, rows)])
        insert_rows(Member, rows)
        return [(Member, rows)]


MEMBERS = ClubMembers()


def registers(clubs: Iterable[Any]) -> dict[str, dict[int, Member]]:
    """Each club's register as a whole backup carries it, by slug and by the member's id in
    the backup (read before the restore writes anything: the rows' ids may change then). `clubs`
    are the backup's checked club blocks (`documents.ClubBlock`)."""
    return {
        block.club.slug: {m.pk: m for m in block.rows.get(MEMBERS.key, []) if m.pk is not None}
        for block in clubs
    }


def backup_links_check(
    refs: Iterable[MemberRef], register: Mapping[int, Member], slug: str, place: str
) -> None:
    """A document of a whole backup (`place`: "Event 2 of the backup ('Tuesday pairs')"):
    each link the id of a member of its club's register in the backup, recorded on the link
    (`MemberRef.member`); anything else refuses the backup, naming the row, before anything
    is written."""
    for ref in refs:
        if ref.id is None:
            raise RestoreRefused(
                f"{place}, {ref.where} is the name {ref.name!r}: in a whole backup a link to "
                "a member is the member's id in the club's register the backup carries. The "
                "backup was edited: write it again with `manage.py backup`."
            )
        member = register.get(ref.id)
        if member is None:
            raise RestoreRefused(
                f"{place}, {ref.where} is member {ref.id}, whom the register of the club "
                f"{slug!r} in the backup does not list: the backup is not whole, or was "
                "edited. Nothing was restored; write the backup again with `manage.py backup`."
            )
        ref.member = member


def links_to_members(refs: Iterable[MemberRef]) -> None:
    """A whole backup's restore, once the registers are written: each link to its member's
    id here (the id the member had in the backup, or the new one it was given)."""
    for ref in refs:
        assert ref.member is not None and ref.member.pk is not None, "members first"
        setattr(ref.obj, ref.attname, ref.member.pk)


def names_only(refs: Iterable[MemberRef], what: str) -> None:
    """A document on its own (`what`: "the event document") names each member: an id means
    something only in the backup whose register lists it, so it is refused, changing
    nothing."""
    for ref in refs:
        if ref.id is not None:
            raise RestoreRefused(
                f"{ref.where[:1].upper()}{ref.where[1:]} is member id {ref.id}, which means "
                f"nothing outside the backup it came from: {what} on its own names each "
                'member ({"name": ...}). Export it again from clubwhist.'
            )


def links_by_name(refs: Iterable[MemberRef], club: Club) -> None:
    """A document on its own, going into `club`: each link to the club's member of that name
    by the matching rule (`kernel.member_links`: capitals and spacing aside, never an erased
    member), or to nobody (a visitor) when the club's register has no such name."""
    refs = list(refs)
    if not refs:
        return
    register = members_by_name(club)
    for ref in refs:
        member = register.get(name_key(ref.name or "")) if ref.name else None
        setattr(ref.obj, ref.attname, None if member is None else member.pk)
