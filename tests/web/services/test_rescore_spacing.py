"""How long a rescore waits (`scoring._countdown`, `scoring.burst_wait`): at once after a quiet
spell; within a burst the debounce, or five times as long as the event's last rescore took
to score and store when that is longer, never more than two seconds."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from tests.web.conftest import make_event
from tournaments.events.models import Event, Standings
from tournaments.events.services import scoring

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("last", "wait"),
    [
        (0.0, None),  # the first rescore of an event: the debounce
        (0.01, None),  # a small event's: five times 10 ms is under the debounce
        (0.019, None),  # a 30-table evening's (19 ms): it waits the debounce, as before
        (0.05, 0.25),  # a 100-table evening's under a room of tablets
        (0.2, 1.0),
        (0.5, 2.0),  # a slow one-off never holds the standings back longer than 2 s
    ],
)
def test_a_bursts_rescore_waits_five_times_the_last_one(last: float, wait: float | None) -> None:
    expected = settings.RESCORE_DEBOUNCE_SECONDS if wait is None else wait
    assert scoring.burst_wait(last) == pytest.approx(expected)


def _scored_moments_ago(event: Event, took: float) -> None:
    Standings.objects.create(event=event, version=1, data={}, computed_at=timezone.now())
    Event.objects.filter(pk=event.pk).update(results_version=2, scored_version=1)
    cache.set(scoring._duration_key(event.pk), took, timeout=60)


def test_within_a_burst_a_big_events_rescore_waits_for_its_last_ones_multiple(club: Any) -> None:
    event = make_event(club)
    _scored_moments_ago(event, took=0.1)
    assert scoring._countdown(event.pk, timezone.now()) == pytest.approx(0.5)


def test_after_a_quiet_spell_the_rescore_runs_at_once(club: Any) -> None:
    event = make_event(club)
    _scored_moments_ago(event, took=0.2)
    later = timezone.now() + timedelta(seconds=5)
    assert scoring._countdown(event.pk, later) == 0


def test_the_time_kept_is_the_whole_rescores(club: Any) -> None:
    """Scoring and storing: the stored document's insert is part of what a burst spaces out."""
    event = make_event(club)
    cache.delete(scoring._duration_key(event.pk))
    scoring.standings_refresh(event_id=event.pk, force=True)
    kept = scoring.last_rescore_seconds(event.pk)
    assert kept > 0
