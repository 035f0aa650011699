"""Our PBN with results read by three independent readers, a finished event of every game with
its results and par: what each reads, asserted (docs/reference/file-formats.md, "Who reads
what"). endplay (`endplay.parsers.pbn`) ends a tag value at its first `"]` and undoes no
escape, and splits a table row at every space, quotes or not; pbn2html (`pbn_parser`) takes a
tag's value as the rest of its line less the quotes at either end; bridgebots (`parse_pbn`)
takes one table's contract and result per game and asserts 13 cards a hand. The libraries
are dev dependencies: a missing one fails these tests at import, never skips them.

Also here: a file written by an earlier version (`tests/engine/data/results-2026-11.pbn`,
JSON with escaped quotes, PBN's `Names` column) still reads whole."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import warnings
from pathlib import Path

import pytest
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Player
from pbn2html.pbn_parser import importPBN, parsePBN

from engine.cards import Rank, Seat, Suit
from engine.exports import PairRecord, score_record
from engine.exports.pbn_results import (
    dumps_hand_records,
    dumps_with_results,
    loads_with_results,
)
from tests.engine.helpers import ALL_VARIANT_OPTIONS
from tests.engine.test_exports import simulate

with warnings.catch_warnings():
    # bridgebots' schemas pass marshmallow an option marshmallow 3.26 deprecates (a warning at
    # import, about its code, not ours); an ImportError still fails the module.
    warnings.simplefilter("ignore", DeprecationWarning)
    from bridgebots import Direction as BridgebotsDirection
    from bridgebots import from_pbn_deal, parse_pbn

DATA = Path(__file__).parent / "data"
STRAINS = ("C", "D", "H", "S", "NT")
BID_WHIST_TYPES = (
    *(f"{kind} {suit}" for kind in ("uptown", "downtown") for suit in "CDHS"),
    "notrump uptown",
    "notrump downtown",
)
PLAYERS = {
    1: ("Zoë O'Neil", "Åsa  Lund"),  # two spaces kept
    2: ('Siân "Sunny" Hughes', "Bob;Jones"),
    3: ("Ann 100% Smith", "Łukasz Żak"),
}


def realistic_analyses(record):
    """A stored analysis per board in the form each game's solver gives it (the keys, the
    par's words; numbers made up): Bid Whist's ten contract types with spaces in their names
    and its "approximate" list, par contracts such as "7 uptown C by N" or "10D by N"."""
    found = {}
    for board in record.boards:
        n = board.number
        seats = [seat for seat in "NESW" if board.deal.hand(Seat.from_str(seat))]
        if record.variant == "bidwhist":
            table = {
                s: {t: (n + i + j) % 13 for j, t in enumerate(BID_WHIST_TYPES)}
                for i, s in enumerate(seats)
            }
            table["approximate"] = ["N uptown S"]
            par = {
                "contracts": [f"{3 + n % 5} uptown C by N"],
                "ns_score": -7,
                "tricks": {"books": 10},
            }
        else:
            table = {
                s: {t: (n + i + j) % 14 for j, t in enumerate(STRAINS)} for i, s in enumerate(seats)
            }
            if record.variant in ("classic", "openwhist"):  # fixed trumps: who takes what
                par = {
                    "contracts": ["H, E leads"],
                    "ns_score": None if len(seats) < 4 else 1,
                    "tricks": {"ns": 7, "ew": 6},
                }
            else:
                par = {
                    "contracts": [f"{7 + n % 6}D by N"],
                    "ns_score": 10 * n,
                    "tricks": {"declarer_tricks": 9},
                }
        par.update(board=n, approximate=False)
        found[n] = {"board": n, "tricks": None, "table": table, "par": par, "error": None}
    return found


def finished_event(variant, options):
    """A whole session of the game with players' names holding spaces, accents, quotes, `;`
    and `%`, and one partnership name."""
    record = simulate(variant, options)
    pairs = list(record.pairs)
    for index, players in PLAYERS.items():
        pair = pairs[index]
        pairs[index] = dataclasses.replace(pair, names=" & ".join(players), players=players)
    return dataclasses.replace(record, pairs=tuple(pairs))


GAMES = [
    pytest.param(variant, options, id=f"{variant}-{json.dumps(options)}")
    for variant, options in ALL_VARIANT_OPTIONS
]


def our_tags(text):
    """Every tag of every game as written: {board number: {tag: raw value}}."""
    found = {}
    for game in text.split("\n\n")[1:]:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, flags=re.MULTILINE))
        found[int(tags["Board"])] = tags
    return found


def json_of(value):
    """A quote-free JSON value read back (strings between single quotes, `%XX` escapes)."""
    from engine.exports.pbn_results import _json_text

    return json.loads(_json_text(value))


def names_of(cell):
    """A `WhistNames` cell as endplay gives it (its quotes kept), read back as the players."""
    from engine.exports.pbn_results import _unescape_percent

    assert cell.startswith('"') and cell.endswith('"')
    return tuple(_unescape_percent(name) for name in cell[1:-1].split(";"))


def pbn_hand(cards):
    return ".".join(
        "".join(Rank(c.rank).char for c in sorted(cards, key=lambda c: -c.rank) if c.suit is suit)
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    )


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_endplay_reads_every_whist_tag_whole_names_and_entries_included(variant, options):
    record = finished_event(variant, options)
    analyses = realistic_analyses(record)
    text = dumps_with_results(record, analyses)
    written = our_tags(text)
    read = endplay_pbn.loads(text)
    assert [board.board_num for board in read] == sorted(written)
    boards = {board.number: board for board in record.boards}
    for board in read:
        ours = written[board.board_num]
        for player in Player:  # the deal, hand by hand (Bid Whist's jokers: WhistJokers)
            hand = boards[board.board_num].deal.hand(Seat.from_str(player.abbr))
            assert board.deal[player].to_pbn() == pbn_hand([c for c in hand if c.suit])
        whist = {name: value for name, value in board.info.items() if name.startswith("Whist")}
        plain = {name: value for name, value in whist.items() if isinstance(value, str)}
        assert plain == {
            name: v
            for name, v in ours.items()
            if name.startswith("Whist") and not name.endswith("Table")
        }
        for value in plain.values():  # nothing to unescape: read as written, whole
            assert '"' not in value and "\\" not in value
        assert json_of(board.info["WhistPar"]) == analyses[board.board_num]["par"]
        # the table results: nine cells a row, the entry whole
        rows = board.info["ScoreTable"]["rows"]
        lines = [r for r in record.results if r.board == board.board_num]
        assert [len(row) for row in rows] == [9] * len(lines)
        assert [None if row[8] == "-" else json_of(row[8][1:-1]) for row in rows] == [
            r.entry for r in lines
        ]
        if variant == "bidwhist":
            cells = board.info["WhistOptimumResultTable"]["rows"]
            assert {len(row) for row in cells} == {3}
            assert {row[1] for row in cells} == {t.replace(" ", "-") for t in BID_WHIST_TYPES}
    first = read[0].info
    assert json_of(first["WhistOptions"]) == record.options
    assert json_of(first["WhistMovement"]) == {
        "kind": record.movement.kind,
        "params": record.movement.params,
    }
    pairs = first["WhistPairsTable"]["rows"]
    assert [len(row) for row in pairs] == [5] * len(record.pairs)
    by_number = {(int(row[0]), row[1]): row for row in pairs}
    for pair in record.pairs:
        row = by_number[(pair.number, pair.direction or "-")]
        if pair.players:
            assert names_of(row[3]) == pair.players
        else:  # the partnership's name, spaces, quotes, accents and all
            assert names_of(row[3]) == (pair.names,)
    back = loads_with_results(text)
    assert back.pairs == record.pairs
    assert score_record(back) == score_record(record)


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_pbn2html_reads_every_tag_whole_and_needs_an_auction_to_draw_a_board(variant, options):
    record = finished_event(variant, options)
    text = dumps_with_results(record, realistic_analyses(record))
    written = our_tags(text)
    games = text.split("\n\n")[1:]
    for game in games:
        tags, sections, _notes = parsePBN(game)
        ours = written[int(tags["Board"])]
        # pbn2html keys a tag by its name capitalised ("WhistPar" -> "Whistpar")
        assert tags == {name.capitalize(): value for name, value in ours.items()}
        if "ScoreTable" in ours:
            rows = sections["Scoretable"].splitlines()
            assert len(rows) == sum(1 for r in record.results if r.board == int(tags["Board"]))
        # Its board drawing (importPBN) reads the hands, then the auction, which no game here
        # has; a seat without cards (Open Whist for two or three, written "-") stops it first.
        missing = "'-'" if " -" in tags["Deal"] or ":-" in tags["Deal"] else "Auction"
        with pytest.raises(KeyError, match=missing):
            importPBN(game)


def _bridgebots_direction(seat):
    return BridgebotsDirection.from_str(seat)


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_bridgebots_reads_the_deals_of_four_hands_of_13_and_no_record(
    variant, options, caplog, tmp_path
):
    """bridgebots' file reader keeps a game only with one table's Declarer, Contract and
    Result: ours leaves them empty (one game holds every table's result, in the ScoreTable),
    so it reads no record and says why for each game. Its deal reader reads every deal of four
    hands of 13 as ours; a hand of 12 (Bid Whist) or a seat without cards (Open Whist for two
    or three) fails its assertion of 13 cards a hand, which its file reader does not catch:
    reading such a file stops there."""
    record = finished_event(variant, options)
    text = dumps_with_results(record, realistic_analyses(record))
    path = tmp_path / "results.pbn"
    path.write_text(text, encoding="utf-8")
    thirteen = {len(board.deal.hand(seat)) for board in record.boards for seat in Seat} == {13}
    for board in record.boards:
        tags = our_tags(text)[board.number]
        if thirteen:
            deal = from_pbn_deal(tags["Dealer"], tags["Vulnerable"], tags["Deal"])
            for seat in "NESW":
                theirs = deal.hands[_bridgebots_direction(seat)]
                ours = board.deal.hand(Seat.from_str(seat))
                assert sorted(str(card) for card in theirs.cards) == sorted(
                    f"{card.suit.letter}{Rank(card.rank).char}" for card in ours
                )
        else:
            with pytest.raises(AssertionError):
                from_pbn_deal(tags["Dealer"], tags["Vulnerable"], tags["Deal"])
    with caplog.at_level(logging.WARNING):
        if thirteen:
            assert parse_pbn(path) == []
            said = [m for m in caplog.messages if m.startswith("Missing tricks result")]
            assert len(said) == len(record.boards)
        else:
            with pytest.raises(AssertionError):
                parse_pbn(path)


# ---- files of earlier versions -------------------------------------------------------------


def test_a_file_written_before_the_quote_free_form_still_reads_whole():
    """Written by clubwhist as of 2026-11 (JSON with `\\"`, names in PBN's `Names` column,
    `WhistPlayers` as JSON with escaped quotes)."""
    text = (DATA / "results-2026-11.pbn").read_text(encoding="utf-8")
    assert '\\"' in text and ";Names;" in text
    record = loads_with_results(text)
    assert record.variant == "bidwhist"
    pairs = {(p.number, p.direction): p for p in record.pairs}
    assert pairs[(2, "NS")] == PairRecord(
        2, "NS", 'Zoë "Z" & Åsa Lund', players=('Zoë "Z"', "Åsa Lund")
    )
    assert pairs[(3, "NS")] == PairRecord(3, "NS", "The Smiths", players=("Ann Smith", "Bob Smith"))
    assert pairs[(1, "EW")] == PairRecord(1, "EW", "Ann;B & Cy", players=("Ann;B", "Cy"))
    assert record.movement is not None and record.movement.params["tables"] == 3
    entries = [r.entry for r in record.results if r.entry]
    assert entries and all({"bid", "books", "declarer", "kind"} <= set(e) for e in entries)
    # written again, it reads back the same
    assert loads_with_results(dumps_with_results(record)) == record


# ---- hand records, and Candid Whist's par in two words ------------------------------------


@pytest.mark.parametrize("variant", ["candid", "bidwhist"])
def test_hand_records_read_by_the_three_readers(variant, tmp_path, caplog):
    """The boards file (import format, no results): endplay reads every deal and every whist
    tag whole; pbn2html every tag; bridgebots no record, a game without one table's play
    (Declarer, Contract, Result) being none to it, or stops at the first 12-card hand."""
    record = finished_event(variant, {})
    analyses = realistic_analyses(record)
    text = dumps_hand_records(record.boards, title="Club night", analyses=analyses)
    written = our_tags(text)
    read = endplay_pbn.loads(text)
    for board, ours in zip(read, sorted(record.boards, key=lambda b: b.number), strict=True):
        assert board.board_num == ours.number
        for player in Player:  # the suited cards: Bid Whist's jokers stay in WhistJokers
            hand = ours.deal.hand(Seat.from_str(player.abbr))
            assert board.deal[player].to_pbn() == pbn_hand([c for c in hand if c.suit])
        assert json_of(board.info["WhistPar"]) == analyses[ours.number]["par"]
    for game in text.split("\n\n")[1:]:
        tags, _sections, _notes = parsePBN(game)
        ours = written[int(tags["Board"])]
        assert tags == {name.capitalize(): value for name, value in ours.items()}
    path = tmp_path / "boards.pbn"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        if variant == "candid":
            assert parse_pbn(path) == []
        else:
            with pytest.raises(AssertionError):
                parse_pbn(path)


def test_candid_par_is_a_bridge_level_in_parcontract_and_the_apps_words_in_whistpar():
    record = finished_event("candid", {})
    analyses = realistic_analyses(record)
    board = endplay_pbn.loads(dumps_with_results(record, analyses))[0]
    tricks = 7 + board.board_num % 6
    assert analyses[board.board_num]["par"]["contracts"] == [f"{tricks}D by N"]
    assert board.info["ParContract"] == f"NS {tricks - 6}D"
    assert json_of(board.info["WhistPar"])["contracts"] == [f"{tricks}D by N"]
