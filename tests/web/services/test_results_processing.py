"""Results processing through a real Redis broker and a real worker process."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings

from clubwhist.celery import app
from tests.web.conftest import make_event
from tournaments.events.models import Event, Result, Standings
from tournaments.events.services import results as rs
from tournaments.events.services.simulation import event_simulate

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def wait_until_scored(event: Event, timeout: float = 30.0) -> Event:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fresh = Event.objects.get(pk=event.pk)
        if fresh.results_version and fresh.scored_version == fresh.results_version:
            return fresh
        time.sleep(0.05)
    fresh = Event.objects.get(pk=event.pk)
    raise AssertionError(
        f"standings never caught up: results v{fresh.results_version}, "
        f"scored v{fresh.scored_version}"
    )


def confirm_one(event: Event, round: int, table: int, board: int, tricks: int) -> Result:
    result, _ = rs.result_submit(
        section=event.sections.get(),
        round=round,
        table=table,
        board_number=board,
        entry={"ns_tricks": tricks},
        confirm=True,
    )
    return result


def _reset_connections() -> None:
    """Drop the app's cached connection and producer pools so the next send reconnects."""
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def broker_down() -> Iterator[None]:
    """Point the web side at a port where no Redis listens, as when Redis has stopped."""
    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    _reset_connections()
    try:
        yield
    finally:
        app.conf.broker_url = previous
        _reset_connections()


def test_a_confirmed_result_reaches_the_standings_through_the_worker(celery_worker, club) -> None:
    event = make_event(club)
    confirm_one(event, 1, 1, 1, 9)
    scored = wait_until_scored(event)
    standings = Standings.objects.get(event=event, version=scored.results_version)
    assert standings.data["sections"][0]["boards"]["1"][0]["ns_score"] == 9
    assert "clubwhist.rescore_event" in celery_worker.log()


def test_a_burst_of_results_coalesces_into_a_few_recomputes(celery_worker, club) -> None:
    event = make_event(club, params={"tables": 5, "boards_per_round": 2})
    started = time.monotonic()
    made = event_simulate(event=event, seed=8)  # 5 tables x 5 rounds x 2 boards, each confirmed
    burst = time.monotonic() - started
    assert len(made) == 50
    scored = wait_until_scored(event)
    assert scored.results_version == 50
    runs = Standings.objects.filter(event=event).count()
    # One rescore at once, then at most one per debounce interval while the burst lasts
    # (plus the one that picks up its tail), and always fewer than one per result. The
    # worker's timer may fire a countdown a few milliseconds early, so a part interval counts
    # as a whole one. The bound follows the burst's own length, not a fixed count: on a
    # loaded machine the burst lasts longer and rightly takes more intervals.
    most = math.ceil(burst / settings.RESCORE_DEBOUNCE_SECONDS) + 2
    assert 1 <= runs <= min(most, 49), f"{runs} recomputes for 50 results in {burst:.2f} s"
    latest = Standings.objects.filter(event=event).order_by("-version").first()
    assert latest is not None
    assert sum(len(lines) for lines in latest.data["sections"][0]["boards"].values()) == 50


def test_a_result_saved_while_the_worker_is_stopped_is_processed_when_it_starts(
    celery_worker, club
) -> None:
    event = make_event(club)
    celery_worker.stop()
    try:
        confirm_one(event, 1, 2, 3, 6)
        time.sleep(1.0)
        waiting = Event.objects.get(pk=event.pk)
        assert waiting.scored_version < waiting.results_version
    finally:
        celery_worker.start()
    wait_until_scored(event)


def test_a_result_saved_while_the_broker_is_down_is_processed_once_it_is_back(
    celery_worker, club
) -> None:
    event = make_event(club)
    with broker_down():
        result = confirm_one(event, 1, 3, 5, 7)  # accepted although the task cannot be sent
    assert Result.objects.filter(pk=result.pk).exists()
    stuck = Event.objects.get(pk=event.pk)
    assert stuck.results_version == 1 and stuck.scored_version == 0
    assert stuck.rescore_queued_at is None  # the slot was given back for the sweep
    # The broker is back; a worker (re)starting sweeps up what was left behind.
    celery_worker.stop()
    celery_worker.start()
    wait_until_scored(event)


def test_rerunning_a_rescore_is_harmless(celery_worker, club) -> None:
    from tournaments.tasks import rescore_event

    event = make_event(club)
    confirm_one(event, 1, 1, 1, 9)
    scored = wait_until_scored(event)
    before = Standings.objects.filter(event=event).count()
    rescore_event.delay(event.pk)
    rescore_event.delay(event.pk)
    time.sleep(1.0)
    assert Standings.objects.filter(event=event).count() == before
    assert Event.objects.get(pk=event.pk).scored_version == scored.scored_version
