"""USEBIO as version 1.2 is written: every export of every game and scoring method valid against
the DTD in tests/engine/data (lxml), EVENT_TYPE PAIRS with BOARD_SCORING_METHOD, the whist extras
in processing instructions, files of earlier clubwhist versions still read, and hostile names
(" & ", quotes, accents, characters XML forbids) never making the XML ill-formed."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from lxml import etree  # type: ignore[import-untyped]

from engine.cards import Seat
from engine.exports import ExportError, PairRecord, score_record
from engine.exports.usebio import BOARD_SCORING_METHODS, PI_TARGET, dumps_usebio, loads_usebio
from engine.scoring import METHODS
from tests.engine.helpers import ALL_VARIANT_OPTIONS
from tests.engine.test_exports import simulate

DTD_PATH = Path(__file__).parent / "data" / "usebio-1.2-practice.dtd"


@pytest.fixture(scope="module")
def dtd():
    return etree.DTD(str(DTD_PATH))


def parse(text):
    """The document as lxml reads it: strictly, no network, no entities."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(text.encode("utf-8"), parser)


def assert_valid(dtd, text):
    root = parse(text)
    assert dtd.validate(root), dtd.error_log.filter_from_errors()
    return root


def record_of(variant, options, method):
    # Total points cannot score an artificial score (the point 6): none there.
    return simulate(variant, options, method=method, artificial=method != "total")


CASES = [
    pytest.param(variant, options, method, id=f"{variant}-{json.dumps(options)}-{method}")
    for variant, options in ALL_VARIANT_OPTIONS
    for method in METHODS
]


@pytest.mark.parametrize(("variant", "options", "method"), CASES)
def test_every_export_is_valid_usebio_and_reads_back_whole(dtd, variant, options, method):
    record = record_of(variant, options, method)
    document = score_record(record)
    text = dumps_usebio(record, document)
    root = assert_valid(dtd, text)
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("BOARD_SCORING_METHOD") == BOARD_SCORING_METHODS[method]
    assert not [e.tag for e in root.iter() if isinstance(e.tag, str) and "WHIST" in e.tag]
    back = loads_usebio(text)
    # USEBIO holds lines by board and hands in board order: the same record in that order
    assert back == dataclasses.replace(
        record,
        boards=tuple(sorted(record.boards, key=_number)),
        results=tuple(sorted(record.results, key=lambda r: r.board)),
    )
    assert score_record(back) == document


def _number(board):
    return board.number


def test_the_scoring_methods_have_the_usebio_names():
    assert BOARD_SCORING_METHODS == {
        "mp": "MATCH_POINTS",
        "butler": "BUTLER_IMPS",
        "cross-imps": "CROSS_IMPS",
        "total": "AGGREGATE",
    }
    assert set(BOARD_SCORING_METHODS) == set(METHODS)


def test_the_validation_would_notice_an_element_outside_usebio(dtd):
    record = simulate("classic")
    root = parse(dumps_usebio(record, score_record(record)))
    etree.SubElement(root.find("EVENT"), "WHIST_VARIANT").text = "classic"
    assert not dtd.validate(root)
    root = parse(dumps_usebio(record, score_record(record)))
    root.find("EVENT").set("EVENT_TYPE", "MP_PAIRS")
    assert not dtd.validate(root)


def test_the_whist_extras_are_one_processing_instruction_per_element():
    record = simulate("bidwhist")
    root = parse(dumps_usebio(record, score_record(record)))
    pis = list(root.iter(etree.ProcessingInstruction))
    assert pis and {pi.target for pi in pis} == {PI_TARGET}
    for pi in pis:
        assert pi.text.isascii() and ">" not in pi.text
        json.loads(pi.text)
    extras = json.loads(next(pi for pi in pis if pi.getparent().tag == "EVENT").text)
    assert extras["variant"] == "bidwhist" and extras["scoring"] == "mp"


# ---- files written before 1.2 was followed, and other programs' files ---------------------

