"""The tablets' links, rounds and states, kept in the shared cache until something they show
changes, and read with the tablet's request count in one Redis round trip.

Every tablet asks for its table's state every few seconds and sends a few results a round; on
this kind of machine each database query or Redis command is a round trip of a few hundred
microseconds, and under load those waits are most of a request. So for each table link the
cache keeps, per token (its digest):

- the link: the `TableAccess` row with its section and event, and the round the table may
  write now with its boards (`TableRound`);
- the state the page shows (two queries to compute, with the section's pairs and boards kept
  in the process: `section_snapshot`).

Each copy is stored with the versions it was computed under, and is used only while they are
still the current ones. The versions are the section's (everything: pairs, boards, the round
the director started, the event's status, the links themselves), the table's (its results and
calls, and any change but a confirmation to the results of the tables that send it players or
boards) and the table's round's (the results that can move a table on: every result change
but a new, unconfirmed one). The round's copy hangs on all three; the state on the first two,
and on the round's too once it shows its round played (`result_changed` says why).
Anything that changes what a copy holds moves its version on once its transaction has
committed: a saved or deleted result, pair, section, event, board, director call or table link
(model signals, wired in `TournamentsConfig.ready`), and the few writes that bypass signals
call `tables_changed` or `result_changed` themselves. A copy computed from data read before
the commit was stored under a version read before that bump, which retires it; every version
is read (in the same round trip as the copies) before the database is.

One round trip (`table_visit`, a Lua script): count the request against the link's limit,
read the link's copy, from its first line the section and table, then the three versions
and the state's copy. A warm poll is that and nothing else, and so is a tablet's write
(a submission or a confirmation): the same script moves on, after reading, the versions the
write will change, so the write asks Redis nothing after its commit.

A write's visit moves on the versions its change retires and holds them pending until the
tablet's next request brings the write's receipt back: `tablet_scripts` says how, and why no
request keeps a copy of the old rows meanwhile.

Only a cache shared by every web process (Redis) is used: with the per-process memory cache
of `make run` and no Redis, a change seen by one process would not retire another's copy, so
everything is read from the database there (one process, few tables). While Redis is away the
visit finds nothing and the request reads the database (clubwhist/cache.py).
"""

from __future__ import annotations

import pickle
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from clubwhist.cache import RedisCache, retire_after_outage
from tournaments.events.bridge import movement_for
from tournaments.events.models import Board, DirectorCall, Event, Pair, Result, Section, TableAccess
from tournaments.events.selectors import tablet_scripts as scripts
from tournaments.events.selectors.section_snapshot import SectionSnapshot, section_snapshot
from tournaments.events.selectors.tablets import TableRound, table_state
from tournaments.kernel.tokens import token_digest as token_digest  # the tablet pages read it here

#: How long an unchanged table's link or state is kept (a change retires it sooner).
KEEP_SECONDS = 60 * 60

VERSION = "tablet-version:"

# A version bump lost while Redis was away would leave the copies cached before it in use.
# (The pending receipts are not retired with them: they only ever keep copies from being
# made, and lapse on their own.)
retire_after_outage(VERSION + "*")


def shared() -> bool:
    return "redis" in str(settings.CACHES["default"]["BACKEND"]).lower()


def _redis() -> RedisCache | None:
    found = caches["default"]
    return found if isinstance(found, RedisCache) else None


def scripted() -> bool:
    """The cache is clubwhist's Redis cache, which runs `table_visit`'s script."""
    return _redis() is not None


def _version_key(section_id: int, table: int | None = None, *, rounds: bool = False) -> str:
    key = VERSION + str(section_id)
    if table is not None:
        key += f":{table}" + (":round" if rounds else "")
    return key


@dataclass(frozen=True)
class Versions:
    section: str
    table: str
    round: str


@dataclass(frozen=True)
class _Link:
    """The link's copy: valid while the section's version is `section`; its round while the
    table's round version is also `round` (None: not kept, a table sitting out)."""

    access: TableAccess
    section: str
    round_version: str
    round: TableRound | None


