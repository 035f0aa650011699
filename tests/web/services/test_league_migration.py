"""Migration 0016 numbers the teams of the leagues already kept: week 1's by their number, a
later week's by their name among the league's teams (so a week whose numbers moved because a
team was taken off still counts each game for the team that played it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0015_drive_tournament_audit_user_name")]
AFTER = [("tournaments", "0016_league_team")]


@pytest.fixture(autouse=True)
def _latest_afterwards() -> Iterator[None]:
    """The database back at the latest migration after the test, whatever it ran to: the
    tests after it in the same process need every column the models have."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _migrate(target: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_the_leagues_kept_before_get_their_teams_league_numbers() -> None:
    apps = _migrate(BEFORE)
    club = apps.get_model("tournaments", "Club").objects.create(name="Old club", slug="old")
    league = apps.get_model("tournaments", "League").objects.create(club=club, name="Old league")
    tournament_model = apps.get_model("tournaments", "Tournament")
    team_model = apps.get_model("tournaments", "TournamentTeam")
    one = tournament_model.objects.create(club=club, league=league, week=1, name="Week 1")
    two = tournament_model.objects.create(club=club, league=league, week=2, name="Week 2")
    lone = tournament_model.objects.create(club=club, week=1, name="No league")
    for number, name in enumerate(["Aces", "Kings", "Queens"], start=1):
        team_model.objects.create(tournament=one, number=number, name=name)
    # Week 2: Kings were taken off, Queens moved up to number 2.
    team_model.objects.create(tournament=two, number=1, name="Aces")
    team_model.objects.create(tournament=two, number=2, name="queens")
    team_model.objects.create(tournament=lone, number=1, name="Aces")

    apps = _migrate(AFTER)
    team_model = apps.get_model("tournaments", "TournamentTeam")
    assert team_model.objects.get(tournament__name="Week 2", number=2).league_team == 3
    assert team_model.objects.get(tournament__name="Week 1", number=2).league_team == 2
    assert team_model.objects.get(tournament__name="No league").league_team is None
    assert set(team_model.objects.filter(name="Aces").values_list("league_team", flat=True)) == {
        1,
        None,
    }
