"""Reading one row of a document back: every value checked against the model, relations by name
(a user by username, another row of the document by its key).

A document may have been edited by hand or damaged, so each value is checked before anything is
written, and a refusal names the row and the field (`RestoreRefused`).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone

from engine.names import name_problem
from tournaments.kernel.backup.schema import (
    ADDED_LATER,
    FIELDS,
    READABLE_VERSIONS,
    VERSIONS,
    Model,
    RestoreRefused,
    model_field,
)
from tournaments.kernel.models import Member


def check_marker(
    data: Any, expected: str, what: str, elsewhere: Mapping[str, str] | None = None
) -> None:
    """The format marker and version first: everything else depends on them. `elsewhere`
    says, by marker, where a document of another kind goes instead (an event's reader names
    the import page for a drive's JSON)."""
    if not isinstance(data, dict) or "format" not in data:
        raise RestoreRefused(
            f'This is not a clubwhist {what}: it has no "format" marker (expected {expected!r}).'
        )
    if elsewhere and data["format"] in elsewhere:
        raise RestoreRefused(elsewhere[data["format"]])
    if data["format"] != expected:
        raise RestoreRefused(
            f"This is a {data['format']!r} document, not a clubwhist {what} ({expected!r})."
        )
    version = data.get("version")
    if version not in READABLE_VERSIONS[expected]:
        readable = ", ".join(str(v) for v in sorted(READABLE_VERSIONS[expected]))
        raise RestoreRefused(
            f"This {what} is version {version!r} of the format; this clubwhist reads version "
            f"{readable} only. Restore it with the clubwhist that wrote it, or a newer one."
        )


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, int | float) else "null"
    )


def as_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RestoreRefused(f"{where} should be an object, not {_type_name(value)}.")
    return value


def list_in(parent: Mapping[str, Any], key: str, where: str) -> list[Any]:
    if key not in parent:
        raise RestoreRefused(f"{where} has no {key!r}.")
    value = parent[key]
    if not isinstance(value, list):
        raise RestoreRefused(f"{where}: {key!r} should be a list, not {_type_name(value)}.")
    return value


#: The years a document's dates and times may fall in: far wider than any club's records, and
#: far from the ends of the calendar, where moving a time to UTC or adding a day overflows.
EARLIEST_YEAR = 1900
LATEST_YEAR = 2199
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: Whole numbers in JSON values: what a 64-bit column or any page can hold and print.
_JSON_INT = 2**63
_JSON_DEPTH = 40


def _unstorable(text: str) -> str | None:
    """A character no database column (or UTF-8) can hold: NUL, which PostgreSQL refuses, a
    lone surrogate, or the noncharacters U+FFFE/U+FFFF; described, or None."""
    for char in text:
        code = ord(char)
        if code == 0 or 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF):
            return f"a character no database can store (U+{code:04X})"
    return None


