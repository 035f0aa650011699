"""A county's installation on loopback: two web nodes behind HAProxy, two Celery workers, one
PostgreSQL and one Redis, with tablets and live readers going through the balancer, and one
node killed in the middle of a round and started again.

Each node is a gunicorn of its own on its own port (as a machine of its own would be: nothing
in memory is shared between them), with one ASGI worker; both Celery workers take the same
queue. The tablets (one per table, of several clubs' events) play paced like players and keep
sending a request that got no answer, as the page's queue does; the readers follow the first
event's results and open a cut stream again, as EventSource does. When `kill_share` of the
results are stored, node "a" is killed (SIGKILL: no goodbye, streams cut, slots never given
back), and started again `down` seconds later.

`two_node_evening` returns what happened, counted; the test (tests/web/load/test_two_web_nodes.py)
judges it and the benchmark (benchmarks/two_nodes.py) prints it. Nothing here asserts.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from benchmarks.harness.balancer import Balancer
from benchmarks.harness.processes import VAR, CeleryWorker, WebServer
from benchmarks.harness.readers import ReadersProcess, ReaderTally, groups_of
from benchmarks.harness.tablets import Tablet, finish, play, warm_up
from benchmarks.harness.tallies import (
    Tally,
    club_events,
    rescore_mismatch,
    tally,
    tokens_of,
    wait_converged,
)

NODES = ("a", "b")


@dataclass
class TwoNodeRun:
    """What a two-node evening left behind."""

    tablets: list[Tablet]
    readers: ReaderTally
    counted: Tally
    results_expected: int
    killed_at: float = 0.0  # perf_counter when node "a" was killed (0: never)
    back_at: float = 0.0  # when it answered again
    converged_after: float | None = None  # seconds after the last tablet finished
    mismatches: list[str] = field(default_factory=list)  # stored standings against a rescore
    worker_tasks: dict[str, int] = field(default_factory=dict)  # tasks each worker ran
    # A result confirmed through node "a" reached a reader's stream on node "b" this many
    # seconds later (None: it never did), before the evening began (`cross_node_probe`).
    across_nodes: float | None = None

    @property
    def finished(self) -> int:
        return sum(1 for t in self.tablets if t.finished)

    @property
    def errors(self) -> list[str]:
        return [e for t in self.tablets for e in t.errors]

    def served(self, start: float, end: float) -> Counter[str]:
        """Answers by node for calls first sent between `start` and `end`."""
        return Counter(node for t in self.tablets for at, _, node in t.calls if start <= at < end)

    def waits(self) -> list[float]:
        """Every call's wait until its answer, retries included, in seconds."""
        return [waited for t in self.tablets for _, waited, _ in t.calls]

    def failover_gap(self) -> float:
        """The longest a tablet waited for an answer to a call sent while node "a" was down
        or about to be found down (from 2 s before the kill until it answered again)."""
        if not self.killed_at:
            return 0.0
        waits = [
            waited
            for t in self.tablets
            for at, waited, _ in t.calls
            if self.killed_at - 2.0 <= at <= self.back_at
        ]
        return max(waits, default=0.0)

    def tablets_through_both(self) -> int:
        """Tablets that were answered by both nodes over the evening (a node's tablets are
        not its own: the balancer sends each request to the next node up)."""
        return sum(1 for t in self.tablets if {node for _, _, node in t.calls} >= set(NODES))


def _stored(event_ids: list[int]) -> int:
    from tournaments.events.models import Result

    return Result.objects.filter(section__event_id__in=event_ids).count()


