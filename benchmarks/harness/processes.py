"""The club night's processes on loopback: gunicorn, a Celery worker, a Redis of our own.

- `WebServer`: gunicorn (ASGI workers, as production runs it; gthread on request) on a
  loopback port, against whatever database and Redis its environment names; it can be
  stopped and started again on the same port;
- `CeleryWorker`: a real `celery worker --pool solo` on a queue of its own; stopped politely,
  or killed (SIGKILL) as a power cut would;
- `RedisServer`: a redis-server of our own on a free port, for tests that stop Redis (the
  shared one on 6379 is never touched).

Redis and Celery are imported where they are used: a benchmark that starts no worker need
not load them.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import IO

# What production sets that development does not: DEBUG off (a development server logs every
# SQL statement it runs and keeps them per request, which a 100-table load measured as a
# tenth of a web worker's time). A process's own `env` may still say otherwise.
AS_PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "clubwhist-harness-" + uuid.uuid4().hex}

ROOT = Path(__file__).resolve().parents[2]
VAR = ROOT / "var"


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


def answers_in_time(process: subprocess.Popen[bytes], port: int, timeout: float) -> bool:
    """Wait until a server just started answers on loopback `port`; False if its `process`
    exits or `timeout` seconds pass first. The service worker's script needs no database:
    its answer means Django is loaded (through a balancer: that a node is up behind it)."""
    deadline = time.monotonic() + timeout
    while http_status(port, "/t/sw.js") != 200:
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def wait_or_kill(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for a process told to stop; SIGKILL it if it lingers past `timeout` seconds."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def http_status(port: int, path: str, timeout: float = 2.0) -> int:
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
    """gunicorn with `workers` workers on a loopback port, with `env` over this process's
    environment: ASGI workers (clubwhist/server.py) as production runs them, or, with
    `threads`, WSGI gthread workers of that many threads (to compare the two layouts).
    `start` returns once the application answers; `stop` then `start` brings it back on the
    same port (a restart, as a deploy or a crash and its service manager would do)."""

    def __init__(
        self,
        env: Mapping[str, str],
        *,
        threads: int | None = None,
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

    def layout(self) -> list[str]:
        """The application and worker class arguments of gunicorn's command line."""
        if self.threads is None:
            return ["clubwhist.asgi:application", "--worker-class", "clubwhist.server.Worker"]
        return ["clubwhist.wsgi", "--worker-class", "gthread", "--threads", str(self.threads)]

    def describe(self) -> str:
        """The layout in words, for the benchmarks' figures."""
        if self.threads is None:
            pool = self.env.get("WEB_THREADS", os.environ.get("WEB_THREADS", "8"))
            return f"gunicorn, {self.workers} ASGI (uvicorn) workers x {pool} threads"
        return f"gunicorn, {self.workers} gthread workers x {self.threads} threads"

    def start(self, timeout: float = 60.0) -> None:
        if self.process is not None:
            return
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("gunicorn")),
                *self.layout(),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--graceful-timeout",
                "10",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env={**os.environ, **AS_PRODUCTION, **self.env},
            stdout=self.log or subprocess.DEVNULL,
            stderr=self.log or subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        if not answers_in_time(self.process, self.port, timeout):
            self.stop()
            raise RuntimeError(f"gunicorn did not start on port {self.port}")
        while len(children_of(self.process.pid)) < self.workers:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)

    def stop(self, *, graceful: bool = False) -> None:
        """SIGTERM lets requests in flight finish (up to the graceful timeout); the default
        stops at once (open live streams need not finish): SIGINT twice to the master and its
        workers, the second telling uvicorn not to wait for its connections. (gunicorn's own
        quick stop, SIGQUIT, reaches a uvicorn worker as a flag nothing reads: the master
        waited out the graceful timeout, 10 s, and killed it; every test's club night paid
        that at its end.) Killed if it lingers."""
        if self.process is None:
            return
        try:
            if graceful:
                os.killpg(self.process.pid, signal.SIGTERM)
            else:
                os.killpg(self.process.pid, signal.SIGINT)
                time.sleep(0.05)
                os.killpg(self.process.pid, signal.SIGINT)
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            self.process.wait(timeout=10)
        self.process = None

    def kill(self) -> None:
        """SIGKILL to the master and its workers at once: a node that died (power cut, kernel
        panic), its requests in flight cut off and its streams' slots never given back."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
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
        name: str | None = None,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
        beat: bool = False,
    ) -> None:
        self.queue = queue or f"clubwhist-test-{uuid.uuid4().hex[:8]}"
        self.name = f"{name or self.queue}@localhost"  # two workers of one queue: two names
        self.database_url = database_url
        self.redis_url = redis_url
        self.log_path = log_path or VAR / f"{name or self.queue}.log"
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
            **AS_PRODUCTION,
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
            wait_or_kill(self.process, timeout)
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
        wait_or_kill(self.process, 10)
        self.process = None
