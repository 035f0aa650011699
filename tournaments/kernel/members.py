"""The club's member register: its reads and every write (add, edit, deactivate and reactivate,
a CSV import in two steps, the export), each change audited.

The rule of a member's row: a name under the one rule for names, once in the club whatever its
case ("sian o'neil" is Siân O'Neil's duplicate); a membership number, when given, once in the
club; an email, when given, an address; a public-name choice (`PublicName`). A refusal is a
`MembersRefused` (bad input: the API answers 400) saying what is wrong, and changes nothing.

Every write takes the club's row `SELECT ... FOR UPDATE` first, so two directors adding the same
name at once are told apart: the second is refused, never stored twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from tournaments.kernel import member_csv
from tournaments.kernel.audit import User, audit_write
from tournaments.kernel.models import Club, Member, MemberAudit, PublicName
from tournaments.kernel.names import name_checked
from tournaments.kernel.refusals import Refused

#: A search's longest text: longer is cut (no name or number is longer).
MAX_SEARCH = 120


class MembersRefused(Refused):
    """A change to the register that breaks its rule; the message says which and why."""


# ---- the rule of one row -------------------------------------------------------------------


def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise MembersRefused("The member's name is text.")
    return name_checked(
        value, model=Member, column="name", what="the member's name", required=True,
        refused=MembersRefused,
    )  # fmt: skip


def _number(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MembersRefused("The membership number is text (letters and digits).")
    return name_checked(
        value, model=Member, column="number", what="the membership number", refused=MembersRefused
    )


def _email(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MembersRefused("The email address is text.")
    value = value.strip()
    if not value:
        return ""
    try:
        validate_email(value)
    except ValidationError:
        raise MembersRefused(f"\u201c{value[:80]}\u201d is not an email address.") from None
    if len(value) > 254:  # the column's length
        raise MembersRefused("The email address is too long (at most 254 characters).")
    return str(value)


_YES = {"yes", "y", "true", "1", "active", "x"}
_NO = {"no", "n", "false", "0", "inactive"}


def _active(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        said = value.strip().lower()
        if not said or said in _YES:
            return True
        if said in _NO:
            return False
    raise MembersRefused(
        f"\u201cactive\u201d is yes or no (or true/false, 1/0), not \u201c{str(value)[:40]}\u201d."
    )


def _public_name(value: Any) -> str:
    said = value.strip().lower() if isinstance(value, str) else value
    if said in (None, ""):
        return PublicName.FULL.value
    if said not in PublicName.values:
        raise MembersRefused(
            "The public name is one of full, initials or hidden, not "
            f"\u201c{str(value)[:40]}\u201d."
        )
    return str(said)


def _same_name(club: Club, name: str, but: Member | None = None) -> Member | None:
    """The member of `club` with this name, whatever its capitals. Compared here, with
    Python's casefold, not by the database: SQLite folds only ASCII letters ("SIÂN" and
    "Siân" would pass as two names on a club laptop). Called under the club's lock."""
    key = name.casefold()
    found = Member.objects.filter(club=club).only("pk", "name", "number")
    if but is not None:
        found = found.exclude(pk=but.pk)
    return next((m for m in found if m.name.casefold() == key), None)


def _same_number(club: Club, number: str, but: Member | None = None) -> Member | None:
    if not number:
        return None
    found = Member.objects.filter(club=club, number=number)
    if but is not None:
        found = found.exclude(pk=but.pk)
    return found.first()


def _unique(club: Club, name: str, number: str, but: Member | None = None) -> None:
    twin = _same_name(club, name, but)
    if twin is not None:
        raise MembersRefused(
            f"{twin.name} is already in the register (names are compared without regard to "
            "capitals)."
        )
    holder = _same_number(club, number, but)
    if holder is not None:
        raise MembersRefused(f"Membership number {number} is already {holder.name}'s.")


def _lock(club: Club) -> None:
    """The club's row, locked until the transaction ends: the register's writes queue here."""
    Club.objects.select_for_update().filter(pk=club.pk).exists()


def _snapshot(member: Member) -> dict[str, Any]:
    return {
        "name": member.name,
        "number": member.number,
        "email": member.email,
        "active": member.active,
        "public_name": member.public_name,
    }


