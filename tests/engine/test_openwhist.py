"""Open Whist: only column tops are playable, trumps from the dealer's layout, 2-4 players."""

import pytest

from engine.cards import Card, Seat, Side, Suit
from engine.dealing import deal_boards
from engine.games import EntryError, IllegalPlayError, OptionsError, PlayContext
from engine.games.openwhist import OpenWhistRules, OpenWhistThreeEntry

from .helpers import board_with, cards


def _board():
    # East's layout, in dealt order: [D2] [S9 HJ] [C3 C4 S3] [D6 D7 D8 D9] [HQ HK CJ]
    east = "D2 S9 HJ C3 C4 S3 D6 D7 D8 D9 HQ HK CJ"
    return board_with(
        "openwhist", {Seat.E: east, Seat.N: "D5"}, turned=Card.from_str("D5"), trumps=Suit.DIAMONDS
    )


def test_only_the_exposed_column_tops_may_be_played():
    rules = OpenWhistRules()
    board = _board()
    play = rules.new_play(board)
    assert play.to_play is Seat.E
    assert set(play.legal_plays()) == set(cards("D2 HJ S3 D9 CJ"))
    with pytest.raises(IllegalPlayError, match="only the top card of a column may be played"):
        play.play("S9")


def test_following_suit_looks_only_at_exposed_cards_and_uncovers_the_next():
    rules = OpenWhistRules()
    board = _board()
    play = rules.new_play(board)
    play.play("S3")  # East leads the exposed spade; C4 is now exposed in that column
    assert Card.from_str("C4") in rules.available(play, Seat.E)
    # South must follow spades only if a spade is exposed in South's layout.
    south_tops = rules.available(play, Seat.S)
    legal = set(play.legal_plays())
    exposed_spades = {c for c in south_tops if c.suit is Suit.SPADES}
    assert legal == (exposed_spades or set(south_tops))


def test_the_dealers_first_card_sets_trumps():
    for board in deal_boards("openwhist", range(1, 5), seed=2):
        assert board.turned_card == board.deal.hand(board.dealer)[0]
        assert board.trumps is board.turned_card.suit


def test_fixed_trumps_option_uses_the_rotation():
    boards = deal_boards("openwhist", range(1, 5), seed=2, options={"fixed_trumps": True})
    assert [b.trumps for b in boards] == [Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS]
    assert all(b.turned_card is None for b in boards)


def test_four_players_score_a_point_per_trick_over_six():
    rules = OpenWhistRules()
    board = deal_boards("openwhist", [1], seed=2)[0]
    e = rules.parse_entry(board, {"ns_tricks": 9})
    assert rules.side_points(board, e) == {Side.NS: 3, Side.EW: 0}
    assert rules.ns_score(board, e) == 3
    assert rules.ns_score(board, rules.parse_entry(board, {"ns_tricks": 4})) == -3
    tricks = OpenWhistRules({"scoring": "tricks"})
    assert tricks.ns_score(board, e) == 9
    with pytest.raises(EntryError, match="NS and EW tricks must add up to 13"):
        rules.parse_entry(board, {"ns_tricks": 9, "ew_tricks": 5})


def test_two_players_play_the_four_hand_deal():
    rules = OpenWhistRules({"players": 2})
    board = deal_boards("openwhist", [3], seed=2, options={"players": 2})[0]
    assert board.hand_size == 13
    assert rules.new_play(board).to_play is board.dealer.next()


def test_three_players_get_seventeen_cards_and_score_tricks_over_five():
    rules = OpenWhistRules({"players": 3})
    board = deal_boards("openwhist", [3], seed=2, options={"players": 3})[0]
    assert board.dealer is Seat.S
    play = rules.new_play(board)
    assert play.to_play is Seat.N  # left of South among N, E, S
    e = rules.parse_entry(board, {"tricks": {"N": 8, "E": 5, "S": 4}})
    assert e == OpenWhistThreeEntry(8, 5, 4)
    assert rules.seat_points(board, e) == {Seat.N: 3, Seat.E: 0, Seat.S: 0}
    assert rules.ns_score(board, e) == 3
    with pytest.raises(EntryError, match="must add up to 17"):
        rules.parse_entry(board, {"tricks": {"N": 8, "E": 5, "S": 5}})
    with pytest.raises(EntryError, match="has 17 cards a hand; these Open Whist settings play 13"):
        OpenWhistRules().parse_entry(board, {"ns_tricks": 7})


def test_players_option_is_checked():
    with pytest.raises(OptionsError, match="option players must be one of 2, 3, 4"):
        OpenWhistRules({"players": 5})


def test_a_trick_is_won_by_the_highest_trump_among_three_players():
    rules = OpenWhistRules({"players": 3})
    ctx = PlayContext(trumps=Suit.CLUBS, leader=Seat.N, seats=(Seat.N, Seat.E, Seat.S))
    trick = list(zip((Seat.N, Seat.E, Seat.S), cards("HA C2 HK"), strict=True))
    assert rules.trick_winner(trick, ctx) is Seat.E
