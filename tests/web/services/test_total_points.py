"""Total points has no Average: an artificial score (other than NP) or a fouled board is refused
when the director gives it (services, API, pages, restores), before anything is stored, instead
of every standings and export of the event failing afterwards; and the commands end with one
line, never a traceback, when the stored results cannot be scored."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.web.conftest import make_event
from tournaments.events.models import AuditEntry, Board, Event, MovementRow, Result
from tournaments.events.services.corrections import board_mark_fouled, result_set_artificial
from tournaments.events.services.results import ResultError
from tournaments.events.services.simulation import event_simulate
from tournaments.files import backup
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def total_event(club: Club, director: Any) -> Event:
    return make_event(club, user=director, method="total")


def _first_meeting(event: Event) -> tuple[int, int, int]:
    row = MovementRow.objects.filter(section=event.section, round=1, table=1).get()
    return 1, 1, event.section.boards_of_set(row.board_set).start


@pytest.mark.parametrize("code", ["A", "A+", "A-", "A+/A-", "NP/NP"])
def test_the_service_refuses_an_average_on_total_points_and_stores_nothing(
    total_event: Event, director: Any, code: str
) -> None:
    rnd, table, board = _first_meeting(total_event)
    version = total_event.results_version
    audits = AuditEntry.objects.count()
    if code == "NP/NP":  # not played is no score at all: total points can leave it out
        result_set_artificial(
            section=total_event.section, round=rnd, table=table, board_number=board,
            code=code, reason="no time", user=director,
        )  # fmt: skip
        assert Result.objects.get(section=total_event.section).artificial_code == "NP"
        return
    with pytest.raises(ResultError, match=r"Total-points scoring has no artificial score"):
        result_set_artificial(
            section=total_event.section, round=rnd, table=table, board_number=board,
            code=code, reason="slow play", user=director,
        )  # fmt: skip
    assert not Result.objects.filter(section=total_event.section).exists()
    total_event.refresh_from_db()
    assert total_event.results_version == version
    assert AuditEntry.objects.count() == audits


def test_the_service_refuses_a_fouled_board_on_total_points(
    total_event: Event, director: Any
) -> None:
    board = Board.objects.get(event=total_event, number=1)
    with pytest.raises(ResultError, match=r"Board 1: Total-points scoring has no Average"):
        board_mark_fouled(board=board, fouled=True, reason="mixed cards", user=director)
    board.refresh_from_db()
    assert not board.fouled
    assert not AuditEntry.objects.filter(action="board fouled").exists()
    # Matchpoints still can.
    other = make_event(total_event.club, user=director)
    fouled = board_mark_fouled(
        board=Board.objects.get(event=other, number=1), fouled=True, reason="x", user=director
    )
    assert fouled.fouled


def test_the_api_and_the_pages_answer_with_the_reason(
    total_event: Event, director_client: Client
) -> None:
    rnd, table, board = _first_meeting(total_event)
    body = {"round": rnd, "table": table, "board": board, "code": "A", "reason": "late"}
    response = director_client.post(
        f"/api/events/{total_event.pk}/artificial", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "Total-points scoring has no artificial score A" in response.json()["detail"]
    response = director_client.post(
        f"/api/events/{total_event.pk}/boards/1/fouled",
        {"fouled": True, "reason": "mixed"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "no Average" in response.json()["detail"]
    page = director_client.post(
        f"/events/{total_event.pk}/boards/1/fouled/", {"fouled": "1", "reason": "x"}, follow=True
    )
    assert page.status_code == 200 and "no Average to give a fouled board" in page.content.decode()
    assert not Board.objects.filter(event=total_event, fouled=True).exists()
    assert not Result.objects.filter(section__event=total_event).exists()


def test_a_document_with_an_average_on_total_points_is_refused(
    total_event: Event, director: Any
) -> None:
    event_simulate(event=total_event, rounds=1, seed=2, batch=True)
    good = json.loads(backup.dumps(backup.event_document(total_event)))
    Result.objects.filter(section__event=total_event).delete()
    total_event.delete()

    fouled = copy.deepcopy(good)
    fouled["boards"][0]["fouled"] = True
    with pytest.raises(backup.RestoreRefused, match=r"Board 1 is marked fouled, but total"):
        backup.restore(fouled)

    average = copy.deepcopy(good)
    line = average["sections"][0]["results"][0]
    line.update(status="artificial", entry=None, ns_score=None, artificial_code="A+/A-")
    with pytest.raises(backup.RestoreRefused, match=r"no artificial score A\+/A-"):
        backup.restore(average)
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "command", [("standings",), ("export", "--format", "csv", "-o", "/tmp/h9-x.csv")]
)
def test_the_commands_end_with_one_line_when_the_stored_results_cannot_be_scored(
    total_event: Event, command: tuple[str, ...]
) -> None:
    """Results stored before the rule (or written into the database by hand) still cannot be
    scored: the command says why in one line."""
    event_simulate(event=total_event, rounds=1, seed=2, batch=True)
    Board.objects.filter(event=total_event).update(fouled=True)
    with pytest.raises(CommandError) as refused:
        call_command(command[0], str(total_event.pk), *command[1:])
    message = str(refused.value)
    assert "total-points scoring has no artificial score" in message.lower()
    assert "\n" not in message
