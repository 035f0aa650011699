"""Tables for spreadsheets: every CSV clubwhist writes opens right in Excel, and each is offered
as an Excel workbook (XLSX) too.

CSV. Excel on Windows reads a CSV file in the machine's legacy code page unless the file
begins with a byte-order mark: without it "Siân" shows as "SiÃ¢n" and "Zoë" as "ZoÃ«". So
every CSV text clubwhist hands out starts with U+FEFF (`with_bom`); LibreOffice, Numbers,
Google Sheets and Python's `csv` with `encoding="utf-8-sig"` all take it. The columns stay as
each export documents them (`engine.exports.csv` for the standings and travellers).

XLSX. `xlsx_from_csv(text, title)` is the same table in one worksheet, each cell typed as a
spreadsheet expects, so a secretary can sort and add up without converting anything:

- a whole number ("12", "-140"): a number; but "007" (a leading zero belongs to a code) and
  more than 15 digits (beyond Excel's precision) stay text;
- a decimal ("62.50", "-3.5"): a number, shown with as many decimals as written;
- a date ("2026-12-06"): a date, shown yyyy-mm-dd;
- a date and time ("2026-12-06T19:42:05.507+00:00", "2026-12-06 19:42"): the date and time
  as written to the second, shown yyyy-mm-dd hh:mm:ss (the offset dropped: Excel keeps none;
  the fraction of a second too: Excel keeps milliseconds at best);
- empty: an empty cell;
- anything else ("2=", "A+", "Ann & Bob"): text, never a formula.

The CSV guards against formula injection with a quote before text beginning `=`, `+`, `-`,
`@`, a tab or a return (`engine.exports.csv.safe_cell`); a workbook's text cell is never a
formula, so that quote is dropped there and the text reads as the player wrote it. The header
row is bold and stays in view as the sheet scrolls; each column is as wide as its longest cell
(up to 60 characters).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable

__all__ = ["BOM", "XLSX_CONTENT_TYPE", "Typed", "typed_cell", "with_bom", "xlsx_from_csv"]

BOM = "\ufeff"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

#: What `engine.exports.csv.safe_cell` puts a quote before.
_GUARDED = ("=", "+", "-", "@", "\t", "\r")
_WHOLE = re.compile(r"[+-]?(0|[1-9]\d{0,14})")
_DECIMAL = re.compile(r"[+-]?\d{1,15}\.(\d{1,10})")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(
    r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)(?:Z|[+-]\d{2}:?\d{2})?"
)
_TITLE_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
_WIDEST = 60


def with_bom(text: str) -> str:
    """`text` with the byte-order mark Excel needs to read UTF-8 (once, however often asked)."""
    return text if text.startswith(BOM) else BOM + text


Typed = int | float | dt.date | dt.datetime | str | None


def typed_cell(text: str) -> tuple[Typed, str | None]:
    """A CSV cell as the workbook holds it, and its number format (None: the default), by
    the table in the module docstring."""
    if text == "":
        return None, None
    if _WHOLE.fullmatch(text):
        return int(text), "0"
    decimal = _DECIMAL.fullmatch(text)
    if decimal:
        return float(text), "0." + "0" * len(decimal.group(1))
    if _DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text), "yyyy-mm-dd"
        except ValueError:
            return text, "@"
    moment = _DATETIME.fullmatch(text)
    if moment:
        try:
            value = dt.datetime.fromisoformat(f"{moment.group(1)}T{moment.group(2)}")
        except ValueError:
            return text, "@"
        return value.replace(microsecond=0), "yyyy-mm-dd hh:mm:ss"
    if len(text) > 1 and text[0] == "'" and text[1] in _GUARDED:
        text = text[1:]  # the CSV's guard; a workbook's text is never a formula
    return text, "@"


def _title(title: str) -> str:
    """A worksheet's name as Excel allows it: at most 31 characters, none of []:*?/\\."""
    cleaned = _TITLE_FORBIDDEN.sub(" ", title).strip() or "Sheet"
    return cleaned[:31]


def _rows(text: str) -> Iterable[list[str]]:
    return csv.reader(io.StringIO(text.removeprefix(BOM), newline=""))


def xlsx_from_csv(text: str, title: str) -> bytes:
    """The CSV table `text` (as clubwhist writes it: a header row, then the rows) as an XLSX
    workbook of one worksheet named `title`, each cell typed (see the module docstring)."""
    # openpyxl is imported here, when a workbook is asked for, not with the module: every
    # process of the app imports this module (the downloads' views), and openpyxl took about a
    # tenth of a second of each one's start (twice that where numpy is installed: openpyxl
    # looks for it).
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    assert sheet is not None  # a new workbook has its one sheet
    sheet.title = _title(title)
    widths: dict[int, int] = {}
    bold = Font(bold=True)
    for number, row in enumerate(_rows(text), start=1):
        for column, raw in enumerate(row, start=1):
            widths[column] = max(widths.get(column, 0), len(raw))
            cell = sheet.cell(row=number, column=column)
            if number == 1:
                cell.value, cell.font = raw, bold
                cell.data_type = "s"
                continue
            value, shown = typed_cell(raw)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # text stays text, whatever it begins with
            if shown is not None:
                cell.number_format = shown
    sheet.freeze_panes = "A2"
    for column, width in widths.items():
        sheet.column_dimensions[get_column_letter(column)].width = min(max(width, 4) + 2, _WIDEST)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
