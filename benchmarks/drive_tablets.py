"""A whole progressive drive played by tablets on loopback: 250 tables, 1,000 players, 24 hands.

    python -m benchmarks.drive_tablets [--tables 250] [--hands 24] [--play 6 18]

What runs, on loopback only:
- a PostgreSQL database of its own (dropped at the end), Redis as the shared cache and the
  drive's pub/sub channel, gunicorn with 2 ASGI workers as production and the club laptop run
  it (`benchmarks.harness.WebServer`); the per-link request limit is lifted;
- a drive of classic whist with 4 x TABLES players started with a fixed seed;
- one stream per table (`/d/<token>/stream/`, what `static/js/drive-table.js` keeps open), all
  in a process of their own (one event loop), which notes the moment each table's stream
  delivers a hand's state;
- one thread per tablet, doing what the table's page does: wait for its stream to announce
  the hand, let the players play (PLAY seconds at random), POST North-South's result (5 %
  sent twice: a retry after a lost answer, which must be answered 200, not stored again),
  wait 0.5 to 1.5 s, POST East-West's confirmation; while it waits for the move it asks for
  its state every 8 s, as the page does.

The load model: a hand takes 6 to 18 s by default. A real one takes 5 to 10 minutes and a
hall's tables finish within two or three minutes of each other, so results arrive about ten
times closer together than in a hall: some 30 requests a second for 250 tables with the
polls, a whole evening in about eight minutes. `--play 2 6` is a stress test (some 70 a
second in bursts of twice that), not a drive: its latencies are queueing on two cores.

It prints p50/p95/p99 of every kind of tablet request (target: p95 under 50 ms), errors, the
results sent against those stored (lost, duplicated; targets 0), and for each move the time
from the hand's last confirmation leaving its tablet to the last tablet's stream delivering
the next seat (target: under 1 s, the slowest of the moves). The engine's own share (one
hand's moves and totals for 1,000 players) is `python -m benchmarks.drives`. A service that
cannot be reached is reported loudly and the script exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.harness import ROOT, WebServer, percentile
from benchmarks.harness.readers import _body, _chunks, _headers, _request
from benchmarks.results_pipeline import loud, scratch_database

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
TARGET_P95_MS = 50.0
TARGET_MOVE_S = 1.0
POLL_SECONDS = 8.0
RETRY_SHARE = 0.05


# ---- the streams, in a process of their own -----------------------------------------------


async def _follow(port: int, table: int, token: str, ends: float) -> None:
    """One table's stream: print "table hand time" the first time each hand's state arrives;
    reopen the stream when the server ends it, until `ends`."""
    seen = 0
    while time.monotonic() < ends:
        try:
            status, reader, writer = await _request(
                "127.0.0.1", port, "127.0.0.1", f"/d/{token}/stream/"
            )
            headers = await _headers(reader)
            if status != 200:
                said = (await _body(reader, headers))[:200].decode(errors="replace")
                print(f"error {table} stream answered {status}: {said}", flush=True)
                writer.close()
                await asyncio.sleep(1.0)
                continue
            buffer = b""
            async for chunk in _chunks(reader):
                buffer += chunk
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    lines = message.decode().splitlines()
                    if "event: state" not in lines:
                        continue
                    data = "".join(line[6:] for line in lines if line.startswith("data: "))
                    hand = int(json.loads(data)["hand"])
                    if hand > seen:
                        seen = hand
                        print(f"state {table} {hand} {time.monotonic():.6f}", flush=True)
                if time.monotonic() >= ends:
                    break
            writer.close()
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
            print(f"error {table} {type(exc).__name__}", flush=True)
            await asyncio.sleep(0.5)


async def _follow_all(port: int, tokens: dict[int, str], seconds: float) -> None:
    ends = time.monotonic() + seconds
    await asyncio.gather(*(_follow(port, t, token, ends) for t, token in tokens.items()))


def streams_main(argv: list[str]) -> int:
    port, tokens_file, seconds = int(argv[0]), Path(argv[1]), float(argv[2])
    tokens = {int(t): token for t, token in json.loads(tokens_file.read_text()).items()}
    asyncio.run(_follow_all(port, tokens, seconds))
    return 0


class Streams(threading.Thread):
    """Reads the streams' process: when each table learnt of each hand."""

    def __init__(self, port: int, tokens: dict[int, str], seconds: float) -> None:
        super().__init__(daemon=True, name="streams")
        path = ROOT / "var" / f"drive-tokens-{uuid.uuid4().hex[:6]}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(tokens))
        self.path = path
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from benchmarks.drive_tablets import streams_main; "
                "sys.exit(streams_main(sys.argv[1:]))",
                str(port),
                str(path),
                str(seconds),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.known: dict[tuple[int, int], float] = {}
        self.events: dict[tuple[int, int], threading.Event] = defaultdict(threading.Event)
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            parts = line.split()
            if parts and parts[0] == "state":
                table, hand, at = int(parts[1]), int(parts[2]), float(parts[3])
                with self.lock:
                    self.known[table, hand] = at
                    event = self.events[table, hand]
                event.set()
            elif parts:
                self.errors.append(line.strip())

    def event(self, table: int, hand: int) -> threading.Event:
        with self.lock:
            return self.events[table, hand]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.path.unlink(missing_ok=True)


