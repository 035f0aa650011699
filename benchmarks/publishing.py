"""Published results: how fast the public pages are, and what 200 live readers cost the server.

What runs:
- a PostgreSQL database of its own (`clubwhist_bench_<random>`, dropped at the end) holding a
  30-table two-winner Mitchell of classic whist cut to 9 rounds of 3 boards (every pair plays
  27 boards; 810 results), played through the simulator and published;
- part 1, in this process through Django's test client (server-side render, no network): the
  median time of the standings page, a board page and a pair's card, both warm (the event's
  published snapshot cached, as for every reader after the first) and cold (the snapshot
  rebuilt, as for the first reader after new results);
- part 2, over loopback: gunicorn (2 ASGI workers, as production runs it: a stream holds no
  thread) on the same database,
  with Redis as the shared cache; VIEWERS readers each hold the live stream of the standings
  page open and fetch the page's live part whenever a new version is announced; they come
  PER_ADDRESS from each of 127.0.0.10, .11, ... as members at home come from addresses of
  their own (from one address all but the first LIVE_STREAMS_PER_ADDRESS of each web process
  would be turned away, as the server turns away a crowd from one address); this process
  stores a new standings version every UPDATE_SECONDS for WINDOW_SECONDS. It reports the
  server's CPU (gunicorn's processes, from /proc) per second of wall time, and the time from a
  version being stored to each reader having the new live part.

Targets (issue "Publishing"): pages under 50 ms, exports under 500 ms, the added load of 200
live readers under one core. A service that cannot be reached is reported loudly; exit 0.
"""

from __future__ import annotations

import functools
import http.client
import os
import secrets
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

from benchmarks.harness import ROOT, groups_of, gunicorn, median_ms, played_event, server_pids
from benchmarks.results_pipeline import (
    admin_execute,
    loud,
    migrate_fresh,
    postgres_problem,
    redis_problem,
    server_url,
    with_database,
)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
VIEWERS = int(os.environ.get("BENCH_VIEWERS", "200"))
WINDOW_SECONDS = float(os.environ.get("BENCH_WINDOW", "30"))
UPDATE_SECONDS = 3.0
PER_ADDRESS = 25  # readers from each loopback address, as benchmarks.live_readers
TARGET_EXPORT_MS = 500
TARGET_PAGE_MS = 50.0


def verdict(value: float, target: float) -> str:
    return "met" if value < target else "NOT met"


def make_event() -> Any:
    from tournaments.events.services.events import event_finish, event_publish

    event = played_event("Publishing benchmark")
    return event_publish(event=event_finish(event=event))


def part_pages(event: Any) -> None:
    from django.core.cache import cache
    from django.test import Client

    from tournaments.events.selectors.public import forget_snapshots

    client = Client()
    pages = {
        "standings": f"/results/{event.pk}/",
        "board page": f"/results/{event.pk}/boards/7/",
        "pair card": f"/results/{event.pk}/pairs/NS5/",
    }
    print(f"\npart 1: pages of a 30-table, {event.boards.count()}-board event (test client)")
    for name, url in pages.items():
        assert client.get(url).status_code == 200, url
        warm = median_ms(functools.partial(client.get, url), 20)

        def cold(url: str = url) -> None:
            cache.clear()
            forget_snapshots()
            client.get(url)

        first = median_ms(cold, 5)
        print(
            f"  {name:<11} warm median {warm:6.1f} ms ({verdict(warm, TARGET_PAGE_MS)}), "
            f"cold (snapshot rebuilt) {first:6.1f} ms"
        )
    from tournaments.files.exports import FORMATS

    for fmt in (key for key, spec in FORMATS.items() if spec.public):
        url = f"/results/{event.pk}/export.{fmt}"
        answer = client.get(url)
        assert answer.status_code == 200, url
        took = median_ms(functools.partial(client.get, url), 5)
        print(
            f"  export {fmt:<15} median {took:6.1f} ms, {len(answer.content) // 1024} KB "
            f"(target {TARGET_EXPORT_MS} ms: {verdict(took, TARGET_EXPORT_MS)})"
        )


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


