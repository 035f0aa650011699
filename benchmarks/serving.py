"""A gunicorn server on loopback for the benchmarks that measure over HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def gunicorn(env: dict[str, str], *, threads: int, log: IO[str]) -> Iterator[tuple[int, int]]:
    """gunicorn with 2 gthread workers on a free loopback port until the block ends (yields the
    port and the master's pid); stopped at once (SIGQUIT: open streams need not finish),
    killed if it lingers."""
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "clubwhist.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        time.sleep(1.0)  # both workers booted
        yield port, server.pid
    finally:
        os.killpg(server.pid, signal.SIGQUIT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


def server_pids(port_owner: int) -> list[int]:
    """A process and its children, for reading their CPU time from /proc."""
    found = [port_owner]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(stat[1]) == port_owner:
                found.append(int(entry.name))
    return found
