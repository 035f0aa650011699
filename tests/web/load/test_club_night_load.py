"""Thirty tablets play a whole event flat out against the real processes: gunicorn (2
workers), PostgreSQL, Redis and a Celery worker, as in production.

It asserts correctness, not time (`make bench` measures time, at 100 and 300 tablets): every
result a tablet sent is stored exactly once, a result sent again with the same key is answered
with the stored one, and once the last confirmation is in, the stored standings equal a
from-scratch rescore. The tablets are the benchmark's (`benchmarks.harness`).
"""

from __future__ import annotations

import time

import pytest

from benchmarks.harness import (
    club_events,
    finish,
    play,
    rescore_mismatch,
    tally,
    tokens_of,
    wait_converged,
)
from tests.support.figures import record
from tests.web.conftest import ClubNight
from tournaments.events.models import Result

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.solo,  # it loads both cores: `make test` runs it after the others, alone
    pytest.mark.django_db(transaction=True),
]

TABLETS = 30


def test_thirty_tablets_play_a_whole_event_and_every_result_is_stored_once(
    club_night: ClubNight,
) -> None:
    (event,) = club_events(TABLETS)  # 3 rounds of 2 boards: 180 results
    # A fifth of the results are sent twice with the same key, as a tablet that lost the
    # answer does.
    tablets = play(
        club_night.web.port, tokens_of([event]), paced=False, time_limit=150, retry_share=0.2
    )
    finish(tablets, 180)

    assert [t.errors for t in tablets if t.errors] == []
    assert all(t.finished for t in tablets), "some tablets did not play every round"
    counted = tally(tablets, [event])
    assert counted.sent == counted.accepted == counted.stored == TABLETS * 6
    assert (counted.lost, counted.duplicated) == (0, 0)
    assert counted.retries_checked > 0  # the same key again: 200 and the stored result
    assert set(Result.objects.filter(section__event=event).values_list("status", flat=True)) == {
        "confirmed"
    }
    assert wait_converged([event.pk], timeout=30) is not None, "the standings fell behind"
    # An upper bound: the standings may have caught up before the tablets were all joined.
    seconds = time.perf_counter() - max(t.confirmed_at for t in tablets)
    assert rescore_mismatch(event.pk) is None
    record(
        f"load, {TABLETS} tablets flat out: {counted.line()}, "
        f"{counted.retries_checked} sent twice answered as stored; standings equal a rescore "
        f"within {seconds:.2f} s of the last confirmation"
    )
