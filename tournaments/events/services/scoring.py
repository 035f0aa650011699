"""Results processing: from accepted results to a stored, versioned standings table.

How a change reaches the standings, and why it cannot be lost:
1. Every service that changes what counts calls `results_changed` inside its transaction. That
   bumps `Event.results_version` in the same transaction as the change (the outbox), and after
   commit asks for a rescore, once however many changes the transaction holds.
2. `request_rescore` claims the event's single queue slot with a filtered UPDATE on
   `rescore_queued_at` and only the winner sends a task: at once when the last standings are
   older than RESCORE_DEBOUNCE_SECONDS (0.1 s by default) and no other change is waiting to be
   scored, else that much later, or five times as long as the last rescore took if that is
   longer (`burst_wait`: results processing takes at most a sixth of a core an event however
   fast results arrive). Everything
   committed meanwhile rides on that one task, so a burst of 50 results in a second makes a
   handful of recomputes, not 50, and a lone result reaches the standings in the time one
   rescore takes.
3. `standings_refresh` (the task body) frees the slot first, then scores under a row lock and
   stores `Standings(version=...)` and `scored_version`. Rerunning it is harmless: when
   `scored_version` has caught up it returns at once.
4. If the broker is down when the task is sent, the slot is released and the gap between
   `results_version` and `scored_version` remains (the send is tried twice within a few
   milliseconds, not for most of a second as Celery would); `rescore_sweep` finds every such
   event and queues it again. Beat runs it every 15 s, and every worker runs it each
   time it connects to the broker (at start, and again after Redis was away).
5. A worker killed mid-task (SIGKILL, a power cut, the out-of-memory killer) leaves the gap
   too: `standings_refresh` freed the slot before it started and its transaction is rolled
   back. The task, acknowledged late, comes back only after the broker's visibility timeout
   (10 minutes), and tasks the dead worker had taken ahead (a debounced one waiting for its
   countdown) keep their claim on the slot. So the sweep a worker runs when it connects
   reclaims every behind event's slot whatever its age: the next worker to start scores what
   the dead one left at once, without waiting for a new result. A task queued twice that way
   finds the event up to date and returns.
6. A web process killed between claiming the slot and sending the task leaves the claim with
   no task behind it. A claim older than RESCORE_SLOT_TIMEOUT (10 s; a task starts within
   2 s of its claim) is free again: the next result, or beat's sweep, queues the rescore.
"""

from __future__ import annotations

import functools
import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connections, router, transaction
from django.db.models import DateTimeField, F, Q
from django.utils import timezone

from clubwhist.cache import retire_after_outage
from clubwhist.queries import quoted_names
from tournaments.events.models import Event, Section, Standings
from tournaments.events.selectors.standings import standings_compute
from tournaments.kernel import jobs, live
from tournaments.kernel.audit import counter_bump
from tournaments.kernel.commits import after_commit

log = logging.getLogger(__name__)

#: A claim of the queue slot older than this is taken to be lost and may be claimed again
#: (notes 5 and 6 above): a task starts within RESCORE_WAIT_MOST (2 s) of its claim. A minute
#: here left the standings still for over a minute after a web node died mid-round.
RESCORE_SLOT_TIMEOUT = timedelta(seconds=10)


def results_changed(*, event: Event) -> None:
    """Record that the standings are out of date; call inside the changing transaction."""
    counter_bump(event, "results_version")
    # robust: the change is committed whatever happens here; a failure to queue must not turn
    # an accepted result into an error for the tablet (the version gap and the sweep cover it).
    # Once a commit: a batch of results (a file, a simulated evening) is one rescore's work.
    after_commit(_request_rescore, event.pk, key=("rescore", event.pk))


def _request_rescore(event_id: int) -> None:
    request_rescore(event_id=event_id)


# One quick second try (a pooled connection to a Redis that restarted), then give up: Celery's
# default policy retries for most of a second, which an unreachable broker would add to every
# result's request; the version gap and the sweep keep the work instead.
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.05, "interval_max": 0.05}


