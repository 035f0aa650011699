"""Exports and imports: simulated events written and read back, rescored to the same standings;
the CSV headings, USEBIO's element structure, and malformed files refused with a clear message."""

from __future__ import annotations

import csv
import dataclasses
import doctest
import importlib
import io
import random
import xml.etree.ElementTree as ET

import pytest

from engine import pbn
from engine.dealing import deal_boards
from engine.exports import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    score_record,
)
from engine.exports.csv import STANDINGS_COLUMNS, standings_csv, travellers_csv
from engine.exports.pbn_results import dumps_with_results, loads_with_results
from engine.exports.usebio import dumps_usebio, loads_usebio
from engine.games import find_variant, rules_for
from engine.movements import build

NAMES = 'Zoë "Zed" O\'Neil & Åsa <Lund>'


def simulate(
    variant,
    options=None,
    *,
    movement=("mitchell", {"tables": 3, "boards_per_round": 2}),
    method="mp",
    artificial=True,
    seed=5,
):
    """A whole session of `variant` under `movement`, results from the game's plausible_entry,
    with one split artificial score (A+/A-) when asked."""
    options = options or {}
    rules = rules_for(variant, options)
    kind, params = movement
    m = build(kind, **params)
    boards = tuple(deal_boards(variant, range(1, m.board_count() + 1), seed=seed, options=options))
    rng = random.Random(seed)
    pairs = tuple(
        PairRecord(
            slot.number,
            None if m.one_winner else slot.direction,
            NAMES if i == 0 else f"North {slot} & South {slot}",
        )
        for i, slot in enumerate(m.pairs)
    )
    results = []
    for meeting in m.meetings:
        if meeting.sit_out:
            continue
        for number in m.boards_for_set(meeting.set):
            board = boards[number - 1]
            entry = rules.parse_entry(board, rules.plausible_entry(board, rng))
            results.append(
                ResultRecord(
                    number,
                    meeting.ns,
                    meeting.ew,
                    rules.entry_to_dict(entry),
                    rules.ns_score(board, entry),
                    round=meeting.round,
                    table=meeting.table,
                )
            )
    if artificial:
        first = results[0]
        results[0] = dataclasses.replace(first, entry=None, ns_score=None, artificial="A+/A-")
    return EventRecord(
        title="Tuesday drive",
        date="2026-11-24",
        club="Riverside Whist Club",
        variant=variant,
        options=options,
        method=method,
        one_winner=m.one_winner,
        movement=MovementSpec(kind, params),
        boards=boards,
        pairs=pairs,
        results=tuple(results),
    )


EVENTS = {
    "classic-mitchell": lambda: simulate("classic", movement=("mitchell", {"tables": 3})),
    "classic-4-tables-acbl": lambda: dataclasses.replace(
        simulate("classic", {"scoring": "tricks"}, movement=("mitchell", {"tables": 4})),
        scale="acbl",
    ),
    "bidwhist-mitchell": lambda: simulate("bidwhist"),
    "candid-total": lambda: simulate("candid", method="total", artificial=False),
    "candid-butler": lambda: simulate("candid", method="butler"),
    "classic-howell-one-winner": lambda: simulate(
        "classic", movement=("howell", {"tables": 3, "boards_per_round": 1})
    ),
}


@pytest.fixture(params=sorted(EVENTS))
def event(request):
    return EVENTS[request.param]()


def per_board_points(document):
    return {
        number: [(line.ns, line.ew, line.ns_points, line.ew_points) for line in lines]
        for number, lines in document.sections[0].boards.items()
    }


def test_the_simulated_events_score_and_include_what_they_should(event):
    document = score_record(event)
    section = document.sections[0]
    assert [f.name for f in section.fields] == (["ALL"] if event.one_winner else ["NS", "EW"])
    rows = [row for f in section.fields for row in f.rows]
    assert {row.names for row in rows} >= {NAMES}
    assert sum(len(lines) for lines in section.boards.values()) == len(event.results)
    if event.results[0].artificial:
        line = section.boards[str(event.results[0].board)][0]
        assert line.artificial == "A+/A-"


def test_the_record_refuses_a_score_that_contradicts_its_entry():
    record = simulate("classic")
    result = record.results[1]
    wrong = dataclasses.replace(result, ns_score=result.ns_score + 1)
    bad = dataclasses.replace(record, results=(record.results[0], wrong, *record.results[2:]))
    with pytest.raises(
        ExportError, match=r"board \d+, NS \d+ v EW \d+: the score .* does not match"
    ):
        score_record(bad)


