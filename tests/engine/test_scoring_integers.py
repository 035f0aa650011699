"""Whole-number scoring gives exactly what Fraction scoring gave: every figure, every standings
document and every file written from it, for varied sessions and for random ones.

The oracle is `tests.engine.scoring_reference`, the engine's earlier Fraction code path kept
unchanged; the digests below were taken from that code before the engine changed, so the
oracle itself cannot drift either.
"""

from __future__ import annotations

import dataclasses
import doctest
import hashlib
import importlib
import json
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dealing import deal_boards
from engine.exports import EventRecord, MovementSpec, PairRecord, ResultRecord, score_record
from engine.exports import record as record_module
from engine.exports.csv import standings_csv, travellers_csv
from engine.exports.pbn_results import dumps_with_results
from engine.exports.usebio import dumps_usebio
from engine.games import rules_for
from engine.movements import Movement, build, howell, mitchell
from engine.printing import results_sheet
from engine.scoring import (
    WHIST_TRICK_SCALE,
    ScoringError,
    SessionScore,
    TravellerLine,
    butler_datum,
    imps,
    matchpoint_board,
    one_winner,
    score_session,
)
from engine.scoring.document import StandingsDocument, section_standings
from tests.engine import scoring_reference as reference

L = TravellerLine
Case = tuple[list[TravellerLine], dict[str, Any]]


def movement_lines(
    movement: Movement,
    score: Callable[[random.Random], int | Fraction],
    seed: int,
    *,
    missing: int = 0,
    artificial: tuple[tuple[str, str], ...] = (),
    fouled: tuple[int, ...] = (),
) -> list[TravellerLine]:
    """Every meeting's boards with a score from `score`; `missing` results left out (their
    boards are Neuberg-factored), the first few lines given `artificial` codes, and every line
    on a `fouled` board Average to both sides, as the app scores a fouled board."""
    rng = random.Random(seed)
    lines = [
        L(board, m.ns, m.ew, score(rng))
        for m in movement.meetings
        if not m.sit_out
        for board in movement.boards_for_set(m.set)
    ]
    for _ in range(missing):
        lines.pop(rng.randrange(len(lines)))
    for index, codes in zip(
        rng.sample(range(len(lines)), len(artificial)), artificial, strict=True
    ):
        lines[index] = dataclasses.replace(lines[index], ns_score=None, artificial=codes)
    return [
        dataclasses.replace(line, ns_score=None, artificial=("A", "A"))
        if line.board in fouled
        else line
        for line in lines
    ]


def tricks(rng: random.Random) -> int:
    return rng.randrange(3, 11)


def bridge(rng: random.Random) -> int:
    return rng.choice((-200, -100, -50, 90, 110, 140, 400, 420, 430, 450, 620, 650, 1430))


def points(rng: random.Random) -> int:
    return rng.randrange(-12, 13) * 10


def halves(rng: random.Random) -> Fraction:
    return Fraction(rng.randrange(0, 27), 2)


SPLITS = (("A+", "A-"), ("A", "A"), ("A-", "A+"), ("NP", "NP"), ("A+", "A"), ("A-", "A-"))


def copies(boards: int, tables: int, seed: int, ew_from: int = 0) -> list[TravellerLine]:
    """Every board played at every table (duplicated boards), no movement; EW pairs numbered
    from `ew_from` + 1 (above the NS numbers for one field)."""
    rng = random.Random(seed)
    return [
        L(board, table, ew_from + (table + board) % tables + 1, rng.randrange(14))
        for board in range(1, boards + 1)
        for table in range(1, tables + 1)
    ]


