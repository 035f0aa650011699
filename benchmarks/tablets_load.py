"""Tablets under load: N simulated tablets play an event over HTTP against the real services.

What runs, on loopback only (the processes and the tablets are `benchmarks.harness`'s, the
same the load and fault tests drive):
- a PostgreSQL database of its own (`clubwhist_bench_<random>`, dropped at the end), classic
  whist two-winner Mitchells with one table per tablet (up to 100 tables an event: N = 300 is
  three events of 100 at once, as three clubs on one server), 2 boards a round, ROUNDS rounds:
  a whole club night's Mitchell of 9 rounds by default (about three minutes on this 2-core
  machine; `--rounds 3` for a quicker look, which judges only an evening's first third);
- gunicorn (2 ASGI workers, as production runs it), a real Celery worker (`--pool solo`) on a
  queue of its own, Redis as broker and shared cache; the per-link request limit is lifted;
- N tablet threads (at most 300), each with its own keep-alive connection, one per table,
  doing what the table page does: GET the table's state; for each board of the round POST the
  result (a fresh idempotency key), about 5 % of them sent twice with the same key (a retry
  after a lost answer: must be 200, not a new row), POST the confirmation; then GET the state
  until the table has moved on.

The load model (the default, "club night, compressed"): a board takes 3 to 8 s to play
(players take about 7 minutes, so results arrive some 70 times faster than in a real room),
East-West confirm 1 to 3 s after North-South enter, and a tablet asks for its state every
POLL seconds while it waits (2 s; the page itself asks every 10 s). With 100 tables that is
some 60-80 requests a second, all of them from a few rounds' bursts of results. `--flat-out`
drops every pause (each tablet sends its next request as soon as the last is answered): that
measures the most requests a second the server can take, not what a club night asks of it,
so its latencies are queueing time and are reported, not judged. `--readers N` has N members
follow the first event's live results meanwhile (`benchmarks.live_readers` runs it with 1,000),
and `--threads N` serves with gthread workers instead, to compare the two layouts.

It prints p50/p95/p99 latency per kind of request, the request rate, errors (any answer but
the expected ones), results sent (distinct keys) against results stored (lost, duplicated),
the time from the last confirmation to standings that include it, and whether the standings
then equal a from-scratch rescore. Targets (issue "Tablets"): p95 under 50 ms, 0 errors, 0
lost, 0 duplicated, last result in the standings within 1 s. It never asserts (the test
`tests/web/load/test_club_night_load.py` does, for N = 30). A service that cannot be reached is
reported loudly and the script exits 0. `make bench` runs N = 100 and N = 300.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

from benchmarks.harness import (
    MAX_READERS,
    MAX_TABLETS,
    ROOT,
    CeleryWorker,
    Tablet,
    WebServer,
    club_events,
    crowd,
    finish,
    groups_of,
    percentile,
    play,
    rescore_mismatch,
    tally,
    tokens_of,
    wait_converged,
    warm_up,
)
from benchmarks.publishing import cpu_seconds
from benchmarks.results_pipeline import (
    admin_execute,
    forget_queue,
    loud,
    migrate_fresh,
    postgres_problem,
    redis_problem,
    server_url,
    with_database,
)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
ROUNDS = 9
SECONDS_A_ROUND = 50.0  # the time limit: a round takes about 18 s at this load model
DEFAULT_TABLES = [100, 300]


def report(
    tablets: list[Tablet],
    events: list[int],
    played: float,
    paced: bool,
    rounds: int,
    layout: str,
    cpu: dict[str, float],
) -> None:
    from tournaments.events.models import Event

    last = max(t.confirmed_at for t in tablets)
    # wait_converged returns the moment the standings have caught up: from the last
    # confirmation to then is the figure.
    caught_up = None if wait_converged(events, timeout=30) is None else time.perf_counter() - last
    counted = tally(tablets, Event.objects.filter(pk__in=events))
    errors = [e for t in tablets for e in t.errors]
    mode = "club night, compressed" if paced else "flat out (no pauses)"
    shape = f"{len(events)} event{'s' if len(events) > 1 else ''}"
    print(
        f"\nN = {len(tablets)} tablets ({shape}), {rounds} rounds of 2 boards, {mode}: "
        f"played in {played:.1f} s, {sum(t.finished for t in tablets)} tablets finished; "
        f"{layout}"
    )
    everything = []
    for kind in ("state", "submit", "retry", "confirm"):
        values = [v for t in tablets for v in t.times[kind]]
        everything += values
        if values:
            p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
            print(
                f"  {kind:<8} {len(values):>5} requests  p50 {p50:6.1f} ms"
                f"  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms"
            )
    p95 = percentile(everything, 0.95) * 1000
    verdict = ("met" if p95 < 50 else "NOT met") if paced else "not judged in flat-out mode"
    print(
        f"  all      {len(everything):>5} requests, {len(everything) / played:.0f} a second,"
        f"  p95 {p95:.1f} ms (target under 50 ms: {verdict})"
    )
    print(f"  errors: {len(errors)}{' ' + repr(errors[:3]) if errors else ''}")
    print(
        "  CPU seconds while playing (2 cores: "
        f"{2 * played:.0f} s to share): "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in cpu.items())
    )
    print(f"  {counted.line()}; {counted.retries_checked} sent twice answered as stored")
    if caught_up is None:
        print("  standings did not catch up within 30 s of the last confirmation")
    else:
        print(
            f"  last confirmation -> standings including it: {caught_up * 1000:.0f} ms "
            f"(target under 1 s: {'met' if caught_up < 1 else 'NOT met'})"
        )
        mismatches = [m for m in (rescore_mismatch(pk) for pk in events) if m]
        same = f"no: {mismatches[0]}" if mismatches else "yes"
        print(f"  standings equal a from-scratch rescore: {same}")


def run(
    tables: int,
    database_url: str,
    queue: str,
    paced: bool,
    rounds: int,
    threads: int | None,
    worker: CeleryWorker,
    readers: int = 0,
    workers: int = 2,
) -> None:
    events = club_events(tables, rounds=rounds)
    limit = SECONDS_A_ROUND * rounds
    tokens = tokens_of(events)
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": queue,
        "TABLET_THROTTLE": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    with (
        (ROOT / "var" / f"tablets-load-{tables}.log").open("w") as log,
        WebServer(env, threads=threads, workers=workers, log=log) as web,
    ):
        warm_up(web.port, tokens)
        watched = processes_of(web, worker)
        before = {name: cpu_seconds(pids) for name, pids in watched.items()}
        started = time.perf_counter()
        if readers:
            from tournaments.events.models import Event
            from tournaments.events.views.live import BUSY_POLL_SECONDS

            Event.objects.filter(pk__in=[e.pk for e in events]).update(live_public=True)
            tablets, followed = crowd(
                web.port,
                events[0].pk,
                tokens,
                groups=groups_of(readers, 25),
                seconds=limit + 30,
                poll=BUSY_POLL_SECONDS,
            )
            print(
                f"\nlive readers (25 from each of {len(groups_of(readers, 25))} loopback "
                f"addresses, opened before the first result): {followed.line()}"
            )
            if followed.errors:
                print(f"  reader errors, first 3: {followed.errors[:3]}")
            if not followed.parts:
                # Results were stored meanwhile: a reader who saw none of them measured nothing.
                loud("the readers received no new live part: their streams never saw a version")
        else:
            tablets = play(web.port, tokens, paced=paced, time_limit=limit)
            finish(tablets, limit + 30)
        cpu = {name: cpu_seconds(pids) - before[name] for name, pids in watched.items()}
        report(
            tablets,
            [e.pk for e in events],
            time.perf_counter() - started,
            paced,
            rounds,
            web.describe(),
            cpu,
        )


def processes_of(web: WebServer, worker: CeleryWorker) -> dict[str, list[int]]:
    """The processes whose CPU time tells where a run's time went: each web worker apart
    (connections stay with the worker that accepted them, so one can be busier), the Celery
    worker, and this process, whose threads are the tablets."""
    master, *workers = web.pids()
    named = {f"web worker {i}": [pid] for i, pid in enumerate(workers, 1)}
    named["web master"] = [master]
    named["celery"] = [worker.pid] if worker.pid else []
    named["tablets (this process)"] = [os.getpid()]
    named["postgres"] = postgres_pids()
    return named


def postgres_pids() -> list[int]:
    """PostgreSQL's processes on this machine (the server and its backends: the connections
    of the web workers, the Celery worker and this process are all served there)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/comm"):
        try:
            if stat.read_text().strip() == "postgres":
                found.append(int(stat.parent.name))
        except OSError:
            continue
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--tables",
        type=int,
        action="append",
        help=f"tablets (one per table), 1 to {MAX_TABLETS}; repeat for several runs "
        f"(default: {' and '.join(map(str, DEFAULT_TABLES))})",
    )
    parser.add_argument(
        "--flat-out", action="store_true", help="no players' pauses: the most the server takes"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help=f"rounds of the event, 1 to 12 (default {ROUNDS}; 9 is a whole club night's "
        "Mitchell, about 3 minutes a run)",
    )
    parser.add_argument(
        "--readers",
        type=int,
        default=0,
        help=f"members following the first event's live results meanwhile, 0 to {MAX_READERS} "
        "(each an open stream from a loopback address of 25; paced tablets only)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="serve with gthread (WSGI) workers of this many threads instead of the ASGI "
        "workers production runs (to compare the layouts)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="gunicorn worker processes (default 2, as production's example runs it); the "
        "ASGI workers' thread pool is WEB_THREADS a process (8 unless set)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.readers <= MAX_READERS or (args.readers and args.flat_out):
        parser.error(
            f"--readers {args.readers}: give 0 to {MAX_READERS} readers, with paced tablets. "
            "Nothing was run."
        )
    if not 1 <= args.workers <= 8:
        parser.error(f"--workers {args.workers}: give 1 to 8 workers. Nothing was run.")
    if not 1 <= args.rounds <= 12:
        parser.error(f"--rounds {args.rounds}: give 1 to 12 rounds. Nothing was run.")
    for tables in args.tables or []:
        if not 1 <= tables <= MAX_TABLETS:
            parser.error(
                f"--tables {tables}: give 1 to {MAX_TABLETS} tablets. Each is a thread here "
                "and a connection to the server on this machine; more would measure the "
                "machine running out, not clubwhist. Nothing was run."
            )
    base = server_url()
    for problem in (postgres_problem(base), redis_problem(REDIS_URL)):
        if problem:
            loud(problem)
            return 0
    name = f"clubwhist_bench_{uuid.uuid4().hex[:8]}"
    database_url = with_database(base, name)
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=REDIS_URL, LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    worker = CeleryWorker(database_url=database_url, redis_url=REDIS_URL)
    os.environ["CELERY_QUEUE"] = worker.queue
    admin_execute(base, f'CREATE DATABASE "{name}"')
    try:
        import django

        django.setup()

        from clubwhist.celery import app

        app.conf.task_default_queue = worker.queue
        migrate_fresh()
        worker.start()
        try:
            for tables in args.tables or DEFAULT_TABLES:
                run(
                    tables,
                    database_url,
                    worker.queue,
                    paced=not args.flat_out,
                    rounds=args.rounds,
                    threads=args.threads,
                    worker=worker,
                    readers=args.readers,
                    workers=args.workers,
                )
        finally:
            worker.stop()
            forget_queue(REDIS_URL, worker.queue)
    finally:
        from django.db import connections

        connections.close_all()
        admin_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(f"database {name} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
