"""Money recorded in whole cents: the prize split with the house's share, and the Boston pot."""

from __future__ import annotations

import pytest

from engine.teams.model import GameResult, TeamsError
from engine.teams.money import boston_pot, count_bostons, prize_split

# ---- prize split ----------------------------------------------------------------------------


def test_four_way_split_after_a_house_percentage():
    # 24 teams at $40: $960; the house keeps 10% ($96); $864 to 4 places.
    assert prize_split(24, 4000, [40, 30, 20, 10], house_percent=10) == [34560, 25920, 17280, 8640]


def test_five_way_split_odd_cents_go_to_first_place():
    prizes = prize_split(7, 1000, [35, 25, 20, 12, 8], house_cents=333)
    fund = 7000 - 333
    assert sum(prizes) == fund
    # Rounded down: 2333, 1666, 1333, 800, 533 (6665); the 2 cents over go to first place.
    assert prizes == [2335, 1666, 1333, 800, 533]


def test_house_percentage_is_rounded_down_so_the_odd_cent_stays_with_the_players():
    # 3 x 333 = 999 cents; 10% would be 99.9: the house takes 99.
    assert prize_split(3, 333, [100], house_percent=10) == [900]
    assert prize_split(0, 2000, [60, 40]) == [0, 0]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((10, 2000, [50, 30]), {}, r"^places: the percentages add up to 100, not 50 \+ 30 = 80"),
        ((10, 2000, []), {}, r"^places: at least one paid place"),
        ((10, 2000, [50, 50.0]), {}, r"^places: whole percentages from 1 to 100, not 50.0"),
        ((10, 2000, [100, 0]), {}, r"^places: whole percentages from 1 to 100, not 0"),
        ((10, 20.5, [100]), {}, r"^fee_cents: a whole number of cents, not 20.5"),
        ((-1, 2000, [100]), {}, r"^entries: 0 or more, not -1"),
        (
            (10, 2000, [100]),
            {"house_cents": 10, "house_percent": 5},
            r"^house: give the house's share in cents or as a percentage, not both",
        ),
        ((10, 2000, [100]), {"house_percent": 101}, r"^house_percent: from 0 to 100, not 101"),
        (
            (1, 2000, [100]),
            {"house_cents": 2001},
            r"^house_cents: the house's 2001 cents are more than the 2000 cents of fees",
        ),
    ],
)
def test_prize_split_refusals(args, kwargs, message):
    with pytest.raises(TeamsError, match=message):
        prize_split(*args, **kwargs)


# ---- Boston pot -----------------------------------------------------------------------------


def test_the_team_with_most_bostons_takes_the_pot():
    award = boston_pot([1, 2, 3, 4], 500, {1: 1, 2: 2, 3: 0, 9: 5})  # 9 did not opt in
    assert (award.pot_cents, award.most_bostons, award.shares) == (4000, 2, ((2, 4000),))
    assert award.text == "team 2 wins the pot with 2 Bostons"
    assert (award.share(2), award.share(1)) == (4000, 0)


def test_a_tie_shares_the_pot_and_odd_cents_go_to_the_better_ranked():
    # 3 teams, 2 players each at 5 cents: a pot of 30 cents, shared by the 2 level teams.
    award = boston_pot([1, 2, 3], 5, {1: 1, 3: 1})
    assert award.shares == ((1, 15), (3, 15))
    odd = boston_pot([1, 2, 3, 4, 5], 333, {2: 1, 4: 1, 5: 1})  # 3330 cents over 3 teams
    assert odd.shares == ((2, 1110), (4, 1110), (5, 1110))
    uneven = boston_pot([1, 2, 3, 4], 101, {2: 1, 3: 1, 4: 1})  # 808 cents: 269 each, 1 over
    assert uneven.shares == ((2, 270), (3, 269), (4, 269))
    assert (
        uneven.text == "teams 2, 3 and 4 share the pot with 1 Boston each; the odd 1 cent to team 2"
    )
    ranked = boston_pot([1, 2, 3, 4], 101, {2: 1, 3: 1, 4: 1}, ranking=[4, 1, 3, 2])
    assert ranked.shares == ((2, 269), (3, 269), (4, 270))


def test_ties_not_split_go_to_the_best_ranked():
    award = boston_pot([1, 2, 3], 500, {1: 1, 3: 1}, split_ties=False, ranking=[3, 2, 1])
    assert award.shares == ((3, 3000),)
    assert award.text == "team 3 wins the pot with 1 Boston, the best ranked of those level"
    with pytest.raises(TeamsError, match=r"^split_ties: teams 1 and 3 are level on 1 Boston"):
        boston_pot([1, 2, 3], 500, {1: 1, 3: 1}, split_ties=False)


def test_no_boston_the_pot_is_returned_carried_or_goes_to_the_leader():
    returned = boston_pot([3, 1], 500, {})
    assert (returned.returned, returned.shares) == (True, ((1, 1000), (3, 1000)))
    assert returned.text == "no Boston: the stakes are returned"
    carried = boston_pot([3, 1], 500, {1: 0}, no_boston="carry")
    assert (carried.carried_cents, carried.shares, carried.returned) == (2000, (), False)
    leader = boston_pot([3, 1], 500, {}, no_boston="leader", ranking=[3, 2, 1])
    assert leader.shares == ((3, 2000),)
    with pytest.raises(
        TeamsError, match=r"^no_boston: the pot goes to the leader; pass the ranking"
    ):
        boston_pot([3, 1], 500, {}, no_boston="leader")


def test_boston_pot_refusals():
    with pytest.raises(TeamsError, match=r"^opted_in: a team is listed twice"):
        boston_pot([1, 1], 500, {})
    with pytest.raises(TeamsError, match=r"^bostons of team 2: 0 or more, not -1"):
        boston_pot([1, 2], 500, {2: -1})
    with pytest.raises(
        TeamsError, match=r"^no_boston: one of return, carry, leader, record, not 'keep'"
    ):
        boston_pot([1, 2], 500, {}, no_boston="keep")  # type: ignore[arg-type]
    with pytest.raises(TeamsError, match=r"^ranking: team 2 opted in but is not in the ranking"):
        boston_pot([1, 2], 500, {1: 1}, ranking=[1])
    assert boston_pot([], 500, {1: 1}).text == "nobody paid into the pot"


def test_count_bostons_by_the_stated_round():
    results = [
        GameResult(1, 1, 1, 2, 1, (7, 0), bostons=(1, 0)),
        GameResult(2, 1, 2, 3, 3, (7, 7), bostons=(1, 1)),
        GameResult(5, 1, 1, 3, 1, (7, 0), bostons=(1, 0)),
        GameResult(9, 1, 1, 3, 1, (7, 0), bostons=(2, 0), playoff=True),
    ]
    assert count_bostons(results, through_round=4) == {1: 1, 2: 1, 3: 1}
    assert count_bostons(results) == {1: 2, 2: 1, 3: 1}
    assert boston_pot([1, 2, 3], 500, count_bostons(results)).shares == ((1, 3000),)
