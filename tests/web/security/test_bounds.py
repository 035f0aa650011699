"""Limits checked before any work: sizes a director (or an attacker) can ask for, bodies and
JSON nesting, board files. Each refusal is a JSON 400 that says what is wrong, and nothing
is created."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine.dealing import deal_boards
from engine.pbn import dumps
from tests.web.conftest import make_event
from tournaments.events.models import Board, Event
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

CREATE: dict[str, Any] = {
    "name": "Bounds night",
    "game": "classic",
    "movement_kind": "mitchell",
    "movement_params": {"tables": 3, "boards_per_round": 2},
    "club": "Test Whist Club",
}


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("mitchell", {"tables": 5000}, "tables must be from 1 to 120"),
        (
            "mitchell",
            {"tables": 3, "boards_per_round": 500},
            "boards_per_round must be from 1 to 10",
        ),
        ("mitchell", {"tables": 3, "rounds": 10_000}, "rounds must be from 1 to 60"),
        ("howell", {"tables": 40}, "tables must be from 1 to 15"),
        ("mitchell", {"tables": {"a": 1}}, "tables must be a whole number"),
        ("mitchell", {"tables": 3, "arrow_switch": [[1]]}, "is not a round number"),
        ("mitchell", {"tables": 3, "colour": "red"}, "has no setting 'colour'"),
        ("mitchell", {"tables": True}, "tables must be a whole number"),
    ],
)
def test_movement_settings_are_checked_before_any_work(
    director_client: Client,
    kind: str,
    params: dict[str, Any],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.movements import registry

    built: list[str] = []

    def recording(name: str, maker: Any) -> Any:
        def make(**given: Any) -> Any:
            built.append(name)
            return maker(**given)

        return make

    monkeypatch.setattr(
        registry, "KINDS", {name: recording(name, maker) for name, maker in registry.KINDS.items()}
    )
    answer = director_client.post(
        "/api/events/",
        {**CREATE, "movement_kind": kind, "movement_params": params},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert message in answer.json()["detail"]
    assert built == []  # refused, not attempted: no movement was built
    assert not Event.objects.exists()


def test_a_list_for_the_settings_is_refused(director_client: Client) -> None:
    answer = director_client.post(
        "/api/events/", {**CREATE, "movement_params": [3, 2]}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert not Event.objects.exists()


def test_json_nested_too_deep_is_a_json_400(director_client: Client) -> None:
    for depth in (10_000, 25):
        body = "[" * depth + "]" * depth
        answer = director_client.post("/api/events/", body, content_type="application/json")
        assert answer.status_code == 400, depth
        assert "nested too deeply" in answer.json()["detail"]


def test_an_oversized_body_is_a_json_400(director_client: Client) -> None:
    body = '{"name": "' + "x" * (6 * 1024 * 1024) + '"}'
    answer = director_client.post("/api/events/", body, content_type="application/json")
    assert answer.status_code in (400, 413)
    assert answer["Content-Type"].startswith("application/json")
    assert "larger than 5 MB" in answer.json()["detail"]


def test_a_board_file_too_big_is_refused_and_extra_boards_are_reported(
    club: Club, director_client: Client
) -> None:
    event = make_event(club, start=False)  # 6 boards
    before = list(Board.objects.filter(event=event).values_list("record", flat=True))
    huge = dumps(deal_boards("classic", range(1, 202), seed=1))
    answer = director_client.post(
        f"/api/events/{event.pk}/boards/import", {"pbn": huge}, content_type="application/json"
    )
    assert answer.status_code == 400 and "201 boards" in answer.json()["detail"]
    assert list(Board.objects.filter(event=event).values_list("record", flat=True)) == before
    more = dumps(deal_boards("classic", range(1, 10), seed=2))
    answer = director_client.post(
        f"/api/events/{event.pk}/boards/import", {"pbn": more}, content_type="application/json"
    )
    assert answer.json() == {"boards": 6, "unused": 3}
    page = director_client.post(
        f"/events/{event.pk}/boards/import/",
        {"file": _upload(more)},
        follow=True,
    )
    text = page.content.decode()
    assert "6 boards imported." in text and "other 3 boards are not played" in text


def _upload(text: str) -> Any:
    import io

    handle = io.BytesIO(text.encode())
    handle.name = "boards.pbn"
    return handle
