"""A boards file for the wrong game is refused saying what the file is and what the event
needs, and what to do; nothing is read from it. A results file whose boards name another game
than its event is refused the same way (PBN with results, USEBIO)."""

from __future__ import annotations

import re

import pytest

from engine import pbn
from engine.dealing import deal_boards
from engine.exports import ExportError, score_record
from engine.exports.pbn_results import dumps_with_results, loads_with_results
from engine.exports.usebio import dumps_usebio, loads_usebio
from engine.games import rules_for
from engine.pbn import PBNError
from tests.engine.test_exports import simulate

GAMES = {
    "classic": "Classic Whist",
    "bidwhist": "Bid Whist",
    "candid": "Candid Whist",
    "openwhist": "Open Whist",
}
WAY_OUT = "Let clubwhist deal the boards (they are dealt when the event is made), or import a PBN"


def untagged(text):
    """The file with no [WhistVariant]: a board is then read as the event's game."""
    return re.sub(r'\[WhistVariant "[a-z]+"\]\n', "", text)


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [(a, b) for a in GAMES for b in GAMES if a != b],
)
def test_a_file_naming_another_game_says_which_and_what_the_event_plays(theirs, ours):
    text = pbn.dumps(deal_boards(theirs, [1, 2], seed=4))
    with pytest.raises(PBNError) as refused:
        pbn.loads_for_game(text, rules_for(ours))
    words = str(refused.value)
    article = "an" if theirs == "openwhist" else "a"
    assert words.startswith(
        f"board 1 is {article} {GAMES[theirs]} board (the file says "
        f'[WhistVariant "{theirs}"]), and this event plays {GAMES[ours]}: '
    )
    assert WAY_OUT + f" file written for {GAMES[ours]}" in words


@pytest.mark.parametrize(
    ("theirs", "options", "needed"),
    [
        ({"players": 3}, {}, "17 cards a hand, and this event's Open Whist options play 13"),
        ({}, {"players": 3}, "13 cards a hand, and this event's Open Whist options play 17"),
    ],
)
def test_a_file_dealt_for_other_options_says_so(theirs, options, needed):
    text = pbn.dumps(deal_boards("openwhist", [1], seed=4, options=theirs))
    with pytest.raises(PBNError) as refused:
        pbn.loads_for_game(text, rules_for("openwhist", options))
    words = str(refused.value)
    assert f"board 1 has {needed} (another number of players)" in words
    assert "import a file dealt for these options" in words


@pytest.mark.parametrize(
    ("theirs", "options", "ours", "said"),
    [
        (
            "bidwhist",
            {},
            "classic",
            "board 1's deal is a Bid Whist deal (4 hands of 12 and a kitty of 6), and Classic "
            "Whist deals 4 hands of 13 from 52 cards: the file was dealt for another game and "
            "does not say so",
        ),
        (
            "openwhist",
            {"players": 3},
            "candid",
            "board 1's deal is an Open Whist deal (3 hands of 17), and Candid Whist deals 4 "
            "hands of 13 from 52 cards",
        ),
        (
            "classic",
            {},
            "candid",
            "fixes trumps (H), as classic and Open Whist boards do, and "
            "Candid Whist chooses trumps in the auction",
        ),
        ("classic", {}, "bidwhist", "board 1 is a bridge deal (four hands of 13"),
        ("candid", {}, "openwhist", "an Open Whist board needs its WhistColumns layout"),
    ],
)
def test_a_file_naming_no_game_that_cannot_be_the_events_says_why(theirs, options, ours, said):
    text = untagged(pbn.dumps(deal_boards(theirs, [1], seed=4, options=options)))
    with pytest.raises(PBNError) as refused:
        pbn.loads_for_game(text, rules_for(ours))
    words = str(refused.value)
    assert said in words
    assert "Let clubwhist deal the boards" in words


def test_a_deal_with_a_card_missing_is_its_own_fault_not_another_games():
    """A typing slip (a card moved from one hand to another) makes no game's deal: the
    refusal says what is wrong with the board, not that the file is for another game."""
    text = untagged(pbn.dumps(deal_boards("classic", [1], seed=4)))
    deal = re.search(r'\[Deal "N:(\S+) (\S+) (\S+) (\S+)"\]', text)
    assert deal is not None
    north, east = deal.group(1), deal.group(2)
    moved = north.replace(north.split(".")[0], north.split(".")[0][1:], 1)
    card = north.split(".")[0][0]
    east = card + east  # the spade moved to East's spades
    broken = text.replace(
        deal.group(0), deal.group(0).replace(north, moved).replace(deal.group(2), east)
    )
    with pytest.raises(PBNError) as refused:
        pbn.loads_for_game(broken, rules_for("classic"))
    words = str(refused.value)
    assert "North holds 12 cards, not 13" in words
    assert "another game" not in words


def test_a_plain_deal_that_is_the_events_game_still_imports():
    text = untagged(pbn.dumps(deal_boards("candid", [1, 2], seed=4)))
    assert len(pbn.loads_for_game(text, rules_for("classic"))) == 2
    assert len(pbn.loads_for_game(text, rules_for("candid"))) == 2


# ---- results files -------------------------------------------------------------------------


def test_a_usebio_file_whose_boards_name_another_game_is_refused_in_words():
    record = simulate("classic", artificial=False)
    text = dumps_usebio(record, score_record(record))
    assert '"variant":"classic"' in text
    with pytest.raises(ExportError) as refused:
        loads_usebio(text.replace('"variant":"classic"', '"variant":"candid"'))
    assert str(refused.value).startswith(
        'board 1 is dealt for Classic Whist (its [WhistVariant "classic"]), and the file\'s '
        "event plays Candid Whist: every board of an event is dealt for its game. Export the "
        "event again"
    )


def test_a_pbn_results_file_whose_first_game_names_another_game_is_refused_in_words():
    record = simulate("candid", artificial=False)
    text = dumps_with_results(record)
    games = text.split("\n\n")
    # The event's game is the first game's WhistVariant; board 2 onwards say candid.
    games[1] = games[1].replace(
        '[WhistVariant "candid"]', '[WhistVariant "classic"]\n[WhistTrumps "H"]'
    )
    with pytest.raises(ExportError) as refused:
        loads_with_results("\n\n".join(games))
    # The first game's tag says what the event plays: the other boards are then refused.
    assert str(refused.value).startswith(
        'board 2 is dealt for Candid Whist (its [WhistVariant "candid"]), and the file\'s '
        "event plays Classic Whist: every board of an event is dealt for its game."
    )
