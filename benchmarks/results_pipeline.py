"""Confirmed result to updated standings: latency through Redis, a real worker and PostgreSQL.

The issue's question: in a 30-table event, how long after a table's result is committed do the
standings that include it appear? Target: p95 under 1 s.

What runs:
- a database of its own (`clubwhist_bench_<random>` on the PostgreSQL server of DATABASE_URL, or
  of postgres://postgres@127.0.0.1:5432 by default), migrated, dropped at the end;
- a real `celery worker --pool solo` subprocess on a queue of its own, on REDIS_URL (default
  redis://127.0.0.1:6379/5);
- a 30-table two-winner Mitchell of classic whist cut to 9 rounds of 3 boards: every pair plays
  27 boards, 90 boards are dealt, 810 results in all;
- a compressed session: each round lasts ROUND_SECONDS; a table's 3 results land one per third
  of the round at a random moment within it, as a table finishing its boards would send them,
  from a pool of submitter threads (the tablets) calling `result_submit(..., confirm=True)`.

How latency is measured: each submission runs inside an outer transaction that registers an
on-commit hook before calling the service, so the hook's clock reading is the moment just after
COMMIT (and before the service's own hook asks for the rescore); inside the same transaction the
event row is read back to learn the `results_version` this result produced (the row is locked
by our own UPDATE, so the value is ours). A monitor thread polls `Event.scored_version` every
POLL_SECONDS and records when it first reached each value. A result's latency is the first
moment scored_version >= its version minus its commit moment; the poll interval bounds the
measurement error (it can only add to the figure).

The live page (issue "Publishing": from a confirmed result to the updated live page, p95
under 300 ms): the event's live results are switched on and READERS members follow its public
standings page over HTTP, as a browser does (gunicorn with 2 ASGI workers on the same
database and Redis, one server-sent-events stream each; each new version arrives as the page's
new live part). A result's live latency, per reader, is the moment the first part of a version
at least its own has wholly arrived minus its commit moment.

A service that cannot be reached is reported loudly and the script exits 0: a benchmark that
cannot run is not a failed build.
"""

from __future__ import annotations

import argparse
import bisect
import http.client
import os
import queue
import random
import re
import signal
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from benchmarks.harness import CeleryWorker, gunicorn

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_DATABASE_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
TABLES = 30
ROUNDS = 9
BOARDS_PER_ROUND = 3
ROUND_SECONDS = 4.0
SUBMITTERS = 6
POLL_SECONDS = 0.01
TARGET_P95 = 1.0
READERS = 5
TARGET_LIVE_P95 = 0.3


def loud(message: str) -> None:
    bar = "!" * 78
    print(f"{bar}\n!! BENCHMARK NOT RUN: {message}\n{bar}", flush=True)


# --------------------------------------------------------------------------- services


