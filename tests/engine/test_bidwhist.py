"""Bid Whist: jokers, uptown/downtown, the one-round auction, entries, Fosdick and Andrews."""

import pytest

from engine.cards import Card, Seat, Side, Suit
from engine.dealing import deal_boards
from engine.games import (
    EntryError,
    IllegalBidError,
    IllegalPlayError,
    OptionsError,
    PlayContext,
    find_variant,
)
from engine.games.bidwhist import (
    BidKind,
    BidWhistAuction,
    BidWhistBid,
    BidWhistEntry,
    BidWhistPassedOut,
    BidWhistRules,
)

from .helpers import board_with, cards, play_position

BJ, LJ = Card.BIG_JOKER, Card.LITTLE_JOKER


@pytest.fixture
def board():
    return deal_boards("bidwhist", [1], seed=7)[0]


def entry(rules, board, **data):
    return rules.parse_entry(board, data)


# ---- scoring: the checks from the issue ------------------------------------------------------


def test_fosdick_bid_5_uptown_with_12_books_scores_6_for_the_bidders(board):
    rules = BidWhistRules()
    e = entry(rules, board, declarer="N", bid=5, kind="uptown", trumps="S", books=12)
    assert rules.side_points(board, e) == {Side.NS: 6, Side.EW: 0}
    assert rules.ns_score(board, e) == 6


def test_fosdick_set_costs_minus_the_bid(board):
    rules = BidWhistRules()
    e = entry(rules, board, declarer="N", bid=5, kind="uptown", trumps="S", books=10)
    assert rules.side_points(board, e) == {Side.NS: -5, Side.EW: 0}
    east = entry(rules, board, declarer="E", bid=5, kind="downtown", trumps="S", books=10)
    assert rules.ns_score(board, east) == 5  # EW -5, NS gets the negation


def test_fosdick_5_no_trump_making_12_books_scores_12(board):
    rules = BidWhistRules()
    e = entry(rules, board, declarer="N", bid=5, kind="notrump", ranking="uptown", books=12)
    assert rules.ns_score(board, e) == 12
    set_ = entry(rules, board, declarer="N", bid=5, kind="notrump", ranking="downtown", books=9)
    assert rules.ns_score(board, set_) == -10


def test_the_bid_is_made_with_exactly_six_plus_the_bid_books(board):
    rules = BidWhistRules()
    made = entry(rules, board, declarer="S", bid=3, kind="uptown", trumps="H", books=9)
    assert rules.ns_score(board, made) == 3
    short = entry(rules, board, declarer="S", bid=3, kind="uptown", trumps="H", books=8)
    assert rules.ns_score(board, short) == -3


def test_andrews_defenders_score_the_bid_when_they_set_it(board):
    rules = BidWhistRules({"scoring": "andrews", "defenders_score": True})
    e = entry(rules, board, declarer="N", bid=5, kind="uptown", trumps="S", books=10)
    assert rules.side_points(board, e) == {Side.NS: 0, Side.EW: 5}
    assert rules.ns_score(board, e) == -5
    nt = entry(rules, board, declarer="W", bid=4, kind="notrump", ranking="uptown", books=7)
    assert rules.side_points(board, nt) == {Side.EW: 0, Side.NS: 8}


def test_andrews_scores_the_bid_and_overtricks_only_when_asked(board):
    plain = BidWhistRules({"scoring": "andrews"})
    e = entry(plain, board, declarer="N", bid=3, kind="uptown", trumps="S", books=10)
    assert plain.ns_score(board, e) == 3
    counted = BidWhistRules({"scoring": "andrews", "overtricks": "yes"})
    assert counted.ns_score(board, e) == 4  # seed 004: "bids 3 but makes 4 ... earns 4"
    assert plain.side_points(board, e) == {Side.NS: 3, Side.EW: 0}


def test_a_boston_is_recorded(board):
    rules = BidWhistRules()
    e = entry(rules, board, declarer="E", bid=7, kind="downtown", trumps="C", books=13)
    assert e.boston
    assert "Boston" in rules.describe(e)
    assert rules.ns_score(board, e) == -7
    assert not entry(rules, board, declarer="E", bid=6, kind="uptown", trumps="C", books=13).boston


