"""The "are you sure?" check speaks the game's own words and reads what the analysis keeps."""

from __future__ import annotations

from typing import Any

from engine.dealing import deal_boards
from engine.games import find_variant

BID_WHIST = find_variant("bidwhist")(None)
CLASSIC = find_variant("classic")({"scoring": "tricks"})


def _bid_whist(declarer: str, books: int, *, trumps: str = "S") -> Any:
    board = deal_boards("bidwhist", [1], seed=7)[0]
    entry = BID_WHIST.parse_entry(
        board,
        {"declarer": declarer, "bid": 3, "kind": "uptown", "trumps": trumps, "books": books},
    )
    return board, entry


def test_bid_whist_13_books_where_double_dummy_gives_10_is_unusual_in_books() -> None:
    board, entry = _bid_whist("N", 13)
    analysis = {"table": {"N": {"uptown S": 10}}}  # the declaring side's books, kitty included
    reason = BID_WHIST.unlikely(board, entry, analysis=analysis)
    assert reason == "NS took 13 books, but double dummy gives NS 10 in this contract"


def test_bid_whist_within_two_books_of_double_dummy_passes() -> None:
    board, entry = _bid_whist("N", 12)
    assert BID_WHIST.unlikely(board, entry, analysis={"table": {"N": {"uptown S": 10}}}) is None


def test_bid_whist_without_a_table_yet_compares_with_the_other_tables_in_books() -> None:
    board, entry = _bid_whist("S", 13)
    others = [_bid_whist("N", books)[1] for books in (9, 9, 10)]
    reason = BID_WHIST.unlikely(board, entry, analysis={"par": {}}, others=others)
    assert reason == "NS took 13 books; at the other tables NS took 9 to 10"


def test_bid_whist_defenders_count_no_kitty_book() -> None:
    # East declares with 7 books: NS took 12 - 6 = 6 tricks, and count no kitty book
    board, entry = _bid_whist("E", 7)
    assert BID_WHIST.ns_count(entry, BID_WHIST.ns_tricks(board, entry) or 0) == 6


def test_classic_whist_still_speaks_of_tricks() -> None:
    board = deal_boards("classic", [1], seed=3)[0]
    entry = CLASSIC.parse_entry(board, {"ns_tricks": 11})
    analysis = {"tricks": {"ns": 6, "ew": 7, "trumps": "H", "leader": "E"}}
    assert CLASSIC.unlikely(board, entry, analysis=analysis) == (
        "NS took 11 tricks, but double dummy gives NS 6 in this contract"
    )


def test_histograms_have_whole_number_ticks_and_keep_empty_bins() -> None:
    from engine.charts import bar_chart, filled_bins

    bars = filled_bins([("-2", 1), ("+1", 1), ("+2", 1)])
    assert [label for label, _ in bars] == ["-2", "-1", "0", "+1", "+2"]
    svg = bar_chart(bars, title="Board 1: NS scores")
    assert "0.5" not in svg and ">1<" in svg and ">0<" in svg
    assert svg.count("<rect") == 1 + 5  # the background and every bin, empty ones too
    # the scores' own step: tens stay tens
    assert filled_bins([("+10", 1), ("+20", 1), ("+50", 2)]) == [
        ("+10", 1),
        ("+20", 1),
        ("+30", 0),
        ("+40", 0),
        ("+50", 2),
    ]
    assert filled_bins([("A", 1), ("+1", 1)]) == [("A", 1), ("+1", 1)]


def test_par_lines_print_suit_symbols_and_say_down() -> None:
    from engine.dd.analysis import par_line

    fixed = {"tricks": {"ns": 7, "ew": 6, "trumps": "H", "leader": "E"}}
    assert par_line(fixed) == "NS 7, EW 6 tricks (♥ trumps, E leads)"
    sacrifice = {
        "par": {"contracts": ["9H by N"], "ns_score": -20, "tricks": {"declarer_tricks": 7}}
    }
    assert par_line(sacrifice) == "9♥ by N, down 2; NS -20"
    made = {"par": {"contracts": ["4 uptown S by N"], "ns_score": 4, "tricks": {"books": 11}}}
    assert par_line(made) == "4 uptown ♠ by N; NS +4"
