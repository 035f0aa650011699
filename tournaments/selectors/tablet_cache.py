"""The tablets' state, cached per table until something a tablet shows changes.

Every tablet asks for its table's state every few seconds, and on this kind of machine each
database query costs a few milliseconds, so the state (about ten queries) is kept in the shared
cache under two versions: the table's own (its results and calls) and the section's
(everything else); the state of a table sitting out its round, which moves on when the whole
room has played, is not cached. Anything that changes what a tablet shows moves the version
it belongs to on, when it is made and again once its transaction has committed: a saved or deleted
result, pair, section, event, board or director call (model signals, wired in
`TournamentsConfig.ready`), and the few bulk updates that bypass signals call
`tables_changed` themselves. A new version is a new
key, so a state is never served after a change; a state computed meanwhile from data read
before the commit is stored under a version that the second bump retires.

Only a cache shared by every web process (Redis) is used: with the per-process memory cache
of `make run` and no Redis, a change seen by one process would not retire another's copy,
so the state is computed on every request there (one process, few tables).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from clubwhist.cache import retire_after_outage
from tournaments.bridge import movement_for
from tournaments.models import Board, DirectorCall, Event, Pair, Result, Section, TableAccess
from tournaments.selectors.tablets import table_state

#: How long an unchanged table's state is kept (it is retired sooner by any change).
STATE_SECONDS = 15 * 60

# A version bump lost while Redis was away would leave the states cached before it in use.
retire_after_outage("tablet-version:*")


def _version_key(section_id: int, table: int | None = None) -> str:
    return f"tablet-version:{section_id}" + ("" if table is None else f":{table}")


def shared() -> bool:
    return "redis" in str(settings.CACHES["default"]["BACKEND"]).lower()


def _version(section_id: int, table: int | None = None) -> str:
    return _version_from_key(_version_key(section_id, table))


def _version_from_key(key: str) -> str:
    found = cache.get(key)
    if found is None:
        cache.add(key, secrets.token_hex(8), timeout=None)
        found = cache.get(key)
    return str(found)


def table_state_cached(access: TableAccess) -> dict[str, Any]:
    """`selectors.table_state`, from the cache while nothing the table shows has changed."""
    if not shared():
        return table_state(access)
    section, table = access.section_id, access.table
    keys = [_version_key(section), _version_key(section, table)]
    found = cache.get_many(keys)  # one round trip while both exist (nearly always)
    versions = [str(found[k]) if k in found else _version_from_key(k) for k in keys]
    key = f"tablet-state:{access.pk}:{versions[0]}:{versions[1]}"
    state = cache.get(key)
    if state is None:
        state = table_state(access)
        # A sitting-out table follows the whole room: never kept. A table waiting for the
        # tables that send it players or boards is kept: their results retire its state too
        # (`_on_change`).
        if not state["current"]["sit_out"]:
            cache.set(key, state, timeout=STATE_SECONDS)
    return state  # type: ignore[no-any-return]


def table_state_now(access: TableAccess) -> dict[str, Any]:
    """The table's state as the page is sent it: the cached state with the server's time of
    this answer (never cached), so a tablet whose own clock is wrong still counts the round
    clock down right."""
    return {
        **table_state_cached(access),
        "server_time": timezone.now().isoformat(timespec="seconds"),
    }


def tables_changed(section_ids: Iterable[int]) -> None:
    """Retire the cached states of every table of these sections."""
    _bump([_version_key(section_id) for section_id in set(section_ids)])


def table_changed(section: Section, table: int) -> None:
    """Retire one table's cached state (its own result or call). A table sitting out a
    round moves on when the whole room has played, so its state depends on every table's
    results: such a state is never cached (`table_state_cached`), and a table's own changes
    are all that can change a cached one."""
    _bump([_version_key(section.pk, table)])


def _bump(keys: list[str]) -> None:
    """Move these versions on now and again after the commit (at once outside a
    transaction): a state read between the two, from data not yet committed, is stored under
    the first new version, which the second retires."""
    if not keys or not shared():
        return

    def bump() -> None:
        cache.set_many({key: secrets.token_hex(8) for key in keys}, timeout=None)

    bump()
    transaction.on_commit(bump, robust=True)


def _on_change(sender: type, instance: Any, **kwargs: Any) -> None:
    """Signal receiver: which sections' tablets show this row."""
    if isinstance(instance, Result):
        # The section is at hand when the services made the row; read it once otherwise.
        # A result also moves on the tables this one sends its pairs and boards to next
        # round: they may be waiting for it (`selectors.tables_holding`).
        section = instance.section
        after = movement_for(section).next_places(instance.round, instance.table)
        tables = {instance.table, after.boards}
        tables |= {place[0] for place in (after.ns, after.ew) if place is not None}
        _bump([_version_key(section.pk, t) for t in tables if t])
    elif isinstance(instance, DirectorCall):
        table_changed(instance.section, instance.table)
    elif isinstance(instance, Pair):
        tables_changed([instance.section_id])
    elif isinstance(instance, Section):
        tables_changed([instance.pk])
    elif isinstance(instance, Event):
        tables_changed(Section.objects.filter(event_id=instance.pk).values_list("pk", flat=True))
    elif isinstance(instance, Board):
        tables_changed(
            Section.objects.filter(event_id=instance.event_id).values_list("pk", flat=True)
        )


def connect() -> None:
    for model in (Result, Pair, DirectorCall, Section, Event, Board):
        post_save.connect(_on_change, sender=model, dispatch_uid=f"tablets-{model.__name__}")
        post_delete.connect(_on_change, sender=model, dispatch_uid=f"tablets-{model.__name__}-d")