def cases() -> dict[str, Case]:
    seven = mitchell(7, boards_per_round=3)
    cut = mitchell(9, rounds=6, boards_per_round=2)
    arrow = mitchell(6, boards_per_round=2, arrow_switch=[5])
    short_howell = howell(5, boards_per_round=2, rounds=7)
    full_howell = howell(4, boards_per_round=2)
    odd = copies(5, 6, 11)
    return {
        "mitchell-ebu": (movement_lines(seven, tricks, 1), {"movement": seven}),
        "mitchell-acbl": (movement_lines(seven, tricks, 2), {"movement": seven, "scale": "acbl"}),
        "mitchell-neuberg-artificial-fouled": (
            movement_lines(cut, tricks, 3, missing=7, artificial=SPLITS, fouled=(4,)),
            {"movement": cut},
        ),
        "mitchell-acbl-session-reading": (
            movement_lines(cut, tricks, 4, missing=5, artificial=SPLITS, fouled=(9,)),
            {"movement": cut, "scale": "acbl", "artificial": "session"},
        ),
        "arrow-switch-one-winner": (
            movement_lines(arrow, tricks, 5, missing=2, artificial=SPLITS[:3]),
            {"movement": arrow},
        ),
        "howell-short-session-reading": (
            movement_lines(short_howell, tricks, 6, missing=3, artificial=SPLITS),
            {"movement": short_howell, "artificial": "session"},
        ),
        "howell-custom-percentages": (
            movement_lines(full_howell, tricks, 7, artificial=SPLITS[:2]),
            {"movement": full_howell, "artificial_percentages": (65, 50, 35), "scale": "acbl"},
        ),
        "copies-expected-per-board": (odd, {"expected": {1: 6, 2: 7, 3: 9, 4: 6, 5: 13}}),
        "copies-one-field-expected": (
            copies(4, 5, 12, ew_from=5),
            {"expected": 11, "field_of": one_winner},
        ),
        "mp-adjustments": (
            movement_lines(seven, tricks, 8, missing=4, artificial=SPLITS[:2]),
            {"movement": seven, "adjustments": {"NS1": Fraction(-3, 2), "EW4": 2, "NS6": -1}},
        ),
        "mp-fraction-scores": (movement_lines(seven, halves, 9), {"movement": seven}),
        "cross-imps": (
            movement_lines(cut, bridge, 10, missing=9, artificial=SPLITS, fouled=(3,)),
            {"movement": cut, "method": "cross-imps"},
        ),
        "cross-imps-whist-scale": (
            movement_lines(seven, tricks, 11, artificial=SPLITS[:3]),
            {"movement": seven, "method": "cross-imps", "imp_scale": WHIST_TRICK_SCALE},
        ),
        "butler": (
            movement_lines(cut, bridge, 12, missing=3, artificial=SPLITS),
            {"movement": cut, "method": "butler"},
        ),
        "butler-exact-datum": (
            movement_lines(seven, halves, 13, artificial=SPLITS[:2]),
            {
                "movement": seven,
                "method": "butler",
                "imp_scale": WHIST_TRICK_SCALE,
                "artificial_imps": (2, 0, -2),
            },
        ),
        "total-tricks": (
            movement_lines(seven, tricks, 14, missing=3, artificial=(("NP", "NP"),) * 2),
            {
                "movement": seven,
                "method": "total",
                "total_complement": 13,
                "adjustments": {"NS2": -1, "EW5": Fraction(1, 2)},
            },
        ),
        "total-points-uneven": (
            movement_lines(short_howell, points, 15, missing=4),
            {"movement": short_howell, "method": "total", "adjustments": {3: -50}},
        ),
        "total-fraction-scores": (
            movement_lines(cut, halves, 16, missing=6),
            {"movement": cut, "method": "total", "total_complement": 13},
        ),
    }


def canonical(score: SessionScore) -> dict[str, Any]:
    """Every figure of a scored session as exact text (and its type), in order."""

    def exact(value: Fraction | None) -> str | None:
        if value is None:
            return None
        assert type(value) is Fraction, f"{value!r} is not a Fraction"
        return str(value)

    return {
        "method": score.method,
        "scale": score.scale,
        "lines": [
            [
                s.line.board,
                s.line.ns,
                s.line.ew,
                None if s.line.ns_score is None else str(s.line.ns_score),
                s.line.artificial,
                *(exact(v) for v in (s.ns_points, s.ew_points, s.top)),
                *(exact(v) for v in (s.ns_available, s.ew_available)),
            ]
            for s in score.lines
        ],
        "standings": [
            [
                p.pair,
                p.direction,
                p.field,
                p.rank,
                p.boards_played,
                *(exact(v) for v in (p.total, p.max_total, p.percentage)),
                *(exact(v) for v in (p.adjustments, p.versus_average)),
            ]
            for p in score.standings
        ],
    }


def document(score: SessionScore, build_section: Callable[..., Any] = section_standings) -> Any:
    """The session as a standings document, with one pair withdrawn and one absent."""
    keys = [
        (p.field if p.field in ("NS", "EW") else "") + str(p.pair)
        for p in score.standings
        if p.boards_played
    ]
    names = {key: f"Pair {key} & partner" for key in keys}
    section = build_section(
        "A",
        score,
        one_winner=score.fields == ("ALL",),
        names=names,
        absent={keys[1], "NS99"} if len(keys) > 1 else set(),
    )
    return StandingsDocument(3, 7, score.method, score.scale, "2026-11-24T21:00:00", (section,))


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# Taken from the Fraction code path, before whole-number scoring replaced it.
DIGESTS: dict[str, str] = {
    "arrow-switch-one-winner": "f5186f8e93695dd7",
    "butler": "1b5e750ebc1c8e9a",
    "butler-exact-datum": "3b2ec71c1f5339e8",
    "copies-expected-per-board": "dd1b7554eedfb439",
    "copies-one-field-expected": "de00515c042fa577",
    "cross-imps": "ec0ac8021c9c2f99",
    "cross-imps-whist-scale": "bd3ee114c88dd496",
    "howell-custom-percentages": "cc600c5753aa099e",
    "howell-short-session-reading": "80949745e81d385f",
    "mitchell-acbl": "247bc9f7298dfe4d",
    "mitchell-acbl-session-reading": "db588e14e514ad6e",
    "mitchell-ebu": "1d1e3399541aa445",
    "mitchell-neuberg-artificial-fouled": "dfc3f075e63cefa8",
    "mp-adjustments": "7251a25718041021",
    "mp-fraction-scores": "4a4488e1d8b7467f",
    "total-fraction-scores": "1d32ea6b754b437b",
    "total-points-uneven": "f85f3601c1c90ca4",
    "total-tricks": "873b6c2e1f524704",
}


