"""A thousand members follow live results while a hundred tablets play: the readers never
stall the tablets, and every reader either streams or is turned away with a 503 and polls.

Against the real processes, as production runs them: gunicorn with 2 ASGI workers,
PostgreSQL, Redis and a Celery worker. 1,000 well-behaved readers come from 40 loopback
addresses (25 each, under the per-address cap of 30); one greedy address opens 80 streams,
more than its cap of 30, counted across both processes (in Redis): exactly 50 are turned away.

It asserts correctness, not time (`make bench` measures time: `benchmarks/live_readers.py`
prints the tablets' p95 with its target): every tablet finishes with no error and every
result stored once; every reader either streamed or got a 503 naming the cap and then had
its version checks answered; the streams carried the new standings as they were stored.
"""

from __future__ import annotations

import os

import pytest

from benchmarks.harness import (
    VAR,
    CeleryWorker,
    WebServer,
    club_events,
    crowd,
    groups_of,
    latencies,
    percentile,
    tally,
    tokens_of,
    warm_up,
)
from tests.support.figures import record
from tests.web.conftest import club_night_env
from tournaments.events.models import Event
from tournaments.events.views.live import BUSY_POLL_SECONDS

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.solo,  # it loads both cores: `make test` runs it after the others, alone
    pytest.mark.django_db(transaction=True),
]

TABLETS = 100
READERS = 1000
PER_ADDRESS = 30  # the cap in this test (50 by default): 25 from each address fit under it
GREEDY = 80  # streams from one address: 50 over its cap, whichever process they reach
SECONDS = 200.0  # at most: the tablets take about a minute, then the readers stop


def test_a_thousand_live_readers_leave_the_tablets_alone(processes_database_url: str) -> None:
    (event,) = club_events(TABLETS, rounds=2)  # 2 rounds of 2 boards: 400 results
    Event.objects.filter(pk=event.pk).update(live_public=True)
    tokens = tokens_of([event])
    redis_url = os.environ["REDIS_URL"]
    worker = CeleryWorker(database_url=processes_database_url, redis_url=redis_url)
    env = {
        **club_night_env(
            database_url=processes_database_url, redis_url=redis_url, queue=worker.queue
        ),
        "LIVE_STREAMS_PER_ADDRESS": str(PER_ADDRESS),
    }
    groups = [*groups_of(READERS, 25), ("127.0.0.250", GREEDY)]
    with (VAR / f"{worker.queue}-readers-web.log").open("w") as log:
        web = WebServer(env, log=log)
        try:
            worker.start()
            web.start()
            warm_up(web.port, tokens)
            tablets, readers = crowd(
                web.port,
                event.pk,
                tokens,
                groups=groups,
                seconds=SECONDS,
                poll=BUSY_POLL_SECONDS,
            )
        finally:
            web.stop()
            worker.stop()
            worker.forget_queue()

    p95 = percentile(latencies(tablets), 0.95) * 1000
    # The tablets: every one played every round, no error, every result stored once.
    assert [t.errors for t in tablets if t.errors] == []
    assert all(t.finished for t in tablets), "some tablets did not play every round"
    counted = tally(tablets, [event])
    assert counted.sent == counted.stored == TABLETS * 4
    assert (counted.lost, counted.duplicated) == (0, 0)

    # The readers: each streamed, or was turned away and polled; nothing else happened.
    assert readers.errors == []
    assert readers.readers == READERS + GREEDY
    assert readers.streamed + readers.refused == readers.readers
    # the cap holds across both processes (counted in Redis): 30 of the greedy 80 stream
    assert readers.refused == GREEDY - PER_ADDRESS
    assert readers.streamed >= READERS  # every well-behaved reader streamed
    assert f"{PER_ADDRESS} live pages are already open from your network address" in (
        readers.refusal_text
    )
    assert readers.polls > 0 and readers.polls_answered == readers.polls
    assert readers.parts > 0  # the new standings reached the streams as they were stored

    record(
        f"load, {READERS + GREEDY} live readers while {TABLETS} tablets play: "
        f"{readers.line()}; tablets {counted.line()}, p95 {p95:.1f} ms "
        "(judged by make bench, not here)"
    )