def _audit(member: Member | None, club: Club, user: User, action: str, **change: Any) -> None:
    target = f"member {member.name}" if member is not None else "members"
    audit_write(
        MemberAudit, user=user, action=action, target=target[:80], club=club, member=member,
        **change,
    )  # fmt: skip


def _save(member: Member) -> None:
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError:  # the lock makes this unreachable; the database says it anyway
        raise MembersRefused(
            f"{member.name} (or number {member.number}) is already in the register."
        ) from None


# ---- reads -----------------------------------------------------------------------------------


def members_of(club: Club, *, search: str = "", active: bool | None = None) -> QuerySet[Member]:
    """The club's members by name: those whose name or number holds `search` (without regard
    to capitals), active or not (None: both)."""
    found = Member.objects.filter(club=club)
    search = search.strip()[:MAX_SEARCH]
    if search:
        found = found.filter(Q(name__icontains=search) | Q(number__icontains=search))
    if active is not None:
        found = found.filter(active=active)
    return found.order_by("name", "id")


def member_counts(club: Club) -> dict[str, int]:
    """How many members the club has: all, active, inactive."""
    total = Member.objects.filter(club=club).count()
    active = Member.objects.filter(club=club, active=True).count()
    return {"all": total, "active": active, "inactive": total - active}


def members_export(club: Club) -> str:
    """The register as CSV (`member_csv.write`): every member, by name."""
    return member_csv.write(
        (m.name, m.number, m.email, "yes" if m.active else "no", m.public_name)
        for m in members_of(club)
    )


# ---- writes ----------------------------------------------------------------------------------


@transaction.atomic
def member_add(
    *,
    club: Club,
    name: str,
    number: str | None = "",
    email: str | None = "",
    active: bool = True,
    public_name: str = PublicName.FULL.value,
    user: User = None,
) -> Member:
    """A new member of `club`, or a refusal saying why not (a name or a number already here)."""
    member = Member(
        club=club,
        name=_name(name),
        number=_number(number),
        email=_email(email),
        active=_active(active),
        public_name=_public_name(public_name),
    )
    _lock(club)
    _unique(club, member.name, member.number)
    _save(member)
    _audit(member, club, user, "member added", after=_snapshot(member))
    return member


_UNSET: Any = object()


@transaction.atomic
def member_edit(
    *,
    member: Member,
    name: Any = _UNSET,
    number: Any = _UNSET,
    email: Any = _UNSET,
    active: Any = _UNSET,
    public_name: Any = _UNSET,
    user: User = None,
) -> Member:
    """`member` with the values given changed (the others as they were), or a refusal."""
    checks = {
        "name": _name, "number": _number, "email": _email, "active": _active,
        "public_name": _public_name,
    }  # fmt: skip
    given = {"name": name, "number": number, "email": email, "active": active,
             "public_name": public_name}  # fmt: skip
    values = {key: checks[key](value) for key, value in given.items() if value is not _UNSET}
    club = member.club
    _lock(club)
    member.refresh_from_db()
    before = _snapshot(member)
    for key, value in values.items():
        setattr(member, key, value)
    if _snapshot(member) == before:
        return member
    _unique(club, member.name, member.number, but=member)
    member.updated_at = timezone.now()
    _save(member)
    after = _snapshot(member)
    changed = [k for k in after if after[k] != before[k]]
    action = "member changed"
    if changed == ["active"]:
        action = "member reactivated" if member.active else "member deactivated"
    _audit(member, club, user, action, before=before, after=after)
    return member


def member_deactivate(*, member: Member, user: User = None) -> Member:
    """The member stays in the register, marked as no longer active."""
    return member_edit(member=member, active=False, user=user)


def member_reactivate(*, member: Member, user: User = None) -> Member:
    return member_edit(member=member, active=True, user=user)


# ---- the CSV import, in two steps ------------------------------------------------------------

Status = Literal["new", "existing", "refused"]


@dataclass
class PreviewRow:
    """One line of the file as the import would take it: `new` (stored on confirming),
    `existing` (already in the register: `reason` says whom), or `refused` (`reason` says
    why)."""

    line: int
    name: str
    number: str
    email: str
    active: bool
    public_name: str
    status: Status
    reason: str = ""


