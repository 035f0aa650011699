"""A team tournament's room read at once (`room_states`, what the tablets' streams send at a
draw) gives every table exactly what its own reading (`table_state`, what a poll and the
API send) gives: before anything is entered, with games waiting, confirmed and counted, with
a team sitting out and a table beyond the round's, after the next draw (where each team
moves), and whatever its own reading would have asked of the database, in far fewer queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.web.conftest import make_tournament
from tournaments.teams.models import Tournament
from tournaments.teams.selectors.room import room_states, table_state
from tournaments.teams.selectors.teams import round_of
from tournaments.teams.services import tablets as team_tablets
from tournaments.teams.services.games import game_enter
from tournaments.teams.services.teams import links_ensure, round_next

pytestmark = pytest.mark.django_db

HOME_WINS = {"home_points": 7, "away_points": 3}
AWAY_WINS = {"home_points": 2, "away_points": 7}
TABLES = [1, 2, 3, 4]  # seven teams: three games and a team sitting out; table 4 has none


def _same(tournament: Tournament) -> dict[int, dict[str, Any]]:
    tournament.refresh_from_db()
    together = room_states(tournament, TABLES)
    alone = {table: table_state(tournament, table) for table in TABLES}
    for states in (together, alone):
        for state in states.values():
            state.pop("server_time")  # the clock's second, read at each
    assert together == alone
    return together


def test_a_rooms_reading_gives_every_table_what_its_own_reading_gives(
    club: Any, director: Any
) -> None:
    tournament = make_tournament(club, teams=7, rounds=3, user=director)
    links_ensure(tournament, len(TABLES))
    first = _same(tournament)
    assert first[4]["sitting_out"] is True and first[1]["home"] is not None

    # table 1 waits for the other team; table 2 counts; table 3 is entered by the director
    team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=HOME_WINS)
    team_tablets.tablet_enter(tournament=tournament, table=2, side="away", score=AWAY_WINS)
    team_tablets.tablet_confirm(tournament=tournament, table=2, side="home")
    game_enter(tournament=tournament, table=3, score=HOME_WINS, user=director)
    waiting = _same(tournament)
    assert waiting[1]["game"] is not None and waiting[2]["done"] == 2
    # mid-round, no table's phone shows a result: standings only through finished rounds
    assert all(
        state["standings_round"] == 0 and not state["standings"] for state in waiting.values()
    )

    team_tablets.tablet_confirm(tournament=tournament, table=1, side="away")
    over = _same(tournament)
    assert over[1]["standings_round"] == 1 and over[1]["standings"]

    round_next(tournament=tournament, user=director)
    tournament.refresh_from_db()
    drawn = round_of(tournament, 2)
    assert drawn is not None
    second = _same(tournament)
    assert second[1]["round"] == 2 and second[1]["moves"]

    with CaptureQueriesContext(connection) as together:
        room_states(tournament, TABLES)
    with CaptureQueriesContext(connection) as alone:
        for table in TABLES:
            table_state(tournament, table)
    assert len(together) <= 6 < len(alone)


@pytest.mark.django_db(transaction=True)
def test_a_round_read_after_its_draw_is_kept_and_one_read_inside_a_draw_is_not(
    club: Any, director: Any
) -> None:
    """A committed round is read from the database once a process; one read inside a
    transaction (a draw that may yet be rolled back) is read again the next time."""
    from django.db import transaction

    from tournaments.teams.selectors import teams as team_selectors

    tournament = make_tournament(club, teams=6, rounds=3, user=director)
    with transaction.atomic():
        assert round_of(tournament, 1) is not None
        with CaptureQueriesContext(connection) as inside:
            round_of(tournament, 1)
    assert len(inside) == 1  # read again: nothing read in a transaction is kept
    first = round_of(tournament, 1)
    with CaptureQueriesContext(connection) as after:
        again = round_of(tournament, 1)
    assert again == first and len(after) == 0
    assert round_of(tournament, 2) is None  # not drawn: nothing kept for it
    key = (tournament.pk, tournament.created_at.isoformat(), 2)
    assert key not in team_selectors._ROUNDS
