"""PBN as PBN 2.1 says: every export of every game and scoring method in export format (the 15
mandatory tags in order, the other tags sorted, data rows only after tables), read by an
independent reader (endplay) with every deal intact and, for bridge-shaped games, the score
table and par; read back whole by our own reader; fouled boards, " & " in names, and untagged
boards read as the event's game."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Player

from engine import pbn
from engine.cards import Rank, Seat, Suit
from engine.dealing import deal_boards
from engine.exports import PairRecord, score_record
from engine.exports.pbn_results import (
    MANDATORY_TAGS,
    SCORING,
    dumps_hand_records,
    dumps_with_results,
    loads_with_results,
)
from engine.games import rules_for
from engine.scoring import METHODS
from engine.shapes import shape_of
from tests.engine.helpers import ALL_VARIANT_OPTIONS
from tests.engine.test_exports import simulate

STRAINS = ("NT", "S", "H", "D", "C")
DD_SEATS = ("N", "S", "E", "W")


def bridge_shaped(variant):
    shape = shape_of(variant)
    deals = shape.deals
    return (
        len(deals) == 1
        and (deals[0].size, len(deals[0].seats)) == (13, 4)
        and not (shape.jokers or shape.kitty or shape.keeps_dealt_order)
    )


def analyses_for(record):
    """A stored analysis per board, as `BoardAnalysis.to_dict()` gives it, its numbers made
    from the board number so every cell differs."""
    found = {}
    for board in record.boards:
        n = board.number
        table = {
            seat: {strain: (n + i * 5 + j) % 14 for j, strain in enumerate(STRAINS)}
            for i, seat in enumerate(DD_SEATS)
        }
        contracts = [f"{7 + n % 6}H by N", f"{7 + n % 6}H by S"]
        found[n] = {
            "board": n,
            "tricks": None,
            "table": table,
            "par": {"board": n, "contracts": contracts, "ns_score": 10 * n, "tricks": {}},
            "error": None,
        }
    return found


def games_of(text):
    """Each game's lines (the header comments left out)."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    return [game.splitlines() for game in body.strip().split("\n\n")]


def record_of(variant, options, method):
    # Total points cannot score an artificial score (the point 6): none there.
    return simulate(variant, options, method=method, artificial=method != "total")


CASES = [
    pytest.param(variant, options, method, id=f"{variant}-{json.dumps(options)}-{method}")
    for variant, options in ALL_VARIANT_OPTIONS
    for method in METHODS
]


def rows_of(info_table):
    names = [h if isinstance(h, str) else h["name"] for h in info_table["headers"]]
    return [dict(zip(names, row, strict=True)) for row in info_table["rows"]]


@pytest.mark.parametrize(("variant", "options", "method"), CASES)
def test_every_export_is_pbn_export_format(variant, options, method):
    record = record_of(variant, options, method)
    text = dumps_with_results(record, analyses_for(record))
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    for lines in games_of(text):
        names = [m.group(1) for m in map(re.compile(r'\[(\w+) "').match, lines) if m]
        assert names[:15] == list(MANDATORY_TAGS)
        assert names[15:] == sorted(names[15:])
        assert len(set(names)) == len(names)
        current = None
        for line in lines:
            tag = re.match(r'\[(\w+) "', line)
            if tag:
                current = tag.group(1)
                assert line.endswith('"]')
            else:  # a data row: only after a table (or Auction, Play)
                assert current is not None and current.endswith("Table"), line
    assert f'[Scoring "{SCORING[method]}"]' in text