@pytest.mark.parametrize("name", sorted(cases()))
def test_every_figure_and_document_is_what_fraction_scoring_gave(name: str) -> None:
    lines, options = cases()[name]
    new = score_session(lines, **options)
    old = reference.score_session(lines, **options)
    assert canonical(new) == canonical(old)
    new_document = document(new).to_dict()
    assert new_document == document(old, reference.section_standings).to_dict()
    assert json.dumps(new_document) == json.dumps(
        document(old, reference.section_standings).to_dict()
    )
    assert digest([canonical(new), new_document]) == DIGESTS[name]


def simulated_record(
    variant: str,
    kind: str,
    params: dict[str, Any],
    *,
    method: str = "mp",
    scale: str = "ebu",
    seed: int = 5,
) -> EventRecord:
    """A played session of `variant` as an export record: plausible results from the game's
    rules, two results missing (Neuberg), a split artificial score and a fouled board where
    the method can score them, and one absent pair."""
    rules = rules_for(variant, {})
    movement = build(kind, **params)
    boards = tuple(deal_boards(variant, range(1, movement.board_count() + 1), seed=seed))
    rng = random.Random(seed)
    results = []
    for meeting in movement.meetings:
        if meeting.sit_out:
            continue
        for number in movement.boards_for_set(meeting.set):
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
    del results[3], results[11]
    fouled: frozenset[int] = frozenset()
    if method != "total":
        results[5] = dataclasses.replace(results[5], entry=None, ns_score=None, artificial="A+/A-")
        fouled = frozenset({2})
    pairs = tuple(
        PairRecord(
            slot.number,
            None if movement.one_winner else slot.direction,
            f"North {slot} & South {slot}",
            absent=index == 1,
        )
        for index, slot in enumerate(movement.pairs)
    )
    return EventRecord(
        title="Whole numbers",
        date="2026-11-24",
        club="Riverside",
        variant=variant,
        method=method,
        scale=scale,
        one_winner=movement.one_winner,
        movement=MovementSpec(kind, params),
        boards=boards,
        pairs=pairs,
        results=tuple(results),
        fouled=fouled,
    )


RECORDS: dict[str, Callable[[], EventRecord]] = {
    "classic-mitchell-ebu": lambda: simulated_record(
        "classic", "mitchell", {"tables": 5, "boards_per_round": 2}
    ),
    "classic-cut-mitchell-acbl": lambda: simulated_record(
        "classic", "mitchell", {"tables": 7, "rounds": 5, "boards_per_round": 2}, scale="acbl"
    ),
    "bidwhist-howell": lambda: simulated_record(
        "bidwhist", "howell", {"tables": 4, "boards_per_round": 2, "rounds": 5}
    ),
    "candid-cross-imps": lambda: simulated_record(
        "candid", "mitchell", {"tables": 5, "boards_per_round": 2}, method="cross-imps"
    ),
    "bidwhist-butler": lambda: simulated_record(
        "bidwhist", "mitchell", {"tables": 5, "boards_per_round": 2}, method="butler"
    ),
    "candid-total": lambda: simulated_record(
        "candid", "mitchell", {"tables": 5, "boards_per_round": 2}, method="total"
    ),
}


