"""Simulated tablets: threads doing what the table page does through the tablet API.

A `Tablet` reads the state (`/api/t/<token>/`), sends each board's result with a fresh
idempotency key, sometimes sends it again with the same key, confirms, and waits for the next
round; after each write it asks for the state again, which brings the write's receipt back,
as the page does. A patient tablet keeps retrying a request that got no answer or a 5xx with
the same body (and key), as the page's offline queue does. `play` starts one per table,
`finish` joins them.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.harness.processes import http_status

#: The most tablets one run may simulate: each is a thread here and a keep-alive connection
#: to gunicorn, and 300 already asks far more of a 2-core machine than a club night does.
MAX_TABLETS = 300

POLL = 2.0  # seconds between state requests while a paced tablet waits
PLAY = (3.0, 8.0)  # seconds to play a board (paced)
CONFIRM = (1.0, 3.0)  # seconds before East-West confirm (paced)
RECEIPT = "Clubwhist-Receipt"  # a write's receipt, sent back as the page does
SERVED_BY = "X-Served-By"  # the node that answered, as a balancer in front says (balancer.py)


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
    `pace` scales a paced tablet's times (the players' and its polls' while it waits): 1 is
    the players' pace the benchmarks judge, 0.5 players twice as quick, which a test that
    checks what is stored, not how fast, may use to spend less of CI's time waiting.
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
        pace: float = 1.0,
        patience: float = 0.0,
        retry_share: float = 0.05,
        before_round: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(daemon=True, name=f"tablet-{token[:6]}")
        self.port, self.token, self.ends, self.paced = port, token, ends, paced
        self.poll = POLL * pace if paced else 0.0  # seconds between state requests, waiting
        self.pace = pace
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
        self.receipt: str | None = None  # the last write's, sent back with the next request
        # Every call as the player lives it: when it was first sent, how long until its
        # answer (retries included: a node failing over shows here) and the node that
        # answered (a balancer's X-Served-By; "" without one).
        self.calls: list[tuple[float, float, str]] = []

    @property
    def keys(self) -> set[str]:
        return set(self.sent)

    def call(self, kind: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        first = time.perf_counter()
        deadline = first + self.patience
        pause = 0.05
        served = ""
        while True:
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                payload = None if body is None else json.dumps(body)
                headers = {"Content-Type": "application/json"} if body is not None else {}
                if self.receipt is not None:
                    headers[RECEIPT] = self.receipt
                self.conn.request(method, f"/api/t/{self.token}/{path}", payload, headers)
                answer = self.conn.getresponse()
                status, data = answer.status, _json(answer.read())
                self.receipt = answer.getheader(RECEIPT)  # the page's way (static/js/table.js)
                served = answer.getheader(SERVED_BY) or ""
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
                self.calls.append((first, time.perf_counter() - first, served))
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
            time.sleep(wait * self.pace)

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
                time.sleep(self.poll or 0.2)
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
                time.sleep(self.poll or 0.1)

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
        self.refresh()
        self.pause(CONFIRM)
        self.confirm(sent, made["id"])

    def confirm(self, sent: Sent, result_id: int) -> None:
        status, _ = self.call("confirm", "POST", f"results/{result_id}/confirm/")
        if status != 200:
            self.errors.append(f"confirm: HTTP {status}")
        self.confirmed_at = time.perf_counter()
        self.refresh()

    def refresh(self) -> None:
        """The state asked for right after a write's answer, as the page does (its queue
        empty), bringing the write's receipt back."""
        status, _ = self.call("state", "GET", "")
        if status != 200:
            self.errors.append(f"state: HTTP {status}")


def play(
    port: int,
    tokens: list[str],
    *,
    paced: bool,
    time_limit: float,
    pace: float = 1.0,
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
            pace=pace,
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


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (0.95: the p95)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def latencies(tablets: Iterable[Tablet]) -> list[float]:
    """Every answered request's time, in seconds, of every kind."""
    return [v for t in tablets for kind in t.times.values() for v in kind]


def finish(tablets: Iterable[Tablet], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for tablet in tablets:
        tablet.join(max(0.0, deadline - time.monotonic()))


def warm_up(port: int, tokens: list[str]) -> None:
    """A server is up long before the first tablet connects (the director set the event up
    on it): load each worker's code and connections before the clock starts. Not timed."""
    for token in tokens[:8] * 2:
        http_status(port, f"/api/t/{token}/", timeout=30)
