"""Public pages name a linked member as they chose (issue #44): initials or "a member", never
the full name, on every page, API answer, export, display and tablet a member of the public
reaches; the directors' pages keep the full name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tests.web.pages.test_drive_public_pages import new_drive, play
from tournaments.drives.models import DriveTableAccess
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Event, Pair, TableAccess
from tournaments.events.services.events import event_finish, event_publish, pairs_register
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel import members as register
from tournaments.kernel.models import Club
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as team_services

pytestmark = pytest.mark.django_db

INITIALS, HIDDEN = "Siân O'Neil", "Bartholomew Quist"
ABSENT = (INITIALS, "O'Neil", "O&#x27;Neil", HIDDEN, "Quist")


@pytest.fixture
def members(club: Club) -> None:
    register.member_add(club=club, name=INITIALS, public_name="initials")
    register.member_add(club=club, name=HIDDEN, public_name="hidden")


def _absent(body: str, where: str) -> None:
    for said in ABSENT:
        assert said not in body, f"{said!r} in {where}"


def _event(club: Club, director: Any) -> Event:
    event = make_event(club, user=director)
    pair = Pair.objects.get(section__event=event, number=1, direction="NS")
    pairs_register(event=event, names={pair.pk: (INITIALS, HIDDEN)}, user=director)
    event_simulate(event=event, seed=5, batch=True)
    return event_publish(event=event_finish(event=event, user=director), user=director)


def test_an_events_public_surfaces_show_the_chosen_names(
    club: Club, director: Any, director_client: Client, members: None
) -> None:
    event = _event(club, director)
    pk, public = event.pk, Client()
    urls = [
        f"/results/{pk}/", f"/results/{pk}/?part=1", f"/results/{pk}/pairs/NS1/",
        f"/results/{pk}/display/", f"/api/public/events/{pk}/",
        f"/api/public/events/{pk}/pairs/NS1/", f"/results/{pk}/export.csv",
        f"/results/{pk}/export.usebio", f"/results/{pk}/export.travellers-csv",
        f"/clubs/{club.slug}/players/",
    ]  # fmt: skip
    for url in urls:
        answer = public.get(url)
        assert answer.status_code == 200, url
        body = answer.content.decode()
        _absent(body, url)
    standings = public.get(f"/results/{pk}/").content.decode()
    assert "S. O&#x27;N. &amp; a member" in standings
    # A member who chose initials has no public page under the full name.
    assert public.get(f"/clubs/{club.slug}/player/", {"name": INITIALS}).status_code == 404
    # The directors' pages keep the full name.
    assert "O&#x27;Neil" in director_client.get(f"/events/{pk}/").content.decode()


def test_the_tablets_name_the_opponents_as_they_chose(
    club: Club, director: Any, members: None
) -> None:
    event = make_event(club, user=director)
    pair = Pair.objects.get(section__event=event, number=1, direction="NS")
    pairs_register(event=event, names={pair.pk: (INITIALS, HIDDEN)}, user=director)
    shown = False
    for link in TableAccess.objects.filter(section__event=event):
        body = Client().get(f"/api/t/{link.token}/").content.decode()
        _absent(body, f"table {link.table}")
        shown = shown or "S. O'N." in body
    assert shown


def test_a_drives_public_pages_cards_display_and_tablets(
    club: Club, director: Any, director_client: Client, members: None
) -> None:
    drive = new_drive(club)
    drive_services.player_rename(drive=drive, number=1, name=INITIALS)
    drive_services.player_rename(drive=drive, number=2, name=HIDDEN)
    drive = play(drive, 1)
    base = f"/drives/{drive.pk}/"
    for url in (base, base + "?part=1", base + "display/", base + "display/?part=1",
                base + "players/1/", base + "players/2/", base + "players/3/"):  # fmt: skip
        answer = Client().get(url)
        assert answer.status_code == 200, url
        _absent(answer.content.decode(), url)
    assert "S. O&#x27;N." in Client().get(base).content.decode()
    for link in DriveTableAccess.objects.filter(drive=drive, revoked_at__isnull=True):
        _absent(Client().get(f"/api/d/{link.token}/").content.decode(), f"table {link.table}")
    assert INITIALS in director_client.get(f"/api/drives/{drive.pk}/").content.decode()


def test_a_team_page_and_the_league_table(club: Club, director: Any, members: None) -> None:
    league = team_services.league_create(club=club, name="League")
    week1 = team_services.tournament_create(
        club=club, name="W1", settings={"rotation": "round_robin", "rounds": 1}, league=league,
        teams=[{"name": "Aces", "player_one": INITIALS, "player_two": "Vic Visitor"},
               {"name": "Kings"}, {"name": "Queens"}, {"name": "Jacks"}],
    )  # fmt: skip
    week2 = team_services.tournament_create(
        club=club, name="W2", settings={"rotation": "round_robin", "rounds": 1}, league=league
    )
    team_services.team_change(tournament=week2, number=2, data={"player_one": HIDDEN})
    for week in (week1, week2):
        for number in (1, 2, 3, 4):
            team_services.team_arrive(tournament=week, number=number)
        team_services.tournament_start(tournament=week, seed=1)
        week.refresh_from_db()
        team_games.tournament_live(tournament=week, live=True)
    team = Client().get(f"/tournaments/{week1.pk}/teams/1/").content.decode()
    assert "S. O&#x27;N. &amp; Vic Visitor" in team
    _absent(team, "team page")
    week2.refresh_from_db()
    for table in (1, 2):
        team_games.game_enter(
            tournament=week2, table=table, score={"home_points": 7, "away_points": 1}
        )
    team_games.tournament_finish(tournament=week2)
    page = Client().get(f"/leagues/{league.pk}/")
    assert page.status_code == 200
    _absent(page.content.decode(), "league page")