def test_fosdick_refuses_andrews_only_options():
    with pytest.raises(OptionsError, match="defenders_score needs scoring=andrews"):
        BidWhistRules({"defenders_score": True})
    with pytest.raises(OptionsError, match="overtricks=no"):
        BidWhistRules({"overtricks": "no"})
    with pytest.raises(OptionsError, match="option scoring must be one of fosdick, andrews"):
        BidWhistRules({"scoring": "hoyle"})


# ---- entries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"declarer": "N", "bid": 8, "kind": "uptown", "trumps": "S", "books": 12},
            "Bid Whist bids run from 3 to 7",
        ),
        (
            {"declarer": "N", "bid": 2, "kind": "uptown", "trumps": "S", "books": 12},
            "Bid Whist bids run from 3 to 7",
        ),
        (
            {"declarer": "N", "bid": 5, "kind": "sideways", "trumps": "S", "books": 12},
            "uptown, downtown or notrump",
        ),
        ({"declarer": "N", "bid": 5, "kind": "uptown", "books": 12}, "names its trump suit"),
        (
            {"declarer": "N", "bid": 5, "kind": "uptown", "trumps": "X", "books": 12},
            "trumps are C, D, H or S",
        ),
        (
            {"declarer": "N", "bid": 5, "kind": "notrump", "trumps": "S", "books": 12},
            "a no-trump bid has no trump suit",
        ),
        ({"declarer": "N", "bid": 5, "kind": "notrump", "books": 12}, "give the ranking"),
        (
            {
                "declarer": "N",
                "bid": 5,
                "kind": "uptown",
                "trumps": "S",
                "ranking": "uptown",
                "books": 12,
            },
            "names its trump suit, not a ranking",
        ),
        (
            {"declarer": "N", "bid": 5, "kind": "uptown", "trumps": "S", "books": 0},
            r"books run from 1 \(the kitty book\) to 13",
        ),
        (
            {"declarer": "N", "bid": 5, "kind": "uptown", "trumps": "S", "books": 14},
            "books run from 1",
        ),
        (
            {"declarer": "Q", "bid": 5, "kind": "uptown", "trumps": "S", "books": 12},
            "declarer must be N, E, S or W",
        ),
        ({"bid": 5, "kind": "uptown", "trumps": "S", "books": 12}, "needs the declarer"),
    ],
)
def test_illegal_entries_get_a_message_a_player_understands(board, data, message):
    with pytest.raises(EntryError, match=message):
        BidWhistRules().parse_entry(board, data)


def test_entries_round_trip_through_their_json_form(board):
    rules = BidWhistRules()
    for data in (
        {"declarer": "W", "bid": 4, "kind": "downtown", "trumps": "D", "books": 11},
        {"declarer": "N", "bid": 6, "kind": "notrump", "ranking": "downtown", "books": 12},
        {"passed_out": True},
    ):
        e = rules.parse_entry(board, data)
        assert rules.entry_to_dict(e) == data
        assert rules.parse_entry(board, rules.entry_to_dict(e)) == e


def test_a_passed_out_board_scores_nothing_unless_the_dealer_must_bid(board):
    rules = BidWhistRules()
    e = rules.parse_entry(board, {"passed_out": True})
    assert e == BidWhistPassedOut()
    assert rules.ns_score(board, e) == 0
    with pytest.raises(EntryError, match="dealer must bid"):
        BidWhistRules({"all_pass": "dealer_must_bid"}).parse_entry(board, {"passed_out": True})


# ---- auction ---------------------------------------------------------------------------------


def test_the_auction_is_one_round_from_the_dealers_left():
    auction = BidWhistAuction(Seat.S)
    assert auction.to_call is Seat.W
    for call in ("3 uptown", "pass", "4 downtown", "pass"):
        auction.call(call)
    assert auction.is_over
    assert auction.highest == (Seat.E, BidWhistBid(4, BidKind.DOWNTOWN))
    with pytest.raises(IllegalBidError, match="auction is over"):
        auction.call("5 uptown")


