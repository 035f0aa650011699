"""A club night on loopback: the real processes and simulated tablets.

Shared by the tablets' load benchmark (`benchmarks/tablets_load.py`, which imports it as a
sibling module) and the load and fault tests (`tests/web/test_club_night_load.py`,
`tests/web/test_faults.py`, which import `benchmarks._club_night`), so the benchmark's figures
and the tests' verdicts come from the same tablets driving the same processes:

- `WebServer`: gunicorn (gthread workers) on a loopback port, against whatever database and
  Redis its environment names; it can be stopped and started again on the same port;
- `CeleryWorker`: a real `celery worker --pool solo` on a queue of its own; stopped politely,
  or killed (SIGKILL) as a power cut would;
- `RedisServer`: a redis-server of our own on a free port, for tests that stop Redis (the
  shared one on 6379 is never touched);
- `Tablet`: one table's tablet, a thread doing what the table page does through the tablet API
  (`/api/t/<token>/...`): read the state, send each board's result with a fresh idempotency
  key, sometimes send it again with the same key, confirm, wait for the next round. A patient
  tablet keeps retrying a request that got no answer or a 5xx with the same body (and key), as
  the page's offline queue does;
- `club_events`, `tally`, `wait_converged`, `rescore_mismatch`: the events the tablets play
  and what the run left behind, counted (sent, stored, lost, duplicated) and checked against a
  from-scratch rescore.

Nothing here asserts: the benchmark reports what it finds and the tests judge it. Only the
standard library and the project's installed packages are imported, so both ways of importing
the module work without touching `sys.path`.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
VAR = ROOT / "var"

#: The most tablets one run may simulate: each is a thread here and a keep-alive connection
#: to gunicorn, and 300 already asks far more of a 2-core machine than a club night does.
MAX_TABLETS = 300
#: Tables of one event (the movements allow 120): more tablets play several events at once,
#: as several clubs would on one server.
TABLES_PER_EVENT = 100

POLL = 2.0  # seconds between state requests while a paced tablet waits
PLAY = (3.0, 8.0)  # seconds to play a board (paced)
CONFIRM = (1.0, 3.0)  # seconds before East-West confirm (paced)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children_of(pid: int) -> list[int]:
    """The direct children of a process, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def _http_status(port: int, path: str, timeout: float = 2.0) -> int:
    """The status of one GET on loopback, 0 when nothing answers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        conn.close()


class WebServer:
    """gunicorn with `workers` gthread workers on a loopback port, with `env` over this
    process's environment. `start` returns once the application answers; `stop` then `start`
    brings it back on the same port (a restart, as a deploy or a crash and its service manager
    would do)."""

    def __init__(
        self,
        env: Mapping[str, str],
        *,
        threads: int = 16,
        workers: int = 2,
        port: int | None = None,
        log: IO[str] | None = None,
    ) -> None:
        self.env = dict(env)
        self.threads, self.workers = threads, workers
        self.port = port or free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        if self.process is not None:
            return
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("gunicorn")),
                "clubwhist.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(self.threads),
                "--graceful-timeout",
                "10",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=self.log or subprocess.DEVNULL,
            stderr=self.log or subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        # The service worker's script needs no database: its answer means Django is loaded.
        while _http_status(self.port, "/t/sw.js") != 200:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn did not start on port {self.port}")
            time.sleep(0.1)
        while len(children_of(self.process.pid)) < self.workers:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)

    def stop(self, *, graceful: bool = False) -> None:
        """SIGTERM lets requests in flight finish (up to the graceful timeout); the default,
        SIGQUIT, stops at once (open live streams need not finish). Killed if it lingers."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM if graceful else signal.SIGQUIT)
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            self.process.wait(timeout=10)
        self.process = None

    def pids(self) -> list[int]:
        """The master and its workers (for their CPU time in /proc)."""
        if self.process is None:
            return []
        return [self.process.pid, *children_of(self.process.pid)]

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CeleryWorker:
    """A `celery worker --pool solo` process on a queue of its own (so no other worker takes
    its tasks), against the given database and Redis. `beat=True` runs the periodic sweep in
    it too, as production's `--beat` does. `supervise()` starts it again whenever it exits by
    itself, a second later, as production's service manager (systemd `Restart=always`) does.
    """

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        queue: str | None = None,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
        beat: bool = False,
    ) -> None:
        self.queue = queue or f"clubwhist-test-{uuid.uuid4().hex[:8]}"
        self.name = f"{self.queue}@localhost"
        self.database_url = database_url
        self.redis_url = redis_url
        self.log_path = log_path or VAR / f"{self.queue}.log"
        self.env = dict(env or {})
        self.beat = beat
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0  # times the supervisor started it again after it exited by itself
        self._supervised = threading.Event()
        self._lock = threading.Lock()

    @property
    def app_name(self) -> str:
        """Its PostgreSQL application_name (`pg_stat_activity` tells its backends apart)."""
        return f"worker-{self.queue}"[:63]

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def start(self, timeout: float = 60.0) -> None:
        """Start and return once the worker answers a ping (it is then consuming)."""
        with self._lock:
            if self.process is not None:
                return
            self._spawn()
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                raise RuntimeError(f"worker exited at start; see {self.log_path}")
            if self.answers_ping():
                return
        self.stop()
        raise RuntimeError(f"worker did not answer a ping within {timeout}s; see {self.log_path}")

    def supervise(self) -> None:
        """Start it again a second after it exits by itself (not after `stop` or `kill`)."""
        if self._supervised.is_set():
            return
        self._supervised.set()

        def watch() -> None:
            while self._supervised.is_set():
                with self._lock:
                    process = self.process
                    if process is not None and process.poll() is not None:
                        self.process = None
                        time.sleep(1.0)
                        if self._supervised.is_set():
                            self.restarts += 1
                            self._spawn()
                time.sleep(0.2)

        threading.Thread(target=watch, daemon=True, name=f"supervise-{self.queue}").start()

    def _spawn(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CELERY_QUEUE": self.queue,
            "DJANGO_SETTINGS_MODULE": "clubwhist.settings",
            "PGAPPNAME": self.app_name,
            **self.env,
        }
        command = [sys.executable, "-m", "celery", "-A", "clubwhist", "worker"]
        command += ["--pool", "solo", "--loglevel", "INFO", "-Q", self.queue, "-n", self.name]
        command += ["--without-gossip", "--without-mingle"]
        if self.beat:
            command += ["--beat", "--schedule", str(self.log_path.with_suffix(".beat"))]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    def answers_ping(self, timeout: float = 0.5) -> bool:
        """Asked through a Celery app of our own on this worker's Redis (not necessarily the
        one this process's settings name)."""
        from celery import Celery

        control = Celery("club-night-control", broker=self.redis_url, set_as_current=False)
        try:
            return bool(control.control.ping(destination=[self.name], timeout=timeout))
        except Exception:  # the broker itself is unreachable: no answer
            return False
        finally:
            control.close()

    def stop(self, timeout: float = 20.0) -> None:
        """A warm shutdown (SIGTERM: the task in hand finishes), killed if it lingers."""
        self._supervised.clear()
        with self._lock:
            if self.process is None:
                return
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, the task in hand is abandoned mid-way."""
        self._supervised.clear()
        with self._lock:
            if self.process is None:
                return
            self.process.kill()
            self.process.wait()
            self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def purge(self) -> None:
        """Drop the tasks waiting in the queue (its Redis lists, one per priority step),
        keeping its bindings: what a worker that died had taken ahead is lost the same way."""
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=3, socket_timeout=3)
        client.delete(self.queue, *(f"{self.queue}\x06\x16{step}" for step in (3, 6, 9)))

    def forget_queue(self) -> None:
        """Remove the queue's keys (and any task left in it) from Redis: it was ours only."""
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=3, socket_timeout=3)
        q = self.queue
        client.delete(q, f"_kombu.binding.{q}", f"_kombu.binding_permanent.{q}")
        for beat_file in self.log_path.parent.glob(f"{self.log_path.stem}.beat*"):
            beat_file.unlink()


