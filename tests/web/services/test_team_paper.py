"""A team tournament's paper from its rows: the team list at the door, the tables of the round
being played (the whole night for a fixed schedule), score sheets, the bracket; each refusal
says what to do first, and the director's page sends a refusal back to the tournament."""

from __future__ import annotations

import datetime as dt
import re
from io import BytesIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import Http404, HttpRequest
from django.test import RequestFactory
from pypdf import PdfReader

from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.selectors.money import cents_text, money_view
from tournaments.teams.selectors.teams import engine_for, round_of, tournament_state
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import teams as services
from tournaments.teams.services.paper import tournament_pdf
from tournaments.teams.services.teams import TeamsRefused
from tournaments.teams.views.paper import tournament_print

pytestmark = pytest.mark.django_db

TEAMS = [
    {"name": "Aces", "city": "Detroit", "player_one": "Ann Lee", "player_two": "Bob Ray"},
    {"name": "Kings", "city": "Detroit"},
    {"name": "Queens", "city": "Chicago"},
    {"name": "Jacks", "city": "Chicago"},
    {"name": "Jokers", "city": "Atlanta"},
    {"name": "Books", "city": "Atlanta"},
]
DAY = dt.date(2026, 4, 11)


def made(club: Club, **settings: Any) -> Tournament:
    return services.tournament_create(
        club=club,
        name="Spring Bid Whist",
        date=DAY,
        settings={"rotation": "ladder", "rounds": 3, "playoff": 4} | settings,
        teams=TEAMS,
    )


def drawn(club: Club, **settings: Any) -> Tournament:
    tournament = made(club, **settings)
    for number in range(1, len(TEAMS) + 1):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=7)
    tournament.refresh_from_db()
    return tournament


def play_round(tournament: Tournament) -> None:
    current = round_of(tournament, tournament.round)
    assert current is not None
    for pairing in current.tables:
        team_games.game_enter(
            tournament=tournament,
            table=pairing.table,
            score={"home_points": 7, "away_points": 3},
        )


def pages(pdf: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]


def width(pdf: bytes) -> int:
    return round(float(PdfReader(BytesIO(pdf)).pages[0].mediabox.width))


def test_the_team_list_prints_from_the_first_team_on(club: Club) -> None:
    tournament = made(club)
    services.team_arrive(tournament=tournament, number=2)
    TournamentTeam.objects.filter(tournament=tournament, number=3).update(paid_cents=2000)
    text = " ".join(pages(tournament_pdf(tournament=tournament, what="team-list")))
    assert "Spring Bid Whist" in text and "11 April 2026 · 6 teams · 12 players" in text
    assert "1 Aces Detroit Ann Lee & Bob Ray" in text and "6 Books Atlanta" in text
    assert "Here: 1 of 6. Paid: 1 of 6." in text
    empty = services.tournament_create(club=club, name="Later", settings={"rounds": 2})
    with pytest.raises(TeamsRefused, match="no teams yet: add them"):
        tournament_pdf(tournament=empty, what="team-list")


def test_before_the_draw_the_tables_and_sheets_say_to_draw_first(club: Club) -> None:
    tournament = made(club)
    with pytest.raises(TeamsRefused, match=r"No round has been drawn yet.*make the draw"):
        tournament_pdf(tournament=tournament, what="tables")
    with pytest.raises(TeamsRefused, match="score sheets for: tick each team in"):
        tournament_pdf(tournament=tournament, what="score-sheets")
    with pytest.raises(TeamsRefused, match="playoff is not seeded yet: seed it"):
        tournament_pdf(tournament=tournament, what="bracket")
    with pytest.raises(TeamsRefused, match="choose one of team-list, tables"):
        tournament_pdf(tournament=tournament, what="prizes")


def test_a_tournament_without_a_playoff_has_no_bracket(club: Club) -> None:
    tournament = services.tournament_create(
        club=club, name="No playoff", settings={"rounds": 2}, teams=TEAMS[:4]
    )
    with pytest.raises(TeamsRefused, match="no playoff, so there is no bracket"):
        tournament_pdf(tournament=tournament, what="bracket")


def test_a_drawn_round_prints_its_tables_and_a_sheet_per_table(club: Club) -> None:
    tournament = drawn(club)
    current = round_of(tournament, 1)
    assert current is not None
    names = {t.number: t.name for t in tournament.teams.all()}
    tables = pages(tournament_pdf(tournament=tournament, what="tables"))
    assert len(tables) == 1 and "Round 1 of 3" in tables[0]
    for pairing in current.tables:
        row = tables[0].split(f"Table {pairing.table} ", 1)[1]
        assert row.index(names[pairing.home]) < row.index(" v ") < row.index(names[pairing.away])
    sheets = pages(tournament_pdf(tournament=tournament, what="score-sheets"))
    assert len(sheets) == len(current.tables) == 3
    for pairing, text in zip(current.tables, sheets, strict=True):
        assert f"Score sheet · Round 1 · Table {pairing.table}" in text
        assert f"North-South (home): {names[pairing.home]}" in text
        assert f"East-West (away): {names[pairing.away]}" in text
        assert "Game: first team to 7 points, or the other team driven to -7." in text
        assert "We agree" in text and re.search(r"\b16 N E S W", text)
    # A round drawn by results prints only the round being played.
    play_round(tournament)
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    tables = pages(tournament_pdf(tournament=tournament, what="tables"))
    assert len(tables) == 1 and "Round 2 of 3" in tables[0] and "Round 1 of" not in tables[0]
    assert (
        "Score sheet · Round 2 · Table 1"
        in pages(tournament_pdf(tournament=tournament, what="score-sheets"))[0]
    )