def json_problem(value: Any) -> str | None:
    """What keeps a JSON value from being stored and read back as it is, or None: text no
    database can hold (keys included), numbers that are not finite (NaN, Infinity) or too
    large for any page to print, nesting deeper than any clubwhist value."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > _JSON_DEPTH:
            return f"it is nested more than {_JSON_DEPTH} deep"
        if isinstance(item, str):
            problem = _unstorable(item)
            if problem is not None:
                return f"it holds {problem}"
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -_JSON_INT < item < _JSON_INT:
                return f"it holds a number too large to use ({str(item)[:20]}...)"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"it holds {item}, which is not a number JSON can carry"
        elif isinstance(item, dict):
            stack.extend((key, depth + 1) for key in item)
            stack.extend((inner, depth + 1) for inner in item.values())
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
        else:
            return f"it holds {type(item).__name__}, which is not JSON"
    return None


def _in_years(when: dt.date, f: models.Field[Any, Any], raw: Any, where: str) -> None:
    if not EARLIEST_YEAR <= when.year <= LATEST_YEAR:
        raise RestoreRefused(
            f"{where}: {f.name} {raw!r} is not between {EARLIEST_YEAR} and {LATEST_YEAR}."
        )


def _field_in(f: models.Field[Any, Any], raw: Any, where: str) -> Any:
    """A document value as the model field takes it, or a refusal naming the field: the
    right JSON type (a date is text, never a number that happens to read as one), a value the
    database stores as it is, in the range both databases take."""
    if raw is None:
        if f.null or f.primary_key:
            return None
        raise RestoreRefused(f"{where}: {f.name} is missing (null).")
    if isinstance(f, models.DateTimeField):
        try:
            if not isinstance(raw, str) or not _DATE.match(raw):
                raise ValueError
            when = dt.datetime.fromisoformat(raw)
        except ValueError:
            raise RestoreRefused(f"{where}: {f.name} {raw!r} is not a date and time.") from None
        if timezone.is_naive(when):
            raise RestoreRefused(f"{where}: {f.name} {raw!r} has no time zone offset.")
        _in_years(when, f, raw, where)
        return when
    if isinstance(f, models.DateField):
        try:
            if not isinstance(raw, str) or not _DATE.fullmatch(raw):
                raise ValueError
            day = dt.date.fromisoformat(raw)
        except ValueError:
            raise RestoreRefused(f"{where}: {f.name} {raw!r} is not a date (YYYY-MM-DD).") from None
        _in_years(day, f, raw, where)
        return day
    if isinstance(f, models.BooleanField):
        if not isinstance(raw, bool):
            raise RestoreRefused(f"{where}: {f.name} should be true or false, not {raw!r}.")
        return raw
    if isinstance(f, models.IntegerField):  # the id fields included
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise RestoreRefused(f"{where}: {f.name} should be a whole number, not {raw!r}.")
        if f.primary_key and not 1 <= raw < 2**63:
            raise RestoreRefused(f"{where}: id {raw} is not a database id.")
        # The range every database takes for the column (SQLite alone would take any).
        low, high = BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]
        if not low <= raw <= high:
            raise RestoreRefused(f"{where}: {f.name} {raw} is not between {low} and {high}.")
        return raw
    if isinstance(f, models.CharField | models.TextField):
        if not isinstance(raw, str):
            raise RestoreRefused(f"{where}: {f.name} should be text, not {_type_name(raw)}.")
        problem = _unstorable(raw)
        if problem is not None:
            raise RestoreRefused(f"{where}: {f.name} has {problem}.")
        return raw
    if isinstance(f, models.JSONField):
        problem = json_problem(raw)
        if problem is not None:
            raise RestoreRefused(f"{where}: {f.name} cannot be stored: {problem}.")
        return raw
    raise AssertionError(f"{f.model.__name__}.{f.name}: the format has no rule for it")


@dataclass(frozen=True)
class Keyed:
    """The rows of the same document a relation names by key (a result's pairs, "NS3"), and
    what a refusal calls a key that is not one of them."""

    rows: Mapping[str, Any]
    refusal: str  # "{label} {key!r}": the field's name as words, the key


@dataclass
class UserRef:
    """A row's relation to a user, named in the document; filled in once the users exist."""

    obj: models.Model
    attname: str
    username: str


@dataclass
class MemberRef:
    """A row's link to the club's member register, as the document gives it: the member's
    id in the backup's register (`id`, a whole backup) or the member's name (`name`, a
    document on its own); filled in once the members are known (`kernel.backup.members`).
    `where` names the row and the field in a refusal."""

    obj: models.Model
    attname: str
    where: str
    id: int | None = None
    name: str | None = None
    member: Member | None = None  # a whole backup's: the register's row the id names


def _member_ref(obj_where: str, name: str, raw: Any) -> tuple[int | None, str | None]:
    """A link's value read: a member's id (a whole number) or {"name": the member's name}."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw < 2**63:
        return raw, None
    if isinstance(raw, dict) and set(raw) == {"name"} and isinstance(raw["name"], str):
        problem = name_problem(raw["name"], model_field(Member, "name").max_length or 0)
        if problem is None and raw["name"].strip():
            return None, raw["name"]
        raise RestoreRefused(f"{obj_where}: {name}'s name: {problem or 'it is empty'}.")
    raise RestoreRefused(
        f"{obj_where}: {name} should be null (a visitor), a member's id in the backup's "
        f'register (a whole backup) or {{"name": the member\'s name}} (a document on its '
        f"own), not {raw!r}."
    )


def load_row(
    model: Model,
    data: Any,
    where: str,
    *,
    users: list[UserRef] | None = None,
    keyed: Mapping[Model, Keyed] | None = None,
    members: list[MemberRef] | None = None,
    children: Iterable[str] = (),
    fmt: str,
) -> Any:
    """An unsaved row from the document: every field of `FIELDS[model]` present, of the right
    type and valid for the model (choices, lengths, ranges). A relation to a user is recorded
    in `users` by username; a link to the club's member register in `members` (by id or by
    name: `MemberRef`); a relation to another row of the document (a result's pairs) is
    found by its key in `keyed`. Keys the format does
    not have are refused: they would otherwise be dropped without a word (`fmt`, the kind of
    document the row is in, names the version in the refusal)."""
    data = as_object(data, where)
    names = FIELDS[model]
    data = {**ADDED_LATER.get(model, {}), **data}
    for name in names:
        if name not in data:
            raise RestoreRefused(f"{where} has no {name!r}.")
    extra = sorted(set(data) - set(names) - set(children))
    if extra:
        raise RestoreRefused(
            f"{where} has {extra[0]!r}, which version {VERSIONS[fmt]} of the format does not have."
        )
    values: dict[str, Any] = {}
    skip: list[str] = []
    refs: list[tuple[str, str]] = []
    linked: list[tuple[str, str, int | None, str | None]] = []
    for name in names:
        f = model_field(model, name)
        raw = data[name]
        related = f.related_model
        rows = None if keyed is None or related is None else keyed.get(related)
        if f.many_to_many:
            skip.append(name)
        elif related is Member:
            skip.append(name)
            if raw is not None:
                linked.append((f.attname, name, *_member_ref(where, name, raw)))
        elif f.is_relation and rows is not None:
            skip.append(name)
            if not isinstance(raw, str) or raw not in rows.rows:
                label = name.replace("_", " ").replace("ns", "NS").replace("ew", "EW")
                said = rows.refusal.format(label=label, key=raw)
                raise RestoreRefused(f"{where}: {said}")
            values[name] = rows.rows[raw]
        elif f.is_relation:
            skip.append(name)
            username = check_username(raw, where, name.replace("_", " "))
            if username is not None:
                refs.append((f.attname, username))
        else:
            values[name] = _field_in(f, raw, where)
            if f.primary_key:
                skip.append(name)
    obj = model(**values)
    # Only the values read here are checked: relations are the restore's to set.
    skip += [f.name for f in model._meta.fields if f.name not in names]
    try:
        obj.clean_fields(exclude=skip)
    except ValidationError as exc:
        problems = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items()
        )
        raise RestoreRefused(f"{where}: {problems}") from None
    if refs:
        assert users is not None, f"{model.__name__} names users but nobody collects them"
        users.extend(UserRef(obj, attname, username) for attname, username in refs)
    if linked:
        assert members is not None, f"{model.__name__} links members but nobody collects them"
        members.extend(
            MemberRef(obj, attname, f"{where}, {name}", member_id, member_name)
            for attname, name, member_id, member_name in linked
        )
    return obj


_USERNAME = UnicodeUsernameValidator()


def check_username(raw: Any, where: str, what: str) -> str | None:
    """A username as Django's accounts have them (letters, digits and @.+-_, at most 150)."""
    if raw is None:
        return None
    try:
        if not isinstance(raw, str) or len(raw) > 150:
            raise ValidationError("not text")
        _USERNAME(raw)
    except ValidationError:
        raise RestoreRefused(f"{where}: the {what} should be a username, not {raw!r}.") from None
    return raw


def check_unique(items: Iterable[tuple[Any, str]], what: str, where: str = "The document") -> None:
    seen: dict[Any, str] = {}
    for value, label in items:
        if value in seen:
            raise RestoreRefused(f"{where}: the {what} of {label} is also that of {seen[value]}.")
        seen[value] = label


def rows_in(
    document: Any,
    key: str,
    model: Model,
    each: str,
    where: str,
    refs: list[UserRef],
    fmt: str,
    members: list[MemberRef] | None = None,
) -> list[Any]:
    """The rows listed under `key`, each read back (`load_row`), named in a refusal as
    `each` and its place in the list ("The drive's player 3"); `where` names the document,
    `members` collects the rows' links to the member register."""
    return [
        load_row(model, raw, f"{each} {i + 1}", users=refs, members=members, fmt=fmt)
        for i, raw in enumerate(list_in(document, key, where))
    ]
