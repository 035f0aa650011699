"""The command line: deal, show and result."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.games import variant_names
from engine.pbn import loads

ROOT = Path(__file__).resolve().parents[2]


def test_deal_prints_reproducible_pbn(capsys):
    assert main(["deal", "--variant", "bidwhist", "--boards", "1-4", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["deal", "--variant", "bidwhist", "--boards", "1-4", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    boards = loads(first)
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert {b.variant for b in boards} == {"bidwhist"}


def test_deal_refuses_a_bad_option(capsys):
    assert main(["deal", "--variant", "classic", "--boards", "1", "--option", "nope=1"]) == 1
    assert "has no option 'nope'" in capsys.readouterr().err


@pytest.fixture
def board_file(tmp_path, capsys):
    for variant in variant_names():
        main(["deal", "--variant", variant, "--boards", "1-2", "--seed", "1"])
        (tmp_path / f"{variant}.pbn").write_text(capsys.readouterr().out, encoding="utf-8")
    return tmp_path


def _result(capsys, *args):
    code = main(["result", *args])
    return code, json.loads(capsys.readouterr().out)


def test_result_scores_a_valid_entry(board_file, capsys):
    code, out = _result(
        capsys,
        "--variant",
        "candid",
        "--board-file",
        str(board_file / "candid.pbn"),
        "--board",
        "1",
        '{"declarer": "N", "bid": 8, "strain": "H", "tricks": 10}',
    )
    assert code == 0
    assert out["valid"] is True
    assert out["ns_score"] == 82
    assert out["description"] == "8♥ by N, 10 tricks"


def test_result_takes_options(board_file, capsys):
    entry = '{"declarer": "N", "bid": 5, "kind": "uptown", "trumps": "S", "books": 10}'
    code, out = _result(
        capsys,
        "--variant",
        "bidwhist",
        "--board-file",
        str(board_file / "bidwhist.pbn"),
        "--board",
        "2",
        entry,
        "--option",
        "scoring=andrews",
        "--option",
        "defenders_score=yes",
    )
    assert code == 0
    assert out["ns_score"] == -5
    assert out["side_points"] == {"NS": 0, "EW": 5}


@pytest.mark.parametrize(
    ("variant", "entry", "error"),
    [
        ("classic", '{"ns_tricks": 8, "ew_tricks": 6}', "NS and EW tricks must add up to 13"),
        (
            "bidwhist",
            '{"declarer": "N", "bid": 9, "kind": "uptown", "trumps": "S", "books": 12}',
            "Bid Whist bids run from 3 to 7",
        ),
        ("classic", "{not json", "not valid JSON"),
        ("classic", "[8]", "must be a JSON object"),
    ],
)
def test_result_reports_an_invalid_entry_as_json(board_file, capsys, variant, entry, error):
    code, out = _result(
        capsys,
        "--variant",
        variant,
        "--board-file",
        str(board_file / f"{variant}.pbn"),
        "--board",
        "1",
        entry,
    )
    assert code == 1
    assert out["valid"] is False
    assert error in out["error"]


def test_result_reports_a_missing_board_or_file(board_file, capsys):
    code, out = _result(
        capsys,
        "--variant",
        "classic",
        "--board-file",
        str(board_file / "classic.pbn"),
        "--board",
        "9",
        '{"ns_tricks": 7}',
    )
    assert (code, out["valid"]) == (1, False)
    assert "has no board 9" in out["error"]
    code, out = _result(
        capsys,
        "--variant",
        "classic",
        "--board-file",
        str(board_file / "missing.pbn"),
        "--board",
        "1",
        '{"ns_tricks": 7}',
    )
    assert (code, out["valid"]) == (1, False)


def test_show_prints_a_hand_record(board_file, capsys):
    assert main(["show", str(board_file / "bidwhist.pbn"), "--board", "2", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Board 2  Bid Whist  Dealer East")
    for word in ("North", "East", "South", "West", "Kitty:"):
        assert word in out


def test_deal_piped_into_show_reads_a_hand_record():
    deal = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "deal",
            "--variant",
            "bidwhist",
            "--boards",
            "1-4",
            "--seed",
            "7",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    show = subprocess.run(
        [sys.executable, "-m", "engine", "show", "-"],
        cwd=ROOT,
        input=deal.stdout,
        capture_output=True,
        text=True,
        check=True,
        encoding="utf-8",
    )
    assert show.stdout.count("Board ") == 4
    assert "Kitty:" in show.stdout