class RedisServer:
    """A redis-server of our own on a free loopback port, configured as the tests are told to
    (`--save "" --appendonly no`: no snapshots of its own). `stop(save=True)` writes a
    snapshot on the way down, which the next `start` loads: a production Redis that keeps its
    data across a restart, stale keys included."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10.0) -> None:
        if self.process is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
                "--dbfilename",
                "dump.rdb",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self, *, save: bool = False) -> None:
        if self.process is None:
            return
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # It closes the connection on its way down: that is the expected answer (not to be
        # retried, as redis-py would by default, against a server going away).
        client = redis.Redis(port=self.port, socket_timeout=5, retry=Retry(NoBackoff(), 0))
        with contextlib.suppress(redis.ConnectionError):
            client.shutdown(save=save, nosave=not save)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


# --------------------------------------------------------------------------- tablets


@dataclass
class Sent:
    """One result a tablet sent: its key and every answer it got (0: none)."""

    key: str
    board: int
    entry: dict[str, Any]
    answers: list[int] = field(default_factory=list)
    result_id: int | None = None


def _json(data: bytes) -> Any:
    try:
        return json.loads(data) if data else None
    except ValueError:
        return None  # an error page


class Tablet(threading.Thread):
    """One table's tablet: the requests the table page makes, paced like players or flat out.

    `patience` is how long (seconds) a request that got no answer, a 5xx or a 429 is sent
    again with the same body, as the page's queue does; 0 is the benchmark's way: anything
    but an answer below 500 is an error. Either way a request that finds its keep-alive
    connection closed by the server is sent again at once on a new one, as browsers do.
    `before_round(round)` is called once before the tablet plays each round (a test may hold
    the tablets there). A result found waiting for East-West that this tablet sent (its
    confirmation got no answer) is confirmed again, so a tablet picks up where it left off.
    """

    def __init__(
        self,
        port: int,
        token: str,
        *,
        ends: float,
        seed: int,
        paced: bool,
        patience: float = 0.0,
        retry_share: float = 0.05,
        before_round: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(daemon=True, name=f"tablet-{token[:6]}")
        self.port, self.token, self.ends, self.paced = port, token, ends, paced
        self.patience, self.retry_share, self.before_round = patience, retry_share, before_round
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = {"state": [], "submit": [], "retry": [], "confirm": []}
        self.answers: Counter[tuple[str, int]] = Counter()  # (kind, status) of every attempt
        self.errors: list[str] = []
        self.sent: dict[str, Sent] = {}
        self.retries_checked = 0  # results sent twice on purpose and answered as stored
        self.confirmed_at = 0.0
        self.finished = False
        self.conn: http.client.HTTPConnection | None = None

    @property
    def keys(self) -> set[str]:
        return set(self.sent)

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        deadline = time.perf_counter() + self.patience
        pause = 0.05
        while True:
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                payload = None if body is None else json.dumps(body)
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, f"/api/t/{self.token}/{path}", payload, headers)
                answer = self.conn.getresponse()
                status, data = answer.status, _json(answer.read())
                self.times[kind].append(time.perf_counter() - started)
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if reused:
                    # The server closed the idle keep-alive connection (gunicorn does after
                    # 2 s) as the request left: what a browser resends on a new connection at
                    # once, without counting it a failure.
                    continue
                status, data = 0, None  # no answer at all: the server is away
            self.answers[kind, status] += 1
            if status and status < 500 and status != 429:
                return status, data
            if self.patience and time.perf_counter() < deadline:
                time.sleep(pause)
                pause = min(pause * 2, 0.5)
                continue
            self.errors.append(f"{kind}: {'no answer' if status == 0 else f'HTTP {status}'}")
            return status, data

    def pause(self, seconds: float | tuple[float, float]) -> None:
        """Players' time: nothing in flat-out mode."""
        if self.paced:
            wait = seconds if isinstance(seconds, float) else self.rng.uniform(*seconds)
            time.sleep(wait)

    def run(self) -> None:
        held: set[int] = set()
        self.pause((0.0, POLL))  # tablets do not all start on the same millisecond
        while time.perf_counter() < self.ends:
            status, state = self.call("state", "GET", "")
            if status != 200:
                self.errors.append(f"state: HTTP {status}")
                return
            if state["finished"]:
                self.finished = True
                return
            current = state["current"]
            if self.before_round is not None and current["round"] not in held:
                held.add(current["round"])
                self.before_round(current["round"])
                continue  # the room may have moved on meanwhile: read the state again
            if current["sit_out"]:
                time.sleep(POLL if self.paced else 0.2)
                continue
            for board in current["boards"]:
                stored = board["result"]
                if stored is None:
                    self.play(board["number"])
                elif board["state"] == "waiting" and stored["key"] in self.sent:
                    self.confirm(self.sent[stored["key"]], stored["id"])
            round_now = current["round"]
            while time.perf_counter() < self.ends:  # the others at this table's next round
                status, state = self.call("state", "GET", "")
                if status != 200 or state["finished"] or state["current"]["round"] != round_now:
                    break
                if any(self.unfinished(b) for b in state["current"]["boards"]):
                    break  # a result or confirmation of ours did not arrive: send it again
                time.sleep(POLL if self.paced else 0.1)

    def unfinished(self, board: dict[str, Any]) -> bool:
        stored = board["result"]
        return stored is None or (board["state"] == "waiting" and stored["key"] in self.sent)

    def play(self, number: int) -> None:
        self.pause(PLAY)
        sent = Sent(uuid.uuid4().hex, number, {"ns_tricks": self.rng.randint(3, 10)})
        body = {"board": number, "entry": sent.entry, "idempotency_key": sent.key}
        self.sent[sent.key] = sent
        status, made = self.call("submit", "POST", "results/", body)
        sent.answers.append(status)
        if status not in {200, 201}:
            self.errors.append(f"submit: HTTP {status} {made}")
            return
        sent.result_id = made["id"]
        if self.rng.random() < self.retry_share:
            again, same = self.call("retry", "POST", "results/", body)
            sent.answers.append(again)
            if again != 200 or same["id"] != made["id"]:
                self.errors.append(f"retry: HTTP {again}, expected 200 and the same result")
            else:
                self.retries_checked += 1
        self.pause(CONFIRM)
        self.confirm(sent, made["id"])

    def confirm(self, sent: Sent, result_id: int) -> None:
        status, _ = self.call("confirm", "POST", f"results/{result_id}/confirm/")
        if status != 200:
            self.errors.append(f"confirm: HTTP {status}")
        self.confirmed_at = time.perf_counter()


