"""One team game: every way a game ends, Fosdick's minus 7, Andrews's defenders scoring with a
higher target, Bostons, a final score from a score sheet, forfeits and byes, and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from engine.teams.game import GameSettings, TeamGame
from engine.teams.model import GameKind, ResultKind, TeamsError


def hand(declarer: str, bid: int, books: int, kind: str = "uptown", **extra: Any) -> dict:
    """A Bid Whist result: N or S declaring is home, E or W away."""
    data: dict[str, Any] = {"declarer": declarer, "bid": bid, "kind": kind, "books": books}
    if kind == "notrump":
        data["ranking"] = extra.get("ranking", "uptown")
    else:
        data["trumps"] = extra.get("trumps", "S")
    return data


PASS = {"passed_out": True}


def game(kind: str = "target", value: int = 7, **extra: Any) -> TeamGame:
    return TeamGame(GameSettings(GameKind(kind), value, **extra))


# ---- to a target ----------------------------------------------------------------------------


def test_fosdick_first_to_seven_with_running_scores():
    tally = game().play([hand("N", 4, 11), hand("E", 3, 7), hand("S", 3, 9)])
    assert [line.totals for line in tally.lines] == [(5, 0), (5, -3), (8, -3)]
    assert [line.won_by for line in tally.lines] == ["home", "home", "home"]
    assert tally.lines[0].text == "4 uptown ♠ by N, 11 books"
    assert (tally.over, tally.winner, tally.points, tally.hands) == (True, "home", (8, -3), (3, 0))
    assert tally.ended == "home reached 7"


def test_fosdick_driven_to_minus_seven_loses():
    # Home is set twice (minus the bid each time): -4, then -8. Away never scored.
    tally = game().play([hand("N", 4, 9), hand("S", 4, 8)])
    assert tally.points == (-8, 0)
    assert (tally.over, tally.winner, tally.ended) == (True, "away", "home was driven to -7")
    assert tally.hands == (0, 2)  # the defenders win a hand they set
    result = tally.to_result(round=2, table=3, home=5, away=9)
    assert (result.winner, result.points, result.kind) == (9, (-8, 0), ResultKind.PLAYED)


def test_no_trump_doubles_and_a_game_not_over_says_so():
    tally = game().play([hand("E", 3, 9, "notrump")])
    assert tally.points == (0, 6)
    assert (tally.over, tally.winner, tally.ended) == (False, None, "not over")
    with pytest.raises(TeamsError, match=r"round 1, table 1: the game is not over \(not over\)"):
        tally.to_result(1, 1, 1, 2)


def test_andrews_defenders_score_with_a_higher_target():
    settings = GameSettings(value=11, scoring="andrews", options={"defenders_score": True})
    assert settings.defenders_score
    assert settings.text == "first team to 11 points"
    # Home bids 4 no-trump and is set: the defenders score 8 (doubled), home loses nothing.
    first = TeamGame(settings).play([hand("N", 4, 9, "notrump")])
    assert (first.points, first.over) == ((0, 8), False)  # 8 would have won a game to 7
    tally = TeamGame(settings).play([hand("N", 4, 9, "notrump"), hand("W", 3, 10)])
    assert tally.points == (0, 11)  # Andrews: a made bid scores its value, not the overtricks
    assert (tally.winner, tally.ended) == ("away", "away reached 11")
    assert all(min(line.totals) >= 0 for line in tally.lines)


def test_andrews_without_defenders_scoring_keeps_the_minus_seven_rule():
    tally = game(scoring="andrews").play([hand("E", 4, 9, "notrump")])
    assert (tally.points, tally.winner, tally.ended) == ((0, -8), "home", "away was driven to -7")


def test_a_boston_is_recorded_for_its_side():
    tally = game().play([hand("E", 3, 8), hand("N", 7, 13)])
    assert tally.lines[1].boston == "home"
    assert tally.lines[1].text.endswith("13 books, Boston")
    assert tally.bostons == (1, 0)
    assert tally.to_result(1, 1, 4, 6).bostons == (1, 0)


def test_a_hand_after_the_end_is_refused_naming_it():
    with pytest.raises(
        TeamsError, match=r"^hand 3: the game was over after hand 2 \(home reached 7\)"
    ):
        game().play([hand("N", 4, 10), hand("S", 3, 9), hand("E", 3, 9)])


def test_a_bad_hand_is_refused_naming_it():
    with pytest.raises(TeamsError, match=r"^hand 2: Bid Whist bids run from 3 to 7, not 9"):
        game().play([hand("N", 4, 10), hand("S", 9, 9)])
    with pytest.raises(TeamsError, match=r"^hand 1: expected a Bid Whist result"):
        game().play(["4 uptown"])  # type: ignore[list-item]


def test_passed_out_hand_is_on_the_sheet_but_counts_for_nobody():
    tally = game().play([PASS, hand("N", 3, 9)])
    assert tally.lines[0].text == "passed out"
    assert (tally.lines[0].won_by, tally.lines[0].counted) == (None, False)
    assert tally.hands == (1, 0)
    dealer_bids = game(options={"all_pass": "dealer_must_bid"})
    with pytest.raises(TeamsError, match=r"^hand 1: the dealer must bid"):
        dealer_bids.play([PASS])


# ---- best of n hands ------------------------------------------------------------------------


def test_best_of_five_ends_at_three_hands_won_and_passed_out_hands_do_not_count():
    g = game("best_of", 5)
    hands = [hand("N", 3, 9), PASS, hand("E", 3, 8)]
    # Hand 3: East is set, so home (the defenders) wins it; the passed-out hand 2 is no hand.
    assert (g.play(hands).hands, g.play(hands).over) == ((2, 0), False)
    tally = g.play([*hands, hand("S", 4, 10)])
    assert tally.hands == (3, 0)
    assert (tally.over, tally.winner, tally.ended) == (True, "home", "home won 3 hands of 5")


def test_best_of_with_a_boston_counting_double():
    boston = hand("E", 7, 13)
    plain = game("best_of", 5).play([boston, hand("W", 3, 9)])
    assert (plain.hands, plain.over) == ((0, 2), False)
    double = TeamGame(GameSettings(GameKind.BEST_OF, 5, boston_counts_double=True))
    tally = double.play([boston, hand("W", 3, 9)])
    assert (tally.hands, tally.bostons, tally.winner) == ((0, 3), (0, 1), "away")
    assert double.settings.text == "best of 5 hands, a Boston counting as two hands"


# ---- a fixed number of hands ----------------------------------------------------------------


def test_fixed_hands_points_decide():
    g = game("hands", 3)
    tally = g.play([hand("N", 3, 9), PASS, hand("E", 5, 12)])
    assert (tally.over, tally.ended) == (False, "not over: 2 of 3 hands played")
    tally = g.play([hand("N", 3, 9), PASS, hand("E", 5, 12), hand("W", 3, 9)])
    assert (tally.points, tally.winner) == ((3, 9), "away")
    assert tally.ended == "away scored more in 3 hands"


def test_fixed_hands_level_on_points_then_hands_then_drawn():
    tally = game("hands", 3).play([hand("N", 3, 9), hand("S", 3, 9), hand("E", 3, 12)])
    assert (tally.points, tally.hands) == ((6, 6), (2, 1))
    assert (tally.winner, tally.ended) == ("home", "level on points; home won more hands")
    drawn = game("hands", 2).play([hand("N", 4, 10), hand("E", 4, 10)])
    assert (drawn.over, drawn.winner, drawn.ended) == (
        True,
        None,
        "drawn: level on points and hands after 2 hands",
    )
    result = drawn.to_result(3, 2, 7, 8, week=2)
    assert (result.winner, result.drawn(), result.week) == (None, True, 2)


# ---- a score sheet's final score ------------------------------------------------------------


def test_final_score_to_a_target_infers_the_winner():
    g = game()
    assert g.final_score(7, 3).winner == "home"
    assert g.final_score(2, 9, 1, 4, away_bostons=1).winner == "away"
    tally = g.final_score(3, -7)
    assert (tally.winner, tally.ended) == ("home", "final score: away was driven to -7")
    assert tally.to_result(1, 1, 2, 3).points == (3, -7)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ((5, 3), r"^5 to 3 does not end a game to 7: it ends when a team reaches 7, or is driven"),
        ((8, 7), r"^8 to 7: home reached 7 and away reached 7, but only one team's score moves"),
        ((8, -7), r"^8 to -7: home reached 7 and away was driven to -7"),
        ((-7, -9), r"^-7 to -9: home was driven to -7 and away was driven to -7"),
        (
            (21, 3),
            r"^21 to 3: the game ends on the hand that reaches 7, so the winners have at most 20",
        ),
        ((3, -21), r"^3 to -21: .* the losers have at least -20"),
    ],
)
def test_impossible_final_scores_to_a_target_are_refused(score, message):
    with pytest.raises(TeamsError, match=message):
        game().final_score(*score)


def test_final_score_refusals_name_the_problem():
    g = game()
    with pytest.raises(TeamsError, match=r"^hands: give both teams' hands won, or neither"):
        g.final_score(7, 3, home_hands=2)
    with pytest.raises(TeamsError, match=r"^bostons: away has 1 Boston\(s\) but won 0 hand"):
        g.final_score(7, 3, 2, 0, away_bostons=1)
    with pytest.raises(TeamsError, match=r"^points: whole numbers, not '7'"):
        g.final_score("7", 3)  # type: ignore[arg-type]
    andrews = TeamGame(GameSettings(value=11, scoring="andrews", options={"defenders_score": True}))
    with pytest.raises(TeamsError, match=r"^11 to -3: with defenders scoring no team goes below 0"):
        andrews.final_score(11, -3)
    with pytest.raises(
        TeamsError, match=r"^8 to 3 does not end a game to 11: .* reaches 11; enter"
    ):
        andrews.final_score(8, 3)


def test_final_score_best_of_is_decided_by_hands():
    g = game("best_of", 5)
    assert g.final_score(4, 9, 3, 1).winner == "home"  # hands decide, not points
    with pytest.raises(TeamsError, match=r"^hands: a best-of-5 game is decided by hands won"):
        g.final_score(9, 4)
    with pytest.raises(TeamsError, match=r"^3 to 3 hands: both teams have 3 or more"):
        g.final_score(9, 4, 3, 3)
    with pytest.raises(TeamsError, match=r"^2 to 1 hands does not end a best-of-5 game"):
        g.final_score(9, 4, 2, 1)
    with pytest.raises(TeamsError, match=r"^4 to 1 hands: the game ends on the hand that gives"):
        g.final_score(9, 4, 4, 1)
    double = TeamGame(GameSettings(GameKind.BEST_OF, 5, boston_counts_double=True))
    assert double.final_score(9, 4, 4, 1, home_bostons=1).winner == "home"


def test_final_score_fixed_hands_points_decide():
    g = game("hands", 4)
    assert (g.final_score(12, 9).winner, g.final_score(12, 9).hands) == ("home", (0, 0))
    assert g.final_score(12, 9, 2, 2).winner == "home"
    assert g.final_score(6, 6, 1, 3).winner == "away"
    assert g.final_score(6, 6, 2, 2).winner is None
    with pytest.raises(TeamsError, match=r"^hands: 2 and 1 hands won, but every one of the 4"):
        g.final_score(12, 9, 2, 1)
    with pytest.raises(TeamsError, match=r"^60 to 9: in 4 hands a team scores from -56 to 56"):
        g.final_score(60, 9)


# ---- forfeits and byes ----------------------------------------------------------------------


def test_forfeit_gives_the_opponents_the_win_and_the_walkover_score():
    result = game().forfeit(3, 2, winner=4, loser=7)
    assert (result.home, result.away, result.winner) == (4, 7, 4)
    assert (result.points, result.kind, result.week) == ((7, 0), ResultKind.FORFEIT, 1)
    stated = game().forfeit(3, 2, 4, 7, (7, 2), week=2, withdrawn=True)
    assert (stated.points, stated.kind, stated.week) == ((7, 2), ResultKind.WITHDRAWN, 2)
    best_of = game("best_of", 5).forfeit(1, 1, 2, 3)
    assert (best_of.points, best_of.hands) == ((0, 0), (3, 0))


def test_forfeit_refusals():
    with pytest.raises(TeamsError, match=r"^points: a game of 6 hands has no target score"):
        game("hands", 6).forfeit(1, 1, 2, 3)
    assert game("hands", 6).forfeit(1, 1, 2, 3, (7, 0)).points == (7, 0)
    with pytest.raises(TeamsError, match=r"^round 1, table 1: team 2 cannot play itself"):
        game().forfeit(1, 1, 2, 2)
    with pytest.raises(TeamsError, match=r"^table: 1 or more, not 0"):
        game().forfeit(1, 0, 2, 3)


def test_bye_win_and_average():
    bye = game().bye(4, 9)
    assert (bye.home, bye.away, bye.winner, bye.kind) == (9, None, 9, ResultKind.BYE)
    assert (bye.points, bye.table) == ((7, 0), 0)
    assert game().bye(4, 9, points=5).points == (5, 0)
    average = game().bye(4, 9, "average", week=3)
    assert (average.points, average.winner, average.week) == ((0, 0), 9, 3)
    with pytest.raises(
        TeamsError, match=r"^points: a bye at the average scores the round's average, not points"
    ):
        game().bye(4, 9, "average", points=5)
    with pytest.raises(TeamsError, match=r"^rule: win or average, not 'half'"):
        game().bye(4, 9, "half")  # type: ignore[arg-type]


# ---- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"value": 0}, r"^value: from 1 to 99, not 0"),
        ({"kind": "best_of", "value": 4}, r"^value: best of 4 hands can end level; choose an odd"),
        ({"kind": "rubber"}, r"^kind: one of target, best_of, hands, not 'rubber'"),
        ({"options": {"defenders_score": True}}, r"^options: in Fosdick scoring defenders never"),
        ({"options": {"scoring": "andrews"}}, r"^options: give the scoring as the scoring setting"),
        ({"scoring": "hoyle"}, r"^scoring: option scoring must be one of fosdick, andrews"),
        ({"boston_counts_double": "yes"}, r"^boston_counts_double: true or false"),
        ({"value": True}, r"^value: a whole number, not True"),
    ],
)
def test_settings_refusals(kwargs, message):
    with pytest.raises(TeamsError, match=message):
        GameSettings(**kwargs)


def test_settings_accept_the_kind_by_name_and_describe_the_game():
    settings = GameSettings("hands", 8)  # type: ignore[arg-type]
    assert settings.kind is GameKind.HANDS
    assert settings.text == "8 hands, then most points, then most hands won"
    assert GameSettings().text == "first team to 7 points, or the other team driven to -7"
    assert GameSettings().most_in_a_hand == 14
    assert GameSettings(GameKind.BEST_OF, 7).majority == 4


def test_settings_stored_and_read_back():
    settings = GameSettings(
        GameKind.BEST_OF, 5, "andrews", {"defenders_score": True}, boston_counts_double=True
    )
    data = settings.to_dict()
    assert data == {
        "kind": "best_of",
        "value": 5,
        "scoring": "andrews",
        "options": {"defenders_score": True},
        "boston_counts_double": True,
        "variant": "bidwhist",
        "sets_lose": 0,
    }
    assert GameSettings.from_dict(data) == settings
    assert GameSettings.from_dict({}) == GameSettings()
    with pytest.raises(TeamsError, match=r"^game: unknown target \(known: kind, value,"):
        GameSettings.from_dict({"target": 11})
    with pytest.raises(TeamsError, match=r"^value: best of 6 hands can end level"):
        GameSettings.from_dict({"kind": "best_of", "value": 6})


def test_the_game_is_found_in_the_registry_by_any_of_its_names():
    assert GameSettings().variant == "bidwhist"
    assert GameSettings(variant="Bid Whist") == GameSettings()
    assert GameSettings.from_dict({"variant": "bid-whist"}).variant == "bidwhist"
    with pytest.raises(TeamsError, match=r"^variant: unknown game 'pinochle' \(known: classic,"):
        GameSettings(variant="pinochle")


def test_a_game_whose_rules_cannot_bound_a_hand_is_refused():
    # Classic whist's rules do not say the most a hand scores, which checking a final score needs.
    with pytest.raises(TeamsError, match=r"^variant: Classic Whist cannot say the most a hand"):
        GameSettings(variant="classic", scoring=None)


def test_the_words_of_a_game_name_the_teams_when_given():
    """A refusal and how a game ended name the teams (a table's tablet shows them by name)."""
    g = game()
    names = ("Aces", "Kings")
    with pytest.raises(TeamsError, match=r"^7 to 9: Aces reached 7 and Kings reached 7, but"):
        g.final_score(7, 9, names=names)
    with pytest.raises(TeamsError, match=r"^bostons: Kings has 1 Boston\(s\) but won 0 hand"):
        g.final_score(7, 3, 2, 0, away_bostons=1, names=names)
    assert g.final_score(3, -7, names=names).ended == "final score: Kings was driven to -7"
    made = {"declarer": "N", "bid": 4, "kind": "uptown", "trumps": "S", "books": 11}
    tally = g.play([made, made], names)
    assert (tally.winner, tally.ended) == ("home", "Aces reached 7")
    best = TeamGame(GameSettings(kind=GameKind.BEST_OF, value=3))
    assert best.final_score(0, 5, 0, 2, names=names).ended == "final score: Kings won 2 hands of 3"