# ---- the tablets ---------------------------------------------------------------------------


class DriveTablet(threading.Thread):
    def __init__(
        self,
        port: int,
        table: int,
        token: str,
        hands: int,
        play: tuple[float, float],
        streams: Streams,
    ) -> None:
        super().__init__(daemon=True, name=f"drive-tablet-{table}")
        self.port, self.table, self.token, self.hands = port, table, token, hands
        self.play, self.streams = play, streams
        self.rng = random.Random(table)
        self.conn: http.client.HTTPConnection | None = None
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.sent: dict[int, dict[str, int]] = {}  # hand -> the entry sent
        self.confirm_sent: dict[int, float] = {}  # hand -> when its confirmation left (monotonic)
        self.retries_ok = 0
        self.finished = False

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        while True:
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                payload = None if body is None else json.dumps(body)
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, f"/api/d/{self.token}/{path}", payload, headers)
                answer = self.conn.getresponse()
                status, raw = answer.status, answer.read()
                self.times[kind].append(time.perf_counter() - started)
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if reused:
                    continue  # the server closed an idle keep-alive connection: resend at once
                self.errors.append(f"{kind}: no answer")
                return 0, None
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = None
            return status, data

    def wait_for(self, hand: int) -> bool:
        """Until the stream says the hand is on; a poll every POLL_SECONDS meanwhile."""
        event = self.streams.event(self.table, hand)
        deadline = time.monotonic() + 120
        while not event.wait(POLL_SECONDS):
            status, _ = self.call("state", "GET", "")
            if status != 200:
                self.errors.append(f"state: HTTP {status}")
            if time.monotonic() > deadline:
                self.errors.append(f"hand {hand}: the stream never announced it")
                return False
        return True

    def run(self) -> None:
        for hand in range(1, self.hands + 1):
            if not self.wait_for(hand):
                return
            time.sleep(self.rng.uniform(*self.play))
            entry = {"ns_tricks": self.rng.randint(0, 13)}
            body = {"hand": hand, "entry": entry}
            status, _ = self.call("enter", "POST", "enter/", body)
            if status != 201:
                self.errors.append(f"enter hand {hand}: HTTP {status}")
            self.sent[hand] = entry
            if self.rng.random() < RETRY_SHARE:
                status, _ = self.call("retry", "POST", "enter/", body)
                if status == 200:
                    self.retries_ok += 1
                else:
                    self.errors.append(f"retry hand {hand}: HTTP {status}, expected 200")
            time.sleep(self.rng.uniform(0.5, 1.5))
            self.confirm_sent[hand] = time.monotonic()
            status, _ = self.call("confirm", "POST", "confirm/", body)
            if status != 200:
                self.errors.append(f"confirm hand {hand}: HTTP {status}")
        self.finished = True


# ---- the run -------------------------------------------------------------------------------