OLD_CLUBWHIST = """<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2">
  <CLUB><CLUB_NAME>Riverside</CLUB_NAME></CLUB>
  <EVENT EVENT_TYPE="BUTLER_PAIRS">
    <EVENT_DESCRIPTION>Old</EVENT_DESCRIPTION><DATE>24/11/2026</DATE>
    <BOARDS_PLAYED>1</BOARDS_PLAYED><WINNER_TYPE>2</WINNER_TYPE>
    <WHIST_VARIANT>candid</WHIST_VARIANT><WHIST_OPTIONS>{}</WHIST_OPTIONS>
    <WHIST_SCORING>total</WHIST_SCORING><WHIST_SCALE>acbl</WHIST_SCALE>
    <WHIST_SECTION>B</WHIST_SECTION>
    <PARTICIPANTS>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>NS</DIRECTION>
        <PLAYER><PLAYER_NAME>Ann</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Bob</PLAYER_NAME></PLAYER>
      </PAIR>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>EW</DIRECTION>
        <WHIST_ABSENT>yes</WHIST_ABSENT></PAIR>
    </PARTICIPANTS>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
        <SCORE>40</SCORE><WHIST_ROUND>1</WHIST_ROUND><WHIST_TABLE>1</WHIST_TABLE>
      </TRAVELLER_LINE>
    </BOARD>
  </EVENT>
</USEBIO>
"""


def test_a_file_of_an_earlier_clubwhist_still_reads():
    record = loads_usebio(OLD_CLUBWHIST)
    assert (record.variant, record.method, record.scale, record.section) == (
        "candid",
        "total",
        "acbl",
        "B",
    )
    assert record.pairs == (
        PairRecord(1, "NS", "Ann & Bob", players=("Ann", "Bob")),
        PairRecord(1, "EW", "", True),
    )
    assert [(r.round, r.table, r.ns_score) for r in record.results] == [(1, 1, 40)]


@pytest.mark.parametrize(
    ("scoring", "method"),
    [
        ("", "mp"),
        ("<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>", "mp"),
        ("<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>", "cross-imps"),
        ("<BOARD_SCORING_METHOD>BUTLER_IMPS</BOARD_SCORING_METHOD>", "butler"),
        ("<BOARD_SCORING_METHOD>AGGREGATE</BOARD_SCORING_METHOD>", "total"),
    ],
)
def test_another_programs_pairs_event_reads_its_board_scoring_method(scoring, method):
    text = OLD_CLUBWHIST.replace('EVENT_TYPE="BUTLER_PAIRS"', 'EVENT_TYPE="PAIRS"')
    text = re.sub(r"\s*<WHIST_[A-Z]+>[^<]*</WHIST_[A-Z]+>", "", text)
    text = text.replace("<BOARDS_PLAYED>", scoring + "<BOARDS_PLAYED>")
    record = loads_usebio(text)
    assert (record.variant, record.method, record.section) == ("classic", method, "A")


def test_a_board_scoring_method_clubwhist_cannot_score_is_named():
    text = OLD_CLUBWHIST.replace('EVENT_TYPE="BUTLER_PAIRS"', 'EVENT_TYPE="PAIRS"')
    text = text.replace("<WHIST_SCORING>total</WHIST_SCORING>", "")
    text = text.replace(
        "<BOARDS_PLAYED>", "<BOARD_SCORING_METHOD>BAM</BOARD_SCORING_METHOD><BOARDS_PLAYED>"
    )
    with pytest.raises(ExportError, match=r"^EVENT: BOARD_SCORING_METHOD 'BAM' is not one"):
        loads_usebio(text)


# ---- names ---------------------------------------------------------------------------------

HOSTILE = [
    "Smith & Sons & Bob",
    'Zoë "Zed" O\'Neil & Åsa <Lund> &amp;',
    "Ann ]]> & Bob ?> <?x?>",
    "Lë\u2028Line & Nel\u0085",
]


@pytest.mark.parametrize("names", HOSTILE)
def test_names_come_back_exactly_and_the_xml_stays_valid(dtd, names):
    record = simulate("classic")
    record = dataclasses.replace(
        record, pairs=(dataclasses.replace(record.pairs[0], names=names), *record.pairs[1:])
    )
    text = dumps_usebio(record, score_record(record))
    root = assert_valid(dtd, text)
    players = root.find("EVENT/PARTICIPANTS/PAIR").findall("PLAYER")
    assert len(players) <= 2
    assert loads_usebio(text).pairs[0].names == names


def test_a_name_of_two_players_gives_two_players():
    record = simulate("classic")
    root = parse(dumps_usebio(record, score_record(record)))
    second = root.findall("EVENT/PARTICIPANTS/PAIR")[1]
    assert record.pairs[1].names.count(" & ") == 1
    assert [p.findtext("PLAYER_NAME") for p in second.findall("PLAYER")] == record.pairs[
        1
    ].names.split(" & ")