def play(
    port: int,
    tokens: list[str],
    *,
    paced: bool,
    time_limit: float,
    patience: float = 0.0,
    retry_share: float = 0.05,
    before_round: Callable[[int], None] | None = None,
    start: bool = True,
) -> list[Tablet]:
    """One tablet per token, started (unless `start=False`); join them with `finish`."""
    if len(tokens) > MAX_TABLETS:
        raise ValueError(f"{len(tokens)} tablets: at most {MAX_TABLETS} on loopback")
    ends = time.perf_counter() + time_limit
    tablets = [
        Tablet(
            port,
            token,
            ends=ends,
            seed=i + 1,
            paced=paced,
            patience=patience,
            retry_share=retry_share,
            before_round=before_round,
        )
        for i, token in enumerate(tokens)
    ]
    if start:
        for tablet in tablets:
            tablet.start()
    return tablets


def finish(tablets: Iterable[Tablet], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for tablet in tablets:
        tablet.join(max(0.0, deadline - time.monotonic()))


def warm_up(port: int, tokens: list[str]) -> None:
    """A server is up long before the first tablet connects (the director set the event up
    on it): load each worker's code and connections before the clock starts. Not timed."""
    for token in tokens[:8] * 2:
        _http_status(port, f"/api/t/{token}/", timeout=30)


# --------------------------------------------------------------------------- the events


def club_events(tablets: int, *, rounds: int = 3, boards_per_round: int = 2) -> list[Any]:
    """Started classic whist Mitchells with one table per tablet (several events above
    TABLES_PER_EVENT tables), each with its tablet links made."""
    from tournaments.services.events import club_get_or_create, event_create, event_start
    from tournaments.services.tablets import table_links_ensure

    if not 1 <= tablets <= MAX_TABLETS:
        raise ValueError(f"{tablets} tablets: between 1 and {MAX_TABLETS}")
    club = club_get_or_create(name="Club night")
    events = []
    left = tablets
    while left:
        tables = min(left, TABLES_PER_EVENT)
        left -= tables
        event = event_create(
            club=club,
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
    from tournaments.models import TableAccess

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
    from tournaments.models import Result

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
    from tournaments.models import Event, Standings

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
    from tournaments.models import Event, Standings
    from tournaments.services.scoring import standings_compute

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
