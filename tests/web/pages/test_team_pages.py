"""A team tournament's pages: the director's set-up form, the door, the round with its
tables and forms, the public standings with the tie-break rule, a team's games, a league's
table through week N, and the tablet page; the API for scripts. Refusals show their text and
change nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from tournaments.kernel.models import Club
from tournaments.teams.models import (
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentTableAccess,
)
from tournaments.teams.selectors.teams import tournament_state
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as services

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Friday teams",
    "rotation": "swiss",
    "rounds": "3",
    "game_kind": "target",
    "game_value": "7",
    "scoring": "fosdick",
    "bye": "win",
    "grace_minutes": "10",
    "keys": "wins, points, hands, bostons, head_to_head",
    "fee": "10.00",
    "house_percent": "10",
    "prizes": "60 40",
    "pot_stake": "5",
    "playoff": "0",
    "teams": "Aces; Detroit; Ann; Bob\nKings; Chicago\nQueens\nJacks; Atlanta; Cy; Di",
}


def test_the_form_makes_a_tournament_with_its_teams(director_client: Client) -> None:
    response = director_client.post("/tournaments/new/", FORM)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.settings["fee_cents"] == 1000 and tournament.settings["prizes"] == [60, 40]
    assert list(tournament.teams.values_list("name", "city")) == [
        ("Aces", "Detroit"), ("Kings", "Chicago"), ("Queens", ""), ("Jacks", "Atlanta")
    ]  # fmt: skip
    page = director_client.get(response["Location"])
    assert page.status_code == 200
    assert b"Teams at the door (4)" in page.content and b"Make the draw" in page.content


def test_a_refused_form_says_why_and_makes_nothing(director_client: Client) -> None:
    response = director_client.post("/tournaments/new/", FORM | {"prizes": "60 30"})
    assert response.status_code == 200
    assert b"must add up to 100, not 90" in response.content
    assert not Tournament.objects.exists()


def _running(club: Club, director: Any) -> Tournament:
    tournament = services.tournament_create(
        club=club, name="Club teams", settings={"rotation": "swiss", "rounds": 2},
        teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks", "Jokers")],
    )  # fmt: skip
    for number in range(1, 6):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=3)
    tournament.refresh_from_db()
    return tournament


def test_the_round_page_enters_a_score_and_shows_the_standings(
    club: Club, director: Any, director_client: Client
) -> None:
    tournament = _running(club, director)
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/")
    assert b"Round 1 of 2" in page.content and b"Bye this round" in page.content
    assert b"0 of 2 tables done" in page.content
    bad = director_client.post(
        f"/tournaments/{tournament.pk}/manage/enter/",
        {"table": "1", "round": "1", "home_points": "4", "away_points": "3"},
        follow=True,
    )
    assert b"Table 1:" in bad.content
    assert not TournamentGame.objects.filter(tournament=tournament, table=1).exists()
    director_client.post(
        f"/tournaments/{tournament.pk}/manage/enter/",
        {"table": "1", "round": "1", "home_points": "7", "away_points": "3"},
    )
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/")
    assert b"1 of 2 tables done" in page.content
    assert b"Ranked by games won" in page.content


def test_the_public_page_is_private_until_live_or_published(
    club: Club, director: Any, client: Client
) -> None:
    tournament = _running(club, director)
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    team_games.tournament_live(tournament=tournament, live=True)
    page = client.get(f"/tournaments/{tournament.pk}/")
    assert page.status_code == 200
    assert (
        b"Round 1 of 2 is being played" in page.content and b"Ranked by games won" in page.content
    )
    team = client.get(f"/tournaments/{tournament.pk}/teams/1/")
    assert team.status_code == 200 and b"Aces" in team.content


def test_the_tablet_page_and_its_api(club: Club, director: Any, client: Client) -> None:
    tournament = _running(club, director)
    link = TournamentTableAccess.objects.get(tournament=tournament, table=1)
    page = client.get(f"/tt/{link.token}/")
    assert page.status_code == 200 and b"team-table.js" in page.content
    state = json.loads(client.get(f"/api/tt/{link.token}/").content)
    assert state["round"] == 1 and state["home"]["name"] and state["game"] is None
    refused = client.post(
        f"/api/tt/{link.token}/enter/",
        {"side": "home", "score": {"home_points": 5, "away_points": 5}},
        content_type="application/json",
    )
    assert refused.status_code == 400 and "detail" in refused.json()
    sent = client.post(
        f"/api/tt/{link.token}/enter/",
        {"side": "home", "score": {"home_points": 7, "away_points": 5}},
        content_type="application/json",
    )
    assert sent.status_code == 201 and sent.json()["game"]["status"] == "entered"
    differ = client.post(
        f"/api/tt/{link.token}/enter/",
        {"side": "away", "score": {"home_points": 7, "away_points": 6}},
        content_type="application/json",
    )
    assert differ.status_code == 409 and differ.json()["state"]["game"]["points"] == [7, 5]
    ok = client.post(
        f"/api/tt/{link.token}/confirm/", {"side": "away"}, content_type="application/json"
    )
    assert ok.status_code == 200 and ok.json()["game"]["status"] == "confirmed"
    assert client.get("/api/tt/no-such-token/").status_code == 404


def test_the_director_api_runs_a_round(director_client: Client) -> None:
    made = director_client.post(
        "/api/tournaments/",
        {"name": "API teams", "settings": {"rotation": "round_robin", "rounds": 3},
         "teams": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}]},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    pk = made.json()["tournament"]["id"]
    refused = director_client.post(
        f"/api/tournaments/{pk}/start/", {}, content_type="application/json"
    )
    assert refused.status_code == 400 and "Not here yet" in refused.json()["detail"]
    for number in (1, 2, 3, 4):
        director_client.post(
            f"/api/tournaments/{pk}/teams/{number}/arrive/", {}, content_type="application/json"
        )
    started = director_client.post(
        f"/api/tournaments/{pk}/start/", {"seed": 1}, content_type="application/json"
    )
    assert started.status_code == 200 and len(started.json()["round"]["tables"]) == 2
    for table in (1, 2):
        answer = director_client.post(
            f"/api/tournaments/{pk}/games/",
            {"table": table, "score": {"home_points": 7, "away_points": 2}},
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
    nxt = director_client.post(f"/api/tournaments/{pk}/next/", content_type="application/json")
    assert nxt.json()["tournament"]["round"] == 2
    standings = director_client.get(f"/api/tournaments/{pk}/standings/").json()
    assert [row["won"] for row in standings["standings"]][:2] == [1, 1]


def test_the_csv_files_for_other_programs(club: Club, director: Any, client: Client) -> None:
    tournament = _running(club, director)
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 3}
    )
    team_games.tournament_live(tournament=tournament, live=True)
    services.team_change(tournament=tournament, number=2, data={"name": "=SUM(A1)"})
    standings = client.get(f"/tournaments/{tournament.pk}/standings.csv")
    assert standings["Content-Type"].startswith("text/csv")
    assert standings.content.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs
    lines = standings.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("rank,tied,team,name,city,played,won")
    assert len(lines) == 6 and "'=SUM(A1)" in standings.content.decode()
    games = (
        client.get(f"/tournaments/{tournament.pk}/games.csv")
        .content.decode("utf-8-sig")
        .splitlines()
    )
    # The bye and table 1's game count; table 2's is not in.
    assert len(games) == 3 and ",7,3," in games[1] + games[2]
    assert client.get(f"/tournaments/{tournament.pk}/hands.csv").status_code == 404


def test_the_public_page_refreshes_its_standings_while_games_come_in(
    club: Club, director: Any, client: Client
) -> None:
    tournament = _running(club, director)
    team_games.tournament_live(tournament=tournament, live=True)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-part="?part=1"' in page and "drive-live.js" in page
    before = client.get(f"/tournaments/{tournament.pk}/?part=1").content.decode()
    assert "0 of 2 tables done" in before and "<h1>" not in before
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 0}
    )
    after = client.get(f"/tournaments/{tournament.pk}/?part=1").content.decode()
    assert "1 of 2 tables done" in after


def test_a_league_page_through_week_two_and_final(club: Club, client: Client) -> None:
    league = services.league_create(club=club, name="Winter league")
    for week in (1, 2, 3):
        tournament = services.tournament_create(
            club=club,
            name=f"Week {week}",
            settings={"rotation": "round_robin", "rounds": 1},
            teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")] if week == 1 else (),
            league=league,
        )
        for number in (1, 2, 3, 4):
            services.team_arrive(tournament=tournament, number=number)
        services.tournament_start(tournament=tournament, seed=week)
        tournament.refresh_from_db()
        for table in (1, 2):
            team_games.game_enter(
                tournament=tournament, table=table, score={"home_points": 7, "away_points": 1}
            )
        team_games.tournament_finish(tournament=tournament)
        team_games.tournament_publish(tournament=tournament)
    two = client.get(f"/leagues/{league.pk}/?week=2").content.decode()
    assert "Standings through week 2" in two
    rows = two.count('id="standing-')
    assert rows == 4 and ">2<" in two  # two games played each
    final = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Final standings" in final and "Through week 3" in final
    # Week 4 is being played, its standings private: readers still see weeks 1 to 3 only.
    fourth = services.tournament_create(
        club=club, name="Week 4", settings={"rotation": "round_robin", "rounds": 1}, league=league
    )
    for number in (1, 2, 3, 4):
        services.team_arrive(tournament=fourth, number=number)
    services.tournament_start(tournament=fourth, seed=4)
    team_games.game_enter(tournament=fourth, table=1, score={"home_points": 7, "away_points": 1})
    again = client.get(f"/leagues/{league.pk}/?week=4").content.decode()
    played = re.findall(
        r'id="standing-\d+"><td>[^<]*</td><td>.*?</td><td class="num">(\d+)<', again
    )
    assert "Through week 4" not in again and played == ["3", "3", "3", "3"]


def test_the_money_the_prizes_and_the_boston_pot(
    club: Club, director: Any, director_client: Client
) -> None:
    tournament = services.tournament_create(
        club=club, name="Money night",
        settings={"rotation": "round_robin", "rounds": 1, "fee_cents": 1000,
                  "house_percent": 10, "prizes": [60, 40], "pot_stake_cents": 500},
        teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
    )  # fmt: skip
    for number in (1, 2, 3, 4):
        services.team_arrive(
            tournament=tournament, number=number, paid_cents=2000, in_pot=number <= 2
        )
    services.tournament_start(tournament=tournament, seed=1)
    tournament.refresh_from_db()
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/").content.decode()
    assert "So far: No Boston yet: the stakes go back to the teams." in page
    boston = {"declarer": "N", "bid": 7, "kind": "uptown", "trumps": "S", "books": 13}
    first = team_games.game_enter(tournament=tournament, table=1, hands=[boston])
    team_games.game_enter(
        tournament=tournament, table=2, score={"home_points": 7, "away_points": 2}
    )
    team_games.tournament_finish(tournament=tournament)
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/").content.decode()
    # 4 teams, 8 players at 10.00: 80.00 paid; the club keeps 10 %: a fund of 72.00, 60/40.
    assert "80.00 paid of 80.00" in page and "Prize fund 72.00" in page
    assert "43.20" in page and "28.80" in page
    # The pot: two teams in, 2 players x 5.00 each: 20.00, to the team with the Boston.
    winner = tournament.teams.get(number=first.home).name
    pot = page[page.index('id="pot"') :]
    assert "20.00 from 2 teams" in pot and winner in pot.split("</p>")[0]


def test_a_replaced_link_stops_working_and_the_new_one_works(
    club: Club, director: Any, director_client: Client, client: Client
) -> None:
    tournament = _running(club, director)
    old = TournamentTableAccess.objects.get(tournament=tournament, table=2).token
    director_client.post(f"/tournaments/{tournament.pk}/manage/tablets/2/replace/")
    new = TournamentTableAccess.objects.get(
        tournament=tournament, table=2, revoked_at__isnull=True
    ).token
    assert new != old
    assert client.get(f"/api/tt/{old}/").status_code == 403
    assert client.get(f"/tt/{old}/").status_code == 410
    assert client.get(f"/api/tt/{new}/").json()["table"] == 2
    refused = director_client.post(
        f"/tournaments/{tournament.pk}/manage/tablets/9/replace/", follow=True
    )
    assert b"There is no table 9" in refused.content


def test_the_json_document_is_for_the_directors(
    club: Club, director: Any, director_client: Client, client: Client
) -> None:
    tournament = _running(club, director)
    made = director_client.get(f"/tournaments/{tournament.pk}/manage/export/json/")
    assert made["Cache-Control"] == "private, no-store"
    document = json.loads(made.content)
    assert document["format"] == "clubwhist-tournament"
    assert [t["name"] for t in document["teams"]][:2] == ["Aces", "Kings"]
    via_api = director_client.get(f"/api/tournaments/{tournament.pk}/export/json")
    assert json.loads(via_api.content)["tournament"]["name"] == "Club teams"
    team_games.tournament_live(tournament=tournament, live=True)
    assert client.get(f"/tournaments/{tournament.pk}/manage/export/json/").status_code == 302
    assert client.get(f"/api/tournaments/{tournament.pk}/export/json").status_code == 403


def test_a_team_is_corrected_at_the_door(director_client: Client) -> None:
    director_client.post("/tournaments/new/", FORM)
    tournament = Tournament.objects.get()
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/").content.decode()
    assert 'id="change-3"' in page
    director_client.post(
        f"/tournaments/{tournament.pk}/manage/teams/",
        {"action": "change", "number": "3", "name": "Queens of Spades", "city": "Memphis"},
    )
    assert tournament.teams.get(number=3).name == "Queens of Spades"
    twin = director_client.post(
        f"/tournaments/{tournament.pk}/manage/teams/",
        {"action": "change", "number": "4", "name": "queens of spades"},
        follow=True,
    )
    assert b"Two teams are called" in twin.content
    assert tournament.teams.get(number=4).name == "Jacks"


def test_a_drafts_settings_change_in_the_same_form(director_client: Client) -> None:
    director_client.post("/tournaments/new/", FORM)
    tournament = Tournament.objects.get()
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/settings/").content.decode()
    assert 'value="10.00"' in page and 'value="60 40"' in page and "Save the settings" in page
    fields = {k: v for k, v in FORM.items() if k not in ("name", "teams")}
    refused = director_client.post(
        f"/tournaments/{tournament.pk}/manage/settings/", fields | {"rounds": "0"}
    )
    assert refused.status_code == 200
    saved = director_client.post(
        f"/tournaments/{tournament.pk}/manage/settings/", fields | {"rounds": "4"}
    )
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert tournament.settings["rounds"] == 4 and tournament.settings["fee_cents"] == 1000


def test_the_room_display_shows_the_round_and_refreshes(
    club: Club, director: Any, director_client: Client
) -> None:
    tournament = _running(club, director)
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/room/").content.decode()
    assert "drive-room.js" in page and "Round 1 of 2 · 0 of 2 tables done" in page
    assert "Bye</span>: " in page
    team_games.game_enter(
        tournament=tournament, table=2, score={"home_points": 7, "away_points": 2}
    )
    part = director_client.get(f"/tournaments/{tournament.pk}/manage/room/?part=1").content.decode()
    assert "1 of 2 tables done" in part and "<html" not in part


def test_the_team_tablets_service_worker_keeps_their_pages(client: Client) -> None:
    worker = client.get("/tt/sw.js")
    body = worker.content.decode()
    assert worker["Service-Worker-Allowed"] == "/tt/" and "var SCOPE = '/tt/';" in body
    files = next(line for line in body.splitlines() if line.startswith("var FILES"))
    assert "team\\u002Dtable.js" in files and "clubwhist-team-table-" in body


def test_the_boston_pot_from_the_first_tick_at_the_door_to_the_money_box(
    club: Club, director: Any, director_client: Client
) -> None:
    """Teams join the pot at the door; the director's page shows the pot from the first tick
    (it once answered 500 there: nobody is ranked before the draw), keeps saying who is in it
    after the draw, and at the end names the team that takes it and how much."""
    tournament = services.tournament_create(
        club=club, name="Pot night",
        settings={"rotation": "round_robin", "rounds": 1, "pot_stake_cents": 250},
        teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
    )  # fmt: skip
    page_url = f"/tournaments/{tournament.pk}/manage/"
    door = f"/tournaments/{tournament.pk}/manage/teams/"
    first = {"action": "arrive", "number": "1", "present": "yes", "paid": "", "in_pot": "yes"}
    director_client.post(door, first)
    answer = director_client.get(page_url)
    assert answer.status_code == 200
    page = answer.content.decode()
    # One team in: 2 players x 2.50 = 5.00, nobody has made a Boston yet.
    assert "Boston pot: 5.00 from 1 team." in page and "So far: No Boston yet" in page
    assert "In the pot: Aces." in page
    for number in ("2", "3", "4"):
        ticks = {"action": "arrive", "number": number, "present": "yes", "paid": ""}
        director_client.post(door, ticks | ({"in_pot": "yes"} if number == "3" else {}))
    page = director_client.get(page_url).content.decode()
    assert "Boston pot: 10.00 from 2 teams." in page and "In the pot: Aces, Queens." in page
    director_client.post(f"/tournaments/{tournament.pk}/manage/start/", {"confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    page = director_client.get(page_url).content.decode()
    assert "In the pot: Aces, Queens." in page  # the door list is gone; the pot is not
    # Queens' table: a Boston (all 13 books) for whichever side Queens sit.
    drawn = [team_games.pairing_of(tournament, 1, table) for table in (1, 2)]
    queens_table = next(p for p in drawn if 3 in (p.home, p.away))
    boston_seat = "N" if queens_table.home == 3 else "E"
    boston = {"declarer": boston_seat, "bid": 7, "kind": "uptown", "trumps": "S", "books": 13}
    team_games.game_enter(tournament=tournament, table=queens_table.table, hands=[boston])
    other = 2 if queens_table.table == 1 else 1
    team_games.game_enter(
        tournament=tournament, table=other, score={"home_points": 7, "away_points": 4}
    )
    team_games.tournament_finish(tournament=tournament)
    page = director_client.get(page_url).content.decode()
    pot = page[page.index('id="pot"') :].split("</p>")[0]
    assert "Boston pot: 10.00 from 2 teams." in pot
    assert "Queens takes it (10.00) with 1 Boston." in pot


def test_a_game_of_an_earlier_round_is_corrected_from_the_page_with_a_reason(
    club: Club, director: Any, director_client: Client
) -> None:
    """Round 2 is being played; the director finds round 1's table 1 was mis-scored. The page
    lists round 1's games with a form each; without a reason nothing changes and the page says
    why; with one the standings change, round 2 stays as drawn and the audit keeps both."""
    tournament = _running(club, director)
    for table in (1, 2):
        team_games.game_enter(
            tournament=tournament, table=table, score={"home_points": 7, "away_points": 3}
        )
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    url = f"/tournaments/{tournament.pk}/manage/"
    page = director_client.get(url).content.decode()
    assert 'id="earlier-rounds"' in page and 'id="earlier-1-1"' in page
    assert "Correct round 1, table 1" in page
    first = TournamentGame.objects.get(tournament=tournament, round=1, table=1)
    drawn = list(tournament.rounds.get(number=2).tables["tables"])
    before = {r.team.name: r.won for r in tournament_state(tournament).standings}
    swapped = {"table": "1", "round": "1", "home_points": "2", "away_points": "7"}
    refused = director_client.post(f"{url}enter/", swapped, follow=True).content.decode()
    assert "reason" in refused.lower()
    first.refresh_from_db()
    assert first.score == {"home_points": 7, "away_points": 3}
    done = director_client.post(
        f"{url}enter/", swapped | {"reason": "sheet misread"}, follow=True
    ).content.decode()
    assert "Round 1, table 1: corrected." in done
    first.refresh_from_db()
    assert first.score == {"home_points": 2, "away_points": 7}
    after = {r.team.name: r.won for r in tournament_state(tournament).standings}
    home, away = first.home, first.away
    names = dict(tournament.teams.values_list("number", "name"))
    assert after[names[home]] == before[names[home]] - 1
    assert after[names[away]] == before[names[away]] + 1
    assert list(tournament.rounds.get(number=2).tables["tables"]) == drawn
    (audit,) = TournamentAudit.objects.filter(tournament=tournament, action="game-correct")
    assert audit.reason.startswith("sheet misread") and "it stays as drawn" in audit.reason
    assert audit.before is not None and audit.after is not None


def test_the_clubs_rules_from_the_form_and_a_tie_played_off_from_the_page_and_the_api(
    director_client: Client,
) -> None:
    """The set-up form takes the clubs' rules; once the rounds are over the standings box has
    a form for each place two teams share, and the API takes the same game."""
    form = FORM | {
        "rounds": "1", "keys": "wins, points", "sets_lose": "2", "backdoor_points": "5",
        "pot_no_boston": "record", "tie_games": "on", "playoff": "4",
        "playoff_third_place": "on", "playoff_best_of": "3",
    }  # fmt: skip
    response = director_client.post("/tournaments/new/", form)
    assert response.status_code == 302, response.content
    tournament = Tournament.objects.get()
    s = tournament.settings
    assert (s["game"]["sets_lose"], s["backdoor_points"], s["pot_no_boston"]) == (2, 5, "record")
    assert (s["tie_games"], s["playoff_third_place"], s["playoff_best_of"]) == (True, True, 3)
    for number in (1, 2, 3, 4):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=4)
    tournament.refresh_from_db()
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/")
    assert b"tie-game" not in page.content  # nothing is tied before the round is over
    for table in (1, 2):
        team_games.game_enter(
            tournament=tournament, table=table, score={"home_points": 7, "away_points": 3}
        )
    page = director_client.get(f"/tournaments/{tournament.pk}/manage/")
    assert page.content.count(b'class="inline-form tie-game"') == 2  # places 1 and 3
    rows = tournament_state(tournament).standings
    first, second = rows[0].team.number, rows[1].team.number
    saved = director_client.post(
        f"/tournaments/{tournament.pk}/manage/tie/",
        {"home": first, "away": second, "home_points": "2", "away_points": "7"},
    )
    assert saved.status_code == 302
    rows = tournament_state(tournament).standings
    assert (rows[0].team.number, rows[1].decided_by) == (second, "play-off game")
    third, fourth = rows[2].team.number, rows[3].team.number
    answer = director_client.post(
        f"/api/tournaments/{tournament.pk}/tie/",
        {"teams": [third, fourth], "score": {"home_points": 7, "away_points": 1}},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert [row["team"] for row in answer.json()["standings"]][2:] == [third, fourth]
    refused = director_client.post(
        f"/api/tournaments/{tournament.pk}/tie/",
        {"teams": [first, third], "score": {"home_points": 7, "away_points": 1}},
        content_type="application/json",
    )
    assert refused.status_code == 400 and "not tied for a place" in refused.json()["detail"]


def test_a_game_lost_on_two_sets_from_the_directors_form_and_the_tablet(
    club: Club, director_client: Client, client: Client
) -> None:
    """With two sets losing, a score sheet's -4 to -6, the away team set twice, is the home
    team's win from the director's form; at a tablet the same figures with the sets count as
    entered, and the table's state tells the tablet to ask for the sets."""
    tournament = services.tournament_create(
        club=club, name="Sets", teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
        settings={"rotation": "swiss", "rounds": 1, "game": {"sets_lose": 2}},
    )  # fmt: skip
    for number in (1, 2, 3, 4):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=1)
    tournament.refresh_from_db()
    sheet = {"home_points": "-4", "away_points": "-6", "home_sets": "1", "away_sets": "2"}
    director_client.post(
        f"/tournaments/{tournament.pk}/manage/enter/", {"table": "1", "round": "1"} | sheet
    )
    game = TournamentGame.objects.get(tournament=tournament, table=1)
    assert game.result["winner"] == game.home and game.result["points"] == [-4, -6]  # type: ignore[index]
    token = TournamentTableAccess.objects.get(tournament=tournament, table=2).token
    state = client.get(f"/api/tt/{token}/").json()
    assert state["sets_lose"] == 2
    entered = client.post(
        f"/api/tt/{token}/enter/",
        {"side": "home", "score": {"home_points": -3, "away_points": 0, "home_sets": 2}},
        content_type="application/json",
    )
    assert entered.status_code == 201, entered.content
    game = TournamentGame.objects.get(tournament=tournament, table=2)
    assert game.result["winner"] == game.away  # type: ignore[index]
