"""A published snapshot built again in the same process reads again only the results that
changed (`tournaments.events.selectors.public._build`), and says what a snapshot built from scratch
says."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import make_event
from tournaments.events.models import Event, Result
from tournaments.events.selectors import public
from tournaments.events.services.corrections import result_correct
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def played(club: Club, director: Any) -> Event:
    event = make_event(club, user=director, params={"tables": 3, "boards_per_round": 2})
    event_simulate(event=event, seed=3, batch=True)
    return event


def test_a_changed_result_is_read_again_and_the_others_are_kept(club: Club, director: Any) -> None:
    event = played(club, director)
    first = public._build(event, None, -1, "first")
    result = Result.objects.filter(section__event=event).order_by("pk").first()
    assert result is not None
    tricks = result.entry["ns_tricks"]
    result_correct(
        result=result,
        entry={"ns_tricks": 13 - tricks if tricks != 6 else 7},
        reason="NS counted EW's tricks",
        user=director,
    )
    second = public._build(event, None, -1, "second")
    public.forget_snapshots()
    fresh = public._build(event, None, -1, "fresh")

    assert second.info == fresh.info
    changed = (result.board_number, result.ns_pair.number)
    assert second.info[changed] != first.info[changed]
    kept = [key for key in first.info if key != changed]
    assert len(kept) == len(first.info) - 1 > 10
    assert all(second.info[key] is first.info[key] for key in kept)
    assert all(fresh.info[key] is not first.info[key] for key in kept)


def test_another_game_setting_reads_every_result_again(club: Club, director: Any) -> None:
    event = played(club, director)
    first = public._build(event, None, -1, "first")
    event.options = {**event.options, "scoring": "odd_tricks"}
    event.save(update_fields=["options"])
    second = public._build(event, None, -1, "second")
    assert second.info.keys() == first.info.keys()
    assert not any(second.info[key] is first.info[key] for key in first.info)
