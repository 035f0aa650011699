"""The one rule for names (engine.names), formula-safe CSV cells (engine.exports.csv) and what
each scoring method can score (engine.scoring.MethodScope)."""

from __future__ import annotations

import doctest
import importlib
import re

import pytest

from engine.exports.csv import safe_cell, safe_row
from engine.names import NameRefused, clean_name, name_problem
from engine.scoring import METHODS, ScoringError, TravellerLine, method_scope, score_session


@pytest.mark.parametrize("name", ["engine.names", "engine.exports.csv"])
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("\x00", "U+0000"),
        ("\t", "U+0009"),
        ("\n", "U+000A"),
        ("\x0b", "U+000B"),
        ("\x0c", "U+000C"),
        ("\r", "U+000D"),
        ("\x1f", "U+001F"),
        ("\x7f", "U+007F"),
        ("\x85", "U+0085"),
        ("\u2028", "U+2028"),
        ("\u2029", "U+2029"),
        ("\u202e", "U+202E"),
        ("\u2066", "U+2066"),
        ("\ud800", "U+D800"),
        ("\uffff", "U+FFFF"),
    ],
)
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_control_character_anywhere_is_refused_naming_the_field(
    char: str, code: str, where: str
) -> None:
    value = {"start": char + "Ann", "middle": "An" + char + "n", "end": "Ann" + char}[where]
    with pytest.raises(NameRefused, match=rf"^NS 3's first player: .*\({re.escape(code)}, "):
        clean_name(value, field="NS 3's first player", max_length=120)
    assert name_problem(value, 120) is not None


@pytest.mark.parametrize(
    "name",
    [
        "A/N Other",
        "Ann & Bob",
        "Tom && Jerry",
        'Pat "Ace" O\'Brien',
        "Zoë Ñúñez-Łukasz",
        "李雷 & 韩梅梅",
        "نرگس\u200cزاده",  # a zero-width non-joiner, as Persian names need
        '=HYPERLINK("x")',
        '<b>bold</b> ]]> [Tag "x"]',
    ],
)
def test_ordinary_names_come_back_exactly(name: str) -> None:
    assert clean_name(name, field="name", max_length=120) == name
    assert clean_name(f"  {name} ", field="name", max_length=120) == name


def test_the_limit_is_the_columns_counted_after_trimming() -> None:
    assert clean_name("x" * 120, field="name", max_length=120) == "x" * 120
    assert clean_name(" " + "x" * 120 + " ", field="name", max_length=120) == "x" * 120
    with pytest.raises(NameRefused, match=r"^name: the name is 121 characters long; at most 120"):
        clean_name("x" * 121, field="name", max_length=120)


def test_empty_and_non_text_names() -> None:
    assert clean_name("   ", field="name", max_length=10) == ""
    with pytest.raises(NameRefused, match="give a name"):
        clean_name("   ", field="name", max_length=10, required=True)
    with pytest.raises(NameRefused, match="a name is text, not int"):
        clean_name(7, field="name", max_length=10)
    assert issubclass(NameRefused, ValueError)


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+44 20", "'+44 20"),
        ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-140", "-140"),
        ("-3.50", "-3.50"),
        ("+7", "+7"),
        ("A-", "A-"),
        ("2=", "2="),
        ("Ann & Bob", "Ann & Bob"),
        (-140, -140),
        (None, None),
    ],
)
def test_csv_cells_never_start_a_formula_but_numbers_stay_numbers(
    value: object, written: object
) -> None:
    assert safe_cell(value) == written
    assert safe_row([value, value]) == [written, written]


def test_each_method_declares_what_it_can_score() -> None:
    for method in METHODS:
        scope = method_scope(method)
        assert scope.artificial_refusal(("NP", "NP")) is None
        assert scope.scores_fouled_boards == (method != "total")
        assert (scope.fouled_refusal() is None) == (method != "total")
        refusal = scope.artificial_refusal(("A+", "A-"))
        assert (refusal is None) == (method != "total")
    with pytest.raises(ScoringError, match="unknown scoring method"):
        method_scope("rubber")


def test_total_points_scoring_gives_the_declared_refusal() -> None:
    lines = [TravellerLine(1, 1, 1, 7), TravellerLine(1, 2, 2, None, ("A", "A"))]
    with pytest.raises(ScoringError, match=r"Total-points scoring has no artificial score A "):
        score_session(lines, method="total", total_complement=13)
    lines[1] = TravellerLine(1, 2, 2, None, ("NP", "NP"))
    assert score_session(lines, method="total", total_complement=13).standings
