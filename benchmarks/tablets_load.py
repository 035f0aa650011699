"""Tablets under load: N simulated tablets play an event over HTTP against the real services.

What runs, on loopback only:
- a PostgreSQL database of its own (`clubwhist_bench_<random>`, dropped at the end), a
  classic whist two-winner Mitchell of N tables, 2 boards a round, cut to ROUNDS rounds so a
  run stays within a couple of minutes on this 2-core machine;
- gunicorn (2 workers, gthread, 16 threads each), a real Celery worker (`--pool solo`) on a
  queue of its own, Redis as broker and shared cache; the per-link request limit is lifted;
- N tablet threads, each with its own keep-alive connection, one per table, doing what the
  table page does: GET the table's state; for each board of the round POST the result (a
  fresh idempotency key), about 5 % of them sent twice with the same key (a retry after a
  lost answer: must be 200, not a new row), POST the confirmation; then GET the state until
  the table has moved on.

The load model (the default, "club night, compressed"): a board takes 3 to 8 s to play
(players take about 7 minutes, so results arrive some 70 times faster than in a real room),
East-West confirm 1 to 3 s after North-South enter, and a tablet asks for its state every
POLL seconds while it waits (2 s; the page itself asks every 10 s). With 100 tables that is
some 60-80 requests a second, all of them from a few rounds' bursts of results. `--flat-out`
drops every pause (each tablet sends its next request as soon as the last is answered): that
measures the most requests a second the server can take, not what a club night asks of it,
so its latencies are queueing time and are reported, not judged.

It prints p50/p95/p99 latency per kind of request, the request rate, errors (any answer but
the expected ones), results sent (distinct keys) against results stored (lost, duplicated),
and the time from the last confirmation to standings that include it. Targets (issue
"Tablets"): p95 under 50 ms, 0 errors, 0 lost, 0 duplicated, last result in the standings
within 1 s. It never asserts. A service that cannot be reached is reported loudly and the
script exits 0.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from results_pipeline import (  # noqa: E402
    admin_execute,
    forget_queue,
    loud,
    postgres_problem,
    redis_problem,
    server_url,
    with_database,
)
from serving import gunicorn  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
ROUNDS = 3
TIME_LIMIT = 150.0
RETRY_SHARE = 0.05
POLL = 2.0  # seconds between state requests while a tablet waits
PLAY = (3.0, 8.0)  # seconds to play a board
CONFIRM = (1.0, 3.0)  # seconds before East-West confirm


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Tablet(threading.Thread):
    """One table's tablet: the same requests the table page makes, as fast as players allow."""

    def __init__(self, port: int, token: str, ends: float, seed: int, paced: bool) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.ends, self.paced = port, token, ends, paced
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = {"state": [], "submit": [], "retry": [], "confirm": []}
        self.errors: list[str] = []
        self.keys: set[str] = set()
        self.confirmed_at = 0.0
        self.conn: http.client.HTTPConnection | None = None

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        for attempt in range(3):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                payload = None if body is None else json.dumps(body)
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, f"/api/t/{self.token}/{path}", payload, headers)
                answer = self.conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None  # the server closed an idle keep-alive: open a new one
                if attempt == 2:
                    self.errors.append(f"{kind}: connection failed")
                    return 0, None
                continue
            self.times[kind].append(time.perf_counter() - started)
            return answer.status, json.loads(data) if data else None
        return 0, None

    def pause(self, seconds: float | tuple[float, float]) -> None:
        """Players' time: nothing in flat-out mode."""
        if self.paced:
            wait = seconds if isinstance(seconds, float) else self.rng.uniform(*seconds)
            time.sleep(wait)

    def run(self) -> None:
        self.pause((0.0, POLL))  # tablets do not all start on the same millisecond
        while time.perf_counter() < self.ends:
            status, state = self.call("state", "GET", "")
            if status != 200:
                self.errors.append(f"state: HTTP {status}")
                return
            if state["finished"]:
                return
            current = state["current"]
            if current["sit_out"]:
                time.sleep(POLL if self.paced else 0.2)
                continue
            for board in current["boards"]:
                if board["result"] is not None:
                    continue
                self.pause(PLAY)
                key = uuid.uuid4().hex
                entry = {"ns_tricks": self.rng.randint(3, 10)}
                body = {"board": board["number"], "entry": entry, "idempotency_key": key}
                status, made = self.call("submit", "POST", "results/", body)
                if status != 201:
                    self.errors.append(f"submit: HTTP {status} {made}")
                    continue
                self.keys.add(key)
                if self.rng.random() < RETRY_SHARE:
                    again, same = self.call("retry", "POST", "results/", body)
                    if again != 200 or same["id"] != made["id"]:
                        self.errors.append(f"retry: HTTP {again}, expected 200 and the same result")
                self.pause(CONFIRM)
                status, _ = self.call("confirm", "POST", f"results/{made['id']}/confirm/")
                if status != 200:
                    self.errors.append(f"confirm: HTTP {status}")
                self.confirmed_at = time.perf_counter()
            round_now = current["round"]
            while time.perf_counter() < self.ends:  # the others at this table's next round
                status, state = self.call("state", "GET", "")
                if status != 200 or state["finished"] or state["current"]["round"] != round_now:
                    break
                time.sleep(POLL if self.paced else 0.1)