def request_rescore(*, event_id: int, reclaim: bool = False) -> bool:
    """Queue one rescore unless one is already queued; True when this call queued it.

    `reclaim` takes the event's slot even if a task claimed it (see the module's note 5)."""
    now = timezone.now()
    if reclaim:
        claimed = bool(Event.objects.filter(pk=event_id).update(rescore_queued_at=now))
    else:
        claimed = _slot_claimed(event_id, now)
    if not claimed:
        return False
    try:
        countdown = _countdown(event_id, now)
    except Exception as exc:
        # The database connection failed after the claim (dropped in the middle of the
        # request): send the task all the same, or the claim would hold the slot for nothing.
        log.warning("rescore of event %s queued without its debounce: %s", event_id, exc)
        countdown = settings.RESCORE_DEBOUNCE_SECONDS
    try:
        jobs.send(jobs.RESCORE_EVENT, event_id, countdown=countdown, retry_policy=PUBLISH_RETRY)
    except Exception as exc:
        # The broker is unreachable. Free the slot so the sweep can queue it later; the
        # results themselves are committed and the version gap remembers the work.
        log.warning(
            "could not queue a rescore for event %s (%s); the sweep will, once the broker is back",
            event_id,
            exc,
        )
        Event.objects.filter(pk=event_id, rescore_queued_at=now).update(rescore_queued_at=None)
        return False
    return True


def _slot_claimed(event_id: int, now: datetime) -> bool:
    """Claim the event's queue slot when it is free or older than RESCORE_SLOT_TIMEOUT: one
    UPDATE, True when it changed the row. It does what
    `Event.objects.filter(Q(rescore_queued_at__isnull=True) | Q(rescore_queued_at__lt=...))
    .update(rescore_queued_at=now)` does, with its SQL written once: every tablet write asks,
    and Django building that statement each time cost about as much as running it."""
    connection = connections[router.db_for_write(Event)]
    field = Event._meta.get_field("rescore_queued_at")
    assert isinstance(field, DateTimeField)
    stamp = field.get_db_prep_value(now, connection)
    stale = field.get_db_prep_value(now - RESCORE_SLOT_TIMEOUT, connection)
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(connection.alias), [stamp, event_id, stale])
        return bool(cursor.rowcount)


@functools.cache
def _claim_sql(alias: str) -> str:
    table, key, slot = quoted_names(Event, alias, "rescore_queued_at")
    return f"UPDATE {table} SET {slot} = %s WHERE {key} = %s AND ({slot} IS NULL OR {slot} < %s)"


def _countdown(event_id: int, now: datetime) -> float:
    """How long a rescore asked for now should wait (seconds)."""
    # After a quiet spell score at once, so a lone result (or the first of a burst) is in the
    # standings as soon as possible. Within a burst (standings stored moments ago, or other
    # changes still waiting to be scored, as while a rescore runs) wait the debounce, so the
    # rest of the burst rides on one rescore.
    debounce = timedelta(seconds=settings.RESCORE_DEBOUNCE_SECONDS)
    last = (
        Standings.objects.filter(event_id=event_id)
        .order_by("-version")
        .values_list("computed_at", flat=True)
        .first()
    )
    versions = (
        Event.objects.filter(pk=event_id).values_list("results_version", "scored_version").first()
    )
    waiting = versions[0] - versions[1] if versions else 0
    if waiting <= 1 and (last is None or now - last >= debounce):
        return 0
    return burst_wait(last_rescore_seconds(event_id))


#: Within a burst a rescore waits this many times as long as the last one took, when that is
#: longer than the debounce: results processing then takes at most a sixth of a core per
#: event however fast results arrive. A rescore's time is the wall clock's, which grows with
#: the machine's load, so the busier the machine the less often a big event is scored.
RESCORE_SPACING = 5.0
#: The longest a burst's rescore waits: a slow one-off never holds the standings back long.
RESCORE_WAIT_MOST = 2.0


def burst_wait(last_seconds: float) -> float:
    """How long a rescore asked for within a burst waits (seconds), when the event's last one
    took `last_seconds` (its scoring and storing).

    Why: waiting only the debounce (or as long as the last rescore took), three 100-table
    evenings on one 2-core server were scored some 2,300 times in three minutes of play, the
    worker and PostgreSQL taking 57 and 42 CPU seconds of the 348 the tablets' requests also
    needed (their p95 52-56 ms); waiting five times the last rescore, about 1,800 times, 43 and
    33 s (p95 41-48 ms; docs/development/benchmarks.md). A 30-table evening's rescore takes some
    20 ms: it still waits just the debounce, and its standings are as fresh as before.
    """
    spaced = min(RESCORE_SPACING * last_seconds, RESCORE_WAIT_MOST)
    return max(settings.RESCORE_DEBOUNCE_SECONDS, spaced)


