"""The club night on loopback that the load and fault tests and the benchmarks share.

Real processes (`processes`: gunicorn, a Celery worker, a Redis of our own), simulated tablets
(`tablets`) and what a run left behind, counted (`tallies`), so the benchmarks' figures and
the tests' verdicts come from the same tablets driving the same processes; plus gunicorn as a
`with` block (`serving`), the scored session and the timer several benchmarks measure with
(`sessions`). Tests and benchmarks
import it one way, `from benchmarks.harness import ...`; nothing here asserts.
"""

from benchmarks.harness.processes import (
    ROOT,
    VAR,
    CeleryWorker,
    RedisServer,
    WebServer,
    children_of,
    free_port,
    http_status,
)
from benchmarks.harness.readers import (
    MAX_READERS,
    ReadersProcess,
    ReaderTally,
    crowd,
    groups_of,
)
from benchmarks.harness.serving import gunicorn, server_pids
from benchmarks.harness.sessions import median_ms, played_event
from benchmarks.harness.tablets import (
    MAX_TABLETS,
    Sent,
    Tablet,
    finish,
    latencies,
    percentile,
    play,
    warm_up,
)
from benchmarks.harness.tallies import (
    TABLES_PER_EVENT,
    Tally,
    club_events,
    converged,
    rescore_mismatch,
    tally,
    tokens_of,
    wait_converged,
)

__all__ = [
    "MAX_READERS",
    "MAX_TABLETS",
    "ROOT",
    "TABLES_PER_EVENT",
    "VAR",
    "CeleryWorker",
    "ReaderTally",
    "ReadersProcess",
    "RedisServer",
    "Sent",
    "Tablet",
    "Tally",
    "WebServer",
    "children_of",
    "club_events",
    "converged",
    "crowd",
    "finish",
    "free_port",
    "groups_of",
    "gunicorn",
    "http_status",
    "latencies",
    "median_ms",
    "percentile",
    "play",
    "played_event",
    "rescore_mismatch",
    "server_pids",
    "tally",
    "tokens_of",
    "wait_converged",
    "warm_up",
]
