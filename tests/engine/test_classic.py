"""Classic whist: trumps by rotation or turned card, play, entries and scoring (seed 003)."""

import pytest

import engine.games.classic as classic
from engine.cards import Card, Seat, Side, Suit
from engine.dealing import deal_boards
from engine.games import EntryError, IllegalPlayError, OptionsError, PlayContext, find_variant
from engine.games.classic import ClassicEntry, ClassicRules

from .helpers import board_with, play_position


@pytest.fixture
def board():
    return deal_boards("classic", [1], seed=11)[0]


def test_classic_is_found_by_name():
    assert find_variant("classic") is ClassicRules
    assert ClassicRules.title == "Classic Whist"


def test_ns_taking_8_tricks_score_8(board):
    rules = ClassicRules({"scoring": "tricks"})
    entry = rules.parse_entry(board, {"ns_tricks": 8})
    assert entry == ClassicEntry(8)
    assert rules.ns_score(board, entry) == 8
    assert rules.side_points(board, entry) == {Side.NS: 8, Side.EW: 5}


def test_odd_tricks_is_the_default_as_seed_003_scores_tournaments():
    """Seed 003: "Each player's score is the total number of odd tricks (tricks above six)
    that their side has taken over the deals played"."""
    assert ClassicRules().option("scoring") == "odd_tricks"
    quoted = " ".join((classic.__doc__ or "").split())
    assert "total number of odd tricks (tricks above six) that their side has taken" in quoted


def test_odd_tricks_option_gives_ns_2_and_ew_0(board):
    rules = ClassicRules({"scoring": "odd_tricks"})
    entry = rules.parse_entry(board, {"ns_tricks": 8})
    assert rules.side_points(board, entry) == {Side.NS: 2, Side.EW: 0}
    assert rules.ns_score(board, entry) == 2
    losing = rules.parse_entry(board, {"ns_tricks": 6})
    assert rules.side_points(board, losing) == {Side.NS: 0, Side.EW: 1}
    assert rules.ns_score(board, losing) == -1


def test_honours_score_4_for_all_four_and_2_for_three():
    board = board_with(
        "classic", {Seat.N: "HA HK", Seat.S: "HQ HJ", Seat.E: "SA SK SQ"}, trumps=Suit.HEARTS
    )
    rules = ClassicRules({"honours": True, "scoring": "tricks"})
    entry = rules.parse_entry(board, {"ns_tricks": 7})
    assert rules.side_points(board, entry) == {Side.NS: 7 + 4, Side.EW: 6}
    spades = board_with(
        "classic", {Seat.E: "SA SK", Seat.W: "SQ", Seat.N: "SJ"}, number=3, trumps=Suit.SPADES
    )
    assert rules.side_points(spades, rules.parse_entry(spades, {"ns_tricks": 7})) == {
        Side.NS: 7,
        Side.EW: 6 + 2,
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"ns_tricks": 14}, "NS tricks must be between 0 and 13, not 14"),
        ({"ns_tricks": 8, "ew_tricks": 6}, "NS and EW tricks must add up to 13"),
        ({"ns_tricks": "eight"}, "NS tricks must be a whole number"),
        ({"ns_tricks": 7.5}, "NS tricks must be a whole number"),
        ({}, "needs the ns_tricks"),
        ({"ns_tricks": 7, "declarer": "N"}, "has no field 'declarer'"),
    ],
)
def test_impossible_results_are_refused_with_a_plain_message(board, data, message):
    with pytest.raises(EntryError, match=message):
        ClassicRules().parse_entry(board, data)


def test_a_board_of_another_game_is_refused(board):
    other = deal_boards("candid", [1], seed=1)[0]
    with pytest.raises(EntryError, match="is a candid board, not Classic Whist"):
        ClassicRules().parse_entry(other, {"ns_tricks": 7})


def test_trumps_follow_the_rotation_option():
    boards = deal_boards("classic", range(1, 6), seed=1, options={"rotation": "SHDC"})
    assert [b.trumps for b in boards] == [
        Suit.SPADES,
        Suit.HEARTS,
        Suit.DIAMONDS,
        Suit.CLUBS,
        Suit.SPADES,
    ]
    with pytest.raises(OptionsError, match="option rotation"):
        ClassicRules({"rotation": "HXS"})


def test_the_turned_card_is_the_dealers_last_card_and_sets_trumps():
    for board in deal_boards("classic", range(1, 5), seed=9, options={"trumps": "turned"}):
        assert board.turned_card in board.deal.hand(board.dealer)
        assert board.trumps is board.turned_card.suit


def test_the_player_left_of_the_dealer_leads(board):
    play = ClassicRules().new_play(board)
    assert play.to_play is Seat.E


def test_must_follow_suit_and_trumps_win():
    rules = ClassicRules()
    board = board_with("classic", {}, trumps=Suit.HEARTS)
    context = PlayContext(trumps=Suit.HEARTS, leader=Seat.N, seats=tuple(Seat))
    play = play_position(rules, board, context, {Seat.E: "S2 SK H3 D4"}, [(Seat.N, "SA")])
    assert set(play.legal_plays()) == {Card.from_str("S2"), Card.from_str("SK")}
    void = play_position(rules, board, context, {Seat.E: "H3 D4"}, [(Seat.N, "SA")])
    assert set(void.legal_plays()) == {Card.from_str("H3"), Card.from_str("D4")}
    trick = [
        (Seat.N, Card.from_str("SA")),
        (Seat.E, Card.from_str("H2")),
        (Seat.S, Card.from_str("SK")),
        (Seat.W, Card.from_str("DA")),
    ]
    assert rules.trick_winner(trick, context) is Seat.E
    no_trumps = PlayContext(trumps=None, leader=Seat.N, seats=tuple(Seat))
    assert rules.trick_winner(trick, no_trumps) is Seat.N


def test_replay_stops_at_the_first_illegal_card_and_names_it():
    board = board_with(
        "classic",
        {Seat.E: "S2 S3", Seat.S: "S4 S5", Seat.W: "S6 S7", Seat.N: "S8 H2"},
        trumps=Suit.HEARTS,
    )
    rules = ClassicRules()
    with pytest.raises(
        IllegalPlayError, match=r"card 4 \(trick 1\): North cannot play H2: must follow spades"
    ):
        rules.replay(board, ["S2", "S4", "S6", "H2"])
    with pytest.raises(
        IllegalPlayError, match="South cannot play SA: that card is not in the hand"
    ):
        rules.replay(board, ["S2", "SA"])
    play = rules.replay(board, ["S2", "S4", "S6", "S8"])
    assert play.tricks[0].winner is Seat.N
    assert play.to_play is Seat.N
