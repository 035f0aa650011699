"""The `movement` and `score` sub-commands, run through the real dispatcher."""

from __future__ import annotations

import json

from engine.cli import main


def test_movement_command_prints_every_meeting_as_json(capsys):
    assert main(["movement", "mitchell", "--tables", "5", "--phantom", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "mitchell"
    assert out["tables"] == 5
    assert len(out["rounds"]) == 25
    first = out["rounds"][0]
    assert set(first) == {"round", "table", "ns", "ew", "set"}
    assert any(row["ns"] == 0 for row in out["rounds"]), "the phantom shows as pair 0"
    assert out["relay_sets"] == []


def test_relay_mitchell_command_lists_the_relay_sets_and_arrow_switch(capsys):
    args = ["movement", "relay-mitchell", "--tables", "6", "--arrow-switch", "auto", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["relay_sets"]) == 6
    assert out["one_winner"]
    assert out["arrow_switch_rounds"] == [6]


def test_movement_command_refuses_a_bad_size(capsys):
    assert main(["movement", "skip-mitchell", "--tables", "7", "--json"]) == 1
    assert "even number of tables" in capsys.readouterr().err


def test_score_command_scores_a_csv_with_an_artificial_split(tmp_path, capsys):
    travellers = tmp_path / "t.csv"
    travellers.write_text("board,ns,ew,ns_score\n1,1,1,7\n1,2,2,7\n1,3,3,A+/A-\n2,1,2,25/2\n")
    assert main(["score", str(travellers), "--scale", "acbl", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lines"][2]["ns_points"] == {"exact": "6/5", "display": "1.20"}
    ns = [s for s in out["standings"] if s["field"] == "NS"]
    assert [s["rank"] for s in ns] == ["1", "2=", "2="]


def test_score_command_names_the_bad_line(tmp_path, capsys):
    travellers = tmp_path / "t.csv"
    travellers.write_text("board,ns,ew,ns_score\n1,1,1,7\n1,2,2,A*\n")
    assert main(["score", str(travellers), "--json"]) == 1
    assert "line 3" in capsys.readouterr().err


def test_score_command_checks_lines_against_a_movement(tmp_path, capsys):
    good = tmp_path / "good.csv"
    good.write_text("board,ns,ew,ns_score\n1,1,1,8\n1,2,3,7\n1,3,2,6\n")
    assert main(["score", str(good), "--movement", "mitchell:tables=3,boards_per_round=2"]) == 0
    assert "field NS" in capsys.readouterr().out
    stranger = tmp_path / "stranger.csv"
    stranger.write_text("board,ns,ew,ns_score\n1,1,1,8\n1,9,1,5\n")
    assert main(["score", str(stranger), "--movement", "mitchell:tables=3,boards_per_round=2"]) == 1
    assert "line 3" in capsys.readouterr().err
    wrong_board = tmp_path / "wrong.csv"
    wrong_board.write_text("board,ns,ew,ns_score\n3,1,1,8\n")
    assert (
        main(["score", str(wrong_board), "--movement", "mitchell:tables=3,boards_per_round=2"]) == 1
    )
    assert "line 2" in capsys.readouterr().err
