"""The date of every format and the team tournament's playoff: each has one rule, which the
services keep, so the API, the director's forms and a command's file all refuse the same
values with the same words and store nothing.

Dates: from 1 January 1950 to two years after today (`kernel.names.date_checked`); year 1
and year 9999 were taken once, and 9999-12-31 sorted first in every "newest first" list.
Playoffs: the sizes the set-up form offers (`engine.teams.settings.PLAYOFF_SIZES`); the API
once took a playoff of 3."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine.teams.settings import PLAYOFF_SIZES
from tournaments.drives.models import Drive
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Event
from tournaments.events.services.events import event_create
from tournaments.kernel.models import Club
from tournaments.kernel.names import EARLIEST_DATE, latest_date
from tournaments.teams.models import League, Tournament
from tournaments.teams.services import teams as team_services
from tournaments.teams.views.forms import PLAYOFFS

pytestmark = pytest.mark.django_db

MOVEMENT = {"tables": 3, "boards_per_round": 2}
DRIVE_SETTINGS: dict[str, Any] = {"hands": 2, "scoring": "tricks"}


def _out_of_range() -> list[dt.date]:
    latest = latest_date()
    return [
        dt.date(1, 1, 1),
        dt.date(9999, 12, 31),
        EARLIEST_DATE - dt.timedelta(days=1),
        latest + dt.timedelta(days=1),
    ]


def _rows() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Drive.objects.count(),
        Tournament.objects.count(),
        League.objects.count(),
    )


def _creators(club: Club) -> dict[str, Callable[[dt.date | None], Any]]:
    return {
        "event": lambda day: event_create(
            club=club, name="Night", game="classic", movement_kind="mitchell",
            movement_params=MOVEMENT, date=day,
        ),
        "drive": lambda day: drive_services.drive_create(
            club=club, name="Drive", settings=DRIVE_SETTINGS, date=day
        ),
        "tournament": lambda day: team_services.tournament_create(
            club=club, name="Teams", settings={}, date=day
        ),
    }  # fmt: skip


@pytest.mark.parametrize("kind", ["event", "drive", "tournament"])
def test_a_date_out_of_the_window_is_refused_by_the_service_naming_the_window(
    club: Club, kind: str
) -> None:
    create = _creators(club)[kind]
    before = _rows()
    for day in _out_of_range():
        with pytest.raises(ValueError, match=rf"^The {kind}'s date must be between 1 January 1950"):
            create(day)
    assert _rows() == before
    # The window's own ends are in it, and no date is today.
    assert create(EARLIEST_DATE).date == EARLIEST_DATE
    assert create(latest_date()).date == latest_date()
    assert create(None).date == timezone.localdate()


def test_the_latest_day_is_two_years_on_and_a_leap_day_falls_back_a_day() -> None:
    assert latest_date(dt.date(2026, 12, 6)) == dt.date(2028, 12, 6)
    assert latest_date(dt.date(2028, 2, 29)) == dt.date(2030, 2, 28)


@pytest.mark.parametrize(
    ("address", "body"),
    [
        ("/api/events/", {"name": "N", "game": "classic", "movement_kind": "mitchell",
                          "movement_params": MOVEMENT}),
        ("/api/drives/", {"name": "D", "settings": DRIVE_SETTINGS}),
        ("/api/tournaments/", {"name": "T"}),
    ],
)  # fmt: skip
def test_the_api_refuses_a_date_out_of_the_window_with_the_reason(
    director_client: Client, address: str, body: dict[str, Any]
) -> None:
    before = _rows()
    for day in _out_of_range():
        sent = {**body, "date": day.isoformat()}
        response = director_client.post(address, sent, content_type="application/json")
        assert response.status_code == 400, (day, response.content)
        assert "must be between 1 January 1950" in response.content.decode()
    assert _rows() == before
    fine = {**body, "date": EARLIEST_DATE.isoformat()}
    assert director_client.post(address, fine, content_type="application/json").status_code == 201


EVENT_FORM = {"name": "Club night", "game": "classic", "pairs": "12", "boards": "24"}
DRIVE_FORM = {
    "name": "Tuesday drive", "game": "classic", "hands": "2", "half_time": "1",
    "scoring": "tricks", "trumps": "HDSC", "move": "progressive", "ends": "wrap",
    "short_table": "sit_out", "sit_out_score": "fixed", "sit_out_tricks": "7",
    "role_a": "Lady", "role_b": "Gent", "prizes": "highest", "tie_rule": "countback",
    "players": "Ann\nBob",
}  # fmt: skip
TEAMS_FORM = {
    "name": "Friday teams", "rotation": "swiss", "rounds": "3", "game_kind": "target",
    "game_value": "7", "scoring": "fosdick", "bye": "win", "grace_minutes": "10",
    "keys": "wins, points, hands, bostons, head_to_head", "fee": "0", "house_percent": "0",
    "prizes": "", "pot_stake": "0", "playoff": "0", "teams": "Aces\nKings",
}  # fmt: skip


@pytest.mark.parametrize(
    ("address", "form"),
    [
        ("/events/new/", {**EVENT_FORM, "method": "mp", "scale": "ebu"}),
        ("/drives/new/", DRIVE_FORM),
        ("/tournaments/new/", {**TEAMS_FORM, "new_league": "Winter league"}),
    ],
)
def test_the_forms_refuse_a_date_out_of_the_window_with_the_reason(
    director_client: Client, address: str, form: dict[str, str]
) -> None:
    before = _rows()
    for day in _out_of_range():
        response = director_client.post(address, {**form, "date": day.isoformat()})
        assert response.status_code == 200
        assert "must be between 1 January 1950" in html.unescape(response.content.decode())
    assert _rows() == before  # the new league too: it is made only with its first week


# -- the playoff -----------------------------------------------------------------------------


def test_the_form_offers_exactly_the_engines_list() -> None:
    assert [size for size, _ in PLAYOFFS] == list(PLAYOFF_SIZES) == [0, 2, 4, 6, 8, 12]


@pytest.mark.parametrize("size", [1, 3, 5, 7, 16, 64, -4, "8", True, None, 4.0])
def test_the_api_refuses_a_playoff_the_form_does_not_offer(
    director_client: Client, size: Any
) -> None:
    body = {"name": "T", "settings": {"playoff": size}}
    response = director_client.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert "playoff" in response.json()["detail"]
    assert not Tournament.objects.exists()


def test_a_refusal_lists_the_sizes_offered(club: Club) -> None:
    with pytest.raises(
        team_services.TeamsRefused,
        match=r"^playoff: the number of teams in the playoff is"
        r" 0 \(none\), 2, 4, 6, 8 or 12, not 3",
    ):
        team_services.tournament_create(club=club, name="T", settings={"playoff": 3})
    made = team_services.tournament_create(club=club, name="T", settings={})
    with pytest.raises(team_services.TeamsRefused, match="not 16"):
        team_services.settings_change(tournament=made, settings={"playoff": 16})
    made.refresh_from_db()
    assert made.settings["playoff"] == 0


@pytest.mark.parametrize("size", PLAYOFF_SIZES)
def test_the_api_and_the_form_take_every_size_offered(director_client: Client, size: int) -> None:
    body = {"name": f"API {size}", "settings": {"playoff": size}}
    response = director_client.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    form = {**TEAMS_FORM, "name": f"Form {size}", "playoff": str(size)}
    assert director_client.post("/tournaments/new/", form).status_code == 302
    assert sorted(t.settings["playoff"] for t in Tournament.objects.all()) == [size, size]


def test_the_form_refuses_a_size_it_does_not_offer(director_client: Client) -> None:
    response = director_client.post("/tournaments/new/", {**TEAMS_FORM, "playoff": "3"})
    assert response.status_code == 200
    assert "Select a valid choice" in html.unescape(response.content.decode())
    assert not Tournament.objects.exists()


def test_a_stored_tournament_with_another_size_still_opens(
    club: Club, director_client: Client
) -> None:
    """The list is what a director may choose now; a tournament saved with a size the engine
    can seed but the list leaves out (a backup from before) is still read."""
    made = team_services.tournament_create(club=club, name="Old", settings={})
    Tournament.objects.filter(pk=made.pk).update(settings={**made.settings, "playoff": 16})
    assert director_client.get(f"/tournaments/{made.pk}/manage/").status_code == 200
