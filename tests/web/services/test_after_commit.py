"""Work after the commit (`tournaments.kernel.commits.after_commit`): asked for once a commit
under a key, dropped with a rolled-back savepoint, and a failure logged without escaping the
commit, whatever kind of callable it is."""

from __future__ import annotations

import functools
import logging
from typing import Any

import pytest
from django.db import transaction

from tests.web.conftest import make_event
from tournaments.events.services import scoring
from tournaments.kernel.commits import after_commit
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_batch_of_results_asks_for_its_events_rescore_once(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_event(club), make_event(club)
    asked: list[int] = []
    monkeypatch.setattr(scoring, "request_rescore", lambda *, event_id: asked.append(event_id))
    with transaction.atomic():
        for _ in range(3):
            scoring.results_changed(event=first)
        scoring.results_changed(event=second)
        assert asked == []  # nothing before the commit
    assert sorted(asked) == sorted([first.pk, second.pk])
    scoring.results_changed(event=first)  # the next commit asks again
    assert asked.count(first.pk) == 2


def test_a_request_rolled_back_with_its_savepoint_no_longer_counts() -> None:
    ran: list[str] = []
    with transaction.atomic():
        try:
            with transaction.atomic():
                after_commit(ran.append, "inner", key="k")
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        after_commit(ran.append, "outer", key="k")
        after_commit(ran.append, "again", key="k")
        after_commit(ran.append, "unkeyed")
        after_commit(ran.append, "unkeyed")
    assert ran == ["outer", "unkeyed", "unkeyed"]
    with transaction.atomic():
        after_commit(ran.append, "never", key="k")
        transaction.set_rollback(True)
    assert "never" not in ran


@pytest.mark.parametrize("kind", ["function", "partial", "bound method"])
def test_a_failing_callback_is_logged_and_the_commit_stands(
    kind: str, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(reason: str) -> None:
        raise ConnectionError(reason)

    class Cache:
        def delete_many(self, keys: Any) -> None:
            raise ConnectionError("redis is down")

    callables: dict[str, Any] = {
        "function": broken,
        "partial": functools.partial(broken),
        "bound method": Cache().delete_many,
    }
    caplog.set_level(logging.ERROR, logger="django.db.backends.base")
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(name="Renamed in the transaction")
        after_commit(callables[kind], "redis is down")
    assert Club.objects.get(pk=club.pk).name == "Renamed in the transaction"
    assert any("in on_commit()" in r.getMessage() for r in caplog.records), caplog.text