def _setup(tables: int, hands: int) -> tuple[int, dict[int, str]]:
    from tournaments.drives.models import DriveTableAccess
    from tournaments.drives.services.drives import drive_create, drive_start
    from tournaments.kernel.clubs import club_get_or_create

    club = club_get_or_create(name="Benchmark drive club")
    drive = drive_create(
        club=club,
        name=f"{tables * 4}-player drive",
        settings={"hands": hands, "half_time": hands // 2, "scoring": "tricks"},
        players=[f"Player {n:04d}" for n in range(1, tables * 4 + 1)],
    )
    drive_start(drive=drive, seed=26)
    tokens = dict(DriveTableAccess.objects.filter(drive=drive).values_list("table", "token"))
    return drive.pk, tokens


def _report(drive_id: int, tablets: list[DriveTablet], streams: Streams, played: float) -> None:
    from tournaments.drives.models import Drive, DriveResult

    hands = tablets[0].hands
    print(
        f"\n{len(tablets)} tables, {len(tablets) * 4} players, {hands} hands: played in "
        f"{played:.0f} s; {sum(t.finished for t in tablets)} tablets finished"
    )
    everything: list[float] = []
    for kind in ("state", "enter", "retry", "confirm"):
        values = [v for t in tablets for v in t.times[kind]]
        everything += values
        if values:
            p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
            print(
                f"  {kind:<8} {len(values):>6} requests  p50 {p50:6.1f} ms  p95 {p95:6.1f} ms"
                f"  p99 {p99:6.1f} ms"
            )
    p95 = percentile(everything, 0.95) * 1000
    verdict = "met" if p95 < TARGET_P95_MS else "NOT met"
    print(
        f"  all      {len(everything):>6} requests, {len(everything) / played:.0f} a second, "
        f"p95 {p95:.1f} ms (target under {TARGET_P95_MS:.0f} ms: {verdict})"
    )
    errors = [e for t in tablets for e in t.errors] + streams.errors
    print(f"  errors: {len(errors)}{' ' + repr(errors[:3]) if errors else ''}")
    sent = {(t.table, hand): entry for t in tablets for hand, entry in t.sent.items()}
    stored = {
        (r.table, r.hand): (r.entry, r.status)
        for r in DriveResult.objects.filter(drive_id=drive_id)
    }
    lost = sum(1 for key, entry in sent.items() if stored.get(key, (None,))[0] != entry)
    extra = sum(1 for key in stored if key not in sent)
    unconfirmed = sum(1 for _, status in stored.values() if status != "confirmed")
    retries = sum(t.retries_ok for t in tablets)
    print(
        f"  results: {len(sent)} sent, {len(stored)} stored, lost {lost}, duplicated {extra}, "
        f"unconfirmed {unconfirmed}; {retries} sent twice answered as stored"
    )
    drive = Drive.objects.get(pk=drive_id)
    print(f"  the drive is at hand {drive.hand} of {hands} ({drive.status})")
    moves = []
    for hand in range(1, hands):
        last = max((t.confirm_sent.get(hand, 0.0) for t in tablets), default=0.0)
        known = [streams.known.get((t.table, hand + 1)) for t in tablets]
        if not last or any(k is None for k in known):
            print(f"  move after hand {hand}: not every tablet heard of it")
            continue
        moves.append(max(k for k in known if k is not None) - last)
    if moves:
        worst = max(moves)
        print(
            f"  last confirmation -> every tablet's stream has the next seat: median "
            f"{sorted(moves)[len(moves) // 2] * 1000:.0f} ms, slowest {worst * 1000:.0f} ms over "
            f"{len(moves)} moves (target under {TARGET_MOVE_S:.0f} s: "
            f"{'met' if worst < TARGET_MOVE_S and len(moves) == hands - 1 else 'NOT met'})"
        )


def run(tables: int, hands: int, play: tuple[float, float], database_url: str) -> None:
    drive_id, tokens = _setup(tables, hands)
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "TABLET_THROTTLE": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    seconds = hands * (play[1] + 30) + 120
    with (
        (ROOT / "var" / "drive-tablets.log").open("w") as log,
        WebServer(env, log=log) as web,
    ):
        streams = Streams(web.port, tokens, seconds)
        streams.start()
        opened = time.monotonic() + 60
        for table in tokens:
            if not streams.event(table, 1).wait(max(0.1, opened - time.monotonic())):
                loud(
                    f"table {table}'s stream did not open within a minute "
                    f"({len(streams.errors)} errors, first: {streams.errors[:3]})"
                )
                streams.stop()
                return
        tablets = [
            DriveTablet(web.port, t, token, hands, play, streams) for t, token in tokens.items()
        ]
        started = time.monotonic()
        for tablet in tablets:
            tablet.start()
        for tablet in tablets:
            tablet.join(timeout=seconds)
        played = time.monotonic() - started
        time.sleep(0.5)
        streams.stop()
        _report(drive_id, tablets, streams, played)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=250, help="tables (4 players each), 2 to 300")
    parser.add_argument("--hands", type=int, default=24, help="hands, 2 to 30")
    parser.add_argument(
        "--play",
        type=float,
        nargs=2,
        default=(6.0, 18.0),
        metavar=("LEAST", "MOST"),
        help="seconds a hand takes to play, at random between the two (default 6 18)",
    )
    args = parser.parse_args(argv)
    if not 2 <= args.tables <= 300 or not 2 <= args.hands <= 30:
        parser.error("give 2 to 300 tables and 2 to 30 hands. Nothing was run.")
    with scratch_database(REDIS_URL) as database_url:
        if database_url is None:
            return 0
        run(args.tables, args.hands, (args.play[0], args.play[1]), database_url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
