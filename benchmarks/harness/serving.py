"""gunicorn on loopback as a `with` block, for the benchmarks that measure over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from benchmarks.harness.processes import WebServer, children_of


@contextmanager
def gunicorn(
    env: dict[str, str], *, log: IO[str], threads: int | None = None
) -> Iterator[tuple[int, int]]:
    """gunicorn with 2 workers on a free loopback port until the block ends (yields the port and
    the master's pid): ASGI workers as production runs them, or gthread workers of `threads`
    threads; stopped at once (open streams need not finish: `WebServer.stop`), killed if it
    lingers."""
    with WebServer(env, threads=threads, log=log) as server:
        assert server.process is not None
        yield server.port, server.process.pid


def server_pids(port_owner: int) -> list[int]:
    """A process and its children, for reading their CPU time from /proc."""
    return [port_owner, *children_of(port_owner)]
