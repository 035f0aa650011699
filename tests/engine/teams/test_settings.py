"""A team tournament's rule settings as clubs use them: each stored and read back, each
refused with its own words when it cannot be used."""

from __future__ import annotations

import pytest

from engine.teams import (
    GameKind,
    GameResult,
    GameSettings,
    Team,
    TeamGame,
    TeamsError,
    TeamTournament,
    TournamentSettings,
    boston_pot,
    count_bostons,
)
from engine.teams.ranking import StandingRow


def test_the_playoff_settings_read_back_and_seed_a_third_place_game():
    settings = TournamentSettings.from_dict(
        {"playoff": 4, "playoff_third_place": True, "playoff_best_of": 3}
    )
    assert TournamentSettings.from_dict(settings.to_dict()) == settings
    assert TournamentSettings.from_dict({}).playoff_best_of == 1  # stored before: one game
    engine = TeamTournament(settings, [Team(n) for n in range(1, 7)])
    rows = [StandingRow(rank, Team(number)) for rank, number in enumerate([5, 2, 6, 1], 1)]
    bracket = engine.bracket(rows)
    assert bracket.third_place and [m.third_place for m in bracket.matches] == [
        False, False, False, True,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"playoff": 2, "playoff_third_place": True}, r"^playoff_third_place: a third-place .* 4"),
        ({"playoff": 4, "playoff_third_place": 1}, r"^playoff_third_place: true or false, not 1"),
        ({"playoff": 4, "playoff_best_of": 2}, r"^playoff_best_of: .* 1, 3, 5 games, not 2"),
        ({"playoff": 4, "playoff_best_of": True}, r"^playoff_best_of: .* not True"),
        # false equals 0 in Python, but it is no count of teams (a fuzzer's find)
        ({"playoff": False}, r"^playoff: "),
        ({"playoff": True}, r"^playoff: "),
    ],
)
def test_playoff_settings_refused(data, message):
    with pytest.raises(TeamsError, match=message):
        TournamentSettings.from_dict(data)


# ---- the clubs' rules (Columbus Whist, Cardsharks, SetPlay leagues) ---------------------------

MADE_4 = {"declarer": "N", "bid": 4, "kind": "uptown", "trumps": "S", "books": 10}  # NS +4
SET_3_EW = {"declarer": "E", "bid": 3, "kind": "uptown", "trumps": "H", "books": 7}  # EW -3
SET_4_NS = {"declarer": "S", "bid": 4, "kind": "uptown", "trumps": "S", "books": 8}  # NS -4
SET_5_EW = {"declarer": "W", "bid": 5, "kind": "uptown", "trumps": "C", "books": 9}  # EW -5


def test_two_sets_lose_the_game_hand_by_hand_and_from_a_score_sheet():
    """Fosdick, to 7, two sets lose: EW set at 3 (0, -3), NS set at 4 (-4, -3), EW set at 3
    again (-4, -6). Nobody has reached 7 or -7, but EW have been set twice: NS win."""
    game = TeamGame(GameSettings(sets_lose=2))
    tally = game.play([SET_3_EW, SET_4_NS, SET_3_EW], ("Aces", "Kings"))
    # EW -3, NS -4, EW -3 more: (-4, -6); EW's second set ends it before either hole.
    assert (tally.over, tally.winner, tally.points) == (True, "home", (-4, -6))
    assert tally.ended == "Kings was set 2 times"
    plain = TeamGame(GameSettings()).play([SET_3_EW, SET_4_NS, SET_3_EW])
    assert (plain.over, plain.points) == (False, (-4, -6))  # without the rule it goes on
    sheet = game.final_score(-4, -6, home_sets=1, away_sets=2, names=("Aces", "Kings"))
    assert (sheet.winner, sheet.ended) == ("home", "final score: Kings was set 2 times")
    with pytest.raises(TeamsError, match=r"^sets: Aces and Kings were both set 2 times"):
        game.final_score(-4, -6, home_sets=2, away_sets=2, names=("Aces", "Kings"))
    with pytest.raises(TeamsError, match=r"^sets: Kings was set 3 times, but the game ended"):
        game.final_score(-4, -6, home_sets=0, away_sets=3, names=("Aces", "Kings"))
    with pytest.raises(TeamsError, match=r"^sets: the event does not end a game on sets"):
        TeamGame(GameSettings()).final_score(-4, -6, away_sets=2)
    with pytest.raises(TeamsError, match=r"^sets_lose: a team set that many times loses a game"):
        GameSettings(GameKind.BEST_OF, 5, sets_lose=2)


def test_a_back_door_win_scores_five():
    """To 7 with back-door wins at 5: NS make 4 (4, 0), EW set at 5 (4, -5), EW set at 3
    (4, -8): EW went out the back door, NS win and score 5, not the 4 they had; a win by
    reaching 7 keeps its points."""
    settings = TournamentSettings.from_dict({"backdoor_points": 5})
    engine = TeamTournament(settings, [Team(1), Team(2)])
    result = engine.played(1, 1, 1, 2, hands=[MADE_4, SET_5_EW, SET_3_EW])
    assert (result.winner, result.points) == (1, (5, -8))
    sheet = engine.played(1, 1, 2, 1, score={"home_points": -9, "away_points": 2})
    assert (sheet.winner, sheet.points) == (1, (-9, 5))
    reached = engine.played(1, 1, 1, 2, score={"home_points": 8, "away_points": -3})
    assert reached.points == (8, -3)
    plain = TeamTournament(TournamentSettings(), [Team(1), Team(2)])
    assert plain.played(1, 1, 1, 2, hands=[MADE_4, SET_5_EW, SET_3_EW]).points == (4, -8)
    with pytest.raises(TeamsError, match=r"^backdoor_points: a back-door win is a game to a"):
        TournamentSettings.from_dict({"game": {"kind": "best_of", "value": 5},
                                      "backdoor_points": 5})  # fmt: skip


