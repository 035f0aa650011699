"""A public board's page loads the live script once, whether the board is still being played
(its deal hidden) or shown: each copy of the script opens a live stream of its own, so a
second copy once held two streams open for every reader of a board being played."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.events.models import Event
from tournaments.events.services.events import event_set_live_public

pytestmark = pytest.mark.django_db

SCRIPT = "js/live.js"


def test_a_board_being_played_loads_the_live_script_once(running_event: Event) -> None:
    event_set_live_public(event=running_event, live=True)
    response = Client().get(f"/results/{running_event.pk}/boards/1/")
    assert response.status_code == 200
    assert response.context["hidden"], "board 1 is not played yet: its deal is hidden"
    assert response.content.decode().count(SCRIPT) == 1


def test_a_board_shown_loads_the_live_script_once(
    running_event: Event, director_client: Client
) -> None:
    response = director_client.get(f"/results/{running_event.pk}/boards/1/")
    assert response.status_code == 200
    assert not response.context["hidden"], "the director sees every deal"
    assert response.content.decode().count(SCRIPT) == 1