@dataclass
class Visit:
    """What one tablet request found in the shared cache (`table_visit`), and what it may keep
    there afterwards. `reachable` is False without a shared cache or while Redis is away:
    then nothing is found or kept."""

    digest: str
    reachable: bool = False
    hits: int | None = None  # requests counted in this window; None when not counted
    wait: float | None = None  # seconds until the window ends
    place: tuple[int, int] | None = None  # (section id, table) of the link, once known
    versions: Versions | None = None  # read before anything from the database
    pending: int = 0  # which versions a write holds pending: the table's 2, its round's 4
    access: TableAccess | None = None  # the link: its current copy, or read after `versions`
    round: TableRound | None = None  # its round, when its copy is current
    state: dict[str, Any] | None = None  # its state, when its copy is current
    keep_link: bool = False  # the link was read from the database: its copy is to be kept
    receipt: str | None = None  # this write's, when its visit moved versions on
    prebumped: scripts.Prebumped | None = None  # and what it moved


def table_visit(
    token: str,
    *,
    window: tuple[int, float] | None = None,
    writes: str = "",
    receipt: str | None = None,
) -> Visit:
    """Everything the cache holds for this link, in one round trip; with `window` (requests,
    seconds) the request is counted against the link's limit too (`TableTokenThrottle`).

    `writes` ("entered": a new result; "confirmed": a confirmation) moves on the versions
    that write changes, pending under a new receipt (unless the request is over its limit);
    `receipt` is one a tablet brought back from an earlier write's answer, which ends."""
    visit = Visit(token_digest(token))
    redis = _redis()
    if redis is None:
        return visit
    digest = visit.digest
    mine = str(secrets.randbits(62) | 1 << 62) if writes else ""
    started = time.monotonic()
    found = redis.run_script(
        scripts.VISIT,
        [f"tablet-hits:{digest}", f"tablet-link:{digest}", f"tablet-state:{digest}"],
        [
            int(window[1] * 1000) if window else 0,
            redis.make_key(VERSION),
            redis.make_key(scripts.PENDING),
            redis.make_key(scripts.RECEIPT),
            receipt or "",
            writes,
            window[0] if window else 0,
            mine,
            scripts.PENDING_MS,
        ],
        None,
    )
    if found is None:
        return visit  # Redis is away: nothing counted, nothing known
    hits, left, link, section, table, rounds, state, pending, moved = found
    visit.reachable = True
    if window is not None:
        visit.hits, visit.wait = int(hits), int(left) / 1000
    if moved:
        visit.receipt = mine
        visit.prebumped = scripts.Prebumped(
            frozenset(VERSION + suffix for suffix in bytes(moved).decode().split()),
            started + scripts.PENDING_MS / 1000 - scripts.PENDING_MARGIN,
        )
    if link is None:
        return visit
    head, _, body = bytes(link).partition(b"\n")
    section_id, table_number = (int(part) for part in head.split()[:2])
    visit.place = (section_id, table_number)
    visit.pending = int(pending)
    if section is None or table is None or rounds is None:
        return visit  # a version is missing: the copies hang on none (`versions_first`)
    versions = Versions(
        str(redis.decode(section)), str(redis.decode(table)), str(redis.decode(rounds))
    )
    visit.versions = versions
    stored = _unpickled(body)
    if not isinstance(stored, _Link) or stored.section != versions.section:
        return visit
    visit.access = stored.access
    if stored.round_version == versions.round:
        visit.round = stored.round
    if state is not None:
        computed = _unpickled(state)
        if (
            isinstance(computed, tuple)
            and len(computed) == 4
            and computed[:2] == (versions.section, versions.table)
            and computed[2] in (None, versions.round)
        ):
            visit.state = computed[3]
    return visit


def _unpickled(raw: bytes) -> Any:
    """A copy as stored, or None if it cannot be read (written by another release)."""
    try:
        return pickle.loads(raw)
    except Exception:
        return None


def versions_first(visit: Visit, access: TableAccess) -> bool:
    """Read (or make) the link's versions when the visit did not find them; True if it had to,
    and the caller must then read the link from the database again before its copy is kept:
    a copy is only ever stored under versions read before what it holds."""
    redis = _redis()
    if redis is None or not visit.reachable or _known(visit, access) is not None:
        return False
    at = f"{access.section_id}:{access.table}"
    found = redis.run_script(
        scripts.VERSIONS,
        [],
        [
            redis.make_key(VERSION),
            redis.make_key(scripts.PENDING),
            f"{access.section_id} {at} {at}:round",
            str(secrets.randbits(62) | 1 << 62),
        ],
        None,
    )
    if found is None:
        visit.reachable = False  # Redis went away meanwhile: keep nothing
        return False
    *values, pending = found
    visit.place = (access.section_id, access.table)
    visit.versions = Versions(*(str(redis.decode(value)) for value in values))
    visit.pending = int(pending)
    return True