def test_no_trump_outranks_the_same_number_and_uptown_equals_downtown():
    auction = BidWhistAuction(Seat.N)
    auction.call("4 uptown")
    with pytest.raises(IllegalBidError, match="does not outrank"):
        auction.call("4 downtown")
    auction.call("4NT")
    with pytest.raises(IllegalBidError, match="does not outrank"):
        auction.call("4 uptown")
    auction.call("5 downtown")
    assert BidWhistBid(3, BidKind.NOTRUMP) not in auction.legal_bids()
    assert auction.legal_bids()[0] == BidWhistBid(5, BidKind.NOTRUMP)


def test_bids_run_from_3_to_7():
    with pytest.raises(IllegalBidError, match="Bid Whist bids run from 3 to 7"):
        BidWhistBid(8, BidKind.UPTOWN)
    assert str(BidWhistBid.from_str("7nt")) == "7 notrump"
    assert eval(repr(BidWhistBid(3, BidKind.DOWNTOWN))) == BidWhistBid(3, BidKind.DOWNTOWN)


def test_all_pass_is_a_redeal_or_forces_the_dealer():
    auction = BidWhistAuction(Seat.N)
    for _ in range(4):
        auction.call(None)
    assert auction.redeal
    forced = BidWhistAuction(Seat.N, dealer_must_bid=True)
    for _ in range(3):
        forced.call("pass")
    with pytest.raises(IllegalBidError, match="dealer must bid"):
        forced.call("pass")
    forced.call("3 uptown")
    assert forced.highest == (Seat.N, BidWhistBid(3, BidKind.UPTOWN))


# ---- play ------------------------------------------------------------------------------------


def _ctx(trumps, downtown=False, leader=Seat.N):
    return PlayContext(
        trumps=trumps, leader=leader, seats=tuple(Seat), downtown=downtown, jokers=True
    )


def _trick(text):
    seats = [Seat.N, Seat.E, Seat.S, Seat.W]
    return list(zip(seats, cards(text), strict=True))


def test_jokers_are_the_two_top_trumps_in_suit_contracts():
    rules = BidWhistRules()
    assert rules.trick_winner(_trick("HA LJ BJ HK"), _ctx(Suit.HEARTS)) is Seat.S
    assert rules.trick_winner(_trick("SA LJ S2 SK"), _ctx(Suit.HEARTS)) is Seat.E
    assert rules.trick_winner(_trick("SA LJ S2 SK"), _ctx(Suit.HEARTS, downtown=True)) is Seat.E


def test_a_joker_cannot_win_at_no_trump():
    rules = BidWhistRules()
    assert rules.trick_winner(_trick("S5 BJ S2 LJ"), _ctx(None)) is Seat.N


def test_a_joker_led_at_no_trump_lets_the_next_card_set_the_suit():
    rules = BidWhistRules()
    board = board_with("bidwhist", {})
    play = play_position(rules, board, _ctx(None), {Seat.E: "D3 SK H2"}, [(Seat.N, "BJ")])
    assert set(play.legal_plays()) == set(cards("D3 SK H2"))
    third = play_position(
        rules, board, _ctx(None), {Seat.S: "D9 LJ SA"}, [(Seat.N, "BJ"), (Seat.E, "D3")]
    )
    assert third.legal_plays() == tuple(cards("D9"))
    assert rules.trick_winner(_trick("BJ D3 D9 SA"), _ctx(None)) is Seat.S


def test_jokers_count_as_trumps_for_following_suit():
    rules = BidWhistRules()
    board = board_with("bidwhist", {})
    play = play_position(rules, board, _ctx(Suit.SPADES), {Seat.E: "LJ D3 HK"}, [(Seat.N, "S4")])
    assert play.legal_plays() == (LJ,)
    led = play_position(rules, board, _ctx(Suit.SPADES), {Seat.E: "S2 D3"}, [(Seat.N, "BJ")])
    assert led.legal_plays() == tuple(cards("S2"))
    nt = play_position(rules, board, _ctx(None), {Seat.E: "LJ D3 HK"}, [(Seat.N, "D4")])
    assert nt.legal_plays() == tuple(cards("D3"))