def server_url() -> str:
    """The PostgreSQL server to use: DATABASE_URL's when it is PostgreSQL, else the default.

    Only the server and credentials are taken from it; the database is always our own, so a
    benchmark can never touch (let alone drop) a database someone else is using.
    """
    url = os.environ.get("DATABASE_URL", "").strip()
    if urlsplit(url).scheme in {"postgres", "postgresql"}:
        return url
    return DEFAULT_DATABASE_SERVER


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def postgres_problem(url: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(with_database(url, "postgres"), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        return f"PostgreSQL at {urlsplit(url).hostname}:{urlsplit(url).port or 5432} " + (
            f"is unreachable ({str(exc).strip().splitlines()[0]})"
        )
    return None


def redis_problem(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except Exception as exc:
        return f"Redis at {url} is unreachable ({exc})"
    return None


def forget_queue(url: str, name: str) -> None:
    """Remove the queue's keys (and any task left in it) from Redis; the queue was ours only."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")


@contextmanager
def scratch_database(redis_url: str) -> Iterator[str | None]:
    """A PostgreSQL database of the benchmark's own, migrated, with Django set up on it and
    Redis at `redis_url`; dropped on the way out. Yields its URL, or None (after saying why,
    loudly) when PostgreSQL or Redis cannot be reached: the benchmark then runs nothing."""
    base = server_url()
    for problem in (postgres_problem(base), redis_problem(redis_url)):
        if problem:
            loud(problem)
            yield None
            return
    name = f"clubwhist_bench_{uuid.uuid4().hex[:8]}"
    database_url = with_database(base, name)
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=redis_url, LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    admin_execute(base, f'CREATE DATABASE "{name}"')
    try:
        import django

        django.setup()
        migrate_fresh()
        yield database_url
    finally:
        from django.db import connections

        connections.close_all()
        admin_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate_fresh() -> None:
    """Migrate the run's new database and empty the shared cache. A new database numbers its
    events from 1 again, and the cache's Redis keeps what an earlier run stored under those
    numbers (a standings version of 600, say): streams and pages would read it as this run's."""
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    cache.clear()


def admin_execute(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


# --------------------------------------------------------------------------- measurement


@dataclass
class Submission:
    due: float  # seconds after the session start
    round: int
    table: int
    board: int
    entry: dict[str, Any]


@dataclass
class Committed:
    version: int
    at: float  # perf_counter just after COMMIT


class Monitor(threading.Thread):
    """Polls the event's scored_version and keeps (moment, version) each time it rises."""

    def __init__(self, event_id: int) -> None:
        super().__init__(name="monitor", daemon=True)
        self.event_id = event_id
        self.seen: list[tuple[float, int]] = []
        self.polls = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        from django.db import connection

        from tournaments.events.models import Event

        last = -1
        try:
            while not self.stopping.is_set():
                version = (
                    Event.objects.filter(pk=self.event_id)
                    .values_list("scored_version", flat=True)
                    .get()
                )
                now = time.perf_counter()
                self.polls += 1
                if version > last:
                    self.seen.append((now, version))
                    last = version
                self.stopping.wait(POLL_SECONDS)
        finally:
            connection.close()

    def first_at_least(self, version: int) -> float | None:
        versions = [v for _, v in self.seen]
        i = bisect.bisect_left(versions, version)
        return self.seen[i][0] if i < len(self.seen) else None


class Reader(threading.Thread):
    """A member with the live standings page open: one stream, each new version arriving as
    the page's live part; keeps (moment the part had wholly arrived, version)."""

    def __init__(self, port: int, event_id: int) -> None:
        super().__init__(daemon=True)
        self.port, self.event_id = port, event_id
        self.parts: list[tuple[float, int]] = []
        self.errors: list[str] = []
        self.kinds: dict[str, int] = {}
        self.tables = 0  # parts with a standings table (the rest: no board counts yet)
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.follow()
            except (OSError, http.client.HTTPException) as exc:
                self.errors.append(type(exc).__name__)
                time.sleep(0.2)

    def follow(self) -> None:
        stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        page = quote(f"/results/{self.event_id}/")
        stream.request("GET", f"/results/{self.event_id}/stream?page={page}")
        answer = stream.getresponse()
        if answer.status != 200:
            self.errors.append(f"HTTP {answer.status}")
            time.sleep(0.2)
            return
        kind, ident, shown = "", "", False
        while not self.stopping.is_set():
            line = answer.fp.readline().decode()
            if not line:
                return  # the stream ended (after a minute): reconnect, as a browser does
            line = line.rstrip("\n")
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("id:"):
                ident = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                # The standings as the public may see them: their table, or (while no board is
                # finished by every table, card secrecy) the line saying no board counts yet.
                if "<table" in line:
                    shown, self.tables = True, self.tables + 1
                elif 'class="counted-boards"' in line:
                    shown = True
            elif not line:
                self.kinds[kind] = self.kinds.get(kind, 0) + 1
                if kind == "part":
                    if shown:
                        self.parts.append((time.perf_counter(), int(ident)))
                    else:
                        self.errors.append("part without standings")
                kind, ident, shown = "", "", False

    def first_at_least(self, version: int) -> float | None:
        return next((at for at, v in self.parts if v >= version), None)


def schedule(section: Any, boards: dict[int, Any], rng: random.Random) -> list[Submission]:
    """Every result of the session with the moment its table sends it."""
    from tournaments.events.bridge import rules_for
    from tournaments.events.models import MovementRow

    rules = rules_for(section.event)
    plan = []
    for row in MovementRow.objects.filter(section=section).order_by("round", "table"):
        if not (row.ns_pair and row.ew_pair):
            continue
        start = (row.round - 1) * ROUND_SECONDS
        numbers = list(section.boards_of_set(row.board_set))
        share = ROUND_SECONDS / len(numbers)
        for k, number in enumerate(numbers):
            plan.append(
                Submission(
                    due=start + share * (k + rng.uniform(0.05, 0.95)),
                    round=row.round,
                    table=row.table,
                    board=number,
                    entry=rules.plausible_entry(boards[number], rng),
                )
            )
    plan.sort(key=lambda s: s.due)
    return plan


def run_session(event: Any, plan: list[Submission]) -> tuple[list[Committed], float]:
    """Send every planned result at its moment; returns the commits and the session's length.

    SUBMITTERS threads (each with its own database connection) take the next result due, wait
    for its moment and send it, so a slow submission delays only the tablet that sent it.
    """
    from django.db import connection, transaction

    from tournaments.events.models import Event
    from tournaments.events.services.results import result_submit

    section = event.sections.get()
    todo: queue.Queue[Submission] = queue.Queue()
    for s in plan:
        todo.put(s)
    committed: list[Committed] = []
    failures: list[BaseException] = []
    lock = threading.Lock()
    start = time.perf_counter()

    def submit(s: Submission) -> None:
        delay = start + s.due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        stamp: list[float] = []
        with transaction.atomic():
            # Registered before the service's own hook, so it runs first, right after COMMIT.
            transaction.on_commit(lambda: stamp.append(time.perf_counter()))
            result_submit(
                section=section,
                round=s.round,
                table=s.table,
                board_number=s.board,
                entry=s.entry,
                idempotency_key=uuid.uuid4().hex,
                device=f"table {s.table}",
                confirm=True,
            )
            version = Event.objects.values_list("results_version", flat=True).get(pk=event.pk)
        with lock:
            committed.append(Committed(version=version, at=stamp[0]))

    def tablet() -> None:
        try:
            while not failures:
                try:
                    s = todo.get_nowait()
                except queue.Empty:
                    return
                submit(s)
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tablet, name=f"tablet-{i}") for i in range(SUBMITTERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    return committed, time.perf_counter() - start


def wait_caught_up(event_id: int, timeout: float = 30.0) -> None:
    from tournaments.events.models import Event

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = Event.objects.get(pk=event_id)
        if event.scored_version == event.results_version:
            return
        time.sleep(0.05)
    raise RuntimeError(
        f"the standings never caught up: results v{event.results_version}, "
        f"scored v{event.scored_version}"
    )


def task_times(log_text: str) -> list[float]:
    """How long each rescore task ran, from the worker's own 'succeeded in' lines."""
    pattern = re.compile(r"Task clubwhist\.rescore_event\[[^\]]+\] succeeded in ([0-9.]+)s")
    return [float(m.group(1)) for m in pattern.finditer(log_text)]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


# --------------------------------------------------------------------------- the run


@contextmanager
def terminate_as_exit() -> Iterator[None]:
    """SIGTERM (a CI timeout) unwinds like Ctrl-C, so the finally blocks still clean up."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def benchmark(worker: Any, seed: int, readers: list[Reader] | None = None) -> int:
    """Runs the session and prints its figures; returns the event's id."""
    from tournaments.events.bridge import engine_board
    from tournaments.events.models import Event, Standings
    from tournaments.events.selectors.standings import standings_compute
    from tournaments.events.services.events import event_create, event_start
    from tournaments.kernel.clubs import club_get_or_create

    club = club_get_or_create(name="Benchmark Whist Club")
    event = event_create(
        club=club,
        name="Results pipeline benchmark",
        game="classic",
        movement_kind="mitchell",
        movement_params={"tables": TABLES, "rounds": ROUNDS, "boards_per_round": BOARDS_PER_ROUND},
        seed=seed,
    )
    event = event_start(event=event)
    if readers is not None:
        from tournaments.events.services.events import event_set_live_public

        event = event_set_live_public(event=event, live=True)
        for reader in readers:
            reader.event_id = event.pk
            reader.start()
        time.sleep(1.0)  # every reader connected
    section = event.sections.get()
    boards = {b.number: engine_board(b) for b in event.boards.all()}
    plan = schedule(section, boards, random.Random(seed))
    print(
        f"event: {TABLES}-table two-winner Mitchell, classic whist, {section.rounds} rounds x "
        f"{section.boards_per_round} boards (each pair plays "
        f"{section.rounds * section.boards_per_round} boards; {len(boards)} boards dealt)"
    )
    print(
        f"session: {len(plan)} results, rounds of {ROUND_SECONDS:g} s, {SUBMITTERS} submitter "
        f"threads, rescore debounce {worker_debounce():g} s, poll every {POLL_SECONDS * 1000:g} ms",
        flush=True,
    )

    monitor = Monitor(event.pk)
    monitor.start()
    try:
        committed, length = run_session(event, plan)
        wait_caught_up(event.pk)
        time.sleep(3 * POLL_SECONDS)
        time.sleep(0.5)  # the last parts on their way
    finally:
        monitor.stopping.set()
        monitor.join(10)
        for reader in readers or []:
            reader.stopping.set()

    latencies = []
    for c in committed:
        seen = monitor.first_at_least(c.version)
        if seen is None:
            raise RuntimeError(f"version {c.version} was never observed as scored")
        latencies.append(seen - c.at)
    final = Event.objects.get(pk=event.pk)
    recomputes = Standings.objects.filter(event=event).count()
    versions = sorted(c.version for c in committed)
    if versions != list(range(1, len(plan) + 1)):
        raise RuntimeError("the committed results did not produce versions 1..N one each")

    timings = []
    for _ in range(5):
        begin = time.perf_counter()
        document = standings_compute(event=final)
        timings.append(time.perf_counter() - begin)
    lines = sum(len(v) for s in document["sections"] for v in s["boards"].values())
    worker_runs = task_times(worker.log())

    met = p95(latencies) < TARGET_P95
    print(f"session length:                 {length:7.1f} s")
    print(f"results confirmed:              {len(committed):7d}")
    print(f"recomputes (Standings rows):    {recomputes:7d}")
    print(
        f"final versions:                 results v{final.results_version}, "
        f"scored v{final.scored_version}"
    )
    print(f"latency median:                 {ms(statistics.median(latencies))}")
    print(f"latency p95:                    {ms(p95(latencies))}")
    print(f"latency max:                    {ms(max(latencies))}")
    print(f"latency min:                    {ms(min(latencies))}")
    if worker_runs:
        print(
            f"worker rescore task:            {len(worker_runs)} runs, median "
            f"{ms(statistics.median(worker_runs))}, max {ms(max(worker_runs))}"
            " (no-op reruns included)"
        )
    print(
        f"standings_compute, full event ({lines} lines), median of 5: "
        f"{ms(statistics.median(timings))}"
    )
    print(f"target p95 < {TARGET_P95:g} s: {'met' if met else 'NOT met'}", flush=True)
    if readers:
        live = []
        for reader in readers:
            for c in committed:
                at = reader.first_at_least(c.version)
                if at is not None:
                    live.append(at - c.at)
        missing = len(readers) * len(committed) - len(live)
        errors = [e for r in readers for e in r.errors]
        if not live:
            kinds = [r.kinds for r in readers]
            print(f"live page: no reader saw a part; errors: {errors[:10]}; events: {kinds}")
            return int(event.pk)
        print(
            f"live page, {len(readers)} readers: {len(live)} result-readings, median "
            f"{ms(statistics.median(live))}, p95 {ms(p95(live))}, max {ms(max(live))}"
            f"{f', {missing} never shown' if missing else ''}; reader errors: {len(errors)}; "
            f"parts with a standings table {sum(r.tables for r in readers)} of "
            f"{sum(len(r.parts) for r in readers)} (the others: no board finished by every "
            "table yet, as the public page says while the boards are in play)"
        )
        verdict = "met" if p95(live) < TARGET_LIVE_P95 and not missing else "NOT met"
        print(f"target: confirmed -> live page p95 < {TARGET_LIVE_P95 * 1000:g} ms: {verdict}")
    return int(event.pk)


@contextmanager
def live_server(database_url: str, redis_url: str, queue: str) -> Iterator[int]:
    """gunicorn on the benchmark's database and Redis for the live readers; yields its port."""
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
        "DJANGO_SETTINGS_MODULE": "clubwhist.settings",
    }
    (ROOT / "var").mkdir(exist_ok=True)
    log_path = ROOT / "var" / "pipeline-bench-gunicorn.log"
    with log_path.open("w") as log, gunicorn(env, log=log) as (port, _master):
        yield port


def worker_debounce() -> float:
    from django.conf import settings

    return float(settings.RESCORE_DEBOUNCE_SECONDS)


def main(argv: list[str] | None = None) -> int:
    global ROUND_SECONDS, SUBMITTERS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--round-seconds", type=float, default=ROUND_SECONDS)
    parser.add_argument("--submitters", type=int, default=SUBMITTERS)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument(
        "--readers", type=int, default=READERS, help="live page readers (0: none, no web server)"
    )
    args = parser.parse_args(argv)
    ROUND_SECONDS, SUBMITTERS = args.round_seconds, args.submitters

    server = server_url()
    redis_url = os.environ.get("REDIS_URL", "").strip() or DEFAULT_REDIS_URL
    problem = postgres_problem(server) or redis_problem(redis_url)
    if problem is not None:
        loud(problem)
        return 0

    name = f"clubwhist_bench_{uuid.uuid4().hex[:8]}"
    database_url = with_database(server, name)
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    worker = CeleryWorker(database_url=database_url, redis_url=redis_url)
    os.environ["CELERY_QUEUE"] = worker.queue  # read by settings: our tasks go to our queue

    with terminate_as_exit():
        admin_execute(server, f'CREATE DATABASE "{name}"')
        print(f"database {name} created; worker queue {worker.queue}", flush=True)
        try:
            import django

            django.setup()

            from clubwhist.celery import app

            app.conf.task_default_queue = worker.queue
            from django.core.cache import cache

            # A fresh database numbers its events from 1 again: versions an earlier run left in
            # the cache (its own Redis database) would hold the live pages back.
            cache.clear()
            begin = time.perf_counter()
            migrate_fresh()
            print(f"migrated in {time.perf_counter() - begin:.1f} s", flush=True)
            begin = time.perf_counter()
            try:
                worker.start()
                print(f"worker up in {time.perf_counter() - begin:.1f} s (log {worker.log_path})")
                if args.readers:
                    with live_server(database_url, redis_url, worker.queue) as port:
                        benchmark(worker, args.seed, [Reader(port, 0) for _ in range(args.readers)])
                else:
                    benchmark(worker, args.seed)
            finally:
                worker.stop()
                forget_queue(redis_url, worker.queue)
        finally:
            from django.db import connections

            connections.close_all()
            admin_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            print(f"database {name} dropped", flush=True)
    if worker.log_path.exists():
        worker.log_path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
