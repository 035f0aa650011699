"""`manage.py drive`: a drive from a JSON file, played from the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader

from tournaments.drives.models import Drive, DriveTableAccess

pytestmark = pytest.mark.django_db


def run(*args: object) -> str:
    out = io.StringIO()
    call_command("drive", *[str(a) for a in args], stdout=out)
    return out.getvalue()


def test_a_drive_from_the_command_line(tmp_path: Path) -> None:
    spec = tmp_path / "drive.json"
    spec.write_text(
        json.dumps(
            {
                "club": "Village Hall",
                "name": "Village drive",
                "settings": {"hands": 2, "half_time": 0, "prizes": [{"kind": "highest"}]},
                "players": [f"Villager {n}" for n in range(1, 6)],
            }
        )
    )
    assert "5 players" in run("create", spec)
    drive = Drive.objects.get()
    shown = run("start", drive.pk, "--seed", 2)
    assert "hand 1 of 2" in shown and "sitting out" in shown
    links = run("links", drive.pk).splitlines()
    tokens = DriveTableAccess.objects.filter(drive=drive).values_list("table", "token")
    assert links == [f"table {t}\thttp://127.0.0.1:8000/d/{token}/" for t, token in tokens]
    with pytest.raises(CommandError, match="NS tricks must be between 0 and 13"):
        run("enter", drive.pk, 1, 20)
    with pytest.raises(CommandError, match="has no result yet"):
        run("next", drive.pk)
    assert "NS 9 tricks" in run("enter", drive.pk, 1, 9)
    assert "hand 2 of 2" in run("next", drive.pk)
    run("enter", drive.pk, 1, '{"ns_tricks": 4}')
    assert "nobody's seat changed" not in run("correct", drive.pk, 2, 1, 5, "--reason", "typo")
    run("finish", drive.pk)
    totals = run("totals", drive.pk)
    assert "totals after 2 hands" in totals and "Highest total: Villager" in totals
    sheet = tmp_path / "prizes.pdf"
    assert str(sheet) in run("print", drive.pk, "prizes", "-o", sheet, "--paper", "letter")
    text = " ".join(p.extract_text() for p in PdfReader(sheet).pages)
    assert "Village drive" in text and "provisional" not in text and "Villager 1" in text


def test_a_draft_has_no_links_yet(tmp_path: Path) -> None:
    spec = tmp_path / "drive.json"
    spec.write_text(json.dumps({"name": "Draft", "players": ["A", "B", "C", "D"]}))
    run("create", spec)
    with pytest.raises(CommandError, match="made when it starts"):
        run("links", Drive.objects.get().pk)


def test_a_refusal_is_one_line(tmp_path: Path) -> None:
    spec = tmp_path / "bad.json"
    spec.write_text(json.dumps({"name": "Bad", "settings": {"hands": 99}, "colour": "red"}))
    with pytest.raises(CommandError, match="no field 'colour'"):
        run("create", spec)
    with pytest.raises(CommandError, match="There is no drive 999"):
        run("show", 999)


def test_printing_a_drive_with_too_few_players_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "drive.json"
    spec.write_text(json.dumps({"name": "Tiny", "settings": {"hands": 2}, "players": ["Ann"]}))
    run("create", spec)
    out = tmp_path / "cards.pdf"
    with pytest.raises(CommandError, match="at least four players"):
        run("print", Drive.objects.get().pk, "score-cards", "-o", out)
    assert not out.exists()


def test_a_paper_drives_score_cards_from_a_csv_file(tmp_path: Path) -> None:
    spec = tmp_path / "drive.json"
    spec.write_text(
        json.dumps(
            {
                "name": "Card night",
                "settings": {"hands": 4, "half_time": 0, "prizes": [{"kind": "highest"}]},
                "players": ["Ann", "Bob", "Cat", "Dan"],
            }
        )
    )
    run("create", spec)
    drive = Drive.objects.get()
    run("start", drive.pk, "--seed", 1)
    sheet = tmp_path / "cards.csv"
    sheet.write_text("player,total\n1,30\n2,34.5\n\n3,29\n4,31\n")
    totals = run("cards", drive.pk, sheet)
    assert "Highest total: Bob" in totals
    assert Drive.objects.get().cards["2"] == {"total": "34.5", "first_half": None, "ten_plus": None}
    sheet.write_text("1,30\nBob,34\n")
    with pytest.raises(CommandError, match="line 2: player number, total"):
        run("cards", drive.pk, sheet)
    sheet.write_text("1,30\n2,34\n3,29\n")
    with pytest.raises(CommandError, match="Dan's card has no total"):
        run("cards", drive.pk, sheet)