def warm_up(port: int, tokens: list[str]) -> None:
    """A server is up long before the first tablet connects (the director has set the event
    up on it): load each worker's code and connections before the clock starts, so the figures
    are those of the evening, not of a cold start. Not timed."""
    for token in tokens[:8] * 2:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/api/t/{token}/")
        conn.getresponse().read()
        conn.close()


def run(tables: int, database_url: str, queue: str, paced: bool) -> None:
    from tournaments.models import Event, Result
    from tournaments.services.events import club_get_or_create, event_create, event_start
    from tournaments.services.tablets import table_links_ensure

    event = event_create(
        club=club_get_or_create(name="Load club"),
        name=f"{tables} tablets",
        game="classic",
        movement_kind="mitchell",
        movement_params={"tables": tables, "boards_per_round": 2, "rounds": ROUNDS},
        seed=5,
    )
    event = event_start(event=event)
    links = table_links_ensure(event=event)
    log = (ROOT / "var" / f"tablets-load-{tables}.log").open("w")
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": queue,
        "TABLET_THROTTLE": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    with gunicorn(env, threads=16, log=log) as (port, _):
        warm_up(port, [a.token for a in links])
        started = time.perf_counter()
        ends = started + TIME_LIMIT
        tablets = [Tablet(port, a.token, ends, seed=a.table, paced=paced) for a in links]
        for tablet in tablets:
            tablet.start()
        for tablet in tablets:
            tablet.join(TIME_LIMIT + 30)
        played = time.perf_counter() - started
        last = max(t.confirmed_at for t in tablets)
        caught_up = None
        while time.perf_counter() - last < 30:
            event.refresh_from_db()
            if event.scored_version >= event.results_version:
                caught_up = time.perf_counter() - last
                break
            time.sleep(0.01)
        sent = set().union(*(t.keys for t in tablets))
        stored = set(
            Result.objects.filter(section__event=event).values_list("idempotency_key", flat=True)
        )
        rows = Result.objects.filter(section__event=event).count()
        errors = [e for t in tablets for e in t.errors]
        event = Event.objects.get(pk=event.pk)
        mode = "club night, compressed" if paced else "flat out (no pauses)"
        print(
            f"\nN = {tables} tablets, {ROUNDS} rounds of 2 boards, {mode}: played in {played:.1f} s"
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
        lost = len(sent - stored)
        duplicated = rows - len(stored)
        print(f"  results sent {len(sent)}, stored {rows}: lost {lost}, duplicated {duplicated}")
        if caught_up is None:
            print("  standings did not catch up within 30 s of the last confirmation")
        else:
            print(
                f"  last confirmation -> standings including it: {caught_up * 1000:.0f} ms "
                f"(target under 1 s: {'met' if caught_up < 1 else 'NOT met'})"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, action="append", help="default: 30 and 100")
    parser.add_argument(
        "--flat-out", action="store_true", help="no players' pauses: the most the server takes"
    )
    args = parser.parse_args(argv)
    base = server_url()
    for problem in (postgres_problem(base), redis_problem(REDIS_URL)):
        if problem:
            loud(problem)
            return 0
    name = f"clubwhist_bench_{uuid.uuid4().hex[:8]}"
    database_url = with_database(base, name)
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=REDIS_URL, LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    from tests.support.celery_worker import WorkerProcess

    worker = WorkerProcess(database_url=database_url, redis_url=REDIS_URL)
    os.environ["CELERY_QUEUE"] = worker.queue
    admin_execute(base, f'CREATE DATABASE "{name}"')
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from clubwhist.celery import app

        app.conf.task_default_queue = worker.queue
        call_command("migrate", verbosity=0, interactive=False)
        worker.start()
        try:
            for tables in args.tables or [30, 100]:
                run(tables, database_url, worker.queue, paced=not args.flat_out)
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
