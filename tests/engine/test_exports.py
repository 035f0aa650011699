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
from engine.games import rules_for
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
            assert row[keys[-1] if event.variant == "classic" else "declarer"] != "" or (
                result.entry.get("passed_out")
            )
            assert row["result"] != ""
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
    assert "\nN C 7\n" in game
    assert "\nE NT 7" in game
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
    broken = text.replace('"{\\"ns_tricks\\":', '"{\\"ns_trick\\":', 1)
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
