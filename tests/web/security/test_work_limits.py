"""The work one request can ask for is bounded, and each bound is checked before the work.

For every limit (teams in a tournament, players in a drive, boards in a file of any kind,
tables in an event, the size of a file) the limit plus one is refused with a 400 (a page: its
error) that says what is wrong and what to do, and nothing changes. That the refusal comes
before the work is proved by the work itself: the slow function (the board reader, the name
checks, the movement's builder, the importer) is replaced by one that fails the test if it is
called, or its calls are counted. No test is timed: speed is for the benchmarks.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from engine import pbn_text
from engine.dealing import deal_boards
from engine.drives.settings import MAX_PLAYERS
from engine.exports import pbn_results, usebio
from engine.movements import registry
from engine.pbn import dumps
from engine.teams.model import MAX_TEAMS
from tests.web.conftest import make_event
from tournaments.drives.models import Drive
from tournaments.drives.services import backup_parse as drive_parse
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Board, Event
from tournaments.events.services import backup_parse as event_parse
from tournaments.events.services import events as event_services
from tournaments.events.services.events import MAX_FILE_BYTES, MAX_IMPORT_BOARDS
from tournaments.files import backup, exports
from tournaments.kernel.api.fields import NameField
from tournaments.kernel.models import Club
from tournaments.teams.api import director as team_api
from tournaments.teams.models import Tournament
from tournaments.teams.services import backup_parse as team_parse
from tournaments.teams.services import teams as team_services
from tournaments.teams.services.input import TOO_MANY_TEAMS
from tournaments.teams.services.teams import TeamsRefused

pytestmark = pytest.mark.django_db


def rows() -> dict[str, int]:
    """Every table's row count: a refusal changes none of them."""
    return {
        m._meta.label: m.objects.count() for m in apps.get_app_config("tournaments").get_models()
    }


def forbid(monkeypatch: pytest.MonkeyPatch, target: Any, name: str) -> None:
    """Make `target.name` fail the test if anything calls it: the work it does must not start."""

    def called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{name} was called: the limit was checked after the work")

    monkeypatch.setattr(target, name, called)


def post_json(client: Client, path: str, body: Any) -> Any:
    return client.post(path, body, content_type="application/json")


def upload(content: bytes, name: str) -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


# ---- boards in a PBN board file --------------------------------------------------------------

TOO_MANY = dumps(deal_boards("classic", range(1, MAX_IMPORT_BOARDS + 2), seed=1))