@pytest.mark.parametrize("bad", ["\x0b", "\x00", "\x1f", "\ud800", "\ufffe", "\uffff", "\x0c"])
def test_characters_xml_forbids_never_make_it_ill_formed(dtd, bad):
    record = simulate("classic")
    record = dataclasses.replace(
        record,
        title=f"Night{bad}",
        club=f"Club{bad}",
        section=f"A{bad}",
        pairs=(dataclasses.replace(record.pairs[0], names=f"Ann{bad} & Bob"), *record.pairs[1:]),
    )
    text = dumps_usebio(record, score_record(record))
    root = assert_valid(dtd, text)  # lxml refuses any ill-formed document
    assert root.findtext("CLUB/CLUB_NAME") == "Club\ufffd"
    assert root.findtext("EVENT/EVENT_DESCRIPTION") == "Night\ufffd"
    back = loads_usebio(text)
    assert back.title == "Night\ufffd"
    assert back.section == record.section  # the extras carry it escaped, exactly


# ---- fouled boards -------------------------------------------------------------------------


# Total points cannot score a fouled board (an Average): refused before any export.
@pytest.mark.parametrize("method", ["mp", "butler", "cross-imps"])
def test_a_fouled_board_keeps_its_results_and_its_mark(dtd, method):
    """Other readers are told the Average (A) a fouled board scores; clubwhist gets back the
    mark and every line as played, so Candid Whist bags are unchanged."""
    record = simulate("candid", method=method, artificial=False)
    record = dataclasses.replace(record, fouled=frozenset({1}))
    document = score_record(record)
    text = dumps_usebio(record, document)
    root = assert_valid(dtd, text)
    board = next(b for b in root.iterfind("EVENT/BOARD") if b.findtext("BOARD_NUMBER") == "1")
    assert {line.findtext("SCORE") for line in board.iterfind("TRAVELLER_LINE")} == {"A"}
    back = loads_usebio(text)
    assert back.fouled == frozenset({1})
    assert sorted(back.results, key=lambda r: (r.board, r.ns)) == sorted(
        record.results, key=lambda r: (r.board, r.ns)
    )
    assert all(r.entry is not None and r.ns_score is not None for r in back.results)
    assert score_record(back) == document


def test_the_players_come_back_one_by_one():
    record = simulate("classic")
    first = dataclasses.replace(
        record.pairs[0], names="Smith & Sons & Bob", players=("Smith & Sons", "Bob")
    )
    record = dataclasses.replace(record, pairs=(first, *record.pairs[1:]))
    text = dumps_usebio(record, score_record(record))
    pair = parse(text).find("EVENT/PARTICIPANTS/PAIR")
    assert [p.findtext("PLAYER_NAME") for p in pair.iterfind("PLAYER")] == ["Smith & Sons", "Bob"]
    assert loads_usebio(text).pairs[0] == first


# ---- a line scored Average that keeps its table result (a fouled board) -------------------


def test_a_line_scored_average_keeps_its_table_result_through_usebio(dtd):
    """What a fouled board's lines are once the record keeps their entries: the Average they
    score for every reader, and the table result in the extras, back exactly."""
    record = simulate("candid", artificial=False)
    first = record.results[0]
    fouled = dataclasses.replace(first, ns_score=None, artificial="A")
    record = dataclasses.replace(record, results=(fouled, *record.results[1:]))
    text = dumps_usebio(record, score_record(record))
    root = assert_valid(dtd, text)
    line = root.find("EVENT/BOARD/TRAVELLER_LINE")
    assert line.findtext("SCORE") == "A"
    back = loads_usebio(text).results[0]
    assert (back.entry, back.ns_score, back.artificial) == (first.entry, None, "A")


# ---- the two layouts of other writers, from files written by hand -------------------------

DATA = Path(__file__).parent / "data"


