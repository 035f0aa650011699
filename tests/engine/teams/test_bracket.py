"""Playoff brackets for 4, 6, 8 and 12 teams: structure, byes, seeding, played out to a
champion, storage and refusals."""

from __future__ import annotations

import pytest

from engine.teams.bracket import Bracket, Series, Slot, round_name, seed_order, series
from engine.teams.model import TeamsError

# Team numbers unlike the seeds, so a slip between the two shows: seed s is team 100 + s.
SEEDS = {count: [100 + seed for seed in range(1, count + 1)] for count in (2, 3, 4, 6, 8, 12)}


def pairs(round_):
    """A round's matches as pairs of seeds (or the slot's words while unknown)."""
    return [
        tuple(
            team - 100 if team is not None else str(slot)
            for slot, team in ((m.home, m.home_team), (m.away, m.away_team))
        )
        for m in round_.matches
    ]


def play_out(bracket: Bracket, upset: int | None = None) -> Bracket:
    """Every ready match to the better seed (the other team in match `upset`)."""
    while bracket.next_matches():
        for match in bracket.next_matches():
            assert match.teams is not None
            best, other = sorted(match.teams)
            bracket = bracket.record(match.id, other if match.id == upset else best)
    return bracket


def test_seed_order_keeps_the_top_seeds_apart():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_order(16)
    assert order == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    # Seeds 1 and 2 are in different halves, 1-4 in different quarters.
    assert 1 in order[:8] and 2 in order[8:]
    assert sorted(order.index(s) // 4 for s in (1, 2, 3, 4)) == [0, 1, 2, 3]


def test_four_teams():
    bracket = Bracket.seeded(SEEDS[4])
    assert [(r.number, r.name, r.byes) for r in bracket.rounds] == [
        (1, "Semi-finals", ()),
        (2, "Final", ()),
    ]
    assert pairs(bracket.rounds[0]) == [(1, 4), (2, 3)]
    assert pairs(bracket.rounds[1]) == [("winner of match 1", "winner of match 2")]
    assert [m.id for m in bracket.next_matches()] == [1, 2]
    done = play_out(bracket)
    assert done.champion == 101
    assert (done.final.winner, done.final.loser) == (101, 102)


def test_six_teams_top_two_seeds_have_byes():
    bracket = Bracket.seeded(SEEDS[6])
    first, semis, final = bracket.rounds
    assert (first.name, first.byes) == ("Quarter-finals", (101, 102))
    assert pairs(first) == [(4, 5), (3, 6)]
    assert pairs(semis) == [(1, "winner of match 1"), (2, "winner of match 2")]
    assert str(semis.matches[0]) == "match 3: team 101 v winner of match 1"
    assert final.name == "Final"
    # Seeds 1 and 2 wait: only the first round is ready.
    assert [m.id for m in bracket.next_matches()] == [1, 2]
    after = bracket.record(1, 105)
    assert after.match(3).teams == (101, 105)
    assert [m.id for m in after.next_matches()] == [2, 3]
    assert play_out(bracket, upset=5).champion == 102


def test_eight_teams_standard_seeding():
    bracket = Bracket.seeded(SEEDS[8])
    assert [r.name for r in bracket.rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    assert pairs(bracket.rounds[0]) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert bracket.rounds[0].byes == ()
    assert pairs(bracket.rounds[1]) == [
        ("winner of match 1", "winner of match 2"),
        ("winner of match 3", "winner of match 4"),
    ]
    done = play_out(bracket)
    assert pairs(done.rounds[1]) == [(1, 4), (2, 3)]
    assert pairs(done.rounds[2]) == [(1, 2)]  # the top two seeds meet only in the final
    assert done.champion == 101


def test_twelve_teams_top_four_seeds_have_byes():
    bracket = Bracket.seeded(SEEDS[12])
    assert [r.name for r in bracket.rounds] == [
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    first, quarters = bracket.rounds[:2]
    assert first.byes == (101, 102, 103, 104)
    assert pairs(first) == [(8, 9), (5, 12), (7, 10), (6, 11)]
    assert pairs(quarters) == [
        (1, "winner of match 1"),
        (4, "winner of match 2"),
        (2, "winner of match 3"),
        (3, "winner of match 4"),
    ]
    assert [len(r.matches) for r in bracket.rounds] == [4, 4, 2, 1]
    assert [m.id for m in bracket.matches] == list(range(1, 12))
    done = play_out(bracket, upset=11)
    assert done.champion == 102
    assert done.next_matches() == []


def test_two_and_three_teams():
    two = Bracket.seeded(SEEDS[2])
    assert [(r.name, pairs(r)) for r in two.rounds] == [("Final", [(1, 2)])]
    assert two.record(1, 102).champion == 102
    three = Bracket.seeded(SEEDS[3])
    assert [(r.name, r.byes, pairs(r)) for r in three.rounds] == [
        ("Semi-finals", (101,), [(2, 3)]),
        ("Final", (), [(1, "winner of match 1")]),
    ]


def test_third_place_match_between_the_semi_final_losers():
    bracket = Bracket.seeded(SEEDS[8], third_place=True)
    final_round = bracket.rounds[-1]
    assert final_round.name == "Final"
    final, third = final_round.matches
    assert (final.third_place, third.third_place) == (False, True)
    assert (third.home, third.away) == (Slot(source=5, loser=True), Slot(source=6, loser=True))
    assert str(third) == "third-place match: loser of match 5 v loser of match 6"
    done = play_out(bracket)
    assert done.match(8).teams == (104, 103)
    assert (done.champion, done.match(8).winner) == (101, 103)
    with pytest.raises(TeamsError, match=r"^third_place: a third-place match needs two semi"):
        Bracket.seeded(SEEDS[3], third_place=True)


def test_round_names():
    assert [round_name(n, places) for n, places in ((1, 32), (2, 16), (3, 8), (4, 4), (5, 2))] == [
        "Round 1",
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert Bracket.seeded(list(range(1, 21))).rounds[0].name == "Round 1"


def test_record_is_immutable_and_refusals_say_what_is_wrong():
    bracket = Bracket.seeded(SEEDS[6])
    after = bracket.record(1, 104)
    assert bracket.match(1).winner is None and after.match(1).winner == 104
    assert after.record(1, 104) == after  # the same result again changes nothing
    with pytest.raises(
        TeamsError, match=r"^match 1: team 101 is not in it \(team 104 v team 105\)"
    ):
        bracket.record(1, 101)
    with pytest.raises(
        TeamsError,
        match=r"^match 5 is not ready: it waits for the winner of match 3 and the winner of match",
    ):
        bracket.record(5, 101)
    with pytest.raises(
        TeamsError, match=r"^match 3 is not ready: it waits for the winner of match 1"
    ):
        bracket.record(3, 101)
    with pytest.raises(TeamsError, match=r"^match 1 was won by team 104; to change it, clear it"):
        after.record(1, 105)
    with pytest.raises(TeamsError, match=r"^playoff: there is no match 9; matches run 1 to 5"):
        bracket.record(9, 101)


def test_clear_takes_a_result_back_while_nothing_depends_on_it():
    bracket = Bracket.seeded(SEEDS[4]).record(1, 104).record(2, 102)
    assert bracket.clear(1).match(1).winner is None
    assert bracket.clear(1).record(1, 101).match(3).teams == (101, 102)
    played = bracket.record(3, 104)
    with pytest.raises(
        TeamsError, match=r"^match 1: match 3 has been played by its winner; clear match 3 first"
    ):
        played.clear(1)
    assert played.clear(3).clear(1).winners == ((2, 102),)


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([101], r"^playoff: from 2 to 256 teams, not 1"),
        ([101, 102, 101], r"^playoff: a team is seeded twice"),
        ([101, "102"], r"^playoff: teams are numbers from 1, not '102'"),
        ([101, 0], r"^playoff: teams are numbers from 1, not 0"),
    ],
)
def test_bad_seedings_refused(teams, message):
    with pytest.raises(TeamsError, match=message):
        Bracket.seeded(teams)


def test_storage_round_trip():
    bracket = Bracket.seeded(SEEDS[12], third_place=False)
    played = bracket.record(1, 108).record(2, 112).record(5, 101)
    data = played.to_dict()
    assert data == {
        "seeds": SEEDS[12],
        "third_place": False,
        "winners": {"1": 108, "2": 112, "5": 101},
    }
    again = Bracket.from_dict(data)
    assert again == played
    assert again.match(6).teams == (104, 112)


def test_stored_brackets_are_checked_again():
    with pytest.raises(TeamsError, match=r"^match 1: team 103 is not in it"):
        Bracket.from_dict({"seeds": [1, 2, 3, 4], "winners": {"1": 103}})
    with pytest.raises(TeamsError, match=r"^match 3 is not ready"):
        Bracket.from_dict({"seeds": [1, 2, 3, 4], "winners": {"3": 1}})
    with pytest.raises(TeamsError, match=r"^playoff: 'final' is not a match number"):
        Bracket.from_dict({"seeds": [1, 2], "winners": {"final": 1}})
    with pytest.raises(TeamsError, match=r"^playoff: seeds is a list of teams"):
        Bracket.from_dict({"seeds": "1,2"})
    with pytest.raises(TeamsError, match=r"^third_place: true or false, not 'yes'"):
        Bracket.from_dict({"seeds": [1, 2, 3, 4], "third_place": "yes"})


def test_each_match_has_its_table_and_a_table_plays_its_earliest_ready_match():
    """A round's matches sit at tables 1 to n top to bottom, the third-place game at table 2
    beside the final; a table waits for its earlier match before a later round's."""
    bracket = Bracket.seeded(SEEDS[8], third_place=True)
    assert [bracket.table_of(m.id) for m in bracket.matches] == [1, 2, 3, 4, 1, 2, 1, 2]
    assert [bracket.match_at(t).id for t in (1, 2, 3, 4)] == [1, 2, 3, 4]  # type: ignore[union-attr]
    # Matches 1, 3 and 4 played: semi-final 6 (table 2) is ready, but match 2 is still at
    # table 2, so table 2 plays match 2 first; table 1 has nothing ready.
    bracket = bracket.record(1, 101).record(3, 102).record(4, 103)
    assert bracket.match_at(1) is None
    assert bracket.match_at(2).id == 2  # type: ignore[union-attr]
    bracket = bracket.record(2, 104)
    assert [bracket.match_at(t).id for t in (1, 2)] == [5, 6]  # type: ignore[union-attr]
    bracket = bracket.record(5, 101).record(6, 103)
    assert (bracket.match_at(1).id, bracket.match_at(2).id, bracket.match_at(3)) == (7, 8, None)  # type: ignore[union-attr]


def test_a_best_of_three_series_is_won_by_the_first_to_two():
    match = Bracket.seeded([7, 9]).match(1)
    assert series(match, [], 3) == Series(3, 0, 0, None)
    assert series(match, [9], 3).text("Aces", "Kings") == "game 2 of up to 3: Kings lead 1-0"
    assert series(match, [9, 7], 3).next_game == 3
    assert series(match, [9, 7, 7], 3).winner == 7
    assert series(match, [7, 7], 3).text("Aces", "Kings") == "Aces won the series 2-0"
    assert series(match, [9], 1).winner == 9
    assert series(match, [7, 9, 9, 7], 5).winner is None
    with pytest.raises(TeamsError, match=r"^match 1: game 3 was played after the series was won"):
        series(match, [7, 7, 9], 3)
    with pytest.raises(TeamsError, match=r"^match 1, game 1: a playoff game needs a winner"):
        series(match, [None], 3)
    with pytest.raises(TeamsError, match=r"^playoff_best_of: a match is 1, 3, 5 games, not 2"):
        series(match, [], 2)
    waiting = Bracket.seeded([1, 2, 3, 4]).match(3)
    with pytest.raises(TeamsError, match=r"^match 3 is not ready"):
        series(waiting, [], 3)
