"""The standings: each tie-break shown to decide, shared ranks, a league through week N, byes,
forfeits and withdrawals, and refusals."""

from __future__ import annotations

import pytest

from engine.teams.game import TeamGame
from engine.teams.model import GameResult, ResultKind, Team, TeamsError
from engine.teams.ranking import DEFAULT_KEYS, standings, tie_break_text


def teams(count: int) -> list[Team]:
    return [Team(number, f"Team {number}") for number in range(1, count + 1)]


def won(
    round_: int,
    winner: int,
    loser: int,
    points: tuple[int, int] = (7, 3),
    hands: tuple[int, int] = (3, 1),
    bostons: tuple[int, int] = (0, 0),
    week: int = 1,
    **extra: object,
) -> GameResult:
    """`winner` (home) beat `loser`; figures are the winner's first."""
    return GameResult(round_, 1, winner, loser, winner, points, hands, bostons, week=week, **extra)  # type: ignore[arg-type]


def table(rows):
    return [(row.rank, row.team.number, row.decided_by) for row in rows]


# ---- each tie-break deciding ----------------------------------------------------------------


def test_wins_tie_and_points_decide():
    results = [
        won(1, 1, 3, (7, 2)),
        won(1, 2, 4, (7, 5)),
        won(2, 1, 4, (7, 0)),
        won(2, 2, 3, (8, 1)),
    ]
    rows = standings(teams(4), results)
    assert table(rows) == [
        (1, 2, None),
        (2, 1, "points: 15 to 14"),
        (3, 4, None),  # below team 1 on games won: no tie to break
        (4, 3, "points: 5 to 3"),
    ]
    assert (rows[0].played, rows[0].won, rows[0].lost, rows[0].points_for) == (2, 2, 0, 15)
    assert (rows[3].points_against, rows[3].difference) == (15, -12)


def test_points_tie_and_hands_decide():
    results = [won(1, 1, 3, (7, 2), (3, 1)), won(1, 2, 4, (7, 2), (4, 0))]
    assert table(standings(teams(4), results))[:2] == [(1, 2, None), (2, 1, "hands won: 4 to 3")]


def test_hands_tie_and_bostons_decide():
    results = [
        won(1, 1, 3, (7, 2), (2, 1), (0, 0)),
        won(1, 2, 4, (7, 2), (2, 1), (1, 0)),
    ]
    assert table(standings(teams(4), results))[:2] == [(1, 2, None), (2, 1, "Bostons: 1 to 0")]


def test_all_tie_and_head_to_head_decides():
    # Teams 1 and 2 are level on games, points, hands and Bostons; 1 beat 2.
    results = [
        won(1, 1, 2, (7, 5), (3, 2)),
        won(1, 3, 4, (7, 5), (3, 2)),
        won(2, 3, 1, (7, 5), (3, 2)),
        won(2, 2, 4, (7, 5), (3, 2)),
    ]
    rows = standings(teams(4), results)
    assert table(rows) == [
        (1, 3, None),
        (2, 1, None),
        (3, 2, "head to head: 1 to 0"),
        (4, 4, None),
    ]
    assert not any(row.tied for row in rows)


def test_three_way_tie_head_to_head_does_not_separate_and_the_next_key_does():
    # A cycle: 1 beat 2, 2 beat 3, 3 beat 1: one win each among themselves.
    results = [won(1, 1, 2, (7, 3)), won(2, 2, 3, (7, 4)), won(3, 3, 1, (7, 6))]
    keys = ("wins", "head_to_head", "points")
    assert table(standings(teams(3), results, keys)) == [
        (1, 1, None),
        (2, 3, "points: 13 to 11"),
        (3, 2, "points: 11 to 10"),
    ]


