"""The rules the solver plays by, and the errors it gives for bad positions."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.dd import NO_SUIT, DDInputError, Position, solve, solve_all_leads, solve_table

BACKENDS = ("c", "python")

# suits: 0 clubs, 1 diamonds, 2 hearts, 3 spades; rank 12 = ace ... 0 = two
A, K, Q, J = 12, 11, 10, 9


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_joker_cannot_win_at_no_trump(backend: str) -> None:
    # N leads the only heart; E, S, W hold a joker and nothing of the suit: N wins.
    p = Position(
        hands=(((2, 0),), ((NO_SUIT, 1),), ((3, 5),), ((NO_SUIT, 0),)), trump=None, leader=0
    )
    assert solve(p, backend=backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_led_joker_lets_the_next_card_set_the_suit(backend: str) -> None:
    # N leads the joker; E's spade two sets spades: S's heart ace is a discard, W's spade
    # three wins for E-W.
    p = Position(hands=(((NO_SUIT, 1),), ((3, 0),), ((2, A),), ((3, 1),)), trump=None, leader=0)
    assert solve(p, backend=backend) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_jokers_follow_lets_a_joker_be_played_while_holding_the_suit(backend: str) -> None:
    # N leads the spade ace. Made to follow, E must drop the king under it; allowed to play
    # the joker instead, E keeps the king and wins the second spade.
    hands = (((3, A), (3, 0)), ((3, K), (NO_SUIT, 0)), ((3, 1), (3, 2)), ((2, 0), (2, 1)))
    strict = Position(hands=hands, trump=None, leader=0)
    loose = Position(hands=hands, trump=None, leader=0, jokers_follow=True)
    assert solve(strict, for_seat=1, backend=backend) == 0
    assert solve(loose, for_seat=1, backend=backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_only_column_tops_are_playable(backend: str) -> None:
    # E's spade ace lies under the heart two. Free, E wins the spade lead and cashes the heart;
    # in columns E must throw the heart on the spade lead, S wins, and only then the ace.
    hands = (((3, 0), (3, 1)), ((3, A), (2, 0)), ((3, 2), (3, 3)), ((1, 0), (1, 1)))
    free = Position(hands=hands, trump=None, leader=0)
    columns = tuple((h,) for h in hands)  # one stack each, the second card on top
    buried = Position(hands=hands, trump=None, leader=0, columns=columns)
    assert solve(free, for_seat=1, backend=backend) == 2
    assert solve(buried, for_seat=1, backend=backend) == 1
    assert solve(buried, for_seat=0, backend=backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fifteen_card_trump_suit_ranks_the_jokers_on_top(backend: str) -> None:
    # Bid Whist: the Big Joker (14) beats the Little Joker (13) beats the ace of trumps.
    p = Position(hands=(((2, 13),), ((2, 14),), ((2, A),), ((3, A),)), trump=2, leader=0)
    assert solve(p, backend=backend) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_three_players_score_alone_against_the_other_two(backend: str) -> None:
    # Seat 0 holds the two top spades, the others one low spade and one low heart each.
    p = Position(hands=(((3, A), (3, K)), ((3, 0), (2, 0)), ((3, 1), (2, 1))), trump=None, leader=0)
    assert solve(p, backend=backend) == 2
    assert solve(p, for_seat=1, backend=backend) == 0
    # on lead, seat 2 cashes its heart (seat 1's heart is lower, seat 0 has none)
    assert solve_all_leads(p, backend=backend) == (2, 0, 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_table_gives_every_strain_whatever_the_threads(backend: str) -> None:
    # The three-player position above, every strain: each as solve_all_leads says, on one
    # thread or two (the position's own trump is ignored).
    p = Position(hands=(((3, A), (3, K)), ((3, 0), (2, 0)), ((3, 1), (2, 1))), trump=2, leader=1)
    expected = {
        t: solve_all_leads(Position(p.hands, t, 0), backend=backend) for t in (None, 0, 1, 2, 3)
    }
    assert expected[None] == (2, 0, 1)
    assert solve_table(p, threads=1, backend=backend) == expected
    assert solve_table(p, threads=2, backend=backend) == expected
    assert solve_table(p, (3,), backend=backend) == {3: expected[3]}
    with pytest.raises(DDInputError):
        solve_table(p, (7,), backend=backend)


def test_ruffing_and_trump_leads_follow_whist_rules() -> None:
    # N leads a club; S is void and ruffs with the two of trumps.
    p = Position(hands=(((0, 3),), ((0, A),), ((1, 0),), ((0, 2),)), trump=1, leader=0)
    assert solve(p) == 1
    assert solve(Position(p.hands, None, 0)) == 0


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ((((3, 0),), ((3, 0),), ((3, 1),), ((3, 2),)), "held twice"),
        ((((3, 0), (3, 5)), ((3, 1),), ((3, 2),), ((3, 3),)), "unequal size"),
        ((((5, 0),), ((3, 1),), ((3, 2),), ((3, 3),)), "suit index 5"),
        ((((3, 16),), ((3, 1),), ((3, 2),), ((3, 3),)), "rank index 16"),
        ((((3, 0),), ((3, 1),)), "3 or 4 hands"),
        (((), (), (), ()), "1 to 17 cards"),
        ((("AS",), ((3, 1),), ((3, 2),), ((3, 3),)), "is not a card"),
    ],
)
def test_bad_hands_are_refused_with_a_clear_error(hands: tuple, message: str) -> None:
    with pytest.raises(DDInputError, match=message):
        Position(hands=hands, trump=None, leader=0)


def test_an_unknown_trump_or_leader_is_refused() -> None:
    hands = (((3, 0),), ((3, 1),), ((3, 2),), ((3, 3),))
    with pytest.raises(DDInputError, match="unknown trump"):
        Position(hands=hands, trump=4, leader=0)
    with pytest.raises(DDInputError, match="unknown trump"):
        Position(hands=hands, trump="H", leader=0)  # type: ignore[arg-type]
    with pytest.raises(DDInputError, match="leader"):
        Position(hands=hands, trump=None, leader=4)
    with pytest.raises(DDInputError, match="for_seat"):
        solve(Position(hands=hands, trump=None, leader=0), for_seat=7)


def test_columns_must_hold_exactly_the_hand() -> None:
    hands = (((3, 0),), ((3, 1),), ((3, 2),), ((3, 3),))
    with pytest.raises(DDInputError, match="do not hold exactly"):
        Position(
            hands=hands,
            trump=None,
            leader=0,
            columns=((((3, 0),),), (((3, 1),),), (((3, 2),),), (((3, 4),),)),
        )


def test_dd_input_error_is_an_engine_error() -> None:
    assert issubclass(DDInputError, EngineError)
    assert issubclass(DDInputError, ValueError)


def test_a_missing_c_core_falls_back_to_python_and_says_so_once() -> None:
    import subprocess
    import sys

    code = (
        "import sys, warnings\n"
        "sys.modules['engine.dd._core'] = None\n"
        "warnings.simplefilter('always')\n"
        "from engine.dd import Position, solve\n"
        "p = Position(hands=(((3, 1),), ((3, 0),), ((2, 0),), ((2, 1),)), trump=None, leader=0)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    values = [solve(p), solve(p)]\n"
        "print(values, len(caught), 'not built' in str(caught[0].message))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[1, 1] 1 True"


def test_spare_cards_need_a_trick_count_and_enough_cards() -> None:
    three = ((3, 12), (3, 11), (3, 10))
    small = (((2, 1),), ((2, 2),), ((2, 3),))
    with pytest.raises(DDInputError, match="unequal size"):
        Position(hands=(three, *small), trump=None, leader=0)
    spare = Position(hands=(three, *small), trump=None, leader=0, tricks=1)
    assert spare.hand_size == 1
    with pytest.raises(DDInputError, match="every hand needs 2 to 18 cards, not 1"):
        Position(hands=(three, *small), trump=None, leader=0, tricks=2)
    with pytest.raises(DDInputError, match="not a number of tricks"):
        Position(hands=(three, *small), trump=None, leader=0, tricks=0)
    with pytest.raises(DDInputError, match="columns do not go together"):
        Position(
            hands=(three, *small),
            trump=None,
            leader=0,
            columns=((three,), *((h,) for h in small)),
            tricks=1,
        )


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_with_spare_cards_may_put_a_suit_aside_to_ruff(backend: str) -> None:
    # Two tricks; North cashes the club ace and king. East holds two small clubs and the two
    # of trumps, one card more than it will play: it follows once, then (one club left, one
    # card to spare) puts that club aside and ruffs. Holding both clubs for good it would
    # have to follow twice and take nothing.
    north = ((0, A), (0, K))
    rest = (((1, 5), (1, 6)), ((1, 7), (1, 8)))
    east = ((0, 0), (0, 1), (3, 0))
    spare = Position(hands=(north, east, *rest), trump=3, leader=0, tricks=2)
    assert solve(spare, for_seat=1, backend=backend) == 1
    kept_clubs = Position(hands=(north, east[:2], *rest), trump=3, leader=0)
    assert solve(kept_clubs, for_seat=1, backend=backend) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_partner_with_only_a_trump_exposed_must_ruff_the_leaders_winner(backend: str) -> None:
    # Three-player Open Whist, diamonds trumps, one stack each. Seat 1 wins the first trick
    # and leads the spade ace, but its "partner" against seat 2 (seat 0) has only the three
    # of trumps exposed and must ruff it, then lead the five of hearts into seat 2's ace.
    stacks = (
        ((2, 3), (1, 1), (0, 0)),  # seat 0: top card last
        ((3, 6), (3, 12), (1, 10)),
        ((2, 12), (0, 1), (3, 8)),
    )
    position = Position(
        hands=tuple(tuple(sorted(st)) for st in stacks),
        trump=1,
        leader=2,
        columns=tuple((st,) for st in stacks),
    )
    assert solve(position, backend=backend) == 1
