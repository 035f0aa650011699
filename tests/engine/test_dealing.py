"""Dealing: complete boards, reproducible from a seed, random without one."""

import pytest

from engine.boards import BoardError
from engine.dealing import deal_boards, parse_board_range
from engine.games import OptionsError, UnknownVariantError

from .helpers import ALL_VARIANT_OPTIONS


@pytest.mark.parametrize(("variant", "options"), ALL_VARIANT_OPTIONS)
def test_a_seed_gives_the_same_boards_whatever_the_range(variant, options):
    whole = deal_boards(variant, range(1, 9), seed="club night", options=options)
    part = deal_boards(variant, [5, 6], seed="club night", options=options)
    assert whole[4:6] == part
    assert deal_boards(variant, [5], seed="other", options=options)[0] != part[0]


@pytest.mark.parametrize(("variant", "options"), ALL_VARIANT_OPTIONS)
def test_boards_without_a_seed_are_complete_and_differ(variant, options):
    boards = deal_boards(variant, range(1, 5), options=options)
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert len({b.deal for b in boards}) == 4  # 4 equal random deals would be a broken shuffle


def test_bid_whist_deals_twelve_each_and_a_kitty_of_six():
    board = deal_boards("bidwhist", [3], seed=1)[0]
    assert all(len(board.deal.hand(seat)) == 12 for seat in board.seats)
    assert len(board.kitty) == 6


def test_unknown_games_and_options_are_refused():
    with pytest.raises(UnknownVariantError, match="unknown game 'bridge'"):
        deal_boards("bridge", [1])
    with pytest.raises(OptionsError, match="no option 'colour'"):
        deal_boards("classic", [1], options={"colour": "red"})
    with pytest.raises(OptionsError, match="option players must be one of 2, 3, 4"):
        deal_boards("openwhist", [1], options={"players": "5"})


def test_board_ranges_are_read_like_a_director_writes_them():
    assert parse_board_range("1-4") == [1, 2, 3, 4]
    assert parse_board_range("1,3,5-7") == [1, 3, 5, 6, 7]
    assert parse_board_range("9") == [9]
    for bad in ("0-3", "5-2", "a-b", "1,1", ""):
        with pytest.raises(BoardError):
            parse_board_range(bad)
