"""PBN: write-then-read for every game, real-world files, and malformed input named by line."""

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import pbn
from engine.boards import DEFAULT_ROTATION
from engine.cards import Card, Seat, Suit
from engine.dealing import deal_boards
from engine.pbn import PBNError, dump, dumps, load, loads

from .helpers import ALL_VARIANT_OPTIONS


@settings(max_examples=15, deadline=None)
@given(
    choice=st.sampled_from(ALL_VARIANT_OPTIONS),
    seed=st.integers(min_value=0, max_value=10**9),
    first=st.integers(min_value=1, max_value=40),
)
def test_writing_then_reading_gives_the_same_boards_for_every_game(choice, seed, first):
    variant, options = choice
    boards = deal_boards(variant, range(first, first + 3), seed=seed, options=options)
    assert loads(dumps(boards)) == boards


def test_dump_and_load_work_on_text_handles():
    boards = deal_boards("candid", [1, 2], seed=4)
    handle = io.StringIO()
    dump(boards, handle)
    handle.seek(0)
    assert load(handle) == boards


REAL_WORLD = """% PBN 2.1
% EXPORT
%Creator: some dealing program
[Event "Club night"]
[Site "Village hall"]
[Date "2024.01.12"]

{ A header game without a deal is skipped }
[Event "#"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Auction "N"]
Pass Pass Pass Pass
[Play "E"]
S2 ST S5 SA ; a comment after the play
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N NT 7
{ a comment
  over several lines

  with a blank line inside }
[Note "1:a note with [brackets] and a ; semicolon"]

[Event "#"]
[Board "2"]
[Dealer "E"]
[Deal "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
"""


def test_real_world_files_are_read():
    boards = loads(REAL_WORLD)
    assert [b.number for b in boards] == [1, 2]
    first, second = boards
    assert first.variant == "classic"
    assert first.trumps is DEFAULT_ROTATION[0]
    assert second.trumps is DEFAULT_ROTATION[1]
    assert Card.from_str("SA") in first.deal.hand(Seat.N)
    assert Card.from_str("SA") in second.deal.hand(Seat.E)
    assert second.dealer is Seat.E


def test_hash_means_the_same_as_the_previous_game():
    text = REAL_WORLD.replace('[Deal "E:', '[WhistTrumps "S"]\n[Deal "E:').replace(
        '[Board "2"]\n[Dealer "E"]', '[Board "2"]\n[Dealer "#"]'
    )
    second = loads(text)[1]
    assert second.dealer is Seat.N  # "#" copies board 1's dealer
    assert second.trumps is Suit.SPADES


def test_the_variant_argument_reads_plain_bridge_files_as_another_game():
    boards = loads(REAL_WORLD, variant="candid")
    assert {b.variant for b in boards} == {"candid"}
    assert boards[0].trumps is None


