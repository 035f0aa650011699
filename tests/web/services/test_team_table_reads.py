"""The team tablets' prepared reads (`tournaments.teams.selectors.table_reads`) answer exactly
as the ORM calls they replace, row for row, through a round's entries and confirmations; the
game a write reads locked is the same row, FOR UPDATE on PostgreSQL; the SQL is Django's,
built once per connection."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from tests.web.conftest import make_tournament
from tournaments.teams.models import Tournament, TournamentGame
from tournaments.teams.selectors.table_reads import (
    games_confirmed,
    round_game,
    team_names_cities,
    tournament_now,
)
from tournaments.teams.services import tablets as team_tablets

pytestmark = pytest.mark.django_db

HOME_WINS = {"home_points": 7, "away_points": 3}


def _orm_game(tournament: Tournament, round_: int, table: int) -> TournamentGame | None:
    found: TournamentGame | None = TournamentGame.objects.filter(
        tournament=tournament, round=round_, table=table, match=""
    ).first()
    return found


def _as_orm_reads(tournament: Tournament) -> None:
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert model_to_dict(tournament_now(tournament.pk)) == model_to_dict(fresh)
    assert tournament_now(tournament.pk).version == fresh.version
    for table in (1, 2, 3, 4):
        mine, theirs = round_game(tournament, 1, table), _orm_game(tournament, 1, table)
        assert (mine and model_to_dict(mine)) == (theirs and model_to_dict(theirs))
    counted = TournamentGame.objects.filter(
        tournament=tournament,
        round=1,
        match="",
        status=TournamentGame.Status.CONFIRMED,
        table__gte=1,
    ).count()
    assert games_confirmed(tournament, 1) == counted
    numbers = [1, 2, 5, 99]  # 99: no such team
    assert team_names_cities(tournament, numbers) == {
        n: (name, city)
        for n, name, city in tournament.teams.filter(number__in=numbers).values_list(
            "number", "name", "city"
        )
    }


def test_each_read_answers_as_the_orm_through_a_round(club: Any, director: Any) -> None:
    tournament = make_tournament(club, teams=7, rounds=3, user=director)
    _as_orm_reads(tournament)
    assert round_game(tournament, 1, 1) is None and games_confirmed(tournament, 1) == 0

    team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=HOME_WINS)
    team_tablets.tablet_enter(tournament=tournament, table=2, side="away", score=HOME_WINS)
    team_tablets.tablet_confirm(tournament=tournament, table=2, side="home")
    _as_orm_reads(tournament)
    game = round_game(tournament, 1, 1)
    assert game is not None and game.status == TournamentGame.Status.ENTERED
    assert game.result == _orm_game(tournament, 1, 1).result  # type: ignore[union-attr]
    assert games_confirmed(tournament, 1) == 1
    assert team_names_cities(tournament, []) == {}


def test_an_unknown_tournament_is_refused_as_the_orm_refuses_it(db: Any) -> None:
    with pytest.raises(Tournament.DoesNotExist):
        tournament_now(987_654)


def test_a_write_reads_its_game_locked(club: Any, director: Any) -> None:
    from tournaments.teams.services.tablets import _ROUND_GAME_LOCKED

    tournament = make_tournament(club, teams=4, rounds=2, user=director)
    team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=HOME_WINS)
    with transaction.atomic(), CaptureQueriesContext(connection) as locked:
        found = _ROUND_GAME_LOCKED(tournament.pk, 1, 1)
    with CaptureQueriesContext(connection) as plain:
        assert round_game(tournament, 1, 1) is not None
    assert [model_to_dict(g) for g in found] == [model_to_dict(_orm_game(tournament, 1, 1))]  # type: ignore[arg-type]
    locks = connection.features.has_select_for_update
    assert ("FOR UPDATE" in locked.captured_queries[-1]["sql"]) is locks
    assert "FOR UPDATE" not in plain.captured_queries[-1]["sql"]


def test_the_sql_is_django_s_and_built_once_per_connection(club: Any, director: Any) -> None:
    from tournaments.teams.selectors import table_reads

    tournament = make_tournament(club, teams=4, rounds=2, user=director)
    with CaptureQueriesContext(connection) as ours:
        games_confirmed(tournament, 1)
        games_confirmed(tournament, 1)
    with CaptureQueriesContext(connection) as django:
        list(table_reads._CONFIRMED.build(tournament.pk, 1))
    assert [q["sql"] for q in ours.captured_queries] == [django.captured_queries[0]["sql"]] * 2
    assert list(table_reads._CONFIRMED._built[connections["default"]]) == [2]  # two values
