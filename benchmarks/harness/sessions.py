"""The 30-table session several benchmarks measure, and a median timer.

The event is the one the publishing and backup figures are quoted for: classic whist, a
30-table two-winner Mitchell of 9 rounds of 3 boards (90 boards, 810 results), simulated with
fixed seeds so every run scores the same session. The services are imported inside
`played_event`: the benchmarks import this module before they set Django up.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def played_event(name: str, *, links: bool = False) -> Any:
    """The 30-table event, started and every result entered (not finished); `links` makes the
    tables' tablet links first, as a running evening has them."""
    from tournaments.events.services.events import event_create, event_start
    from tournaments.events.services.simulation import event_simulate
    from tournaments.events.services.tablets import table_links_ensure
    from tournaments.kernel.clubs import club_get_or_create

    club = club_get_or_create(name="Benchmark club")
    event = event_create(
        club=club,
        name=name,
        game="classic",
        movement_kind="mitchell",
        movement_params={"tables": 30, "boards_per_round": 3, "rounds": 9},
        seed=3,
    )
    event = event_start(event=event)
    if links:
        table_links_ensure(event=event)
    event_simulate(event=event, seed=4, batch=True)
    return event


def median_ms(run: Callable[[], object], times: int) -> float:
    """The median of `times` runs, in milliseconds."""
    found = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        found.append((time.perf_counter() - started) * 1000)
    return statistics.median(found)
