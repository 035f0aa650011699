"""Deals and boards: dealer and trump rotation, impossible deals refused, text round trips."""

import pytest

from engine.boards import Board, BoardError, Deal, dealer_for, trump_rotation
from engine.cards import Card, Seat, Suit
from engine.dealing import deal_boards

from .helpers import ALL_VARIANT_OPTIONS


def test_the_dealer_follows_the_board_number():
    assert [dealer_for(n) for n in range(1, 10)] == [
        Seat.N,
        Seat.E,
        Seat.S,
        Seat.W,
        Seat.N,
        Seat.E,
        Seat.S,
        Seat.W,
        Seat.N,
    ]


@pytest.mark.parametrize("number", [0, -3])
def test_board_numbers_start_at_one(number):
    with pytest.raises(BoardError, match="start at 1"):
        dealer_for(number)


def test_default_rotation_is_hearts_diamonds_spades_clubs():
    assert [trump_rotation(n) for n in range(1, 9)] == [
        Suit.HEARTS,
        Suit.DIAMONDS,
        Suit.SPADES,
        Suit.CLUBS,
    ] * 2


def test_no_trumps_every_fifth_board_keeps_the_suit_order():
    got = [trump_rotation(n, no_trump_every=5) for n in range(1, 11)]
    assert got == [Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS, None] * 2


def test_a_club_can_use_its_own_rotation():
    order = (Suit.SPADES, Suit.HEARTS)
    assert [trump_rotation(n, order) for n in range(1, 4)] == [
        Suit.SPADES,
        Suit.HEARTS,
        Suit.SPADES,
    ]


def _full_deal():
    return deal_boards("classic", [1], seed=1)[0].deal


def test_a_card_dealt_twice_is_refused():
    hands = dict(_full_deal().hands)
    hands[Seat.E] = (*hands[Seat.E][:-1], hands[Seat.N][0])
    with pytest.raises(BoardError, match="in both North's and East's hands"):
        Deal(hands)


def test_a_wrong_hand_size_is_refused():
    deal = _full_deal()
    hands = dict(deal.hands)
    moved = hands[Seat.N][0]
    hands[Seat.N] = hands[Seat.N][1:]
    hands[Seat.S] = (*hands[Seat.S], moved)
    with pytest.raises(BoardError, match="North holds 12 cards, not 13"):
        Board(1, "classic", Seat.N, Deal(hands), Suit.HEARTS)


def test_a_missing_card_is_refused():
    hands = dict(_full_deal().hands)
    hands[Seat.N] = hands[Seat.N][1:]
    with pytest.raises(BoardError):
        Board(1, "classic", Seat.N, Deal(hands), Suit.HEARTS)


def test_a_bid_whist_board_needs_its_six_card_kitty():
    board = deal_boards("bidwhist", [1], seed=2)[0]
    with pytest.raises(BoardError, match="kitty holds 5 cards, not 6"):
        Board(1, "bidwhist", Seat.N, board.deal, None, board.kitty[1:])


def test_auction_games_do_not_fix_trumps_on_the_board():
    board = deal_boards("candid", [1], seed=2)[0]
    with pytest.raises(BoardError, match="chooses trumps in the auction"):
        Board(1, "candid", Seat.N, board.deal, Suit.SPADES)


def test_the_classic_turned_card_must_belong_to_the_dealer():
    board = deal_boards("classic", [1], seed=2, options={"trumps": "turned"})[0]
    assert board.turned_card in board.deal.hand(board.dealer)
    east_card = board.deal.hand(Seat.E)[0]
    with pytest.raises(BoardError, match="must be the dealer's card"):
        Board(1, "classic", Seat.N, board.deal, east_card.suit, (), east_card)


def test_an_unknown_variant_is_refused():
    with pytest.raises(BoardError, match="unknown variant"):
        Board(1, "bridge", Seat.N, _full_deal())


@pytest.mark.parametrize(("variant", "options"), ALL_VARIANT_OPTIONS)
def test_deals_and_boards_round_trip_through_text_and_repr(variant, options):
    for board in deal_boards(variant, range(1, 4), seed=5, options=options):
        assert Deal.from_str(str(board.deal)) == board.deal
        assert eval(repr(board.deal)) == board.deal
        assert Board.from_str(str(board)) == board
        namespace = {"Board": Board, "Deal": Deal, "Seat": Seat, "Suit": Suit, "Card": Card}
        assert eval(repr(board), namespace) == board


def test_open_whist_columns_follow_the_dealt_order():
    board = deal_boards("openwhist", [2], seed=3)[0]
    for seat, columns in board.columns.items():
        assert [len(c) for c in columns] == [1, 2, 3, 4, 3]
        assert tuple(card for column in columns for card in column) == board.deal.hand(seat)
    assert board.turned_card == board.columns[board.dealer][0][0]
    assert board.trumps is board.turned_card.suit


def test_three_player_open_whist_has_seventeen_cards_and_a_loose_trump_card():
    board = deal_boards("openwhist", [1], seed=3, options={"players": 3})[0]
    assert board.seats == (Seat.N, Seat.E, Seat.S)
    assert all([len(c) for c in cols] == [1, 2, 3, 4, 5, 2] for cols in board.columns.values())
    assert board.deal.seat_of(board.turned_card) is None
    assert board.trumps is board.turned_card.suit


def test_hand_order_does_not_matter_except_in_open_whist():
    board = deal_boards("candid", [1], seed=4)[0]
    reversed_hands = {seat: tuple(reversed(board.deal.hand(seat))) for seat in Seat}
    again = Board(1, "candid", Seat.N, Deal(reversed_hands))
    assert again == board
    assert hash(again) == hash(board)
    open_board = deal_boards("openwhist", [2], seed=4)[0]
    shuffled = dict(open_board.deal.hands)
    shuffled[Seat.W] = tuple(reversed(shuffled[Seat.W]))
    other = Board(
        2, "openwhist", Seat.E, Deal(shuffled), open_board.trumps, (), open_board.turned_card
    )
    assert other != open_board
    assert other.columns[Seat.W] != open_board.columns[Seat.W]


def test_the_turned_card_and_the_trumps_must_agree():
    board = deal_boards("classic", [1], seed=2, options={"trumps": "turned"})[0]
    other = next(s for s in Suit if s is not board.trumps)
    with pytest.raises(BoardError, match=r"makes .* trumps, not"):
        Board(1, "classic", Seat.N, board.deal, other, (), board.turned_card)