def test_game_points_only_break_ties_and_a_bye_scores_the_average_of_the_rounds_winners():
    """Ranked by games won, points only between teams level on wins. By hand: team 1 won 7-6
    and lost 6-7 (1 win, 13 points), team 2 lost 6 and won 8 (1, 14), team 3 lost 6 and won 7
    (1, 13), team 4 won 7 and lost 5 (1, 12); team 5's byes score the average of the round's
    winners, (7 + 7) / 2 = 7 and (7 + 8) / 2 = 7.5, rounded up to 8: 2 wins, 15 points."""
    settings = TournamentSettings(keys=("wins", "points"), bye="average")
    teams = [Team(n) for n in range(1, 6)]
    engine = TeamTournament(settings, teams)
    results = [
        GameResult(1, 1, 1, 2, 1, (7, 6)),
        GameResult(1, 2, 3, 4, 4, (6, 7)),
        engine.bye(1, 5),
        GameResult(2, 1, 1, 3, 3, (6, 7)),
        GameResult(2, 2, 2, 4, 2, (8, 5)),
        engine.bye(2, 5),
    ]
    rows = {row.team.number: row for row in engine.standings(results)}
    assert rows[5].points_for == 7 + 8 and rows[5].won == 2
    table = [(r.rank, r.team.number, r.won, r.points_for) for r in engine.standings(results)]
    assert table == [(1, 5, 2, 15), (2, 2, 1, 14), (3, 1, 1, 13), (3, 3, 1, 13), (5, 4, 1, 12)]
    with pytest.raises(TeamsError, match=r"^keys: one of"):
        TournamentSettings(keys=("game_points",))


def test_the_boston_pot_most_bostons_by_round_four_else_the_best_record_ties_sharing():
    """Stake 5.00 a player, four teams in: 40.00. Bostons by round 4 only count; with none,
    the two teams level at the top share it, 20.00 each."""
    results = [
        GameResult(2, 1, 1, 2, 1, (7, 0), bostons=(1, 0)),
        GameResult(5, 1, 3, 4, 3, (7, 0), bostons=(1, 0)),  # after round 4: not counted
    ]
    bostons = count_bostons(results, through_round=4)
    award = boston_pot([1, 2, 3, 4], 500, bostons, ranks={1: 2, 2: 1, 3: 1, 4: 4},
                       no_boston="record")  # fmt: skip
    assert (award.most_bostons, award.shares) == (1, ((1, 4000),))
    none = boston_pot([1, 2, 3, 4], 500, count_bostons(results, through_round=1),
                      ranks={1: 2, 2: 1, 3: 1, 4: 4}, no_boston="record")  # fmt: skip
    assert none.shares == ((2, 2000), (3, 2000))
    assert none.text == "no Boston: teams 2 and 3 share the pot with the best record"
    odd = boston_pot([1, 2, 3], 500, {}, ranks={1: 1, 2: 1, 3: 1}, no_boston="record")
    assert odd.shares == ((1, 1000), (2, 1000), (3, 1000))
    with pytest.raises(TeamsError, match=r"^no_boston: the pot goes to the best record; pass"):
        boston_pot([1, 2], 500, {}, no_boston="record")
    assert TournamentSettings.from_dict({"pot_no_boston": "record"}).pot_no_boston == "record"
    with pytest.raises(TeamsError, match=r"^pot_no_boston: one of return, carry, leader, rec"):
        TournamentSettings.from_dict({"pot_no_boston": "split"})


def test_a_tie_for_a_place_played_off_in_one_game_ranks_the_two_teams():
    """Team 1 won both games (14 points), team 4 none; teams 2 and 3 are level on wins and
    points (1 win, 13 points each, by hand): they share
    place 2 unless their tie is played off; team 3 wins that game and goes above. A game
    between teams that are not tied changes nothing, nor does one where the setting is off."""
    results = [
        GameResult(1, 1, 1, 2, 1, (7, 6)),
        GameResult(1, 2, 3, 4, 3, (7, 5)),
        GameResult(2, 1, 1, 3, 1, (7, 6)),
        GameResult(2, 2, 2, 4, 2, (7, 2)),
    ]
    teams = [Team(n) for n in range(1, 5)]
    on = TeamTournament(TournamentSettings(keys=("wins", "points"), tie_games=True), teams)
    assert [(r.rank, r.team.number) for r in on.standings(results)] == [
        (1, 1), (2, 2), (2, 3), (4, 4),
    ]  # fmt: skip
    on.tie_games = {frozenset((2, 3)): 3, frozenset((1, 4)): 4}
    rows = on.standings(results)
    assert [(r.rank, r.team.number, r.tied, r.decided_by) for r in rows] == [
        (1, 1, False, None), (2, 3, False, None), (3, 2, False, "play-off game"),
        (4, 4, False, None),
    ]  # fmt: skip
    off = TeamTournament(TournamentSettings(keys=("wins", "points")), teams)
    off.tie_games = {frozenset((2, 3)): 3}
    assert [(r.rank, r.team.number) for r in off.standings(results)][1:3] == [(2, 2), (2, 3)]
    with pytest.raises(TeamsError, match=r"^tie_games: true or false, not 'yes'"):
        TournamentSettings.from_dict({"tie_games": "yes"})
