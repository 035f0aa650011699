"""HAProxy (Debian's package) in front of several web nodes on loopback, as a hosted
installation runs (docs/operations/hosting.md has the production configuration this follows).

Each request goes to the next node that is up (round robin); a node that refuses the
connection (killed, restarting) is skipped for the next at once (`retry-on conn-failure` with
`option redispatch`) and marked down by its health check (`/health`, every second) until
it answers again. Every answer carries `X-Served-By` (the node's name), so a test can tell
which node served what. The client's address is passed on in X-Forwarded-For: the nodes run
with TRUSTED_PROXY_COUNT=1.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

from benchmarks.harness.processes import VAR, answers_in_time, free_port, wait_or_kill
from benchmarks.harness.tablets import SERVED_BY


def haproxy_path() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


def configuration(port: int, nodes: dict[str, int]) -> str:
    """The balancer's configuration: `nodes` by name and loopback port."""
    servers = "\n".join(
        f"    server {name} 127.0.0.1:{node_port} check inter 1s fall 2 rise 2"
        for name, node_port in nodes.items()
    )
    return f"""global
    maxconn 6000

defaults
    mode http
    option forwardfor
    option redispatch 1
    retries 3
    retry-on conn-failure empty-response
    timeout connect 1s
    timeout client 60s
    # a live stream sends a comment every 15 s at the least: 30 s of silence is a dead node
    timeout server 30s
    timeout http-keep-alive 5s
    timeout queue 10s
    # /health asks the database and Redis: a busy node may take a moment to say so
    timeout check 5s

frontend clubwhist
    bind 127.0.0.1:{port}
    maxconn 6000
    default_backend web

backend web
    balance roundrobin
    option httpchk GET /health
    http-check expect status 200
    http-response set-header {SERVED_BY} %s
{servers}
"""


class Balancer:
    """haproxy on a free loopback port in front of `nodes` ({name: port})."""

    def __init__(self, nodes: dict[str, int], *, name: str = "balancer") -> None:
        found = haproxy_path()
        if found is None:
            raise RuntimeError("needs HAProxy (apt-get install haproxy)")
        self.binary = found
        self.nodes = dict(nodes)
        self.port = free_port()
        self.config = VAR / f"{name}-{self.port}.cfg"
        self.log = VAR / f"{name}-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20.0) -> None:
        VAR.mkdir(parents=True, exist_ok=True)
        self.config.write_text(configuration(self.port, self.nodes))
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [self.binary, "-db", "-f", str(self.config)], stdout=log, stderr=log
            )
        if not answers_in_time(self.process, self.port, timeout):
            self.stop()
            raise RuntimeError(f"haproxy did not start; see {self.log}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        wait_or_kill(self.process, 10)
        self.process = None
        self.config.unlink(missing_ok=True)

    def __enter__(self) -> Balancer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