def rescore_sweep(*, reclaim: bool = False) -> list[int]:
    """Queue a rescore for every event whose standings are behind its results; the ids.

    `reclaim` (a worker connecting) queues them even where a task holds the slot: that task
    may have died with a worker."""
    stale = timezone.now() - RESCORE_SLOT_TIMEOUT
    behind = Event.objects.filter(scored_version__lt=F("results_version"))
    if not reclaim:
        behind = behind.filter(Q(rescore_queued_at__isnull=True) | Q(rescore_queued_at__lt=stale))
    return [
        pk
        for pk in behind.values_list("pk", flat=True)
        if request_rescore(event_id=pk, reclaim=reclaim)
    ]


def lock_sections(*, event_id: int) -> list[Section]:
    """The scorer's lock: the event's section rows, FOR NO KEY UPDATE OF those rows only (see
    `standings_refresh` for why). Anything that scores inside its own transaction takes it
    before the event row, in the same order as the scorer."""
    return list(
        Section.objects.select_for_update(no_key=True, of=("self",)).filter(event_id=event_id)
    )


def standings_refresh(*, event_id: int, force: bool = False) -> Standings | None:
    """Score the event and store a new standings version; a no-op when already up to date.

    Runs under SELECT ... FOR NO KEY UPDATE OF the event's section rows only, so two workers
    never score the same event at once while tablets keep submitting:
    - OF self: Section's default ordering joins the event table, and a bare FOR UPDATE would
      lock the event row too, stalling every submission (which bumps results_version) for the
      whole computation;
    - NO KEY: a new Result's foreign-key check takes FOR KEY SHARE on its section, at COMMIT
      on PostgreSQL (Django's foreign keys are DEFERRABLE INITIALLY DEFERRED), after the
      submission has updated the event row this function updates at its end; FOR UPDATE
      conflicts with that check and the two deadlock under load.
    """
    Event.objects.filter(pk=event_id).update(rescore_queued_at=None)
    with transaction.atomic():
        sections = lock_sections(event_id=event_id)
        event = Event.objects.filter(pk=event_id).first()
        if event is None or not sections:
            return None  # deleted meanwhile: nothing to do
        target = event.results_version
        # The stored document (170 KB for 30 tables) is neither loaded nor parsed here: the
        # task only needs to know whether one exists (a caller reading .data loads it then).
        latest = Standings.objects.filter(event=event).order_by("-version").defer("data").first()
        if not force and event.scored_version >= target and latest is not None:
            return latest
        started = time.perf_counter()
        data = standings_compute(event=event)
        now = timezone.now()
        # An UPDATE (a forced rescore of a version already stored) else an INSERT: two round
        # trips, where update_or_create takes a savepoint and reads the old document first.
        if Standings.objects.filter(event=event, version=target).update(data=data, computed_at=now):
            standings = Standings.objects.defer("data").get(event=event, version=target)
            standings.data = data
        else:
            standings = Standings.objects.create(
                event=event, version=target, data=data, computed_at=now
            )
        Event.objects.filter(pk=event_id, scored_version__lt=target).update(scored_version=target)
        # Scoring and storing: the next rescore of a burst waits for a multiple of it.
        cache.set(_duration_key(event_id), time.perf_counter() - started, timeout=3600)
        transaction.on_commit(lambda: announce_version(event_id=event_id, version=target))
        return standings


def _duration_key(event_id: int) -> str:
    return f"rescore-seconds:{event_id}"


def last_rescore_seconds(event_id: int) -> float:
    """How long the event's last rescore took to score and store (0 before the first; capped
    at 2 s)."""
    found = cache.get(_duration_key(event_id))
    return min(float(found), 2.0) if found is not None else 0.0


# A version announced while Redis was away never reached the cache: streams would wait on
# the older one until the next results.
retire_after_outage("scored-version:*")


def version_key(event_id: int) -> str:
    return f"scored-version:{event_id}"


def announce_version(*, event_id: int, version: int) -> None:
    """Tell the live pages' streams that standings of `version` are stored: a cache write
    (streams read it instead of asking the database) and a pub/sub message that wakes them."""
    current = cache.get(version_key(event_id))
    if current is None or int(current) < version:
        cache.set(version_key(event_id), version, timeout=6 * 3600)
    live.publish(event_id, version)  # wakes the open streams at once (with Redis)


def scored_version(event_id: int, *, database: bool = True) -> int | None:
    """The newest stored standings' version, from the cache (or the database, once; never
    with database=False, as in a live stream, which must not hold a pooled connection)."""
    found = cache.get(version_key(event_id))
    if found is None and database:
        found = Event.objects.filter(pk=event_id).values_list("scored_version", flat=True).first()
        if found is not None:
            cache.set(version_key(event_id), found, timeout=6 * 3600)
    return None if found is None else int(found)