def test_a_board_file_one_past_the_limit_is_refused_unread(
    club: Club, director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(club, start=False)
    before = (rows(), list(Board.objects.values_list("number", "record")))
    forbid(monkeypatch, pbn_text, "_fields")  # reading any board's tags into a board
    answer = post_json(director_client, f"/api/events/{event.pk}/boards/import", {"pbn": TOO_MANY})
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert f"The file has {MAX_IMPORT_BOARDS + 1} boards" in detail
    assert f"at most {MAX_IMPORT_BOARDS}" in detail and "Split the file" in detail
    page = director_client.post(
        f"/events/{event.pk}/boards/import/",
        {"file": upload(TOO_MANY.encode(), "boards.pbn")},
        follow=True,
    )
    assert f"The file has {MAX_IMPORT_BOARDS + 1} boards" in page.content.decode()
    assert (rows(), list(Board.objects.values_list("number", "record"))) == before


def test_the_reader_stops_past_the_limit_when_the_count_cannot_see_the_boards(
    club: Club, director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment inside each tag hides the Deals from the quick count; the reader then stops
    at the first board past the limit, whatever follows it."""
    event = make_event(club, start=False)
    hidden = dumps(deal_boards("classic", range(1, 1001), seed=3)).replace("[Deal", "[De{ }al")
    assert pbn_text.deal_count(hidden) == 0
    read: list[int] = []
    fields = pbn_text._fields

    def counted(*args: Any, **kwargs: Any) -> Any:
        read.append(1)
        return fields(*args, **kwargs)

    monkeypatch.setattr(pbn_text, "_fields", counted)
    before = rows()
    answer = post_json(director_client, f"/api/events/{event.pk}/boards/import", {"pbn": hidden})
    assert answer.status_code == 400
    assert f"more than {MAX_IMPORT_BOARDS} boards" in answer.json()["detail"]
    assert len(read) == MAX_IMPORT_BOARDS  # the 201st board is refused before it is read
    assert rows() == before


def test_a_board_file_of_exactly_the_limit_is_imported(club: Club, director_client: Client) -> None:
    event = make_event(club, start=False)  # plays 6 boards
    text = dumps(deal_boards("classic", range(1, MAX_IMPORT_BOARDS + 1), seed=2))
    answer = post_json(director_client, f"/api/events/{event.pk}/boards/import", {"pbn": text})
    assert answer.json() == {"boards": 6, "unused": MAX_IMPORT_BOARDS - 6}


# ---- boards in a results file (USEBIO, PBN with results) -------------------------------------


def usebio_text(boards: int) -> str:
    """A USEBIO file listing `boards` hand records and travellers (nothing else is read
    before the count)."""
    listed = "".join(
        f"<BOARD><BOARD_NUMBER>{n}</BOARD_NUMBER></BOARD>" for n in range(1, boards + 1)
    )
    return (
        f'<?xml version="1.0"?><USEBIO><EVENT>{listed}<HANDSET>{listed}</HANDSET></EVENT></USEBIO>'
    )


@pytest.mark.parametrize(
    ("text", "forbidden"),
    [
        (usebio_text(MAX_IMPORT_BOARDS + 1), (usebio, "_boards")),
        (TOO_MANY, (pbn_results, "_scan")),
    ],
    ids=["usebio", "pbn-with-results"],
)
def test_a_results_file_one_past_the_limit_is_refused_unread(
    club: Club,
    director_client: Client,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    forbidden: tuple[Any, str],
) -> None:
    forbid(monkeypatch, *forbidden)
    forbid(monkeypatch, pbn_text, "_fields")
    before = rows()
    answer = post_json(director_client, "/api/events/import", {"text": text, "club": club.slug})
    assert answer.status_code == 400, answer.content
    detail = answer.json()["detail"]
    assert f"{MAX_IMPORT_BOARDS + 1} boards" in detail and f"at most {MAX_IMPORT_BOARDS}" in detail
    page = director_client.post(
        "/events/import/", {"file": upload(text.encode(), "results.file"), "club": club.pk}
    )
    assert page.status_code == 200
    assert f"{MAX_IMPORT_BOARDS + 1} boards" in page.content.decode()
    assert rows() == before


# ---- an event's clubwhist JSON --------------------------------------------------------------


def event_document(club: Club) -> dict[str, Any]:
    event = make_event(club)
    document: dict[str, Any] = json.loads(exports.event_export(event, "json").text)
    return document


def test_an_event_document_with_too_many_boards_is_refused_unread(
    club: Club, director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = event_document(club)
    document["boards"] = document["boards"][:1] * (registry.MAX_BOARDS + 1)
    forbid(monkeypatch, event_parse, "board_from_record")
    before = rows()
    answer = post_json(
        director_client,
        "/api/events/import",
        {"text": backup.dumps(document), "club": club.slug},
    )
    assert answer.status_code == 400
    assert f"at most {registry.MAX_BOARDS}" in answer.json()["detail"]
    assert rows() == before


def test_an_event_document_with_a_second_section_is_refused_before_any_movement(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = event_document(club)
    document["sections"] = document["sections"] * 2
    forbid(monkeypatch, event_parse, "movement_for")
    with pytest.raises(backup.RestoreRefused, match="2 sections; an event here has one"):
        event_parse.parse_event(document)


# ---- teams in a tournament (and so in a league's weeks) --------------------------------------

SWISS = {"rotation": "swiss", "rounds": 3}
FORM = {
    "name": "Open Swiss", "rotation": "swiss", "rounds": "3", "game_kind": "target",
    "game_value": "7", "scoring": "fosdick", "bye": "win", "grace_minutes": "10",
    "keys": "wins, points, hands, bostons, head_to_head", "fee": "0", "house_percent": "0",
    "prizes": "100", "pot_stake": "0", "playoff": "0",
}  # fmt: skip


def teams(count: int) -> list[dict[str, str]]:
    return [{"name": f"Team {n}"} for n in range(1, count + 1)]


def test_a_tournament_of_one_team_too_many_is_refused_through_the_api(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid(monkeypatch, team_api.TeamIn, "run_validation")  # reading any one team
    forbid(monkeypatch, team_services, "team_fields")
    before = rows()
    answer = post_json(
        director_client,
        "/api/tournaments/",
        {"name": "Too big", "settings": SWISS, "teams": teams(MAX_TEAMS + 1)},
    )
    assert answer.status_code == 400
    assert TOO_MANY_TEAMS in answer.content.decode()
    assert rows() == before


def test_a_tournament_of_one_team_too_many_is_refused_by_the_page(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid(monkeypatch, team_services, "team_fields")
    before = rows()
    lines = "\n".join(f"Team {n}" for n in range(1, 100_001))  # a pasted page, far too long
    page = director_client.post("/tournaments/new/", FORM | {"teams": lines})
    assert page.status_code == 200
    assert f"more than {MAX_TEAMS} teams" in page.content.decode()
    assert rows() == before


def test_exactly_the_limit_of_teams_is_taken_and_the_door_then_closes(club: Club) -> None:
    with pytest.raises(TeamsRefused, match=f"more than {MAX_TEAMS} teams"):
        team_services.tournament_create(
            club=club, name="Too big", settings=SWISS, teams=teams(MAX_TEAMS + 1)
        )
    assert not Tournament.objects.exists()
    tournament = team_services.tournament_create(
        club=club, name="Full house", settings=SWISS, teams=teams(MAX_TEAMS)
    )
    assert tournament.teams.count() == MAX_TEAMS
    with pytest.raises(TeamsRefused, match=f"has {MAX_TEAMS} teams, the most it takes"):
        team_services.team_add(tournament=tournament, data={"name": "Late"})
    assert tournament.teams.count() == MAX_TEAMS


def test_a_tournament_document_with_too_many_teams_is_refused_unread(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = team_services.tournament_create(
        club=club, name="Small", settings=SWISS, teams=teams(4)
    )
    document = json.loads(exports.tournament_json_export(tournament).text)
    document["teams"] = document["teams"][:1] * (MAX_TEAMS + 1)
    forbid(monkeypatch, team_parse, "_rows")
    with pytest.raises(backup.RestoreRefused, match=f"at most {MAX_TEAMS}"):
        team_parse.parse_tournament(document)


# ---- players in a drive (and so its tables) -------------------------------------------------


def test_a_drive_of_one_player_too_many_is_refused_through_the_api(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    names_read: list[int] = []
    name_field = NameField.to_internal_value

    def counted(self: Any, data: Any) -> str:
        names_read.append(1)
        return name_field(self, data)

    monkeypatch.setattr(NameField, "to_internal_value", counted)
    before = rows()
    answer = post_json(
        director_client,
        "/api/drives/",
        {
            "name": "Too big",
            "settings": {"hands": 2},
            "players": [f"P{n}" for n in range(1, MAX_PLAYERS + 2)],
        },
    )
    assert answer.status_code == 400
    assert drive_services.TOO_MANY_PLAYERS in answer.content.decode()
    assert len(names_read) <= 1  # the drive's own name at most, no player's
    assert rows() == before


def test_a_drive_of_one_player_too_many_is_refused_by_the_page(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid(monkeypatch, drive_services, "player_name")
    form = {
        "name": "Too big", "game": "classic", "hands": "2", "half_time": "1",
        "scoring": "tricks", "trumps": "HDSC", "move": "progressive", "ends": "wrap",
        "short_table": "sit_out", "sit_out_score": "fixed", "sit_out_tricks": "7",
        "role_a": "Lady", "role_b": "Gent", "prizes": "highest", "tie_rule": "countback",
        "players": "\n".join(f"Member {n}" for n in range(1, 100_001)),
    }  # fmt: skip
    before = rows()
    page = director_client.post("/drives/new/", form)
    assert page.status_code == 200
    assert f"more than {MAX_PLAYERS} players" in page.content.decode()
    assert rows() == before


def test_exactly_the_limit_of_players_is_taken_and_the_door_then_closes(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit lowered to 8 so the test stays small; the checks read the same constant."""
    monkeypatch.setattr(drive_services, "MAX_PLAYERS", 8)
    names = [f"P{n}" for n in range(1, 10)]
    with pytest.raises(drive_services.DriveRefused):
        drive_services.drive_create(club=club, name="Too big", settings={}, players=names)
    assert not Drive.objects.exists()
    drive = drive_services.drive_create(club=club, name="Full", settings={}, players=names[:8])
    with pytest.raises(drive_services.DriveRefused, match="has 8 players, the most one takes"):
        drive_services.player_add(drive=drive, name="Late")
    assert drive.players.count() == 8


def test_a_seating_of_more_tables_than_the_players_fill_is_refused_unread(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    drive = drive_services.drive_create(
        club=club, name="Eight", settings={}, players=[f"P{n}" for n in range(1, 9)]
    )
    forbid(monkeypatch, drive_services.EngineDrive, "placed_seating")
    with pytest.raises(drive_services.DriveRefused, match="places 100000 tables"):
        drive_services.drive_start(drive=drive, placed=[[1, 2, 3, 4]] * 100_000)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.DRAFT


def test_a_drive_document_with_too_many_players_is_refused_unread(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    drive = drive_services.drive_create(
        club=club, name="Small", settings={}, players=[f"P{n}" for n in range(1, 9)]
    )
    document = json.loads(exports.drive_json_export(drive).text)
    document["players"] = document["players"][:1] * (MAX_PLAYERS + 1)
    forbid(monkeypatch, drive_parse, "_rows")
    with pytest.raises(backup.RestoreRefused, match=f"at most {MAX_PLAYERS}"):
        drive_parse.parse_drive(document)


# ---- tables in an event ---------------------------------------------------------------------


def test_one_table_past_the_limit_is_refused_before_the_movement_is_built(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid(monkeypatch, registry, "mitchell")
    forbid(monkeypatch, event_services, "deal_boards")
    answer = post_json(
        director_client,
        "/api/events/",
        {
            "name": "Too big",
            "game": "classic",
            "movement_kind": "mitchell",
            "movement_params": {"tables": registry.MAX_TABLES + 1, "boards_per_round": 2},
            "club": "Test Whist Club",
        },
    )
    assert answer.status_code == 400
    assert f"tables must be from 1 to {registry.MAX_TABLES}" in answer.json()["detail"]
    assert not Event.objects.exists()


# ---- the size of a file ---------------------------------------------------------------------

ONE_BYTE_OVER = MAX_FILE_BYTES + 1


def test_a_file_one_byte_over_is_refused_by_every_upload_page_before_it_is_read(
    club: Club, director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(club, start=False)
    forbid(monkeypatch, event_services, "boards_import_counted")
    forbid(monkeypatch, exports, "event_import")
    before = rows()
    page = director_client.post(
        f"/events/{event.pk}/boards/import/",
        {"file": upload(b"%" * ONE_BYTE_OVER, "boards.pbn")},
        follow=True,
    )
    assert "The file is 5.1 MB, the limit is 5 MB" in page.content.decode()
    page = director_client.post(
        "/events/import/", {"file": upload(b"<" * ONE_BYTE_OVER, "r.xml"), "club": club.pk}
    )
    assert "The file is 5.1 MB, the limit is 5 MB" in page.content.decode()
    assert rows() == before


def test_a_body_one_byte_over_is_refused_by_the_api_before_it_is_read(
    club: Club, director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(club, start=False)
    forbid(monkeypatch, event_services, "boards_import_counted")
    forbid(monkeypatch, exports, "event_import")
    before = rows()
    for path, key in (
        (f"/api/events/{event.pk}/boards/import", "pbn"),
        ("/api/events/import", "text"),
    ):
        wrapper = json.dumps({key: ""})
        body = json.dumps({key: "%" * (ONE_BYTE_OVER - len(wrapper))})
        assert len(body) == ONE_BYTE_OVER
        answer = director_client.post(path, body, content_type="application/json")
        assert answer.status_code in (400, 413), path
        assert "larger than 5 MB" in answer.json()["detail"]
    assert rows() == before