def test_head_to_head_separating_some_compares_the_rest_again():
    # 1, 2 and 3 end on 2 wins each and met once each: 1 beat 2 and 3, 2 and 3 drew. Head to
    # head puts 1 first; 2 and 3, level in their own game, are separated by points.
    results = [
        won(1, 1, 2, (7, 3)),
        won(1, 3, 4, (7, 0)),
        won(2, 1, 3, (7, 4)),
        won(2, 2, 4, (7, 1)),
        GameResult(3, 1, 2, 3, None, (5, 5), (2, 2)),
        GameResult(4, 1, 2, 5, None, (4, 4), (2, 2)),
        GameResult(5, 1, 3, 5, None, (6, 6), (2, 2)),
    ]
    rows = standings(teams(5), results, ("wins", "head_to_head", "points"))
    assert [row.wins for row in rows] == [2, 2, 2, 1, 0]
    assert table(rows) == [
        (1, 1, None),
        (2, 3, "head to head: 2 to ½"),
        (3, 2, "points: 22 to 19"),
        (4, 5, None),
        (5, 4, None),
    ]


def test_head_to_head_is_skipped_when_the_tied_teams_have_not_all_met():
    results = [won(1, 1, 3, (7, 2)), won(1, 2, 4, (8, 4))]  # 1 and 2 never met
    rows = standings(teams(4), results, ("wins", "head_to_head", "points"))
    assert table(rows)[:2] == [(1, 2, None), (2, 1, "points: 8 to 7")]


def test_teams_level_on_every_key_share_their_rank():
    results = [won(1, 1, 2, (7, 5)), won(2, 2, 3, (7, 5)), won(3, 3, 1, (7, 5))]
    rows = standings(teams(4), results)
    assert [(row.rank, row.team.number, row.tied) for row in rows] == [
        (1, 1, True),
        (1, 2, True),
        (1, 3, True),
        (4, 4, False),
    ]
    assert all(row.decided_by is None for row in rows)


def test_difference_and_fewest_losses_keys():
    results = [
        won(1, 1, 3, (7, 6)),
        won(1, 2, 4, (7, 0)),
        GameResult(2, 1, 1, 2, None, (4, 4), (2, 2)),
    ]
    rows = standings(teams(4), results, ("wins", "difference"))
    assert table(rows)[:2] == [(1, 2, None), (2, 1, "difference: +7 to +1")]
    assert (rows[0].wins, rows[0].drawn) == (1.5, 1)
    # All on 7 points; fewer games lost ranks higher.
    level = [won(1, 1, 2, (7, 0)), won(2, 3, 2, (4, 0)), won(3, 2, 3, (7, 3))]
    rows = standings(teams(3), level, ("points", "losses_fewest"))
    assert table(rows) == [(1, 1, None), (2, 3, "games lost: 0 to 1"), (3, 2, "games lost: 1 to 2")]


def test_a_draw_shown_as_a_half_when_it_decides():
    results = [won(1, 1, 2, (5, 3)), GameResult(1, 2, 3, 4, None, (5, 5))]
    rows = standings(teams(4), results, ("points", "wins"))
    assert table(rows) == [
        (1, 1, None),
        (2, 3, "games won: 1 to ½"),
        (2, 4, None),
        (4, 2, None),
    ]
    assert [row.tied for row in rows] == [False, True, True, False]


def test_tie_break_text():
    assert tie_break_text(DEFAULT_KEYS) == (
        "Ranked by games won, then points scored, then hands won, then Bostons, then head to head"
    )
    assert tie_break_text(("wins", "difference", "losses_fewest")) == (
        "Ranked by games won, then points difference, then fewest games lost"
    )


# ---- leagues, byes, forfeits, playoffs ------------------------------------------------------


def test_league_standings_through_week_two_and_final():
    results = [
        won(1, 1, 2, week=1),
        won(2, 1, 3, week=1),
        won(1, 2, 3, week=2),
        won(2, 3, 1, (7, 6), week=2),
        won(1, 2, 1, week=3),
        won(2, 2, 3, week=3),
    ]
    through = standings(teams(3), results, through_week=2)
    assert [(row.team.number, row.won, row.lost, row.played) for row in through] == [
        (1, 2, 1, 3),
        (3, 1, 2, 3),
        (2, 1, 1, 2),
    ]
    assert through[2].decided_by == "points: 13 to 10"
    final = standings(teams(3), results)
    assert [(row.team.number, row.won, row.lost) for row in final] == [
        (2, 3, 1),
        (1, 2, 2),
        (3, 1, 3),
    ]


