"""`python -m engine drive`: the seating plan and a rehearsal of a whole drive."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.drives import Drive, DriveSettings, semi_partner


def test_it_prints_the_first_hands_seating(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "--players", "13", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = Drive(DriveSettings(players=13)).first_seating(seed=1).lines()
    assert out[0] == "13 players, 3 tables, 1 sitting out each hand"
    assert out[2] == "hand 1, trumps hearts"
    assert out[3:] == expected


def test_it_plays_a_drive_through(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["drive", "--players", "11", "--hands", "6", "--form", "semi-partner"]
    args += ["--form-option", "losers=up", "--short-table", "dummy", "--seed", "2", "--play", "5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == out  # the same seeds, the same evening
    lines = out.splitlines()
    assert lines[0] == "11 players, 3 tables, one table with a dummy"
    assert lines[1] == semi_partner("up").describe()
    assert [line for line in lines if line.startswith("hand ")] == [
        f"hand {n}, trumps {suit}"
        for n, suit in enumerate(["hearts", "diamonds", "spades", "clubs"] * 2, start=1)
    ][:6]
    assert sum(1 for line in lines if line.startswith("  player ")) == 11
    assert lines[lines.index("prizes:") + 1].startswith("  Highest total: ")


def test_it_reads_settings_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "drive.json"
    settings = DriveSettings(players=10, move=semi_partner(), trumps="SHDC")
    path.write_text(json.dumps(settings.to_dict()), encoding="utf-8")
    assert main(["drive", "--settings", str(path), "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "hand 1, trumps spades"
    assert out[3:] == Drive(settings).first_seating(seed=3).lines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "say how many players: --players N"),
        (["--players", "3"], "players: from 4 to 2000, not 3"),
        (["--players", "9", "--form-option", "losers"], "--form-option 'losers' must be written"),
        (["--players", "9", "--form", "semi-partner", "--ends", "stay"], "ends: a semi-partner"),
    ],
)
def test_it_refuses_bad_settings(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["drive", *args]) == 1
    assert capsys.readouterr().err.startswith(f"error: {message}")
