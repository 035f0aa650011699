"""The member register's CSV, read and written: the header, the dialects Excel writes (a UTF-8
byte-order mark, comma or semicolon, Windows line ends), one line per member.

Reading only splits the file into lines of text by column; what each value must be is the
register's rule (`kernel.members`). Writing gives the same columns, with a byte-order mark so a
spreadsheet shows the accents, and re-imports as it was.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

from engine.exports.spreadsheet import BOM
from tournaments.kernel.refusals import Refused

#: The register's columns, in the order an export writes them; `name` alone is required.
COLUMNS = ("name", "number", "email", "active", "public_name")
REQUIRED = "name"
#: At most this many characters of CSV (a club of thousands of members is well under it) and
#: this many lines: a bigger file is no register.
MAX_CHARS = 5 * 1024 * 1024
MAX_LINES = 10_000

EXPECTED = (
    "The first line must name the columns: name (required), and any of number, email, "
    "active, public_name, separated by commas or semicolons."
)


class MembersFileRefused(Refused):
    """A members' CSV that cannot be read at all; the message says what is expected."""


@dataclass(frozen=True)
class CsvLine:
    """One line of the file below the header: its line number in the file (the header is
    line 1), its values by column, and whether it had more cells than the header."""

    line: int
    values: dict[str, str]
    extra_cells: bool


@dataclass(frozen=True)
class CsvFile:
    lines: list[CsvLine]
    columns: list[str]  # the register's columns the file has, in its order
    ignored: list[str]  # other columns of the file, left aside


def as_text(data: bytes | str) -> str:
    """An upload's bytes as text: UTF-8 (with or without a byte-order mark); anything else
    (a spreadsheet's own file, a picture, text in an older encoding) is refused, saying so."""
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise MembersFileRefused(
                "This file is not UTF-8 text. Save it from the spreadsheet as "
                "\u201cCSV UTF-8\u201d and try again. " + EXPECTED
            ) from None
    if "\x00" in text:
        raise MembersFileRefused("This file is not text (is it a spreadsheet file?). " + EXPECTED)
    return text


def read(text: str) -> CsvFile:
    """The lines of a members' CSV, by column (headers compared without regard to case or
    surrounding spaces); a file without a `name` column, too long or not CSV is refused."""
    if len(text) > MAX_CHARS:
        raise MembersFileRefused(
            f"The file has {len(text):,} characters; a register of members has far fewer "
            f"(at most {MAX_CHARS:,}). Nothing was read."
        )
    text = text.removeprefix(BOM)
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise MembersFileRefused(
            f"This is not a CSV file the register can read ({exc}). " + EXPECTED
        ) from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise MembersFileRefused("The file is empty. " + EXPECTED)
    header = [cell.strip().lower().removeprefix(BOM) for cell in rows[0]]
    if REQUIRED not in header:
        raise MembersFileRefused("The file has no \u201cname\u201d column. " + EXPECTED)
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        raise MembersFileRefused(f"The column \u201c{twice[0]}\u201d is named twice. " + EXPECTED)
    if len(rows) - 1 > MAX_LINES:
        raise MembersFileRefused(
            f"The file has {len(rows) - 1:,} lines of members; at most {MAX_LINES:,} are read "
            "at once. Nothing was read."
        )
    lines = []
    for number, cells in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # a blank line (a spreadsheet's last lines often are)
        values = {
            column: _cell(cells[i]) if i < len(cells) else ""
            for i, column in enumerate(header)
            if column in COLUMNS
        }
        extra = len(cells) > len(header) and any(c.strip() for c in cells[len(header) :])
        lines.append(CsvLine(number, values, extra))
    return CsvFile(
        lines,
        [h for h in header if h in COLUMNS],
        [h for h in header if h and h not in COLUMNS],
    )


def write(rows: Iterable[Iterable[str]]) -> str:
    """The register as CSV text: a byte-order mark, the header, one line per member (comma,
    Windows line ends, as spreadsheets write it); a value a spreadsheet would run as a formula
    is written as text."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for cells in rows:
        writer.writerow([_not_a_formula(c) for c in cells])
    return out.getvalue()


def _cell(value: str) -> str:
    """A cell's value: trimmed, and without the apostrophe `write` put before a value a
    spreadsheet would otherwise run as a formula."""
    value = value.strip()
    if len(value) > 1 and value[0] == "'" and value[1] in "=+-@":
        return value[1:]
    return value


def _not_a_formula(value: str) -> str:
    """A cell that starts like a formula ("=", "+", "-", "@") is opened by a spreadsheet as
    one; a leading apostrophe keeps it text. Names and numbers never start so; the reader takes
    the apostrophe off again."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@") else value