def test_the_exports_import_no_web_framework():
    import subprocess
    import sys

    probe = (
        "import sys, engine.exports; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery'}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_record_modules_docstring_examples_hold():
    for name in ("engine.exports.record",):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0
        assert result.failed == 0


# ---- CSV ----------------------------------------------------------------------------------


def test_standings_csv_has_the_documented_headings_and_a_row_per_pair(event):
    document = score_record(event)
    text = standings_csv(document)
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    section = document.sections[0]
    extra = [key for key, _ in section.session_columns]
    assert reader.fieldnames == [*STANDINGS_COLUMNS, *extra]
    ranked = [(f.name, row) for f in section.fields for row in f.rows]
    assert len(rows) == len(ranked)
    for got, (field_name, row) in zip(rows, ranked, strict=True):
        assert got["field"] == field_name
        assert (got["pair"], got["rank"], got["names"]) == (str(row.pair), row.rank, row.names)
        assert got["score"] == row.total.display
        expected_pct = row.percentage.display if row.percentage else ""
        assert got["percentage"] == expected_pct
    if event.variant == "candid":
        assert "bags" in reader.fieldnames
        assert all(row["bags"].isdigit() for row in rows)


def test_travellers_csv_has_a_row_per_line_with_the_games_entry_columns(event):
    document = score_record(event)
    rules = event.rules()
    reader = csv.DictReader(io.StringIO(travellers_csv(event, document)))
    rows = list(reader)
    keys = [f.key for f in rules.entry_fields()]
    assert reader.fieldnames == [
        "section",
        "board",
        "round",
        "table",
        "ns_pair",
        "ew_pair",
        *keys,
        "result",
        "ns_score",
        "ew_score",
        "ns_points",
        "ew_points",
    ]
    assert len(rows) == len(event.results)
    lines = {
        (int(n), line.ns, line.ew): line
        for n, ls in document.sections[0].boards.items()
        for line in ls
    }
    by_place = {(r.board, r.ns, r.ew): r for r in event.results}
    for row in rows:
        place = (int(row["board"]), int(row["ns_pair"]), int(row["ew_pair"]))
        result = by_place[place]
        assert row["ns_points"] == lines[place].ns_points.display
        if result.artificial:
            assert (row["ns_score"], row["ew_score"]) == ("A+", "A-")
            assert all(row[key] == "" for key in keys)
        else:
            assert int(row["ns_score"]) == result.ns_score == -int(row["ew_score"])
            entry = rules.parse_entry(event.board(result.board), result.entry)
            assert row["result"] == rules.describe_short(entry)
            for key in keys:
                value = result.entry.get(key)
                assert row[key] == ("" if value in (None, False) else str(value))
    assert [int(row["board"]) for row in rows] == sorted(int(row["board"]) for row in rows)


# ---- PBN with results ---------------------------------------------------------------------


def test_pbn_with_results_round_trips_to_the_same_standings(event):
    text = dumps_with_results(event)
    back = loads_with_results(text)
    assert score_record(back) == score_record(event)
    assert per_board_points(score_record(back)) == per_board_points(score_record(event))
    assert back.boards == tuple(sorted(event.boards, key=lambda b: b.number))
    assert sorted(back.results, key=lambda r: (r.board, r.ns)) == sorted(
        event.results, key=lambda r: (r.board, r.ns)
    )
    assert back.pairs == event.pairs
    assert (back.title, back.date, back.club, back.options) == (
        event.title,
        event.date,
        event.club,
        event.options,
    )
    assert (back.method, back.scale, back.movement) == (event.method, event.scale, event.movement)


def test_the_deals_in_a_pbn_with_results_are_read_by_the_plain_reader(event):
    text = dumps_with_results(event)
    assert pbn.loads(text) == sorted(event.boards, key=lambda b: b.number)
    assert "[ScoreTable " in text
    assert '[Event "Tuesday drive"]' in text
    assert '[Date "2026.11.24"]' in text


def test_pbn_writes_the_optimum_result_table_when_an_analysis_is_given():
    record = simulate("classic")
    table = {"N": {"C": 7, "NT": 6}, "E": {"C": 6, "NT": 7}}
    text = dumps_with_results(record, analyses={1: {"table": table}})
    game = text.split("\n\n")[1]
    assert '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]' in game
    assert "\nN  C  7\n" in game  # export format pads each element to its column's width
    assert "\nE NT  7" in game
    assert "OptimumResultTable" not in text.split("\n\n")[2]
    assert score_record(loads_with_results(text)) == score_record(record)


def test_pbn_reads_another_programs_score_table_as_score_only_lines():
    boards = deal_boards("classic", [1], seed=2)
    text = pbn.dumps(boards) + (
        '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;'
        'Score_NS\\6R;MP_NS"]\n'
        "1 1 - - - 3 2\n"
        "2 2 - - - 1 0\n"
    )
    record = loads_with_results(text)
    assert [(r.ns, r.ew, r.entry, r.ns_score) for r in record.results] == [
        (1, 1, None, 3),
        (2, 2, None, 1),
    ]
    assert [p.key for p in record.pairs] == ["NS1", "EW1", "NS2", "EW2"]
    rows = score_record(record).sections[0].fields[0].rows
    assert [(row.pair, row.rank) for row in rows] == [(1, "1"), (2, "2")]


def test_a_score_table_row_with_too_few_columns_is_refused():
    text = dumps_with_results(simulate("classic", artificial=False))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[ScoreTable")) + 2
    lines[at] = " ".join(lines[at].split()[:-2])
    with pytest.raises(ExportError, match=rf"line {at + 1}, board 1: ScoreTable row has 7 columns"):
        loads_with_results("\n".join(lines))


def test_a_score_table_entry_the_game_refuses_names_the_board():
    text = dumps_with_results(simulate("classic", artificial=False))
    broken = text.replace("\"{'ns_tricks':", "\"{'ns_trick':", 1)
    assert broken != text
    with pytest.raises(ExportError, match=r"board 1, NS \d+ v EW \d+: .*no field 'ns_trick'"):
        loads_with_results(broken)


def test_a_score_table_naming_an_unknown_pair_is_refused():
    text = dumps_with_results(simulate("classic", artificial=False))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[ScoreTable")) + 1
    cells = lines[at].split(" ")
    cells[2] = "9"
    lines[at] = " ".join(cells)
    with pytest.raises(ExportError, match=r"board 1, NS 9 v EW \d+: there is no NS pair 9"):
        loads_with_results("\n".join(lines))


# ---- USEBIO -------------------------------------------------------------------------------

# The USEBIO 1.2 structure of the elements clubwhist writes (REFERENCE.md, "File formats"):
# each element and the children it may have. No WHIST_* element: the whist extras are
# processing instructions (tests/engine/test_usebio_standard.py validates against the DTD).
USEBIO_CHILDREN = {
    "USEBIO": {"CLUB", "EVENT"},
    "CLUB": {"CLUB_NAME"},
    "EVENT": {
        "PROGRAM_NAME",
        "EVENT_DESCRIPTION",
        "DATE",
        "BOARD_SCORING_METHOD",
        "BOARDS_PLAYED",
        "WINNER_TYPE",
        "PARTICIPANTS",
        "BOARD",
        "HANDSET",
    },
    "PARTICIPANTS": {"PAIR"},
    "PAIR": {
        "PAIR_NUMBER",
        "DIRECTION",
        "TOTAL_SCORE",
        "PERCENTAGE",
        "PLACE",
        "PLAYER",
    },
    "PLAYER": {"PLAYER_NAME"},
    "EVENT/BOARD": {"BOARD_NUMBER", "TRAVELLER_LINE"},
    "TRAVELLER_LINE": {
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "LEAD",
        "TRICKS",
        "SCORE",
        "NS_MATCH_POINTS",
        "EW_MATCH_POINTS",
    },
    "HANDSET": {"BOARD"},
    "HANDSET/BOARD": {"BOARD_NUMBER", "HAND"},
    "HAND": {"DIRECTION", "SPADES", "HEARTS", "DIAMONDS", "CLUBS"},
}
USEBIO_REQUIRED = {
    "USEBIO": {"CLUB", "EVENT"},
    "EVENT": {
        "EVENT_DESCRIPTION",
        "BOARD_SCORING_METHOD",
        "BOARDS_PLAYED",
        "WINNER_TYPE",
        "PARTICIPANTS",
    },
    "PAIR": {"PAIR_NUMBER"},
    "EVENT/BOARD": {"BOARD_NUMBER"},
    "TRAVELLER_LINE": {"NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "SCORE"},
    "HANDSET/BOARD": {"BOARD_NUMBER"},
}


def check_structure(element, parent=None):
    """Every element sits under a parent that may hold it, leaves hold text only."""
    name = f"{parent}/{element.tag}" if element.tag == "BOARD" else element.tag
    children = [child.tag for child in element]
    allowed = USEBIO_CHILDREN.get(name, set())
    assert set(children) <= allowed, f"{name} holds {set(children) - allowed}"
    assert USEBIO_REQUIRED.get(name, set()) <= set(children), f"{name} lacks a child"
    if not allowed:
        assert not children
    for child in element:
        check_structure(child, element.tag)


def test_usebio_round_trips_to_the_same_standings(event):
    document = score_record(event)
    text = dumps_usebio(event, document)
    back = loads_usebio(text)
    assert score_record(back) == document
    assert per_board_points(score_record(back)) == per_board_points(document)
    assert back.boards == tuple(sorted(event.boards, key=lambda b: b.number))
    assert back.pairs == event.pairs
    assert sorted(back.results, key=lambda r: (r.board, r.ns)) == sorted(
        event.results, key=lambda r: (r.board, r.ns)
    )
    assert (back.method, back.scale, back.one_winner, back.movement) == (
        event.method,
        event.scale,
        event.one_winner,
        event.movement,
    )


def test_usebio_follows_the_usebio_structure_and_says_what_it_should(event):
    document = score_record(event)
    text = dumps_usebio(event, document)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">')
    root = ET.fromstring(text.split("\n", 1)[1])
    check_structure(root)
    ev = root.find("EVENT")
    assert ev.get("EVENT_TYPE") == "PAIRS"  # USEBIO 1.2: the method is BOARD_SCORING_METHOD
    scoring = {"mp": "MATCH_POINTS", "butler": "BUTLER_IMPS", "total": "AGGREGATE"}
    assert ev.findtext("BOARD_SCORING_METHOD") == scoring[event.method]
    assert ev.findtext("WINNER_TYPE") == ("1" if event.one_winner else "2")
    assert ev.findtext("DATE") == "24/11/2026"
    assert ev.findtext("BOARDS_PLAYED") == str(len(event.boards))
    pairs = ev.findall("PARTICIPANTS/PAIR")
    assert len(pairs) == len(event.pairs)
    first = pairs[0]
    assert [p.findtext("PLAYER_NAME") for p in first.findall("PLAYER")] == [
        'Zoë "Zed" O\'Neil',
        "Åsa <Lund>",
    ]
    assert (first.find("DIRECTION") is None) == event.one_winner
    rows = {row.key: row for f in document.sections[0].fields for row in f.rows}
    row = rows[event.pairs[0].key]
    assert first.findtext("PLACE") == row.rank
    assert first.findtext("TOTAL_SCORE") == row.total.display
    lines = ev.findall("BOARD/TRAVELLER_LINE")
    assert len(lines) == len(event.results)
    scores = [line.findtext("SCORE") for line in lines]
    if event.results[0].artificial:
        assert "A+/A-" in scores
    if find_variant(event.variant).has_auction:
        played = [line for line in lines if line.find("PLAYED_BY") is not None]
        assert played
        assert all(line.findtext("PLAYED_BY") in "NESW" for line in played)
    assert len(ev.findall("HANDSET/BOARD")) == len(event.boards)
    assert all(len(b.findall("HAND")) == 4 for b in ev.findall("HANDSET/BOARD"))


def test_the_structure_check_would_notice_a_misplaced_element():
    record = simulate("classic")
    root = ET.fromstring(dumps_usebio(record, score_record(record)).split("\n", 1)[1])
    ET.SubElement(root.find("EVENT/PARTICIPANTS/PAIR"), "TRAVELLER_LINE")
    with pytest.raises(AssertionError, match="PAIR holds"):
        check_structure(root)


FOREIGN_USEBIO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">
<USEBIO Version="1.2">
  <CLUB><CLUB_NAME>Bridge Club</CLUB_NAME></CLUB>
  <EVENT EVENT_TYPE="MP_PAIRS">
    <EVENT_DESCRIPTION>Monday</EVENT_DESCRIPTION>
    <DATE>03/02/2025</DATE>
    <WINNER_TYPE>2</WINNER_TYPE>
    <PARTICIPANTS>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>NS</DIRECTION>
        <PLAYER><PLAYER_NAME>Ann</PLAYER_NAME></PLAYER>
        <PLAYER><PLAYER_NAME>Bob</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><DIRECTION>NS</DIRECTION></PAIR>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>EW</DIRECTION></PAIR>
      <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><DIRECTION>EW</DIRECTION></PAIR>
    </PARTICIPANTS>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
        <CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS>
        <SCORE>420</SCORE><NS_MATCH_POINTS>2</NS_MATCH_POINTS></TRAVELLER_LINE>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
        <SCORE>-50</SCORE></TRAVELLER_LINE>
    </BOARD>
    <BOARD><BOARD_NUMBER>2</BOARD_NUMBER>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
        <SCORE>A+/A-</SCORE></TRAVELLER_LINE>
      <TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
        <SCORE>100</SCORE></TRAVELLER_LINE>
    </BOARD>
  </EVENT>
</USEBIO>
"""


def test_a_usebio_file_from_another_program_imports_as_score_only_lines():
    record = loads_usebio(FOREIGN_USEBIO)
    assert (record.title, record.club, record.date, record.variant, record.method) == (
        "Monday",
        "Bridge Club",
        "2025-02-03",
        "classic",
        "mp",
    )
    # the players one by one, as the file lists them (never split again at " & ")
    assert record.pairs[0] == PairRecord(1, "NS", "Ann & Bob", players=("Ann", "Bob"))
    assert [(r.board, r.ns, r.ew, r.entry, r.ns_score, r.artificial) for r in record.results] == [
        (1, 1, 1, None, 420, None),
        (1, 2, 2, None, -50, None),
        (2, 1, 2, None, None, "A+/A-"),
        (2, 2, 1, None, 100, None),
    ]
    ns = score_record(record).sections[0].fields[0].rows
    assert [(row.pair, row.rank) for row in ns] == [(1, "1"), (2, "2")]


def malformed(text, old, new):
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda t: malformed(t, "<BOARD_NUMBER>2</BOARD_NUMBER>", ""),
            r"^BOARD 2 \(in file order\) has no BOARD_NUMBER$",
        ),
        (
            lambda t: malformed(
                t, "<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>", "<EW_PAIR_NUMBER>7</EW_PAIR_NUMBER>"
            ),
            r"^board 1, TRAVELLER_LINE 2: EW pair 7 is not among the PARTICIPANTS$",
        ),
        (
            lambda t: malformed(t, "</BOARD>", "</BORD>"),
            r"^USEBIO: the XML is not well formed \(mismatched tag: line \d+",
        ),
        (
            lambda t: malformed(
                t,
                '<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">',
                '<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>',
            ).replace("<CLUB_NAME>Bridge Club", "<CLUB_NAME>&b;"),
            r"^USEBIO: ENTITY declarations and DOCTYPE internal subsets are refused",
        ),
        (
            lambda t: malformed(t, "<SCORE>-50</SCORE>", "<SCORE>minus fifty</SCORE>"),
            r"^board 1, TRAVELLER_LINE 2: SCORE 'minus fifty' is not a whole number",
        ),
        (
            lambda t: malformed(t, "<SCORE>-50</SCORE>", ""),
            r"^board 1, TRAVELLER_LINE 2: no SCORE$",
        ),
        (
            lambda t: malformed(t, 'EVENT_TYPE="MP_PAIRS"', 'EVENT_TYPE="TEAMS_OF_FOUR"'),
            r"^EVENT: EVENT_TYPE 'TEAMS_OF_FOUR' is not a pairs event",
        ),
        (
            lambda t: malformed(t, "<DIRECTION>EW</DIRECTION>", ""),
            r"^PARTICIPANTS: PAIR 3 \(number 1\): DIRECTION None is not NS or EW$",
        ),
    ],
)
def test_malformed_usebio_is_refused_with_a_specific_message(change, message):
    with pytest.raises(ExportError, match=message):
        loads_usebio(change(FOREIGN_USEBIO))


def test_a_whist_entry_the_game_refuses_is_named_with_its_board():
    record = simulate("candid", artificial=False)
    text = dumps_usebio(record, score_record(record))
    broken = text.replace('"tricks":', '"trick":', 1)
    assert broken != text
    with pytest.raises(ExportError, match=r"^board \d+, NS \d+ v EW \d+: .*no field 'trick'"):
        loads_usebio(broken)