@pytest.mark.parametrize(("variant", "options", "method"), CASES)
def test_endplay_reads_every_deal_and_for_bridge_shaped_games_scores_and_par(
    variant, options, method
):
    record = record_of(variant, options, method)
    analyses = analyses_for(record)
    text = dumps_with_results(record, analyses)
    read = endplay_pbn.loads(text)
    boards = sorted(record.boards, key=lambda b: b.number)
    assert [b.board_num for b in read] == [b.number for b in boards]
    for theirs, ours in zip(read, boards, strict=True):
        for player in Player:
            hand = ours.deal.hand(Seat.from_str(player.abbr))
            assert theirs.deal[player].to_pbn() == _pbn_hand(hand)
        assert theirs.dealer.abbr == str(ours.dealer)
        if shape_of(variant).jokers:  # Bid Whist's jokers and kitty stay in our own tags
            assert {"WhistJokers", "WhistKitty"} <= set(theirs.info)
        if not bridge_shaped(variant):
            assert "OptimumResultTable" not in theirs.info
            continue
        lines = [r for r in record.results if r.board == ours.number]
        table = rows_of(theirs.info["ScoreTable"])
        assert [(int(r["PairId_NS"]), int(r["PairId_EW"])) for r in table] == [
            (r.ns, r.ew) for r in lines
        ]
        assert [r["Score_NS"] for r in table] == [
            "-" if r.ns_score is None else str(r.ns_score) for r in lines
        ]
        analysis = analyses[ours.number]
        cells = {
            (r["Declarer"], r["Denomination"]): int(r["Result"])
            for r in rows_of(theirs.info["OptimumResultTable"])
        }
        assert cells == {(s, d): analysis["table"][s][d] for s in DD_SEATS for d in STRAINS}
        digits = theirs.info["DoubleDummyTricks"]
        assert [int(x, 16) for x in digits] == [
            analysis["table"][s][d] for s in DD_SEATS for d in STRAINS
        ]
        assert theirs.info["OptimumScore"] == f"NS {analysis['par']['ns_score']}"
        level = int(analysis["par"]["contracts"][0].split("H")[0]) - 6
        assert theirs.info["ParContract"] == f"NS {level}H"


def _pbn_hand(hand):
    """A hand as PBN writes it (S.H.D.C, ranks high to low), the jokers left out."""
    return ".".join(
        "".join(Rank(c.rank).char for c in sorted(hand, key=lambda c: -c.rank) if c.suit is suit)
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    )


@pytest.mark.parametrize(("variant", "options", "method"), CASES)
def test_our_reader_reads_every_export_back_whole(variant, options, method):
    record = record_of(variant, options, method)
    text = dumps_with_results(record, analyses_for(record))
    back = loads_with_results(text)
    assert back == dataclasses.replace(
        record,
        boards=tuple(sorted(record.boards, key=lambda b: b.number)),
        results=tuple(sorted(record.results, key=lambda r: r.board)),
    )
    assert score_record(back) == score_record(record)


def test_a_fouled_board_keeps_its_entries_its_mark_and_the_candid_bags():
    record = simulate("candid", artificial=False)
    fouled = dataclasses.replace(record, fouled=frozenset({1}))
    before = score_record(fouled)
    text = dumps_with_results(fouled)
    assert '[WhistFouled "yes"]' in games_of(text)[0]
    back = loads_with_results(text)
    assert back.fouled == frozenset({1})
    assert [r.entry for r in back.results if r.board == 1] == [
        r.entry for r in record.results if r.board == 1
    ]
    after = score_record(back)
    assert after == before
    bags = {
        (row.direction, row.pair): dict(row.session)
        for f in after.sections[0].fields
        for row in f.rows
    }
    assert any(session.get("bags") for session in bags.values())
    # The fouled board scores Average to both sides at every table.
    assert {line.artificial for line in before.sections[0].boards["1"]} == {"A/A"}
    # Unmarked, the board's results count again: the mark really changes the standings.
    assert score_record(record) != before