def link_read(visit: Visit, access: TableAccess) -> None:
    """The link was read from the database after the visit's versions: keep its copy."""
    if _keepable(visit, access) is not None:
        visit.access, visit.keep_link = access, True


def section_snapshot_for(visit: Visit | None, access: TableAccess) -> SectionSnapshot | None:
    """The process's copy of the link's section (`section_snapshot`), when the visit read
    the section's version before this request's reads; None: read the database."""
    versions = _known(visit, access)
    return None if versions is None else section_snapshot(access.section, versions.section)


def _known(visit: Visit | None, access: TableAccess) -> Versions | None:
    """The link's versions as the visit read them, before this request's reads."""
    if visit is None or not visit.reachable:
        return None
    if visit.place != (access.section_id, access.table):
        return None
    return visit.versions


def _keepable(visit: Visit | None, access: TableAccess) -> Versions | None:
    """The versions a copy made in this request may be kept under: none while a write holds
    one of them pending, or when this request's own visit moved them on."""
    versions = _known(visit, access)
    if visit is None or versions is None or visit.pending or visit.prebumped is not None:
        return None
    return versions


def remember_round(visit: Visit | None, access: TableAccess, round: TableRound | None) -> None:
    """Keep the link and the round just read (after the visit's versions), unless both
    copies are current already."""
    versions = _keepable(visit, access)
    if visit is None or versions is None:
        return
    if not visit.keep_link and (visit.round is not None or round is None):
        return
    _store({f"tablet-link:{visit.digest}": _link_entry(access, versions, round)})
    visit.round, visit.keep_link = round, False


def _link_entry(access: TableAccess, versions: Versions, round: TableRound | None) -> bytes:
    """The link's copy, after a first line the visit's script reads: the section, the table
    and the tables a confirmation of the table's round sends players or boards to (whose
    round versions a confirmation's visit moves on)."""
    tables = [access.section_id, access.table]
    if round is not None and round.current is not None:
        tables += _sent_to(access.section, round.current, access.table)
    head = " ".join(str(number) for number in tables).encode() + b"\n"
    return head + pickle.dumps(_Link(access, versions.section, versions.round, round))


def _store(values: dict[str, bytes]) -> None:
    redis = _redis()
    if redis is not None:
        redis.set_raw(values, KEEP_SECONDS)


def table_state_now(access: TableAccess, visit: Visit | None = None) -> dict[str, Any]:
    """The table's state as the page is sent it: from the cache while nothing it shows has
    changed, with the server's time of this answer (never cached), so a tablet whose own clock
    is wrong still counts the round clock down right."""
    return {
        **table_state_cached(access, visit),
        "server_time": timezone.now().isoformat(timespec="seconds"),
    }


def table_state_cached(access: TableAccess, visit: Visit | None = None) -> dict[str, Any]:
    """`events.selectors.table_state`, from the cache while nothing the table shows has changed."""
    if visit is None:
        visit = table_visit(access.token)
    if visit.state is not None and visit.access is not None:
        return visit.state
    versions_first(visit, access)  # before the state's reads (the link is the caller's)
    known = _known(visit, access)
    state = table_state(access, None if known is None else known.section)
    versions = _keepable(visit, access)
    if versions is None:
        return state
    # A sitting-out table follows the whole room: never kept. A table waiting for the tables
    # that send it players or boards is kept: their results retire its state too.
    stored: dict[str, bytes] = {}
    if not state["current"]["sit_out"]:
        # A table still playing its round shows nothing of the other tables: only its own
        # changes retire its state. One that has played its round shows whether the tables
        # sending it players or boards have (`waiting_for_tables`), which their
        # confirmations change: that state hangs on the table's round version too, which
        # those confirmations move on (`result_changed`).
        rounds = versions.round if state["current"]["done"] else None
        stored[f"tablet-state:{visit.digest}"] = pickle.dumps(
            (versions.section, versions.table, rounds, state)
        )
    round = TableRound.from_state(state)
    if visit.keep_link or (visit.access is not None and visit.round is None and round):
        stored[f"tablet-link:{visit.digest}"] = _link_entry(access, versions, round)
        visit.round, visit.keep_link = round, False
    if stored:
        _store(stored)
    visit.state = state
    return state


def cached_state(access: TableAccess) -> dict[str, Any] | None:
    """The state a poll would be answered from the cache with now (None: it would be computed)."""
    return table_visit(access.token).state


