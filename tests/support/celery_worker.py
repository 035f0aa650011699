"""A real Celery worker process for tests, started and stopped by a fixture.

The worker listens on a queue of its own so a developer's running worker never steals test
tasks, and uses the test database so tasks see what the test committed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from clubwhist.celery import app

ROOT = Path(__file__).resolve().parents[2]


class WorkerProcess:
    def __init__(self, *, database_url: str, redis_url: str) -> None:
        self.queue = f"clubwhist-test-{uuid.uuid4().hex[:8]}"
        self.name = f"{self.queue}@localhost"
        self.database_url = database_url
        self.redis_url = redis_url
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = ROOT / "var" / f"{self.queue}.log"

    def start(self, timeout: float = 60.0) -> None:
        if self.process is not None:
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            CELERY_QUEUE=self.queue,
            DJANGO_SETTINGS_MODULE="clubwhist.settings",
        )
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clubwhist",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "INFO",
                "-Q",
                self.queue,
                "-n",
                self.name,
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited at start; see {self.log_path}")
            if app.control.ping(destination=[self.name], timeout=0.5):
                return
        self.stop()
        raise RuntimeError(f"worker did not answer a ping within {timeout}s; see {self.log_path}")

    def stop(self, timeout: float = 20.0) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