@dataclass
class Preview:
    """What an import would do, line by line; nothing is stored."""

    rows: list[PreviewRow]
    columns: list[str]
    ignored: list[str]

    def of(self, status: Status) -> list[PreviewRow]:
        return [r for r in self.rows if r.status == status]

    @property
    def new(self) -> list[PreviewRow]:
        return self.of("new")

    @property
    def existing(self) -> list[PreviewRow]:
        return self.of("existing")

    @property
    def refused(self) -> list[PreviewRow]:
        return self.of("refused")


@dataclass
class Imported:
    """What a confirmed import did: the members stored, and the lines shown as new that were
    not stored, each with why (someone added the same name or number meanwhile)."""

    stored: list[Member]
    not_stored: list[PreviewRow] = field(default_factory=list)


def _row(line: member_csv.CsvLine) -> PreviewRow:
    raw = line.values
    row = PreviewRow(
        line=line.line,
        name=raw.get("name", ""),
        number=raw.get("number", ""),
        email=raw.get("email", ""),
        active=True,
        public_name=PublicName.FULL.value,
        status="new",
    )
    try:
        if line.extra_cells:
            raise MembersRefused("The line has more cells than the header has columns.")
        if not row.name:
            raise MembersRefused("No name.")
        row.name = _name(row.name)
        row.number = _number(row.number)
        row.email = _email(row.email)
        row.active = _active(raw.get("active", ""))
        row.public_name = _public_name(raw.get("public_name", ""))
    except MembersRefused as refused:
        row.status, row.reason = "refused", str(refused)
    return row


def _classify(club: Club, rows: Iterable[PreviewRow]) -> None:
    """Each row not refused: `existing` when its name or number is in the register, refused
    when an earlier line of the file has its name or number, else `new`."""
    register = list(Member.objects.filter(club=club).values_list("name", "number"))
    by_name = {name.casefold(): name for name, _ in register}
    by_number = {number: name for name, number in register if number}
    names: dict[str, int] = {}
    numbers: dict[str, int] = {}
    for row in rows:
        if row.status == "refused":
            continue
        key = row.name.casefold()
        if key in by_name:
            row.status, row.reason = "existing", f"{by_name[key]} is in the register."
        elif row.number and row.number in by_number:
            row.status = "existing"
            row.reason = f"Number {row.number} is {by_number[row.number]}'s in the register."
        elif key in names:
            row.status = "refused"
            row.reason = f"The same name as line {names[key]} of the file."
        elif row.number and row.number in numbers:
            row.status = "refused"
            row.reason = (
                f"Number {row.number} is used twice in the file (line {numbers[row.number]})."
            )
        if row.status != "refused":
            names.setdefault(key, row.line)
            if row.number:
                numbers.setdefault(row.number, row.line)


def members_import_preview(*, club: Club, text: str | bytes) -> Preview:
    """What importing `text` (a CSV: `member_csv`) into `club`'s register would do, line by
    line; nothing is stored. A file that cannot be read at all is refused, saying what columns
    are expected."""
    read = member_csv.read(member_csv.as_text(text))
    rows = [_row(line) for line in read.lines]
    _classify(club, rows)
    return Preview(rows, read.columns, read.ignored)


@transaction.atomic
def members_import_confirm(
    *, club: Club, text: str | bytes, lines: Iterable[int] | None = None, user: User = None
) -> Imported:
    """Store the members the preview of `text` showed as new (`lines`: their line numbers, as
    the preview showed them; None: every line new now). The file is read again under the
    club's lock: a line that became a duplicate since the preview (someone added the name or
    the number meanwhile) is reported in `not_stored`, never stored twice; a line that was not
    new in the preview is not stored."""
    _lock(club)
    preview = members_import_preview(club=club, text=text)
    wanted = None if lines is None else set(lines)
    stored: list[Member] = []
    not_stored: list[PreviewRow] = []
    for row in preview.rows:
        if wanted is not None and row.line not in wanted:
            continue
        if row.status != "new":
            if wanted is not None:
                not_stored.append(row)
            continue
        member = Member(
            club=club, name=row.name, number=row.number, email=row.email, active=row.active,
            public_name=row.public_name,
        )  # fmt: skip
        _save(member)
        stored.append(member)
    if stored:
        _audit(
            None, club, user, "members imported",
            after={"added": [m.name for m in stored], "lines": len(preview.rows)},
        )  # fmt: skip
    return Imported(stored, not_stored)