def _one(deal="N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", extra=""):
    return f'[Board "3"]\n[Dealer "S"]\n{extra}[Deal "{deal}"]\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _one(deal="N:AKQJ.T98.765 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            r"line 3: North's hand 'AKQJ.T98.765' has 3 suits, not 4",
        ),
        (
            _one(deal="N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98"),
            r"line 3: Deal has 3 hands, not 4",
        ),
        (
            _one(deal="N:AKQJ.T98.765.432 AKQJ.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            r"line 3: Deal gives SA to both North and East",
        ),
        (
            _one(deal="N:AKQJ.T98.765.43X T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            r"line 3: North's hand .* 'X' is not a rank",
        ),
        (
            _one(deal="N:AKQJ.T98.765.43 T98.765.432.AKQJ2 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            r"line 3: board 3: North holds 12 cards, not 13",
        ),
        (
            _one(deal="Q:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
            r"line 3: Deal starts with 'Q'",
        ),
        ('[Board "1"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ\n', r"line 2: malformed tag"),
        (
            '[Board "x"]\n' + _one().split("\n", 2)[2],
            r"line 1: Board 'x' is not a board number",
        ),
        ('[Board "1"]\n[Board "2"]\n', r"line 2: the Board tag appears twice"),
        ("stray text\n", r"line 1: text outside any tag"),
        ('[Board "#"]\n', r"line 1: Board is '#' .* no earlier game"),
        ('[Board "4"]\n[Dealer "N"]\n', r"line 1: this game has a Board number but no Deal"),
        ('{ never closed\n[Board "1"]\n', r"line 1: a \{ comment is never closed"),
        (_one(extra='[WhistVariant "spades"]\n'), r"line 3: unknown WhistVariant 'spades'"),
        (_one(extra='[WhistTrumps "X"]\n'), r"line 3: WhistTrumps 'X' is not C, D, H, S or NT"),
        (_one(extra='[WhistVariant "openwhist"]\n'), r"needs its WhistColumns layout"),
        (_one(extra='[WhistVariant "bidwhist"]\n'), r"board 3: North holds 13 cards, not 12"),
    ],
)
def test_malformed_input_names_the_line_and_the_fault(text, message):
    with pytest.raises(PBNError, match=message):
        loads(text)


def test_open_whist_columns_must_hold_the_dealt_cards():
    board = deal_boards("openwhist", [1], seed=1)[0]
    text = dumps([board])
    first, second = board.columns[Seat.E][0][0], board.columns[Seat.E][1][0]
    swapped = text.replace(f"E:{first}/{second},", f"E:{second}/{first},", 1)
    assert swapped != text
    # Swapping two of East's cards keeps the cards but changes the layout: still readable.
    assert loads(swapped)[0].columns[Seat.E][0] == (second,)
    # The dealer's (North's) first card sets trumps, so swapping there is caught too.
    n_first, n_second = board.columns[Seat.N][0][0], board.columns[Seat.N][1][0]
    with pytest.raises(PBNError, match="trump card must be the first card"):
        loads(text.replace(f"N:{n_first}/{n_second},", f"N:{n_second}/{n_first},", 1))
    stranger = next(c for c in board.deal.hand(Seat.S))
    missing = text.replace(f"E:{first}/", f"E:{stranger}/", 1)
    with pytest.raises(PBNError, match="East's columns do not hold the cards of the Deal"):
        loads(missing)


def test_bid_whist_jokers_and_kitty_are_written_as_extension_tags():
    board = deal_boards("bidwhist", [1], seed=7)[0]
    text = dumps([board])
    assert "[WhistKitty " in text
    assert "[WhistJokers " in text
    assert '[WhistVariant "bidwhist"]' in text


def test_a_byte_order_mark_and_windows_line_ends_are_accepted():
    boards = deal_boards("classic", [1, 2], seed=8)
    text = "\ufeff" + dumps(boards).replace("\n", "\r\n")
    assert loads(text) == boards


def test_several_tags_on_one_line_and_escaped_quotes_are_read():
    text = (
        '[Event "The \\"big\\" night"] [Board "2"] [Dealer "E"]\n'
        '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    )
    (board,) = loads(text)
    assert (board.number, board.dealer) == (2, Seat.E)


def test_a_real_world_bridge_file_reads_as_classic_boards() -> None:
    """Exported files carry tags we do not use ('#' for Site in the first game, auctions)."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "realworld.pbn").read_text()
    boards = loads(text)
    assert [b.number for b in boards] == [1, 2]
    assert [str(b.dealer) for b in boards] == ["N", "E"]
    assert boards[1].deal.hand(Seat.E)[0] == Card.from_str("SA")


def test_a_bridge_deal_offered_to_bid_whist_says_it_cannot_be_and_what_to_do() -> None:
    """A dealing program's file (four hands of 13, no game named) offered to a Bid Whist event:
    the refusal says it is a bridge deal, what Bid Whist deals, and what to import instead."""
    import random

    from engine.games import rules_for

    classic = rules_for("classic")
    rng = random.Random(1)
    text = "\n".join(
        line
        for line in pbn.dumps([classic.deal_board(n, rng) for n in (1, 2)]).splitlines()
        if not line.startswith("[Whist")
    )
    with pytest.raises(PBNError) as refused:
        pbn.loads_for_game(text, rules_for("bidwhist"))
    words = str(refused.value)
    assert "board 1 is a bridge deal (four hands of 13" in words
    assert "Bid Whist deals 4 hands of 12 and a kitty of 6 from 54 cards" in words
    assert "Let clubwhist deal the boards" in words
    assert len(pbn.loads_for_game(text, rules_for("candid"))) == 2  # a bridge deal is Candid's