def tables_changed(section_ids: Iterable[int]) -> None:
    """Retire the cached links, rounds and states of every table of these sections."""
    _bump([_version_key(section_id) for section_id in set(section_ids)])


def table_changed(section: Section, table: int) -> None:
    """Retire one table's cached state (its own call). A table sitting out a round moves on
    when the whole room has played, so its state depends on every table's results: such a
    state is never cached (`table_state_cached`), and a table's own changes are all that can
    change a cached one."""
    _bump([_version_key(section.pk, table)])


def result_changed(
    section: Section, rnd: int, table: int, *, new_entered: bool = False, confirmed: bool = False
) -> None:
    """Retire what a result of this meeting changes: its table's state, and, unless it is a
    new result waiting for its confirmation (which moves no table on, and no other table
    shows), the rounds of its table and of the tables it sends its pairs and boards to next
    round (they may be waiting for it: `events.selectors.tables_holding`), and their states.

    `confirmed`: the change is a tablet's confirmation of an entered result, which only ever
    settles one more board of the meeting. Then the tables it sends players or boards to
    lose only their rounds, and with them only a state that shows its round played (a table
    still playing shows nothing of this meeting, and a board settled here cannot make it
    wait; `table_state_cached`): in a busy room each table's state is computed half as
    often. Any other change (a correction, a deletion, a restored backup) retires their
    states as well: a result taken back could make a table wait again."""
    if new_entered:
        _bump([_version_key(section.pk, table)])
        return
    keys = []
    for t in sorted({table, *_sent_to(section, rnd, table)}):
        if t == table or not confirmed:
            keys.append(_version_key(section.pk, t))
        keys.append(_version_key(section.pk, t, rounds=True))
    _bump(keys)


def _sent_to(section: Section, rnd: int, table: int) -> list[int]:
    """The other tables this table's pairs and boards go to after round `rnd`."""
    after = movement_for(section).next_places(rnd, table)
    tables = {after.boards} | {place[0] for place in (after.ns, after.ew) if place is not None}
    return sorted(t for t in tables if t and t != table)


def _bump(keys: list[str]) -> None:
    """Move these versions on once the transaction commits (at once outside one): a copy
    computed meanwhile from data read before the commit was stored under a version read
    before this, which the bump retires.

    Keys the running write's visit moved on already (`PREBUMPED`) are left alone when the
    commit ends in time: their receipt keeps copies from being made until after it.

    A test case's transaction (Django marks it) is rolled back, never committed: there the
    versions move on at once as well, as if it had."""
    if not keys or not shared():
        return
    moved = scripts.PREBUMPED.get()

    def bump() -> None:
        left = keys
        if moved is not None and time.monotonic() < moved.deadline:
            left = [key for key in keys if key not in moved.keys]
        if left:
            cache.set_many({key: secrets.token_hex(8) for key in left}, timeout=None)

    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        bump()
        return
    transaction.on_commit(bump, robust=True)
    if getattr(connection.atomic_blocks[0], "_from_testcase", False):
        bump()


def _on_change(sender: type, instance: Any, **kwargs: Any) -> None:
    """Signal receiver: which sections' or tables' copies show this row."""
    if isinstance(instance, Result):
        new_entered = bool(kwargs.get("created")) and instance.status == Result.Status.ENTERED
        # The section is at hand when the services made the row; read it once otherwise.
        result_changed(instance.section, instance.round, instance.table, new_entered=new_entered)
    elif isinstance(instance, DirectorCall):
        table_changed(instance.section, instance.table)
    elif isinstance(instance, Pair | TableAccess):
        tables_changed([instance.section_id])
    elif isinstance(instance, Section):
        tables_changed([instance.pk])
    elif isinstance(instance, Event):
        tables_changed(
            Section.objects.filter(event_id=instance.pk).order_by().values_list("pk", flat=True)
        )
    elif isinstance(instance, Board):
        tables_changed(
            Section.objects.filter(event_id=instance.event_id)
            .order_by()
            .values_list("pk", flat=True)
        )


def connect() -> None:
    for model in (Result, Pair, DirectorCall, Section, Event, Board, TableAccess):
        post_save.connect(_on_change, sender=model, dispatch_uid=f"tablets-{model.__name__}")
        post_delete.connect(_on_change, sender=model, dispatch_uid=f"tablets-{model.__name__}-d")