def written(record: EventRecord) -> dict[str, bytes]:
    """Every file clubwhist writes from a scored record: the CSVs, PBN, USEBIO, the PDF."""
    document = score_record(record, event=1, version=2)
    return {
        "document": json.dumps(document.to_dict()).encode(),
        "standings.csv": standings_csv(document).encode(),
        "travellers.csv": travellers_csv(record, document).encode(),
        "pbn": dumps_with_results(record).encode(),
        "usebio": dumps_usebio(record, document).encode(),
        "results.pdf": results_sheet(
            document, record.boards, record.rules(), title=record.title, printed="Tuesday"
        ),
    }


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_files_written_from_whole_number_scores_are_byte_for_byte_the_same(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = RECORDS[name]()
    new = written(record)
    monkeypatch.setattr(record_module, "score_session", reference.score_session)
    monkeypatch.setattr(record_module, "section_standings", reference.section_standings)
    old = written(record)
    assert set(new) == set(old)
    for kind in new:
        assert new[kind] == old[kind], f"{name}: the {kind} differs"
    assert b'"percentage"' in new["document"] and len(new["results.pdf"]) > 1000


@st.composite
def sessions(draw: st.DrawFn) -> Case:
    """A small random session without a movement: a few boards, each played at a few tables
    by pairs that change opponents, real scores (whole or halves), artificial and not-played
    lines, more results expected on some boards than were played, adjustments, one field or
    two, now and then a pair entered twice on a board, and any method, scale and reading."""
    method = draw(st.sampled_from(("mp", "mp", "cross-imps", "butler", "total")))
    one_field = draw(st.booleans())
    score = st.one_of(
        st.integers(-13, 13),
        st.builds(Fraction, st.integers(-27, 27), st.sampled_from((2, 3))),
    )
    codes = st.sampled_from((*SPLITS, ("A", "A-")))
    lines = []
    expected: dict[int, int] = {}
    for board in range(1, draw(st.integers(1, 4)) + 1):
        tables = draw(st.integers(1, 6))
        for table in range(1, tables + 1):
            ew = (table + board) % tables + 1 + (6 if one_field else 0)
            artificial = draw(codes) if draw(st.integers(0, 4)) == 0 else None
            lines.append(L(board, table, ew, None if artificial else draw(score), artificial))
        expected[board] = tables + draw(st.integers(0, 3))
    if draw(st.integers(0, 9)) == 0:  # a meeting entered twice: refused, the same way
        lines.append(dataclasses.replace(draw(st.sampled_from(lines)), source_line=99))
    pairs = sorted(
        {(side, pair) for line in lines for side, pair in (("NS", line.ns), ("EW", line.ew))}
    )
    adjustments = {
        (pair if one_field else f"{side}{pair}"): draw(
            st.sampled_from((-1, 2, Fraction(1, 2), Fraction(-7, 3)))
        )
        for side, pair in pairs
        if draw(st.integers(0, 5)) == 0
    }
    options: dict[str, Any] = {
        "method": method,
        "scale": draw(st.sampled_from(("ebu", "acbl"))),
        "artificial": draw(st.sampled_from(("fixed", "session"))),
        "expected": expected if draw(st.booleans()) else None,
        "adjustments": adjustments or None,
        "field_of": one_winner if one_field else None,
    }
    if method == "total":
        options["total_complement"] = draw(st.sampled_from((None, 13)))
    if method in ("cross-imps", "butler") and draw(st.booleans()):
        options["imp_scale"] = WHIST_TRICK_SCALE
        options["datum_rounding"] = draw(st.sampled_from((None, 1)))
    return lines, options


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_random_sessions_score_as_fraction_scoring_did(case: Case) -> None:
    lines, options = case
    outcomes = []
    for scorer in (reference.score_session, score_session):
        try:
            outcomes.append(scorer(lines, **options))
        except ScoringError as exc:  # a refusal must be the same refusal, word for word
            outcomes.append((type(exc), str(exc)))
    old, new = outcomes
    if not isinstance(old, SessionScore):
        assert new == old
        return
    assert isinstance(new, SessionScore)
    assert canonical(new) == canonical(old)
    assert document(new).to_dict() == document(old, reference.section_standings).to_dict()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(-13, 13), st.builds(Fraction, st.integers(-40, 40), st.just(3))),
        min_size=1,
        max_size=30,
    ),
    st.integers(0, 4),
    st.sampled_from(("ebu", "acbl")),
)
def test_the_board_functions_hand_out_what_they_did(
    scores: list[int | Fraction], extra: int, scale: str
) -> None:
    expected = len(scores) + extra
    new = matchpoint_board(scores, scale=scale, expected=expected)
    assert new == reference.matchpoint_board(scores, scale=scale, expected=expected)
    assert all(type(value) is Fraction for value in new)
    assert butler_datum(scores) == reference.butler_datum(scores)
    assert butler_datum(scores, None) == reference.butler_datum(scores, None)
    for value in scores:
        assert imps(value * 37, WHIST_TRICK_SCALE) == reference.imps(value * 37, WHIST_TRICK_SCALE)
        assert imps(value * 37) == reference.imps(value * 37)


@pytest.mark.parametrize(
    "name", ["engine.scoring", "engine.scoring.matchpoints", "engine.scoring.standings"]
)
def test_the_whole_number_helpers_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
