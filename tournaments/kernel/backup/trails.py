"""A club's own trails in a whole backup (version 7 on): who may do what (`PeopleAudit`, under
"people_audit") and the member register's (`MemberAudit`, under "member_audit").

A club moving from its laptop to the county's installation (or to a new laptop) takes its
history with it: every invitation sent, accepted or withdrawn and every person removed, every
member added, changed, merged, imported or forgotten. What a trail says of a forgotten member
was made anonymous where it is kept (`kernel.member_privacy`), so the backup carries it as it
reads there.

Each line names who did it by username, as every audit line of a document does: the account
when the restore has it, else the name kept in words (`user_name`). A register line names its
member by the member's id in the backup's register, and follows that member to the id it gets
here. A backup before version 7 has no trails and is read as holding none. The invitations
themselves are still left out (`schema.OMITTED_MODELS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser

from tournaments.kernel.backup.checks import check_ids_once
from tournaments.kernel.backup.dump import member_links_out, row, usernames
from tournaments.kernel.backup.members import MEMBERS
from tournaments.kernel.backup.report import RestoreReport
from tournaments.kernel.backup.rows import MemberRef, UserRef, as_object, load_row
from tournaments.kernel.backup.schema import BACKUP_FORMAT, Model, RestoreRefused
from tournaments.kernel.backup.writing import (
    ids_kept,
    insert_rows,
    link_users_or_words,
    move_sequences_past,
    users_named,
)
from tournaments.kernel.models import Club, Member, MemberAudit, PeopleAudit


@dataclass
class TrailLine:
    """A trail's line, checked: its row, whom it names, and (a register line) where its member
    stands in the block's register, by position (ids may change when the register is
    written; its order does not)."""

    line: PeopleAudit | MemberAudit
    users: list[UserRef] = field(default_factory=list)
    member_at: int | None = None


class ClubTrail:
    """One of the club's trails, carried in its block of a whole backup (`registry.ClubPart`);
    written once the club's register and people are (`trails_after_restore`)."""

    def __init__(self, key: str, model: type[PeopleAudit] | type[MemberAudit], words: str) -> None:
        self.key = key
        self.model = model
        self.words = words  # "people trail": a refusal's name for a line's trail

    def check(self, club: Club, where: str) -> None:
        """Nothing of the club itself to check here."""

    def dump(self, club: Club) -> list[Any]:
        lines = list(self.model._default_manager.filter(club=club).order_by("pk"))
        users = usernames(line.user_id for line in lines)
        ids = (getattr(line, "member_id", None) for line in lines)
        members = member_links_out(ids, backup=True)
        return [row(line, self.model, users=users, members=members) for line in lines]

    def parse(self, data: dict[str, Any], where: str) -> list[Any]:
        """The block's lines, checked, each value by the model; a register line's member one
        of the block's register by id (the register is read before: its ids are known once
        each); a block without the key (a backup before version 7) has none."""
        raw = data.get(self.key, [])
        if not isinstance(raw, list):
            raise RestoreRefused(f"{where}: {self.key!r} should be a list.")
        register = data.get(MEMBERS.key, [])
        listed = register if isinstance(register, list) else []
        at = {m.get("id"): i for i, m in enumerate(listed) if isinstance(m, dict)}
        lines = []
        for i, item in enumerate(raw):
            said = f"{where}, {self.words} line {i + 1}"
            refs: list[UserRef] = []
            linked: list[MemberRef] = []
            line = load_row(
                self.model,
                as_object(item, said),
                said,
                users=refs,
                members=linked,
                fmt=BACKUP_FORMAT,
            )
            member_at = None
            for ref in linked:
                if ref.id is None or ref.id not in at:
                    raise RestoreRefused(
                        f"{ref.where} is {ref.id if ref.id is not None else repr(ref.name)}, "
                        "which is not a member id of the club's register in the backup: the "
                        "backup was edited. Nothing was restored; write it again with "
                        "`manage.py backup`."
                    )
                member_at = at[ref.id]
            lines.append(TrailLine(line, refs, member_at))
        check_ids_once([(self.model, [t.line for t in lines])], where)
        return lines

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        """Nothing yet: the lines are written with the club's people and register in place
        (`trails_after_restore`)."""
        return []


PEOPLE_AUDIT = ClubTrail("people_audit", PeopleAudit, "people trail")
MEMBER_AUDIT = ClubTrail("member_audit", MemberAudit, "register trail")
TRAILS = (PEOPLE_AUDIT, MEMBER_AUDIT)


def trails_after_restore(
    *, club: Club, rows: Mapping[str, list[Any]], report: RestoreReport
) -> None:
    """Each trail's lines under the restored club, linked to the accounts here (or naming them
    in words) and each register line to its member as restored."""
    register: list[Member] = list(rows.get(MEMBERS.key, []))
    for trail in TRAILS:
        _trail_write(club, trail.model, list(rows.get(trail.key, [])), register)


def _trail_write(club: Club, model: Model, parsed: list[TrailLine], register: list[Member]) -> None:
    """One trail's lines, keeping their ids when none is taken here."""
    users: dict[str, AuthUser] = users_named(ref for t in parsed for ref in t.users)
    lines = []
    for t in parsed:
        t.line.club = club
        if isinstance(t.line, MemberAudit) and t.member_at is not None:
            t.line.member = register[t.member_at]
        link_users_or_words(t.users, users)
        lines.append(t.line)
    ids_kept(lambda: [(model, lines)])
    insert_rows(model, lines)
    move_sequences_past([(model, lines)])
