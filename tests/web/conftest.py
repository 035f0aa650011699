"""Fixtures for the Django side: a director, a club and ready-made events."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.models import Club, Event
from tournaments.services.events import club_get_or_create, event_create, event_start


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: cached pages of one test's event must not be
    served to another test whose event got the same id."""
    from django.core.cache import cache

    from tournaments.selectors_public import forget_snapshots

    cache.clear()
    forget_snapshots()


@pytest.fixture
def director(db: Any) -> Any:
    return get_user_model().objects.create_user("td", password="pw-for-tests", is_staff=True)


@pytest.fixture
def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def club(db: Any) -> Club:
    return club_get_or_create(name="Test Whist Club")


def make_event(
    club: Club,
    *,
    game: str = "classic",
    kind: str = "mitchell",
    params: dict[str, Any] | None = None,
    start: bool = True,
    user: Any = None,
    **extra: Any,
) -> Event:
    if game == "classic":
        # These fixtures' expected scores count every trick (classic's default is odd tricks).
        extra.setdefault("options", {"scoring": "tricks"})
    event = event_create(
        club=club,
        name=f"{game} test",
        game=game,
        movement_kind=kind,
        movement_params=params or {"tables": 3, "boards_per_round": 2},
        seed=11,
        user=user,
        **extra,
    )
    return event_start(event=event, user=user) if start else event


@pytest.fixture
def running_event(club: Club, director: Any) -> Event:
    """Classic whist, 3-table Mitchell, 2 boards a round: 6 boards, 3 rounds."""
    return make_event(club, user=director)