def test_downtown_ranks_ace_then_two_up_to_king():
    rules = BidWhistRules()
    down = _ctx(None, downtown=True)
    assert rules.rank_order(down) == (14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
    assert rules.rank_order(_ctx(None)) == tuple(range(14, 1, -1))
    assert rules.trick_winner(_trick("S3 S2 SK SQ"), down) is Seat.E
    assert rules.trick_winner(_trick("S3 S2 SA SQ"), down) is Seat.S


def test_the_declarer_takes_the_kitty_discards_six_and_leads(board):
    rules = BidWhistRules()
    e = entry(rules, board, declarer="E", bid=4, kind="uptown", trumps="H", books=10)
    pool = [*board.deal.hand(Seat.E), *board.kitty]
    discards = pool[:6]
    play = rules.new_play(board, rules.contract(e, discards))
    assert play.to_play is Seat.E
    assert sorted(map(str, play.hands[Seat.E])) == sorted(map(str, pool[6:]))
    with pytest.raises(IllegalPlayError, match="exactly six"):
        rules.new_play(board, rules.contract(e, discards[:5]))
    stranger = board.deal.hand(Seat.N)[0]
    with pytest.raises(IllegalPlayError, match="not in hand or kitty"):
        rules.new_play(board, rules.contract(e, [*discards[:5], stranger]))


def test_at_no_trump_the_declarer_must_discard_jokers():
    rules = BidWhistRules({"scoring": "andrews"})  # seed 004's rule; auto follows the scoring
    board = board_with("bidwhist", {Seat.S: "BJ"})
    e = entry(rules, board, declarer="S", bid=3, kind="notrump", ranking="uptown", books=9)
    keep_joker = [c for c in [*board.deal.hand(Seat.S), *board.kitty] if not c.is_joker][:6]
    with pytest.raises(IllegalPlayError, match="must discard the Big Joker"):
        rules.new_play(board, rules.contract(e, keep_joker))
    relaxed = BidWhistRules({"nt_jokers_discarded": False})
    assert relaxed.new_play(board, relaxed.contract(e, keep_joker)).to_play is Seat.S


def test_entry_type_carries_target_and_made(board):
    e = BidWhistEntry(Seat.N, 5, BidKind.UPTOWN, Suit.SPADES, None, 11)
    assert e.target == 11
    assert e.made


def test_bid_whist_is_found_by_name_and_plays_twelve_cards():
    rules = find_variant("bidwhist")()
    assert rules.hand_size == 12
    assert rules.title == "Bid Whist"


def test_jokers_at_no_trump_follow_the_chosen_scorings_seed():
    """Seed 004 (Andrews) makes the declarer discard jokers at no-trump; seed 002 (Fosdick)
    lets a player who cannot follow play one, so `auto` is on only for Andrews."""
    board = board_with("bidwhist", {Seat.S: "BJ"})
    keep_joker = [c for c in [*board.deal.hand(Seat.S), *board.kitty] if not c.is_joker][:6]
    for options, forced in (
        ({}, False),
        ({"scoring": "andrews"}, True),
        ({"nt_jokers_discarded": "yes"}, True),
        ({"scoring": "andrews", "nt_jokers_discarded": "no"}, False),
    ):
        rules = BidWhistRules(options)
        e = entry(rules, board, declarer="S", bid=3, kind="notrump", ranking="uptown", books=9)
        if forced:
            with pytest.raises(IllegalPlayError, match="must discard the Big Joker"):
                rules.new_play(board, rules.contract(e, keep_joker))
        else:
            assert rules.new_play(board, rules.contract(e, keep_joker)).to_play is Seat.S


@pytest.mark.parametrize(
    ("text", "kind"),
    [("3 up", "uptown"), ("3 down", "downtown"), ("4 Up", "uptown"), ("5 DOWN", "downtown")],
)
def test_the_bid_reader_takes_up_and_down(text, kind):
    bid = BidWhistBid.from_str(text)
    assert str(bid.kind) == kind
    assert bid.level == int(text[0])