def test_a_flat_file_from_a_club_scorer_reads_its_pairs_and_lines(dtd):
    """PARTICIPANTS and BOARD straight under EVENT, TOTAL_SCORE and PLACE inside each PAIR
    (tests/engine/data/usebio-flat-butler.xml, written by hand, valid against the DTD)."""
    text = (DATA / "usebio-flat-butler.xml").read_text(encoding="utf-8")
    assert_valid(dtd, text)
    record = loads_usebio(text)
    assert (record.title, record.date, record.club) == (
        "Thursday Butler",
        "2026-12-03",
        "Llanfair Bridge & Whist Club",
    )
    assert (record.variant, record.method, record.section, record.one_winner) == (
        "classic",
        "butler",
        "A",
        False,
    )
    assert record.pairs[0] == PairRecord(
        1, "NS", "Siân Hughes & Gwyn Owen", players=("Siân Hughes", "Gwyn Owen")
    )
    assert [p.key for p in record.pairs] == ["NS1", "NS2", "EW1", "EW2"]
    assert [(r.board, r.ns, r.ew, r.ns_score, r.artificial) for r in record.results] == [
        (1, 1, 1, 420, None),
        (1, 2, 2, 170, None),
        (2, 1, 1, 50, None),
        (2, 2, 2, -400, None),
        (3, 1, 2, 90, None),
        (3, 2, 1, None, "A+/A-"),
        (4, 1, 2, 50, None),
        (4, 2, 1, -420, None),
    ]
    assert record.boards == ()  # no hands in the file
    # The totals and places in the file are not read: the standings are worked out again.
    rows = {
        (row.direction, row.pair): row
        for f in score_record(record).sections[0].fields
        for row in f.rows
    }
    assert {key: (row.rank, row.total.display) for key, row in rows.items()} == {
        ("NS", 1): ("1", "15.00"),
        ("NS", 2): ("2", "-13.00"),
        ("EW", 1): ("2", "-6.00"),
        ("EW", 2): ("1", "4.00"),
    }


NESTED = (DATA / "usebio-nested-mp.xml").read_text(encoding="utf-8")


def test_a_nested_file_reads_its_section_its_lines_and_the_hands_in_its_boards():
    """EVENT > SESSION > SECTION > PARTICIPANTS and BOARD, hands inside each BOARD
    (tests/engine/data/usebio-nested-mp.xml, written by hand)."""
    record = loads_usebio(NESTED)
    assert (record.title, record.method, record.section, record.one_winner) == (
        "Monday Pairs",
        "mp",
        "B",
        True,
    )
    assert [(p.number, p.direction, p.names) for p in record.pairs] == [
        (1, None, "Łukasz Żak & Åsa Lund"),
        (2, None, "Mary O'Brien & Tom Byrne"),
        (3, None, "Ann Lee & Kim Lee"),
        (4, None, "Raj Patel & Priya Patel"),
    ]
    assert [(r.board, r.ns, r.ew, r.ns_score) for r in record.results] == [
        (1, 1, 3, 1510),
        (1, 2, 4, 1010),
        (2, 1, 4, 690),
        (2, 2, 3, 1440),
    ]
    first = record.boards[0]
    assert [b.number for b in record.boards] == [1, 2]
    assert {card.suit.letter for card in first.deal.hand(Seat.N)} == {"S"}
    assert {card.suit.letter for card in first.deal.hand(Seat.W)} == {"C"}
    assert len(record.boards[1].deal.hand(Seat.S)) == 13
    rows = score_record(record).sections[0].fields[0].rows
    assert [(row.pair, row.rank, row.percentage.display) for row in rows][:1] == [
        (4, "1", "100.00")
    ]


def test_an_event_of_two_sections_is_refused_naming_them_and_what_to_do():
    section = NESTED[NESTED.index("      <SECTION ") : NESTED.index("    </SESSION>")]
    text = NESTED.replace(section, section + section.replace('SECTION_ID="B"', 'SECTION_ID="C"'))
    with pytest.raises(ExportError) as refused:
        loads_usebio(text)
    message = str(refused.value)
    assert "2 sets of results (SESSION 1 > SECTION B; SESSION 1 > SECTION C)" in message
    assert "export each section (or session) to a file of its own" in message


def test_a_file_of_two_events_is_refused():
    event = NESTED[NESTED.index("  <EVENT ") : NESTED.index("</USEBIO>")]
    with pytest.raises(ExportError, match=r"holds 2 events, and an import makes one: export"):
        loads_usebio(NESTED.replace(event, event + event))


def test_an_event_without_results_is_refused_in_words():
    start, end = NESTED.index("    <SESSION "), NESTED.index("  </EVENT>")
    with pytest.raises(ExportError, match=r"no PARTICIPANTS and no BOARD, neither directly"):
        loads_usebio(NESTED[:start] + NESTED[end:])
