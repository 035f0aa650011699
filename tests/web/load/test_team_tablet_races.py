"""A team tournament's tablets acting at the same moment (on PostgreSQL): the round's last
confirmations arriving together draw the next round exactly once, and one table's game sent by
both teams' devices at once is stored once.

The tablets' writes lock only their table's game, not the tournament (a room of 100 tables
would queue behind it): each confirmation counts the round again after its own has committed,
under the tournament's lock, so whichever counts last sees every table and the others find the
round drawn; and the one-game-per-table constraint turns a second insert into a re-read.
"""

from __future__ import annotations

import pytest

from tests.web.load.test_drive_tablet_races import together
from tournaments.kernel.models import Club
from tournaments.teams.models import Tournament, TournamentGame, TournamentRound
from tournaments.teams.services import games as team_games
from tournaments.teams.services import tablets as team_tablets
from tournaments.teams.services import teams as services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SCORE = {"home_points": 7, "away_points": 3}


def drawn(club: Club, teams: int) -> Tournament:
    tournament = services.tournament_create(
        club=club,
        name="Race teams",
        settings={"rotation": "swiss", "rounds": 3},
        teams=[{"name": f"Team {n}"} for n in range(1, teams + 1)],
    )
    for number in range(1, teams + 1):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=5)
    team_games.moves_on_set(tournament=tournament, on=True)
    tournament.refresh_from_db()
    return tournament


def test_the_last_confirmations_together_draw_the_next_round_once(club: Club) -> None:
    tournament = drawn(club, 16)
    for table in range(1, 9):
        team_tablets.tablet_enter(tournament=tournament, table=table, side="home", score=SCORE)
    answers = together(
        [
            lambda table=table: team_tablets.tablet_confirm(
                tournament=tournament, table=table, side="away"
            )
            for table in range(1, 9)
        ]
    )
    assert not [a for a in answers if isinstance(a, Exception)], answers
    tournament.refresh_from_db()
    assert tournament.round == 2
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    assert (
        TournamentGame.objects.filter(tournament=tournament, round=1, status="confirmed").count()
        == 8
    )


def test_both_teams_entering_at_once_store_one_game(club: Club) -> None:
    tournament = drawn(club, 16)
    calls = [
        lambda table=table, side=side: team_tablets.tablet_enter(
            tournament=tournament, table=table, side=side, score=SCORE
        )
        for table in range(1, 9)
        for side in ("home", "away")
    ]
    answers = together(calls)
    assert not [a for a in answers if isinstance(a, Exception)], answers
    # One game a table, counted at once: the second device found the first's and agreed.
    for table in range(1, 9):
        games = TournamentGame.objects.filter(tournament=tournament, round=1, table=table)
        assert games.count() == 1 and games.get().status == "confirmed"
    assert sorted(new for _, new in answers) == [False] * 8 + [True] * 8