@pytest.mark.parametrize(
    ("names", "players"),
    [
        ("Ann & Co & Bob", ("Ann & Co", "Bob")),
        ("Ann;B & Cy", ("Ann;B", "Cy")),
        ("Team; the best", ()),
        ("Ann", ("Ann", "")),
        ('Zoë "Z" & Åsa', ('Zoë "Z"', "Åsa")),
    ],
)
def test_pair_names_come_back_exactly(names, players):
    record = simulate("classic", artificial=False)
    first = dataclasses.replace(record.pairs[0], names=names, players=players)
    record = dataclasses.replace(record, pairs=(first, *record.pairs[1:]))
    back = loads_with_results(dumps_with_results(record))
    assert back.pairs[0] == first


def test_names_are_two_players_separated_by_a_semicolon_with_no_space_in_the_cell():
    record = simulate("classic", artificial=False)
    first = PairRecord(1, "NS", "Ann Smith & Bob Jones", players=("Ann Smith", "Bob Jones"))
    record = dataclasses.replace(record, pairs=(first, *record.pairs[1:]))
    text = dumps_with_results(record)
    assert ' 1 NS - "Ann%20Smith;Bob%20Jones" -' in text


# ---- untagged boards read as the event's game ---------------------------------------------


def plain_bridge_pbn(numbers=(1, 2, 3, 4)):
    """A dealing program's file: Board, Dealer, Vulnerable, Deal, no whist tags."""
    text = pbn.dumps(deal_boards("candid", numbers, seed=9))
    return re.sub(r"\[Whist[^\n]*\n", "", text)


def test_a_plain_bridge_pbn_reads_as_candid_whist_for_a_candid_event():
    boards = pbn.loads_for_game(plain_bridge_pbn(), rules_for("candid", {}))
    assert [b.variant for b in boards] == ["candid"] * 4
    assert boards == deal_boards("candid", [1, 2, 3, 4], seed=9)


def test_a_plain_pbn_takes_the_events_own_rotation():
    rules = rules_for("classic", {"rotation": "SHDCN"})
    boards = pbn.loads_for_game(plain_bridge_pbn(), rules)
    assert [b.trumps for b in boards] == [rules.fixed_trumps(n) for n in (1, 2, 3, 4)]
    default = pbn.loads(plain_bridge_pbn())
    assert [b.trumps for b in boards] != [b.trumps for b in default]


def test_a_plain_pbn_is_refused_for_turned_card_trumps_naming_the_option():
    rules = rules_for("classic", {"trumps": "turned"})
    with pytest.raises(pbn.PBNError, match=r"board 1 has no turned card.*option trumps"):
        pbn.loads_for_game(plain_bridge_pbn(), rules)
    rotation = pbn.dumps(deal_boards("classic", [1], seed=9))  # WhistTrumps, no turned card
    with pytest.raises(pbn.PBNError, match=r"board 1 gives its trumps but no turned card"):
        pbn.loads_for_game(rotation, rules)


def test_a_file_with_turned_cards_is_honoured_for_turned_card_trumps():
    boards = deal_boards("classic", [1, 2], seed=9, options={"trumps": "turned"})
    read = pbn.loads_for_game(pbn.dumps(boards), rules_for("classic", {"trumps": "turned"}))
    assert read == boards
    assert all(b.turned_card is not None and b.trumps == b.turned_card.suit for b in read)


# ---- hand records ------------------------------------------------------------------------


def test_hand_records_carry_event_site_date_and_par_and_endplay_reads_them():
    record = simulate("candid", artificial=False)
    text = dumps_hand_records(
        record.boards,
        title="Club night",
        club="Riverside",
        date="2026-11-24",
        analyses=analyses_for(record),
    )
    assert "% EXPORT" not in text
    read = endplay_pbn.loads(text)
    assert len(read) == len(record.boards)
    for board in read:
        assert (board.info["Event"], board.info["Site"], board.info["Date"]) == (
            "Club night",
            "Riverside",
            "2026.11.24",
        )
        assert len(board.info["DoubleDummyTricks"]) == 20
        assert board.info["OptimumScore"] == f"NS {10 * board.board_num}"
    assert pbn.loads(text, variant="classic") == sorted(record.boards, key=lambda b: b.number)
