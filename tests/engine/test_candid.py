"""Candid Whist: HCP announcements, the opener, the auction, entries, scoring and bags."""

import pytest

from engine.cards import Seat, Side, Suit
from engine.dealing import deal_boards
from engine.games import EntryError, IllegalBidError, IllegalPlayError, OptionsError
from engine.games.candid import (
    CandidAuction,
    CandidBid,
    CandidEntry,
    CandidPassedOut,
    CandidRules,
    announcements,
    bag_penalties,
    opener,
)

from .helpers import board_with


@pytest.fixture
def board():
    return deal_boards("candid", [1], seed=3)[0]


def score(board, **data):
    rules = CandidRules()
    return rules.ns_score(board, rules.parse_entry(board, data))


def test_n_bids_8_hearts_and_ns_take_10_tricks_ns_plus_82(board):
    assert score(board, declarer="N", bid=8, strain="H", tricks=10) == 82


def test_bid_8_take_7_ns_minus_80(board):
    assert score(board, declarer="N", bid=8, strain="H", tricks=7) == -80


def test_ew_declare_9_spades_and_take_9_ns_minus_90(board):
    assert score(board, declarer="E", bid=9, strain="S", tricks=9) == -90


def test_no_trump_and_the_whole_range_of_bids(board):
    assert score(board, declarer="S", bid=13, strain="NT", tricks=13) == 130
    assert score(board, declarer="W", bid=7, strain="C", tricks=13) == -76


def test_a_pairs_tenth_bag_costs_100_in_the_session_aggregate():
    tally = bag_penalties([3, 4, 2, 1, 5])
    assert tally.running == (3, 7, 9, 10, 15)
    assert tally.penalties == (0, 0, 0, -100, 0)
    assert tally.total_bags == 15
    assert tally.total_penalty == -100
    assert bag_penalties([10, 10]).total_penalty == -200
    assert bag_penalties([9]).total_penalty == 0


def test_bags_come_only_from_contracts_the_pair_declared_and_made(board):
    rules = CandidRules()
    results = [
        (CandidEntry(Seat.N, 8, Suit.HEARTS, 12), Side.NS),  # 4 bags for NS
        (CandidEntry(Seat.E, 7, None, 13), Side.NS),  # EW's bags, not ours
        (CandidEntry(Seat.S, 9, Suit.CLUBS, 8), Side.NS),  # set: no bags
        (CandidPassedOut(), Side.NS),
        (CandidEntry(Seat.S, 7, Suit.CLUBS, 13), Side.NS),  # 6 more: the 10th bag
    ]
    tally = rules.session_bags(results)
    assert tally.per_board == (4, 0, 0, 0, 6)
    assert tally.penalties[-1] == -100
    # The per-board score is untouched: matchpoints still compare the board alone.
    assert rules.ns_score(board, results[-1][0]) == 76


def test_bag_options_change_the_session_penalty():
    rules = CandidRules({"bags_per_penalty": 5, "bag_penalty": 50})
    assert rules.session_bags([5, 5]).total_penalty == -100
    with pytest.raises(OptionsError):
        CandidRules({"bags_per_penalty": 0})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"declarer": "N", "bid": 6, "strain": "H", "tricks": 10},
            "Candid Whist bids run from 7 to 13 tricks",
        ),
        ({"declarer": "N", "bid": 14, "strain": "H", "tricks": 10}, "run from 7 to 13"),
        ({"declarer": "N", "bid": 8, "strain": "Z", "tricks": 10}, "strain is C, D, H, S or NT"),
        ({"declarer": "N", "bid": 8, "strain": "H", "tricks": 14}, "tricks run from 0 to 13"),
        ({"declarer": "N", "bid": 8, "strain": "H"}, "needs the tricks"),
    ],
)
def test_illegal_entries_are_refused(board, data, message):
    with pytest.raises(EntryError, match=message):
        CandidRules().parse_entry(board, data)


def test_entries_round_trip_and_describe_themselves(board):
    rules = CandidRules()
    data = {"declarer": "N", "bid": 8, "strain": "H", "tricks": 10}
    e = rules.parse_entry(board, data)
    assert rules.entry_to_dict(e) == data
    assert rules.describe(e) == "8♥ by N, 10 tricks"
    assert rules.entry_to_dict(rules.parse_entry(board, {"passed_out": True})) == {
        "passed_out": True
    }


