"""Tables for spreadsheets (`engine.exports.spreadsheet`): the byte-order mark, and each CSV
cell typed as the workbook holds it, read back with openpyxl."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
import pytest

from engine.exports.spreadsheet import BOM, typed_cell, with_bom, xlsx_from_csv


def test_the_byte_order_mark_is_added_once() -> None:
    assert with_bom("a,b\r\n") == BOM + "a,b\r\n"
    assert with_bom(with_bom("a")) == BOM + "a"


@pytest.mark.parametrize(
    ("text", "value", "shown"),
    [
        ("", None, None),
        ("12", 12, "0"),
        ("-140", -140, "0"),
        ("0", 0, "0"),
        ("007", "007", "@"),  # a code, not a number
        ("1234567890123456", "1234567890123456", "@"),  # beyond Excel's 15 digits
        ("62.50", 62.5, "0.00"),
        ("-3.5", -3.5, "0.0"),
        ("2026-12-06", dt.date(2026, 12, 6), "yyyy-mm-dd"),
        ("2026-02-30", "2026-02-30", "@"),  # not a date
        ("2026-12-06T19:42:05+00:00", dt.datetime(2026, 12, 6, 19, 42, 5), "yyyy-mm-dd hh:mm:ss"),
        ("2026-12-06 19:42", dt.datetime(2026, 12, 6, 19, 42), "yyyy-mm-dd hh:mm:ss"),
        (
            "2026-12-06T19:42:05.507549+00:00",
            dt.datetime(2026, 12, 6, 19, 42, 5),
            "yyyy-mm-dd hh:mm:ss",
        ),
        ("2=", "2=", "@"),
        ("A+", "A+", "@"),
        ("'=HYPERLINK(1)", "=HYPERLINK(1)", "@"),  # the CSV's guard dropped: text here
        ("'-A", "-A", "@"),
        ("'quoted'", "'quoted'", "@"),  # a quote of the player's own stays
    ],
)
def test_each_cell_is_typed_as_a_spreadsheet_expects(
    text: str, value: object, shown: str | None
) -> None:
    assert typed_cell(text) == (value, shown)


def test_a_workbook_reads_back_typed_with_accents_and_no_formula() -> None:
    text = with_bom(
        "rank,names,score,percentage,date,note\r\n"
        '1,Siân O\'Neil & Zoë Çelik,-140,62.50,2026-12-06,"\'=HYPERLINK(""x"")"\r\n'
        "2=,Ann & Bob,12,37.50,,\r\n"
    )
    book = openpyxl.load_workbook(io.BytesIO(xlsx_from_csv(text, "Standings: A/B")))
    sheet = book.active
    assert sheet is not None
    assert sheet.title == "Standings  A B"  # Excel's forbidden characters replaced
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("rank", "names", "score", "percentage", "date", "note")
    assert rows[1][:4] == (1, "Siân O'Neil & Zoë Çelik", -140, 62.5)
    assert rows[1][4] == dt.datetime(2026, 12, 6)  # a date cell (openpyxl reads a datetime)
    assert rows[1][5] == '=HYPERLINK("x")'
    assert sheet["F2"].data_type == "s"  # text, not a formula
    assert sheet["D2"].number_format == "0.00"
    assert rows[2][:4] == ("2=", "Ann & Bob", 12, 37.5)
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.bold