def test_league_through_week_counts_only_weeks_up_to_n():
    results = [won(1, 1, 2, week=1), won(1, 2, 1, week=2), won(1, 2, 1, week=3)]
    assert [r.won for r in standings(teams(2), results, through_week=1)] == [1, 0]
    assert [r.team.number for r in standings(teams(2), results, through_week=3)] == [2, 1]


def test_withdrawn_and_forfeited_results_count_like_forfeits():
    game = TeamGame()
    results = [
        won(1, 1, 2, (7, 2)),
        game.forfeit(1, 2, winner=3, loser=4),
        game.forfeit(2, 1, winner=2, loser=4, points=(7, 1), withdrawn=True),
        won(2, 3, 1, (7, 5)),
    ]
    rows = {row.team.number: row for row in standings(teams(4), results)}
    assert (rows[4].lost, rows[4].forfeits, rows[4].points_for, rows[4].played) == (2, 2, 1, 2)
    assert (rows[3].won, rows[3].walkovers, rows[3].points_for) == (2, 1, 14)
    assert (rows[2].won, rows[2].walkovers) == (1, 1)
    assert results[2].kind is ResultKind.WITHDRAWN


def test_byes_as_recorded_or_at_the_round_average():
    game = TeamGame()
    results = [
        won(1, 1, 2, (7, 3), (3, 1)),
        won(1, 3, 4, (8, 2), (4, 1)),
        game.bye(1, 5, "average"),
        game.forfeit(1, 3, 6, 7, (20, 0)),  # a forfeit's stated score is no game's average
        game.bye(2, 1),
    ]
    rows = {row.team.number: row for row in standings(teams(7), results)}
    assert (rows[5].won, rows[5].points_for, rows[5].byes) == (1, 0, 1)
    assert (rows[1].points_for, rows[1].byes, rows[1].played) == (14, 1, 2)
    averaged = {row.team.number: row for row in standings(teams(7), results, bye_rule="average")}
    # Round 1's winners scored 7 and 8 (7½, rounded up) with 3 and 4 hands (3½: 4).
    assert (averaged[5].won, averaged[5].points_for, averaged[5].hands) == (1, 8, 4)
    assert averaged[5].points_against == 0
    # Round 2 has no played game yet: the bye scores 0.
    assert averaged[1].points_for == 7


def test_playoff_results_are_left_out():
    results = [won(1, 1, 2), won(9, 2, 1, playoff=True)]
    rows = standings(teams(2), results)
    assert [(row.team.number, row.played) for row in rows] == [(1, 1), (2, 1)]


def test_a_team_without_results_has_an_empty_row():
    rows = standings(teams(3), [won(1, 1, 2)])
    assert (rows[2].team.number, rows[2].played, rows[2].rank) == (3, 0, 3)
    # Both without a win: points scored (3 in a lost game, 0) put team 2 above team 3.
    assert (rows[1].decided_by, rows[2].decided_by) == (None, "points: 3 to 0")


# ---- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"keys": ("wins", "luck")}, r"^keys: 'luck' is not a ranking key; the keys are wins,"),
        ({"keys": ("wins", "wins")}, r"^keys: each ranking key once"),
        ({"keys": ()}, r"^keys: a list of ranking keys"),
        ({"keys": "wins"}, r"^keys: a list of ranking keys"),
        ({"through_week": 0}, r"^through_week: a week from 1, not 0"),
        ({"bye_rule": "half"}, r"^bye_rule: win or average, not 'half'"),
    ],
)
def test_settings_refused(kwargs, message):
    with pytest.raises(TeamsError, match=message):
        standings(teams(2), [won(1, 1, 2)], **kwargs)


def test_bad_results_refused():
    with pytest.raises(TeamsError, match=r"^round 1, table 1: team 9 is not in the event's team"):
        standings(teams(2), [won(1, 1, 9)])
    with pytest.raises(TeamsError, match=r"^round 2 of week 3: team 1 has two results"):
        standings(teams(3), [won(2, 1, 2, week=3), won(2, 3, 1, week=3)])
    with pytest.raises(TeamsError, match=r"^teams: team 2 is listed twice"):
        standings([Team(1), Team(2), Team(2)], [])
    with pytest.raises(TeamsError, match=r"the winner, team 3, did not play at that table"):
        standings(teams(3), [GameResult(1, 1, 1, 2, 3)])
