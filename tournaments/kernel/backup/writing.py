"""Writing checked rows back, for events and drives alike: rows as they are, ids, users, clubs.

What an event's restore and a drive's share lives here, so both keep their ids the same way,
make and link users the same way and find or make their club the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import DataError, IntegrityError, connection

from tournaments.events.models import Player
from tournaments.files.backup.parse import ClubBlock
from tournaments.files.backup.report import RestoreReport
from tournaments.files.backup.rows import UserRef
from tournaments.files.backup.schema import Model, RestoreRefused
from tournaments.kernel.models import Club


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


def club_create(block: ClubBlock, users: Mapping[str, AuthUser]) -> Club:
    club = block.club
    if club.pk is not None and Club.objects.filter(pk=club.pk).exists():
        club.pk = None
    insert_rows(Club, [club])
    club.directors.set([users[name] for name in block.directors])
    for player in block.players:
        player.club = club
        if player.pk is not None and Player.objects.filter(pk=player.pk).exists():
            player.pk = None
    insert_rows(Player, block.players)
    move_sequences_past([(Club, [club]), (Player, block.players)])
    return club


def club_for(
    block: ClubBlock, users: Mapping[str, AuthUser], report: RestoreReport, *, advice: str
) -> Club:
    """The document's club: the one here with its slug, else a new one as the document has
    it. A club here of the same name under another address refuses, with `advice`."""
    existing = Club.objects.filter(slug=block.club.slug).first()
    if existing is not None:
        return existing
    if Club.objects.filter(name=block.club.name).exists():
        raise RestoreRefused(
            f"A club named {block.club.name!r} is already here under another web address than "
            f"the document's ({block.club.slug!r}): {advice}."
        )
    report.clubs.append(f"{block.club.name} ({block.club.slug})")
    return club_create(block, users)


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