def two_node_evening(
    *,
    database_url: str,
    redis_url: str,
    tablets: int,
    readers: int,
    rounds: int,
    boards_per_round: int,
    tables_per_event: int = 100,
    kill_share: float = 0.4,
    down: float = 3.0,
    seconds: float = 240.0,
    readers_per_address: int = 25,
    greedy: int = 0,
    pace: float = 1.0,
) -> TwoNodeRun:
    """Play the evening; see the module's docstring. `seconds` bounds the tablets' play;
    `pace` scales the players' times (`benchmarks.harness.tablets.Tablet`).
    `greedy` more readers come from one address of their own (127.0.0.250), more than its
    cap (LIVE_STREAMS_PER_ADDRESS, 50) across both nodes."""
    from tournaments.events.models import Event
    from tournaments.events.views.live import BUSY_POLL_SECONDS

    events = club_events(
        tablets, rounds=rounds, boards_per_round=boards_per_round, tables_per_event=tables_per_event
    )
    Event.objects.filter(pk__in=[e.pk for e in events]).update(live_public=True)
    event_ids = [e.pk for e in events]
    tokens = tokens_of(events)
    expected = tablets * rounds * boards_per_round
    queue = f"clubwhist-test-{uuid.uuid4().hex[:8]}"
    # As docs/operations/hosting.md runs them: two workers on one queue, beat in the first.
    workers = [
        CeleryWorker(
            database_url=database_url,
            redis_url=redis_url,
            queue=queue,
            name=f"{queue}-{n}",
            beat=n == NODES[0],
        )
        for n in NODES
    ]
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
        "TABLET_THROTTLE": "100000/min",
        "LOG_LEVEL": "WARNING",
        "TRUSTED_PROXY_COUNT": "1",  # the balancer's X-Forwarded-For names the client
    }
    logs = {n: (VAR / f"{queue}-node-{n}.log").open("w") for n in NODES}
    nodes = {n: WebServer(env, workers=1, log=logs[n]) for n in NODES}
    balancer = Balancer({n: node.port for n, node in nodes.items()}, name=f"{queue}-balancer")
    run: TwoNodeRun | None = None
    try:
        for worker in workers:
            worker.start()
        for node in nodes.values():
            node.start()
        balancer.start()
        warm_up(balancer.port, tokens)
        across = cross_node_probe(nodes["a"].port, nodes["b"].port)
        following = (
            ReadersProcess(
                balancer.port,
                event_ids[0],
                [
                    *groups_of(readers, readers_per_address),
                    *([("127.0.0.250", greedy)] if greedy else []),
                ],
                seconds + 20,
                BUSY_POLL_SECONDS,
                reconnect=True,
            )
            if readers or greedy
            else contextlib.nullcontext(None)
        )
        with following as crowd:
            time.sleep(3.0)  # the readers are there before the first result
            players = play(
                balancer.port, tokens, paced=True, pace=pace, time_limit=seconds, patience=60.0
            )
            marks = {"killed": 0.0, "back": 0.0}
            killer = threading.Thread(
                target=_kill_mid_round,
                args=(nodes["a"], event_ids, int(expected * kill_share), down, marks, players),
                daemon=True,
            )
            killer.start()
            finish(players, seconds + 30)
            killer.join(60)
            tallied = ReaderTally()
            if crowd is not None:
                crowd.stop()
                tallied = crowd.tally()
        run = TwoNodeRun(
            tablets=players,
            readers=tallied,
            counted=tally(players, events),
            results_expected=expected,
            killed_at=marks["killed"],
            back_at=marks["back"],
            across_nodes=across,
        )
        run.converged_after = wait_converged(event_ids, timeout=60)
        run.mismatches = [m for e in event_ids if (m := rescore_mismatch(e)) is not None]
        run.worker_tasks = {w.name: w.log().count("succeeded in") for w in workers}
        return run
    finally:
        balancer.stop()
        for node in nodes.values():
            node.stop()
        for worker in workers:
            worker.stop()
        workers[0].forget_queue()
        for log in logs.values():
            log.close()


def _kill_mid_round(
    node: WebServer,
    event_ids: list[int],
    at: int,
    down: float,
    marks: dict[str, float],
    players: list[Any],
) -> None:
    """Kill `node` once `at` results are stored, start it again `down` seconds later."""
    from django.db import connection

    try:
        while _stored(event_ids) < at:
            if not any(t.is_alive() for t in players):
                return
            time.sleep(0.2)
        node.kill()
        marks["killed"] = time.perf_counter()
        time.sleep(down)
        node.start()
        marks["back"] = time.perf_counter()
    finally:
        connection.close()


def cross_node_probe(port_a: int, port_b: int, timeout: float = 30.0) -> float | None:
    """A reader follows a small event's results on node B; its first table's result is sent
    and confirmed through node A: the seconds until B's stream carries the new standings
    (None if it never did within `timeout`). An event of its own (four tables), so the
    evening's tablets and tallies never see it."""
    from tournaments.events.models import Event

    (event,) = club_events(4, rounds=1, boards_per_round=1, tables_per_event=4)
    Event.objects.filter(pk=event.pk).update(live_public=True, name="Across the nodes")
    token = tokens_of([event])[0]
    page = f"/results/{event.pk}/"
    stream = http.client.HTTPConnection("127.0.0.1", port_b, timeout=timeout)
    writer = http.client.HTTPConnection("127.0.0.1", port_a, timeout=timeout)
    try:
        stream.request("GET", f"/results/{event.pk}/stream?page={page}")
        answer = stream.getresponse()
        if answer.status != 200:
            return None
        answer.readline()  # the stream's first event: the version it starts from
        writer.request("GET", f"/api/t/{token}/")
        state = json.loads(writer.getresponse().read())
        board = state["current"]["boards"][0]["number"]
        body = {"board": board, "entry": {"ns_tricks": 7}, "idempotency_key": uuid.uuid4().hex}
        headers = {"Content-Type": "application/json"}
        writer.request("POST", f"/api/t/{token}/results/", json.dumps(body), headers)
        made = json.loads(writer.getresponse().read())
        started = time.perf_counter()
        writer.request("POST", f"/api/t/{token}/results/{made['id']}/confirm/")
        writer.getresponse().read()
        while time.perf_counter() - started < timeout:
            line = answer.readline()
            if not line:
                return None
            if line.startswith(b"event: part"):
                return time.perf_counter() - started
        return None
    except (OSError, http.client.HTTPException, ValueError, KeyError):
        return None
    finally:
        stream.close()
        writer.close()
