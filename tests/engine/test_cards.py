"""Cards, suits, ranks, seats and sides: text round trips and readable errors."""

import pytest

from engine import EngineError
from engine.cards import Card, CardError, Rank, Seat, Side, Suit, bid_whist_deck, standard_deck


@pytest.mark.parametrize("card", [*standard_deck(), Card.BIG_JOKER, Card.LITTLE_JOKER])
def test_every_card_round_trips_through_text_and_repr(card):
    assert Card.from_str(str(card)) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SA", "SA"),
        ("sa", "SA"),
        ("H10", "HT"),
        ("10h", "HT"),
        ("♠K", "SK"),
        ("c2", "C2"),
        ("bj", "BJ"),
        ("Little Joker", "LJ"),
    ],
)
def test_cards_are_read_in_the_usual_spellings(text, expected):
    assert str(Card.from_str(text)) == expected


@pytest.mark.parametrize("text", ["", "S1", "X5", "SAA", "J"])
def test_a_bad_card_is_refused_with_an_engine_error(text):
    with pytest.raises(CardError, match="not a card"):
        Card.from_str(text)


def test_card_errors_are_engine_errors_and_value_errors():
    assert issubclass(CardError, EngineError)
    assert issubclass(CardError, ValueError)


def test_a_suitless_card_must_be_a_joker():
    with pytest.raises(CardError, match="joker"):
        Card(None, 12)
    with pytest.raises(CardError, match="between 2 and 14"):
        Card(Suit.SPADES, 15)


def test_suits_round_trip_and_carry_letters_and_symbols():
    for suit in Suit:
        assert Suit.from_str(str(suit)) is suit
        assert Suit.from_str(suit.symbol) is suit
        assert eval(repr(suit)) is suit
    assert Suit.from_str("h") is Suit.HEARTS
    assert Suit.from_str("Spades") is Suit.SPADES
    assert [s.index for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)] == [0, 1, 2, 3]


def test_ranks_accept_t_and_ten():
    assert Rank.from_str("T") is Rank.TEN
    assert Rank.from_str("10") is Rank.TEN
    assert Rank.from_str("a") == 14
    with pytest.raises(CardError):
        Rank.from_str("1")


def test_seats_go_clockwise_and_know_partners_and_sides():
    assert [Seat.N.next(i) for i in range(5)] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
    assert Seat.E.partner is Seat.W
    assert Seat.S.side is Side.NS
    assert Side.NS.other is Side.EW
    assert Seat.from_str("west") is Seat.W
    assert Side.from_str("e-w") is Side.EW
    for seat in Seat:
        assert Seat.from_str(str(seat)) is seat
        assert eval(repr(seat)) is seat
    with pytest.raises(CardError, match="not a seat"):
        Seat.from_str("X")


def test_decks_hold_52_and_54_different_cards():
    assert len(set(standard_deck())) == 52
    deck = bid_whist_deck()
    assert len(set(deck)) == 54
    assert Card.BIG_JOKER in deck
    assert Card.LITTLE_JOKER in deck
