"""Full rescore of big sessions, engine and Django; prints the medians against the targets.

The engine (no database): two readings of "a 27-board Mitchell" are timed:
- movement: a real Mitchell cut to 9 rounds of 3 boards (each pair plays 27 boards, every
  line checked against the movement, each board played 9 times);
- copies: 27 boards each played at every table (duplicated boards), the heavier case for
  matchpoint comparisons (30 or 100 results per board).
Targets on the project's 2-core machine: the 30-table sessions (810 lines) under 2 ms (issue
#25); 1,000 tables (27,000 lines: a county's simultaneous pairs in one section) under 150 ms,
so that rescoring after every result keeps up with such a room (some three results a second
over an evening) on under half a core, and a rescore that grew with the square of the room
would miss it many times over (issue #45). Beside each warm median, the first rescore of the
session's objects (the movement checked, nothing cached yet) is printed too. For the 30-table
Mitchell it also times what the app does with a score, the standings document
(`section_standings`, then `to_dict`), where the whole numbers become the exact fractions and
rounded figures readers see (no target of its own).

Django: `standings_compute` of the 30-table event the other benchmarks use (classic whist,
two-winner Mitchell of 9 rounds of 3 boards, 810 results, simulated), on a database of its
own: on the PostgreSQL server of DATABASE_URL (or the default one), named
`clubwhist_bench_<random>` and dropped at the end; with BENCH_SQLITE=1, a SQLite file in a
temporary folder. Target: under 10 ms (issue #25), warm (the worker's usual case). The cold
one is timed beside it: the first `standings_compute` of a fresh process (a worker just
started, or the first rescore after a deploy), the median of COLD_RUNS processes, each timing
its first call only. A PostgreSQL server that cannot be reached is reported loudly and that
part is skipped; exit 0.

Every figure is the median of many runs because the machine is shared: a single run can
take several times the median when other work has the cores. Each line also gives the median
CPU time of this process (`time.process_time`), which waiting for a core does not inflate
(nor, for PostgreSQL, does it count the server's own work); the verdicts are on wall time.
"""

from __future__ import annotations

import functools
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from benchmarks.harness import played_event
from benchmarks.results_pipeline import (
    admin_execute,
    loud,
    migrate_fresh,
    postgres_problem,
    server_url,
)
from benchmarks.results_pipeline import with_database as database_at
from engine.movements import Movement, mitchell
from engine.scoring import TravellerLine, score_session
from engine.scoring.document import StandingsDocument, section_standings

REPEATS = {30: 201, 1000: 11}
TARGET_MS = {30: 2.0, 1000: 150.0}
DJANGO_REPEATS = 51
COLD_RUNS = 3
DJANGO_TARGET_MS = 10.0


def movement_case(tables: int, one_winner: bool) -> tuple[list[TravellerLine], Movement]:
    movement = mitchell(
        tables,
        rounds=9,
        boards_per_round=3,
        arrow_switch=[9] if one_winner else (),
    )
    rng = random.Random(tables)
    lines = [
        TravellerLine(board, m.ns, m.ew, rng.randrange(14))
        for m in movement.meetings
        for board in movement.boards_for_set(m.set)
    ]
    return lines, movement


def copies_case(tables: int) -> list[TravellerLine]:
    rng = random.Random(tables)
    return [
        TravellerLine(board, t, (t + board) % tables + 1, rng.randrange(14))
        for board in range(1, 28)
        for t in range(1, tables + 1)
    ]


def medians_ms(run: Callable[[], object], times: int) -> tuple[float, float]:
    """The median wall time and the median CPU time of `times` runs, in milliseconds."""
    wall, cpu = [], []
    for _ in range(times):
        started, used = time.perf_counter(), time.process_time()
        run()
        cpu.append(time.process_time() - used)
        wall.append(time.perf_counter() - started)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def verdict(ms: float, cpu: float, target: float) -> str:
    return f"CPU {cpu:.2f} ms; target {target:g} ms: {'met' if ms < target else 'NOT met'}"


