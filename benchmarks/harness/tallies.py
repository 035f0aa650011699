"""The events the tablets play, and what a run left behind: counted and checked.

`club_events` makes the events, `tally` counts what the tablets sent against what the database
holds (sent, stored, lost, duplicated), `wait_converged` waits for the standings to catch up
and `rescore_mismatch` compares them with a from-scratch rescore. Nothing here asserts: the
benchmark reports what it finds and the tests judge it.

The project's models and services are imported inside the functions: a benchmark imports this
module before it has set Django up (it chooses the database first).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchmarks.harness.tablets import MAX_TABLETS, Tablet

#: Tables of one event (the movements allow 120): more tablets play several events at once,
#: as several clubs would on one server.
TABLES_PER_EVENT = 100


def club_events(
    tablets: int, *, rounds: int = 3, boards_per_round: int = 2, tables_per_event: int = 0
) -> list[Any]:
    """Started classic whist Mitchells with one table per tablet (several events above
    `tables_per_event` tables, TABLES_PER_EVENT unless said), each with its tablet links made.
    Several events are several clubs' (as on a county's installation), one event each."""
    from tournaments.events.services.events import event_create, event_start
    from tournaments.events.services.tablets import table_links_ensure
    from tournaments.kernel.clubs import club_get_or_create

    if not 1 <= tablets <= MAX_TABLETS:
        raise ValueError(f"{tablets} tablets: between 1 and {MAX_TABLETS}")
    events: list[Any] = []
    left = tablets
    while left:
        tables = min(left, tables_per_event or TABLES_PER_EVENT)
        left -= tables
        name = "Club night" if not events else f"Club night {len(events) + 1}"
        event = event_create(
            club=club_get_or_create(name=name),
            name=f"{tables} tablets",
            game="classic",
            movement_kind="mitchell",
            movement_params={
                "tables": tables,
                "boards_per_round": boards_per_round,
                "rounds": rounds,
            },
            seed=5,
        )
        event = event_start(event=event)
        table_links_ensure(event=event)
        events.append(event)
    return events


def tokens_of(events: Iterable[Any]) -> list[str]:
    from tournaments.events.models import TableAccess

    return list(
        TableAccess.objects.filter(section__event__in=list(events), revoked_at=None)
        .order_by("section__event_id", "table")
        .values_list("token", flat=True)
    )


@dataclass(frozen=True)
class Tally:
    """What the tablets sent against what the database holds."""

    sent: int  # distinct results the tablets sent (distinct keys)
    accepted: int  # of those, answered 201 or 200 at least once
    stored: int  # result rows of the events
    lost: int  # sent and accepted, not stored
    duplicated: int  # rows beyond one per key sent (a meeting stored twice, a stray row)
    retries_checked: int  # sent again on purpose with the same key, answered as stored

    def line(self) -> str:
        return (
            f"results sent {self.sent}, stored {self.stored}: lost {self.lost}, "
            f"duplicated {self.duplicated}"
        )


def tally(tablets: Iterable[Tablet], events: Iterable[Any]) -> Tally:
    from tournaments.events.models import Result

    tablets = list(tablets)
    sent = {key: s for t in tablets for key, s in t.sent.items()}
    accepted = {key for key, s in sent.items() if {200, 201} & set(s.answers)}
    rows = list(
        Result.objects.filter(section__event__in=list(events)).values_list(
            "idempotency_key", "section_id", "board_number", "ns_pair_id"
        )
    )
    stored_keys = Counter(key for key, *_ in rows)
    meetings = Counter(tuple(meeting) for _, *meeting in rows)
    ours = sum(1 for key in stored_keys if key in sent)
    duplicated = len(rows) - ours + sum(n - 1 for n in meetings.values() if n > 1)
    return Tally(
        sent=len(sent),
        accepted=len(accepted),
        stored=len(rows),
        lost=len(accepted - set(stored_keys)),
        duplicated=duplicated,
        retries_checked=sum(t.retries_checked for t in tablets),
    )


def converged(event_ids: Iterable[int]) -> bool:
    """Every event's newest standings are of its newest results."""
    from tournaments.events.models import Event, Standings

    for event_id in event_ids:
        results, scored = Event.objects.values_list("results_version", "scored_version").get(
            pk=event_id
        )
        newest = (
            Standings.objects.filter(event_id=event_id)
            .order_by("-version")
            .values_list("version", flat=True)
            .first()
        )
        if scored != results or newest != results:
            return False
    return True


def wait_converged(event_ids: Iterable[int], timeout: float, poll: float = 0.02) -> float | None:
    """Seconds until every event's standings caught up with its results; None on timeout."""
    ids = list(event_ids)
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if converged(ids):
            return time.perf_counter() - started
        time.sleep(poll)
    return None


def rescore_mismatch(event_id: int) -> str | None:
    """How the newest stored standings differ from a from-scratch rescore now; None if not."""
    from tournaments.events.models import Event, Standings
    from tournaments.events.selectors.standings import standings_compute

    stored = Standings.objects.filter(event_id=event_id).order_by("-version").first()
    if stored is None:
        return f"event {event_id} has no standings"
    fresh = standings_compute(event=Event.objects.get(pk=event_id))
    kept = {k: v for k, v in stored.data.items() if k != "computed_at"}
    fresh.pop("computed_at")
    if stored.version != fresh["version"]:
        return (
            f"event {event_id}: standings of version {stored.version}, results {fresh['version']}"
        )
    if kept != fresh:
        return f"event {event_id}: stored standings v{stored.version} differ from a rescore"
    return None
