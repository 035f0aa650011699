"""What one tablet request costs: database round trips, Redis round trips and time, per kind.

What runs, in this process through Django's test client (no network, no web server):
- PostgreSQL (a database of its own, `clubwhist_bench_<random>`, dropped at the end) and Redis
  (`BENCH_REDIS_URL`, default redis://127.0.0.1:6379/11: the broker there, the cache in the
  next database, cleared first) when both answer; otherwise SQLite in a temporary folder and
  the in-process cache, as on the club laptop (`make run`), and it says so;
- one started 100-table classic whist Mitchell with its tablet links; each table plays its two
  round-1 boards as a tablet does, polling between its requests, and each request of
  `REQUESTS` (default 200) of a kind is measured: a warm poll, a poll after a change (the
  state computed again), a submission, the same submission again (a lost answer resent), a
  refused submission (an entry the rules refuse) and a confirmation.

For each kind: database round trips (every statement, BEGIN, COMMIT and savepoints included;
a confirmation's own, then the rescore request scoring makes after its commit: claiming the
event's queue slot, and when it wins it a look at the last standings and the task sent),
Redis round trips to the cache and to the broker, and the median wall time and CPU time in
this process (CPU time leaves out waiting for the servers, and for a core when other work
shares the machine: the figure to compare two versions of the code by). The
counts are the same for every request of a kind (the lowest and highest are shown when not).

Targets (issue #25): a warm poll 0 database round trips and 1-2 Redis; a submission or a
confirmation at most 4 database round trips and Redis once (before the work: its visit moves on
the copies the write changes, pending until the receipt in its answer comes back with the next
request; `tournaments/events/selectors/tablet_cache.py`). The client here sends receipts back as the
table's page does. A service that cannot be reached is said loudly; exit 0.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from benchmarks.results_pipeline import (
    admin_execute,
    forget_queue,
    migrate_fresh,
    postgres_problem,
    redis_problem,
    server_url,
    with_database,
)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
TABLES = 100
REQUESTS = 200


@dataclass
class Counts:
    """Round trips to Redis by database number (the broker's and the cache's differ)."""

    by_db: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    lock: threading.Lock = field(default_factory=threading.Lock)


COUNTS = Counts()


def count_redis() -> None:
    """Count every packed send (a command, a pipeline or a script: one round trip each) of
    every Redis connection in this process, by the database it uses."""
    from redis.connection import AbstractConnection

    send = AbstractConnection.send_packed_command

    def counted(self: Any, command: Any, check_health: bool = True) -> None:
        with COUNTS.lock:
            COUNTS.by_db[int(getattr(self, "db", 0) or 0)] += 1
        send(self, command, check_health)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]


@dataclass
class Kind:
    name: str
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # this process's CPU time, ms
    own: list[int] = field(default_factory=list)  # database, up to and with the COMMIT
    after: list[int] = field(default_factory=list)  # database, after the commit (scoring's)
    cache: list[int] = field(default_factory=list)
    broker: list[int] = field(default_factory=list)
    statuses: set[int] = field(default_factory=set)


def spread(values: list[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high} (median {statistics.median(values):g})"


class Meter:
    def __init__(self, cache_db: int | None, broker_db: int | None) -> None:
        from django.test import Client

        self.client = Client()
        self.cache_db, self.broker_db = cache_db, broker_db
        self.kinds: dict[str, Kind] = {}
        self.receipt: str | None = None

    def call(self, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
        """One request, sending back the last write's receipt as the table's page does."""
        headers = {} if self.receipt is None else {"Clubwhist-Receipt": self.receipt}
        if method == "GET":
            answer = self.client.get(url, headers=headers)
        else:
            answer = self.client.post(
                url, body or {}, content_type="application/json", headers=headers
            )
        self.receipt = answer.headers.get("Clubwhist-Receipt")
        return answer

    def measure(self, name: str, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        kind = self.kinds.setdefault(name, Kind(name))
        with COUNTS.lock:
            before = dict(COUNTS.by_db)
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            answer = self.call(method, url, body)
            kind.times.append((time.perf_counter() - started) * 1000)
            kind.cpu.append((time.process_time() - cpu) * 1000)
        with COUNTS.lock:
            sent = {db: n - before.get(db, 0) for db, n in COUNTS.by_db.items()}
        statements = [q["sql"].lstrip().upper() for q in queries.captured_queries]
        commit = next((i for i, s in enumerate(statements) if s.startswith("COMMIT")), None)
        own = len(statements) if commit is None else commit + 1
        kind.own.append(own)
        kind.after.append(len(statements) - own)
        kind.cache.append(sent.get(self.cache_db, 0) if self.cache_db is not None else 0)
        kind.broker.append(sent.get(self.broker_db, 0) if self.broker_db is not None else 0)
        kind.statuses.add(answer.status_code)
        return answer


def play(meter: Meter, tokens: list[str], boards: dict[str, list[int]], limit: int) -> None:
    """Each table enters, resends, confirms its round-1 boards, polling in between."""
    done = 0
    for token in tokens:
        api = f"/api/t/{token}/"
        meter.call("GET", api)
        for board in boards[token]:
            if done >= limit:
                return
            done += 1
            meter.call("GET", api)
            meter.measure("warm poll", "GET", api)
            body = {"board": board, "entry": {"ns_tricks": 7}, "idempotency_key": uuid.uuid4().hex}
            made = meter.measure("submission", "POST", api + "results/", body).json()
            meter.measure("poll after a change", "GET", api)
            meter.measure("same submission again", "POST", api + "results/", body)
            wrong = {**body, "entry": {"ns_tricks": 14}, "idempotency_key": uuid.uuid4().hex}
            meter.measure("refused submission", "POST", api + "results/", wrong)
            meter.call("GET", api)
            meter.measure("confirmation", "POST", api + f"results/{made['id']}/confirm/")


def report(meter: Meter, backend: str) -> None:
    print(f"\n{backend}: per request (the same figure for every request unless a range)")
    header = (
        f"{'kind':24} {'n':>4} {'HTTP':>9} {'db own':>8} {'db after':>9} {'cache':>6} "
        f"{'broker':>7} {'median ms':>10} {'CPU ms':>7}"
    )
    print(header)
    for kind in meter.kinds.values():
        statuses = ",".join(str(s) for s in sorted(kind.statuses))
        print(
            f"{kind.name:24} {len(kind.times):>4} {statuses:>9} {spread(kind.own):>8} "
            f"{spread(kind.after):>9} {spread(kind.cache):>6} {spread(kind.broker):>7} "
            f"{statistics.median(kind.times):>10.2f} {statistics.median(kind.cpu):>7.2f}"
        )
    print(
        "targets: warm poll 0 db, 1-2 cache; submission and confirmation at most 4 db (own),"
        " cache 1 (before the work; nothing after the commit)"
    )
    if meter.cache_db is None:
        print("verdict: none (the targets are for Redis: without it nothing is cached)")
        return
    poll = meter.kinds["warm poll"]
    writes = [meter.kinds["submission"], meter.kinds["confirmation"]]
    met = max(poll.own) == 0 and max(poll.cache) <= 2
    met = met and all(max(k.own) <= 4 and max(k.cache) <= 1 for k in writes)
    print("verdict: " + ("met" if met else "NOT met"))


def run(tables: int, requests: int, cache_db: int | None, broker_db: int | None) -> Meter:
    from benchmarks.harness import club_events
    from tournaments.events.models import TableAccess
    from tournaments.events.selectors.tablets import table_round_boards

    begin = time.perf_counter()
    (event,) = club_events(tables)
    section = event.section
    links = TableAccess.objects.filter(section=section, revoked_at=None).order_by("table")
    tokens = [a.token for a in links]
    boards = {a.token: list(table_round_boards(section, a.table, 1)) for a in links}
    print(f"{tables}-table event started in {time.perf_counter() - begin:.1f} s", flush=True)
    meter = Meter(cache_db, broker_db)
    play(meter, tokens, boards, requests)
    return meter


def setup_django(database_url: str | None, redis_url: str | None, var: Path) -> None:
    os.environ["CLUBWHIST_VAR_DIR"] = str(var)
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("CACHE_REDIS_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    os.environ["TABLET_THROTTLE"] = "1000000/min"  # counted, never refused here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the refused submissions
    from django.core.cache import cache

    migrate_fresh()
    cache.clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=TABLES, help="tables (at most 100)")
    parser.add_argument("--requests", type=int, default=REQUESTS, help="requests of each kind")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 100 or not 1 <= args.requests <= 2 * args.tables:
        parser.error("1-100 tables, and at most two requests of a kind per table")
    server = server_url()
    problem = postgres_problem(server) or redis_problem(REDIS_URL)
    count_redis()
    with tempfile.TemporaryDirectory(prefix="clubwhist-bench-") as var:
        if problem is not None:
            bar = "!" * 78
            print(f"{bar}\n!! {problem}: SQLite and the in-process cache instead\n{bar}")
            setup_django(None, None, Path(var))
            report(run(args.tables, args.requests, None, None), "SQLite, in-process cache")
            return 0
        name = f"clubwhist_bench_{uuid.uuid4().hex[:8]}"
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        os.environ["CELERY_QUEUE"] = queue  # confirmations' rescores wait there, then go
        broker = int(urlsplit(REDIS_URL).path.strip("/") or 0)
        admin_execute(server, f'CREATE DATABASE "{name}"')
        try:
            setup_django(with_database(server, name), REDIS_URL, Path(var))
            meter = run(args.tables, args.requests, broker + 1, broker)
            report(meter, "PostgreSQL and Redis")
        finally:
            from django.db import connections

            connections.close_all()
            admin_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            parts = urlsplit(REDIS_URL)
            forget_queue(urlunsplit(parts._replace(path=f"/{broker}")), queue)
    return 0


if __name__ == "__main__":
    sys.exit(main())