def _hcp_board(dealer, honours):
    return board_with("candid", honours, dealer=dealer, number=1)


def test_announcements_count_a4_k3_q2_j1_from_the_dealers_left():
    board = _hcp_board(Seat.N, {Seat.N: "SA SK SQ SJ", Seat.E: "HA", Seat.S: "HK HQ", Seat.W: "DJ"})
    # The filler hands out the remaining cards; count what each seat really holds.
    said = dict(announcements(board))
    assert [seat for seat, _ in announcements(board)] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert sum(said.values()) == 40
    assert said[Seat.N] == 10  # the filler gives North only clubs 2 to 10


def _spread(points):
    """Hands by HCP target built from honours: a way to set exact HCPs per seat."""
    honours = [f"{s}{r}" for r in "AKQJ" for s in "SHDC"]
    value = {"A": 4, "K": 3, "Q": 2, "J": 1}
    given = {seat: [] for seat in Seat}
    left = dict(points)
    for card in honours:
        for seat in Seat:
            if left[seat] >= value[card[1]] and len(given[seat]) < 13:
                given[seat].append(card)
                left[seat] -= value[card[1]]
                break
    assert all(v == 0 for v in left.values()), left
    return {seat: " ".join(cs) for seat, cs in given.items()}


def test_the_lowest_hcp_opens():
    board = _hcp_board(Seat.N, _spread({Seat.N: 12, Seat.E: 10, Seat.S: 13, Seat.W: 5}))
    assert dict(announcements(board))[Seat.W] == 5
    assert opener(board) is Seat.W


def test_a_tie_goes_to_the_partnership_with_fewer_points():
    board = _hcp_board(Seat.N, _spread({Seat.N: 8, Seat.E: 8, Seat.S: 14, Seat.W: 10}))
    assert opener(board) is Seat.E  # EW 18 < NS 22


def test_a_full_tie_goes_to_the_player_nearest_the_dealers_left():
    board = _hcp_board(Seat.S, _spread({Seat.N: 8, Seat.E: 12, Seat.S: 12, Seat.W: 8}))
    assert opener(board) is Seat.W  # W and N tie, both sides 20: W is the dealer's left
    board = _hcp_board(Seat.W, _spread({Seat.N: 8, Seat.E: 12, Seat.S: 12, Seat.W: 8}))
    assert opener(board) is Seat.N


def test_the_auction_ends_after_three_passes_and_bids_must_rise():
    auction = CandidAuction(Seat.E)
    auction.call("pass")
    auction.call("7S")
    with pytest.raises(IllegalBidError, match="not higher than 7S"):
        auction.call("7D")
    auction.call("7NT")
    auction.call("pass")
    auction.call("8C")
    assert auction.to_call is Seat.S
    for _ in range(3):
        assert not auction.is_over
        auction.call(None)
    assert auction.is_over
    assert auction.highest == (Seat.E, CandidBid(8, Suit.CLUBS))


def test_four_passes_mean_a_redeal():
    auction = CandidAuction(Seat.N)
    for _ in range(4):
        auction.call("pass")
    assert auction.redeal
    with pytest.raises(IllegalBidError):
        auction.call("7C")


def test_bids_run_from_7_to_13_in_c_d_h_s_nt():
    with pytest.raises(IllegalBidError, match="run from 7 to 13"):
        CandidBid(6, Suit.CLUBS)
    order = [CandidBid.from_str(t) for t in ("7C", "7D", "7H", "7S", "7NT", "8C")]
    assert [b.key for b in order] == sorted(b.key for b in order)
    assert eval(repr(order[4])) == order[4]


def test_the_player_left_of_the_declarer_leads(board):
    rules = CandidRules()
    play = rules.new_play(board, CandidEntry(Seat.S, 8, Suit.HEARTS, 8))
    assert play.to_play is Seat.W
    assert play.context.trumps is Suit.HEARTS
    with pytest.raises(IllegalPlayError, match="needs its contract"):
        rules.new_play(board)
