"""`python -m engine print`: each document from a PBN file, and every way it can go wrong
ending in one line on stderr, exit 1 and no PDF (not even half of one) left behind."""

from __future__ import annotations

from io import BytesIO

import pytest
from pypdf import PdfReader

from engine.cli import main
from engine.commands.print import DOCUMENTS
from engine.dealing import deal_boards
from engine.movements import dumps_csv, mitchell
from engine.pbn import dumps


@pytest.fixture
def pbn(tmp_path):
    """Twenty classic boards: a 5-table Mitchell with 4 boards a round plays them all."""
    path = tmp_path / "event.pbn"
    path.write_text(dumps(deal_boards("classic", range(1, 21), seed=4)), encoding="utf-8")
    return path


MOVEMENT = ["--movement", "mitchell", "--tables", "5", "--boards-per-round", "4"]


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_each_document_is_written(kind, pbn, tmp_path, capsys):
    out = tmp_path / f"{kind}.pdf"
    assert main(["print", kind, str(pbn), *MOVEMENT, "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""
    reader = PdfReader(BytesIO(out.read_bytes()))
    text = "\n".join(page.extract_text() for page in reader.pages)
    last = {
        "table-cards": "Table 5",
        "pair-cards": "EW pair 5",
        "duplication-sheet": "20 North",
    }.get(kind, "Board 20")
    assert last in text
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["event.pbn", out.name])


def test_a_movement_file_and_letter_paper(pbn, tmp_path):
    movement = tmp_path / "m.csv"
    movement.write_text(dumps_csv(mitchell(3, boards_per_round=2)), encoding="utf-8")
    boards = tmp_path / "six.pbn"
    boards.write_text(dumps(deal_boards("bidwhist", range(1, 7), seed=1)), encoding="utf-8")
    out = tmp_path / "t.pdf"
    args = ["print", "travellers", str(boards), "--movement-file", str(movement)]
    assert main([*args, "--boards-per-round", "2", "--paper", "letter", "-o", str(out)]) == 0
    reader = PdfReader(BytesIO(out.read_bytes()))
    assert round(float(reader.pages[0].mediabox.width)) == 612
    text = reader.pages[0].extract_text()
    assert "Board 1 Bid Whist" in text and "Books" in text
    assert "\n1 1 1 1\n2 3 3 2\n3 2 2 3\n" in text


def _fails(capsys, tmp_path, args, message):
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["print", *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ") and message in lines[0]
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == before, "a failed print must leave the folder as it was"


def test_a_missing_board_file(tmp_path, capsys):
    out = str(tmp_path / "o.pdf")
    _fails(capsys, tmp_path, ["curtain-cards", str(tmp_path / "nope.pbn"), "-o", out], "nope.pbn")


def test_a_board_the_movement_needs_is_missing(pbn, tmp_path, capsys):
    args = ["travellers", str(pbn), "--movement", "mitchell", "--tables", "7"]
    _fails(capsys, tmp_path, [*args, "-o", str(tmp_path / "o.pdf")], "but board 21 is missing")


def test_a_movement_that_does_not_fit_the_boards(pbn, tmp_path, capsys):
    args = ["pair-cards", str(pbn), "--movement", "howell", "--tables", "3"]
    _fails(
        capsys, tmp_path, [*args, "-o", str(tmp_path / "o.pdf")], "are not played in this movement"
    )


def test_an_unknown_kind_paper_or_movement(pbn, tmp_path, capsys):
    out = ["-o", str(tmp_path / "o.pdf")]
    _fails(capsys, tmp_path, ["posters", str(pbn), *out], "unknown document 'posters'")
    _fails(capsys, tmp_path, ["board-slips", str(pbn), "--paper", "a3", *out], "unknown paper")
    _fails(capsys, tmp_path, ["travellers", str(pbn), *out], "needs a movement")
    args = ["table-cards", str(pbn), "--movement", "swiss", "--tables", "5"]
    _fails(capsys, tmp_path, [*args, *out], "unknown movement 'swiss'")
    args = ["table-cards", str(pbn), "--movement", "mitchell"]
    _fails(capsys, tmp_path, [*args, *out], "--tables")


def test_a_failure_leaves_an_existing_pdf_untouched(pbn, tmp_path, capsys):
    out = tmp_path / "o.pdf"
    out.write_bytes(b"last week's travellers")
    args = ["travellers", str(pbn), "--movement", "mitchell", "--tables", "9", "-o", str(out)]
    _fails(capsys, tmp_path, args, "missing")
    assert out.read_bytes() == b"last week's travellers"


def test_boards_of_another_game_than_the_options_say(tmp_path, capsys):
    path = tmp_path / "ow.pbn"
    path.write_text(dumps(deal_boards("openwhist", range(1, 3), seed=2)), encoding="utf-8")
    args = ["curtain-cards", str(path), "--option", "players=3", "-o", str(tmp_path / "o.pdf")]
    _fails(capsys, tmp_path, args, "13 cards a hand")