def engine_part() -> bool:
    """The engine's rescores; True when every target is met."""
    all_met = True
    for tables in (30, 1000):
        repeats, target = REPEATS[tables], TARGET_MS[tables]
        print(f"median of {repeats} full rescores (matchpoints, EBU scale)")
        for one in (False, True):
            lines, movement = movement_case(tables, one)
            run = functools.partial(score_session, lines, movement=movement)
            started = time.perf_counter()
            run()  # the movement is checked once per object, as in a running event
            first = (time.perf_counter() - started) * 1000
            ms, cpu = medians_ms(run, repeats)
            all_met &= ms < target
            winners = "one-winner" if one else "two-winner"
            print(
                f"{tables:>4} tables, 9x3 boards, {winners} Mitchell, {len(lines)} lines: "
                f"{ms:8.2f} ms, the first {first:.2f} ms ({verdict(ms, cpu, target)})"
            )
        lines = copies_case(tables)
        run = functools.partial(score_session, lines)
        started = time.perf_counter()
        run()
        first = (time.perf_counter() - started) * 1000
        ms, cpu = medians_ms(run, repeats)
        all_met &= ms < target
        print(
            f"{tables:>4} tables, 27 boards each played {tables} times, {len(lines)} lines: "
            f"{ms:8.2f} ms, the first {first:.2f} ms ({verdict(ms, cpu, target)})"
        )
    lines, movement = movement_case(30, False)
    score = score_session(lines, movement=movement)

    def document() -> dict[str, Any]:
        section = section_standings("A", score, one_winner=False)
        return StandingsDocument(1, 1, "mp", "ebu", "", (section,)).to_dict()

    ms, cpu = medians_ms(document, REPEATS[30])
    print(
        f" 30 tables, that score as a standings document and its dict: {ms:8.2f} ms "
        f"(CPU {cpu:.2f} ms; no target of its own)"
    )
    return all_met


def django_part() -> bool | None:
    """`standings_compute` on a database of its own; None when it could not run."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    os.environ.pop("REDIS_URL", None)  # results processing in-process: nothing else to run
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CLUBWHIST_VAR_DIR"] = folder
        if os.environ.get("BENCH_SQLITE") == "1":
            os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
            return time_standings_compute("SQLite file")
        base = server_url()
        problem = postgres_problem(base)
        if problem:
            loud(f"{problem} (standings_compute not timed; BENCH_SQLITE=1 uses SQLite)")
            return None
        name = f"clubwhist_bench_{secrets.token_hex(4)}"
        admin_execute(base, f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = database_at(base, name)
        try:
            return time_standings_compute(f"PostgreSQL {name}")
        finally:
            from django.db import connections

            connections.close_all()
            admin_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            print(f"database {name} dropped")


def time_standings_compute(database: str) -> bool:
    import django

    django.setup()

    from tournaments.events.models import Event, Result
    from tournaments.events.selectors.standings import standings_compute

    migrate_fresh()
    event = Event.objects.get(pk=played_event("Scoring benchmark").pk)
    results = Result.objects.filter(section__event=event).count()
    cold = sorted(_cold_in_a_fresh_process(event.pk) for _ in range(COLD_RUNS))
    run = functools.partial(standings_compute, event=event)
    for _ in range(5):
        run()  # warm: the movement and the rules are cached per process, as in a worker
    ms, cpu = medians_ms(run, DJANGO_REPEATS)
    print(
        f"standings_compute, 30 tables, {results} results ({database}), median of "
        f"{DJANGO_REPEATS}: {ms:.2f} ms ({verdict(ms, cpu, DJANGO_TARGET_MS)}); the first in "
        f"a fresh process (cold), min / median / max of {COLD_RUNS}: "
        f"{cold[0]:.1f} / {statistics.median(cold):.1f} / {cold[-1]:.1f} ms "
        f"({statistics.median(cold) / ms:.1f}x the warm one; no target of its own)"
    )
    return ms < DJANGO_TARGET_MS


COLD_FLAG = "--cold-once"


def _cold_in_a_fresh_process(event_id: int) -> float:
    """The first `standings_compute` of a new process on this database, in milliseconds."""
    answer = subprocess.run(
        [sys.executable, "-m", "benchmarks.scoring", COLD_FLAG, str(event_id)],
        env=os.environ.copy(),
        check=True,
        capture_output=True,
        text=True,
    )
    return float(answer.stdout.strip().splitlines()[-1])


def _cold_once(event_id: int) -> None:
    """In the fresh process: Django set up (as a worker is before its first task), then one
    `standings_compute` timed."""
    import django

    django.setup()
    from tournaments.events.models import Event
    from tournaments.events.selectors.standings import standings_compute

    event = Event.objects.get(pk=event_id)
    started = time.perf_counter()
    standings_compute(event=event)
    print(f"{(time.perf_counter() - started) * 1000:.3f}")


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == COLD_FLAG:
        _cold_once(int(sys.argv[2]))
        return 0
    all_met = engine_part()
    django_met = django_part()
    all_met &= django_met is not False
    print("all targets met" if all_met else "some targets NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