def test_a_fixed_schedule_prints_the_whole_night(club: Club) -> None:
    tournament = drawn(club, rotation="round_robin", rounds=5, playoff=0)
    schedule = engine_for(tournament).schedule(7)
    names = {t.number: t.name for t in tournament.teams.all()}
    tables = pages(tournament_pdf(tournament=tournament, what="tables"))
    assert len(tables) == 5
    for number, (page, planned) in enumerate(zip(tables, schedule, strict=True), start=1):
        assert f"Round {number} of 5" in page
        for pairing in planned.tables:
            row = page.split(f"Table {pairing.table} ", 1)[1]
            assert row.index(names[pairing.home]) < row.index(names[pairing.away])
    # The score sheets stay the round being played's.
    assert len(pages(tournament_pdf(tournament=tournament, what="score-sheets"))) == 3


def test_a_game_of_hands_gets_a_row_a_hand_and_its_rule(club: Club) -> None:
    tournament = drawn(club, game={"kind": "hands", "value": 20}, forfeit_points=[20, 0])
    text = pages(tournament_pdf(tournament=tournament, what="score-sheets"))[0]
    assert "Game: 20 hands, then most points, then most hands won." in text
    assert re.search(r"\b22 N E S W", text) and not re.search(r"\b23 N E S W", text)


def test_the_bracket_prints_once_seeded_and_fills_in(club: Club) -> None:
    tournament = drawn(club)
    for number in (1, 2, 3):
        play_round(tournament)
        if number < 3:
            services.round_next(tournament=tournament)
            tournament.refresh_from_db()
    with pytest.raises(TeamsRefused, match="not seeded yet"):
        tournament_pdf(tournament=tournament, what="bracket")
    bracket = team_playoff.playoff_start(tournament=tournament)
    tournament.refresh_from_db()
    names = {t.number: t.name for t in tournament.teams.all()}
    pdf = tournament_pdf(tournament=tournament, what="bracket")
    text = pages(pdf)[0]
    assert width(pdf) > 800  # A4 turned sideways
    assert "Semi-finals" in text and "Final" in text and "winner of match 1" in text
    for match in bracket.rounds[0].matches:
        assert match.teams is not None
        assert all(names[team] in text for team in match.teams)
    for match in (1, 2, 3):
        team_playoff.playoff_enter(
            tournament=tournament, match=match, score={"home_points": 7, "away_points": 1}
        )
        tournament.refresh_from_db()
    text = pages(tournament_pdf(tournament=tournament, what="bracket"))[0]
    assert "winner of match" not in text and "✓" in text


def test_the_clubs_paper_unless_another_is_asked_for(club: Club) -> None:
    tournament = made(club)
    assert width(tournament_pdf(tournament=tournament, what="team-list")) == 595  # A4
    club.paper = Club.Paper.LETTER
    club.save(update_fields=["paper"])
    tournament.refresh_from_db()
    assert width(tournament_pdf(tournament=tournament, what="team-list")) == 612
    assert width(tournament_pdf(tournament=tournament, what="team-list", paper="a4")) == 595


def request_for(user: Any) -> HttpRequest:
    request = RequestFactory().get("/print")
    request.user = user
    request._messages = CookieStorage(request)  # type: ignore[attr-defined]
    return request


def test_the_page_serves_the_pdf_or_goes_back_with_the_reason(club: Club, director: Any) -> None:
    tournament = made(club)
    request = request_for(director)
    response = tournament_print(request, tournament.pk, "team-list")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f'filename="tournament-{tournament.pk}-team-list.pdf"' in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF-")
    request = request_for(director)
    response = tournament_print(request, tournament.pk, "tables")
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/manage/"
    told = [str(m) for m in request._messages]  # type: ignore[attr-defined]
    assert len(told) == 1 and told[0].startswith("No round has been drawn yet")
    with pytest.raises(Http404):
        tournament_print(request_for(director), tournament.pk, "prizes")
    stranger = get_user_model().objects.create_user("other", password="pw", is_staff=True)
    with pytest.raises(Http404):
        tournament_print(request_for(stranger), tournament.pk, "team-list")


def test_the_standings_and_prize_sheet_print_as_the_page_shows_them(club: Club) -> None:
    """Before the draw there is nothing to print; after a round the standings as they stand;
    at the end the final standings in the page's order, the prizes each place pays and who
    takes the Boston pot (it was a 404 before)."""
    tournament = made(
        club, rotation="round_robin", rounds=1, playoff=0, fee_cents=1000, prizes=[60, 40],
        pot_stake_cents=500,
    )  # fmt: skip
    with pytest.raises(TeamsRefused, match="make the draw, then print the standings"):
        tournament_pdf(tournament=tournament, what="standings")
    for number in range(1, len(TEAMS) + 1):
        services.team_arrive(tournament=tournament, number=number, paid_cents=2000, in_pot=True)
    services.tournament_start(tournament=tournament, seed=7)
    tournament.refresh_from_db()
    (running,) = pages(tournament_pdf(tournament=tournament, what="standings"))
    assert "after round 1" in running and "No game counts yet" in running
    play_round(tournament)
    team_games.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    (final,) = pages(tournament_pdf(tournament=tournament, what="standings"))
    assert "final standings" in final and "6 teams" in final
    state = tournament_state(tournament)
    order = [final.index(row.team.name) for row in state.standings]
    assert order == sorted(order)  # the page's order
    money = money_view(tournament, state.standings)
    for prize in money.prizes:
        assert f"{prize.team} {cents_text(prize.cents)}" in final
    assert "Boston pot: 60.00." in final and money.pot_text in final