class Viewer(threading.Thread):
    """A member with the standings page open: one stream, which brings each new live part."""

    def __init__(
        self, port: int, source: str, event_id: int, stored: dict[int, float], stop: Any
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.source, self.event_id = port, source, event_id
        self.stored, self.stop = stored, stop
        self.delays: list[float] = []
        self.firsts: list[float] = []  # stored -> the part's first line reached the reader
        self.errors = 0
        self.problems: dict[str, int] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.follow()
            except (OSError, http.client.HTTPException) as exc:
                self.errors += 1
                name = type(exc).__name__
                self.problems[name] = self.problems.get(name, 0) + 1
                time.sleep(0.5)

    def follow(self) -> None:
        """As the standings page does: the stream says which page it is for, and each new
        version arrives as the page's new live part (an SSE `part` event, id = version)."""
        stream = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=WINDOW_SECONDS + 30, source_address=(self.source, 0)
        )
        page = quote(f"/results/{self.event_id}/")
        stream.request("GET", f"/results/{self.event_id}/stream?page={page}")
        answer = stream.getresponse()
        if answer.status != 200:
            self.errors += 1
            name = f"stream HTTP {answer.status}"
            self.problems[name] = self.problems.get(name, 0) + 1
            time.sleep(0.5)
            return
        event, ident, data = "", "", []
        arrived = 0.0
        while not self.stop.is_set():
            line = answer.fp.readline().decode()
            if not line:
                return  # the stream ended: reconnect, as a browser does
            line = line.rstrip("\n")
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
                arrived = time.perf_counter()
            elif line.startswith("id:"):
                ident = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data.append(line[5:])
            elif not line:  # the end of one event
                if event == "part":
                    version = int(ident)
                    if "<table" not in "".join(data):
                        self.errors += 1
                        self.problems["part without standings"] = (
                            self.problems.get("part without standings", 0) + 1
                        )
                    elif version in self.stored:
                        self.delays.append(time.perf_counter() - self.stored[version])
                        self.firsts.append(arrived - self.stored[version])
                event, ident, data = "", "", []


def part_viewers(event: Any, database_url: str) -> None:
    from tournaments.events.models import Event
    from tournaments.events.services.scoring import standings_refresh

    log = (ROOT / "var" / "publishing-bench-gunicorn.log").open("w")
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": f"bench-{uuid.uuid4().hex[:8]}",
        "DJANGO_SETTINGS_MODULE": "clubwhist.settings",
    }
    stop = threading.Event()
    with gunicorn(env, log=log) as (port, master):
        stored: dict[int, float] = {}
        sources = [a for a, count in groups_of(VIEWERS, PER_ADDRESS) for _ in range(count)]
        viewers = [Viewer(port, source, event.pk, stored, stop) for source in sources]
        for viewer in viewers:
            viewer.start()
        time.sleep(3.0)  # everyone connected
        pids = server_pids(master)
        cpu_before, wall_before = cpu_seconds(pids), time.perf_counter()
        ends = time.perf_counter() + WINDOW_SECONDS
        updates = 0
        while time.perf_counter() < ends:
            Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
            event.refresh_from_db()
            done = standings_refresh(event_id=event.pk, force=True)
            assert done is not None
            stored[done.version] = time.perf_counter()
            updates += 1
            time.sleep(UPDATE_SECONDS)
        time.sleep(2.0)  # the last parts on their way
        cpu = cpu_seconds(pids) - cpu_before
        wall = time.perf_counter() - wall_before
        delays = sorted(d for v in viewers for d in v.delays)
        errors = sum(v.errors for v in viewers)
        cores = cpu / wall
        print(
            f"\npart 2: {VIEWERS} live readers on gunicorn (2 ASGI workers) for "
            f"{wall:.0f} s, a new standings version every {UPDATE_SECONDS:.0f} s ({updates})"
        )
        print(
            f"  server CPU: {cpu:.1f} s in {wall:.1f} s = {cores:.2f} cores "
            f"(target under 1 core: {verdict(cores, 1.0)})"
        )
        if delays:
            p95 = delays[int(0.95 * (len(delays) - 1))]
            print(
                f"  stored -> reader has the new page part: {len(delays)} parts received, median "
                f"{statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"
            )
            firsts = sorted(d for v in viewers for d in v.firsts)
            first95 = firsts[int(0.95 * (len(firsts) - 1))]
            print(
                f"  stored -> the part starts reaching the reader: median "
                f"{statistics.median(firsts) * 1000:.0f} ms, p95 {first95 * 1000:.0f} ms "
                "(the rest is the 200 reader threads of this one Python process parsing it)"
            )
        problems: dict[str, int] = {}
        for viewer in viewers:
            for name, count in viewer.problems.items():
                problems[name] = problems.get(name, 0) + count
        print(f"  reader errors: {errors} {problems or ''}")
        stop.set()


def main() -> int:
    base = server_url()
    for problem in (postgres_problem(base), redis_problem(REDIS_URL)):
        if problem:
            loud(problem)
            return 0
    name = f"clubwhist_bench_{secrets.token_hex(4)}"
    admin_execute(base, f'CREATE DATABASE "{name}"')
    database_url = with_database(base, name)
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    try:
        import django

        django.setup()
        from django.test.utils import setup_test_environment

        setup_test_environment()
        migrate_fresh()
        event = make_event()
        part_pages(event)
        part_viewers(event, database_url)
    finally:
        from django.db import connections

        connections.close_all()
        admin_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print(f"database {name} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
