"""The club's member register in a backup: carried in each club's block under "members" (a
`registry.ClubPart` of the kernel's own), restored with the club, and read as none from a
backup written before the register existed (version 3 and older).

Only a whole backup carries the register: an event's, a drive's or a tournament's JSON, which a
director hands to another club, carries no member's email address.
"""

from __future__ import annotations

from typing import Any

from tournaments.kernel.backup.checks import check_names
from tournaments.kernel.backup.dump import row
from tournaments.kernel.backup.rows import as_object, check_unique, load_row
from tournaments.kernel.backup.schema import BACKUP_FORMAT, Model, RestoreRefused
from tournaments.kernel.backup.writing import insert_rows
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
        return members

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        for member in rows:
            member.club = club
            if member.pk is not None and Member.objects.filter(pk=member.pk).exists():
                member.pk = None
        insert_rows(Member, rows)
        return [(Member, rows)]


MEMBERS = ClubMembers()
