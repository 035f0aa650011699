"""Writing documents from the database, whatever the format (reads only): rows, clubs, users.

Every row is written as `FIELDS` says, relations by name (users by username, another row of
the document by its key), so a document means the same in any database. Each format writes its
own document from these (`<format>.selectors.backup`); the whole backup is `driver`'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import connection, models, transaction
from django.utils import timezone

from tournaments.kernel.backup.registry import club_parts
from tournaments.kernel.backup.schema import FIELDS, SCORERS, VERSIONS, Model, model_field
from tournaments.kernel.models import Club, Member


def _out(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def row(
    obj: models.Model,
    model: Model,
    *,
    users: Mapping[int, str],
    keys: Mapping[Model, Mapping[int, str]] | None = None,
    members: Mapping[int, Any] | None = None,
) -> dict[str, Any]:
    """One row as the document holds it: `FIELDS[model]`, relations by name (a user by
    username, another row of the document by its key in `keys`, such as a result's pairs, a
    link to the club's member register as `members` says it: `member_links_out`)."""
    out: dict[str, Any] = {}
    for name in FIELDS[model]:
        f = model_field(model, name)
        if f.many_to_many:
            continue  # the caller writes them (a club's directors)
        if f.is_relation:
            target = getattr(obj, f.attname)
            related = f.related_model
            by_key = None if keys is None or related is None else keys.get(related)
            if related is Member:
                assert members is not None, f"{model.__name__} links members: say how"
                out[name] = None if target is None else members[target]
            elif by_key is not None:
                out[name] = by_key[target]
            else:
                out[name] = None if target is None else users[target]
            continue
        out[name] = _out(f.value_from_object(obj))
    return out


def usernames(ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    return dict(AuthUser.objects.filter(pk__in=wanted).values_list("pk", "username"))


def member_links_out(ids: Iterable[int | None], *, backup: bool) -> dict[int, Any]:
    """How a document carries each link to the member register, by member id. In a whole
    backup (`backup`), the id itself: the backup carries the register, and its restore maps
    each id to the member as restored (`kernel.backup.members`). In a document on its own (the
    JSON a director hands to another club), the member's name, {"name": ...}: an id means
    nothing in another database and an email address is not the other club's to have; the
    import links the name again by the matching rule. A member who asked to be forgotten is
    carried as no link (null): their name is nobody's to hand on."""
    wanted = {i for i in ids if i is not None}
    if backup:
        return {i: i for i in wanted}
    found = Member.objects.filter(pk__in=wanted).only("pk", "name", "erased_at")
    return {m.pk: None if m.erased_at is not None else {"name": m.name} for m in found}


def club_block(club: Club, *, backup: bool = False) -> dict[str, Any]:
    """The club as documents carry it: its settings, its directors and the rows the formats
    keep in it (the events' players: `registry.ClubPart`); in a whole backup (`backup`), its
    member register too."""
    directors = sorted(club.directors.values_list("username", flat=True))
    block = row(club, Club, users={})
    block["directors"] = directors
    if backup:
        block[SCORERS] = sorted(club.scorers.values_list("username", flat=True))
    for part in club_parts(backup=backup):
        block[part.key] = part.dump(club)
    return block


def user_block(user: AuthUser) -> dict[str, Any]:
    return row(user, AuthUser, users={})


def head(marker: str, club: Club) -> dict[str, Any]:
    """A document's first keys: its format marker and version, when it was written, its
    club."""
    return {
        "format": marker,
        "version": VERSIONS[marker],
        "exported_at": timezone.now().isoformat(),
        "club": club_block(club),
    }


def named_in(document: Mapping[str, Any], key: str) -> Iterator[str]:
    """The usernames every format's document names: its club's directors, who made what it
    holds (`document[key]`, "drive"), who did what its audit says."""
    yield from document["club"]["directors"]
    if document[key]["created_by"]:
        yield document[key]["created_by"]
    yield from (a["user"] for a in document["audit"] if a["user"])


def documents_of(
    chosen: Iterable[Any] | None,
    clubs: list[Club],
    of_club: Callable[[Club], Iterable[Any]],
    every: Callable[[], Iterable[Any]],
    whole: bool,
    document: Callable[[Any], dict[str, Any]],
) -> tuple[list[Any], list[dict[str, Any]]]:
    """What a backup takes of a format: the things chosen and those of the clubs chosen
    (`of_club`), or with `whole` all of them (`every`), once each by id; with their
    documents."""
    items = list(chosen or [])
    for club in clubs:
        items += list(of_club(club))
    if whole:
        items = list(every())
    unique = [item for _, item in sorted({item.pk: item for item in items}.items())]
    return unique, [document(item) for item in unique]


@contextmanager
def consistent_read() -> Iterator[None]:
    """One moment's view of the database for a backup while tablets write.

    PostgreSQL: a REPEATABLE READ, READ ONLY transaction (when this is the outermost one;
    inside another, that one decides), so writers carry on. SQLite: a transaction, which the
    settings begin IMMEDIATE, so results sent meanwhile wait for the backup to finish (a
    third of a second for a 30-table evening; they wait up to 20 s before failing)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
