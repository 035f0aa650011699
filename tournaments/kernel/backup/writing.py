"""Writing checked rows back, whatever the format: rows as they are, ids, users.

What every format's restore shares lives here, so all keep their ids the same way and make and
link users the same way (their club: `documents`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import DataError, IntegrityError, connection

from tournaments.kernel.backup.report import RestoreReport
from tournaments.kernel.backup.rows import UserRef
from tournaments.kernel.backup.schema import Model, RestoreRefused


def batches(values: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def ids_free(rows: Iterable[tuple[Model, list[Any]]]) -> bool:
    """Whether none of the document's ids is taken here (then every row keeps its own)."""
    for model, saved in rows:
        ids = [r.pk for r in saved if r.pk is not None]
        for chunk in batches(ids):
            if model._default_manager.filter(pk__in=chunk).exists():
                return False
    return True


def ids_kept(rows: Callable[[], Iterable[tuple[Model, list[Any]]]]) -> bool:
    """Whether the document's rows keep their ids (none is taken here); if not, every row is
    given a new one (`rows` lists them all, parents first)."""
    keep = ids_free(rows())
    if not keep:
        for _, listed in rows():
            for row in listed:
                row.pk = None
    return keep


def same_here(model: Model, row: Any, title: str, kind: str) -> str | None:
    """The document's event, drive or tournament here already, said: one of its name, date
    and creation time (an id proves nothing across databases)."""
    same: Any = (
        model._default_manager.filter(name=row.name, date=row.date, created_at=row.created_at)
        .select_related("club")
        .first()
    )
    if same is None:
        return None
    return f"This database already holds {title} ({kind} {same.pk}, club {same.club.name!r})"


def links_here(model: Model, tokens: list[str], title: str, kind: str, owner: str) -> str | None:
    """A copy of the document here already, said: one of its tablet tokens (unique in a
    database) used by a link of `model`, whose `owner` ("drive", "section__event") is the
    `kind` of thing the document is."""
    for chunk in batches(tokens):
        clash: Any = model._default_manager.filter(token__in=chunk).select_related(owner).first()
        if clash is not None:
            play = attrgetter(owner.replace("__", "."))(clash)
            return (
                f"Table {clash.table}'s tablet link of {title} is already used here by {kind} "
                f"{play.pk} ({play.name!r}): that {kind} is this one or a copy of it"
            )
    return None


def refuse_if_here(refusal: str | None) -> None:
    """A document already here (`refusal` names what is) is refused, saying what to do."""
    if refusal is not None:
        raise RestoreRefused(f"{refusal}. Delete it first, or restore into another database.")


def insert_rows(model: Model, rows: list[Any]) -> None:
    """Insert rows as they are: bulk_create stamps auto_now fields with the time now, so the
    stored moments are put back afterwards."""
    if not rows:
        return
    stamped = [f for f in model._meta.concrete_fields if getattr(f, "auto_now", False)]
    kept = [[getattr(r, f.attname) for f in stamped] for r in rows]
    model._default_manager.bulk_create(rows, batch_size=500)
    if stamped:
        for row, values in zip(rows, kept, strict=True):
            for f, value in zip(stamped, values, strict=True):
                setattr(row, f.attname, value)
        model._default_manager.bulk_update(rows, [f.name for f in stamped], batch_size=500)


def move_sequences_past(rows: Iterable[tuple[Model, list[Any]]]) -> None:
    """After rows went in with their own ids, PostgreSQL's id sequences must move past them,
    and only forward: an id once used is never handed out again (caches and links key on
    ids). SQLite's AUTOINCREMENT does both by itself."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model, saved in rows:
            highest = max((r.pk for r in saved if r.pk is not None), default=None)
            if highest is None:
                continue
            cursor.execute(
                "SELECT setval(seq::regclass, %s) "
                "FROM (SELECT pg_get_serial_sequence(%s, %s) AS seq) AS found "
                "WHERE seq IS NOT NULL "
                "AND coalesce(pg_sequence_last_value(seq::regclass), 0) < %s",
                [highest, model._meta.db_table, model._meta.pk.column, highest],
            )


def ensure_users(
    names: Iterable[str], carried: Mapping[str, AuthUser], report: RestoreReport
) -> dict[str, AuthUser]:
    """The users by username: those here are kept as they are; the others come from the
    backup (`carried`) or, when it does not carry them, are made inactive and without a
    usable password, so nobody can sign in as them until an administrator says so."""
    wanted = set(names)
    found = {u.username: u for u in AuthUser.objects.filter(username__in=wanted)}
    report.users_kept += sorted(set(carried) & set(found))
    for name in sorted(wanted - set(found)):
        if name in carried:
            user = carried[name]
            user.pk = None
            user.save()
            report.users_from_backup.append(name)
        else:
            user = AuthUser(username=name, is_active=False)
            user.set_unusable_password()
            user.save()
            report.users_inactive.append(name)
        found[name] = user
    return found


def link_users(refs: Iterable[UserRef], users: Mapping[str, AuthUser]) -> None:
    """A restore: each row the document says a user did is linked to that user's account."""
    for ref in refs:
        setattr(ref.obj, ref.attname, users[ref.username].pk)


def users_named(refs: Iterable[UserRef]) -> dict[str, AuthUser]:
    """The accounts here that rows name, by username (a backup of one club carries only the
    people its documents name: a trail may name others)."""
    wanted = {ref.username for ref in refs}
    return {u.username: u for u in AuthUser.objects.filter(username__in=wanted)}


def link_users_or_words(refs: Iterable[UserRef], users: Mapping[str, AuthUser]) -> None:
    """Each row linked to the account it names; one not here links none, and an audit line
    then keeps the name in words (`user_name`), as a director's import does."""
    for ref in refs:
        user = users.get(ref.username)
        setattr(ref.obj, ref.attname, None if user is None else user.pk)
        if user is None and hasattr(ref.obj, "user_name") and not ref.obj.user_name:
            ref.obj.user_name = ref.username


@contextmanager
def database_refusals() -> Iterator[None]:
    """What the checks cannot see coming (another restore of the same event committing at
    the same moment) the database's constraints refuse; said as a refusal, not a crash."""
    try:
        yield
    except (IntegrityError, DataError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RestoreRefused(
            f"The database refused a row of the document ({first}); nothing was restored. "
            "If another restore of it ran at the same time, it is already here."
        ) from None


def in_backup(parse: Any, raw: Any, where: str, kind: str) -> Any:
    """`parse(raw)`, a refusal naming the document's place in the backup (and its name)."""
    try:
        return parse(raw)
    except RestoreRefused as exc:
        name = raw.get(kind, {}).get("name") if isinstance(raw, dict) else None
        label = f" ({name!r})" if isinstance(name, str) else ""
        raise RestoreRefused(f"{where} of the backup{label}: {exc}") from None


def club_listed(slug: str, slugs: set[str], where: str, name: str) -> None:
    if slug not in slugs:
        raise RestoreRefused(
            f"{where} of the backup ({name!r}) belongs to the club {slug!r}, which the backup "
            "does not list."
        )
