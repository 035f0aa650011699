"""A table as a download, the same way for every format: CSV that opens right in Excel (with
its byte-order mark), or the same table as an Excel workbook (`engine.exports.spreadsheet`).

Every page that offers a table (an event's standings and travellers, its audit trail, a drive's
hands and totals, a team tournament's standings and games, a season's tables, a member's
results, the club's register) answers both `.csv` and `.xlsx` through `table_response`, so the
two never drift apart: the workbook is made from the CSV text itself.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse

from engine.exports.spreadsheet import XLSX_CONTENT_TYPE, with_bom, xlsx_from_csv

#: The table formats, by the extension a download's address ends with.
TABLE_FORMATS = ("csv", "xlsx")


def table_response(
    text: str, filename: str, *, title: str, fmt: str = "csv", private: bool = True
) -> HttpResponse:
    """The CSV table `text` as a download named `filename` (without its extension) in `fmt`:
    "csv" (with the byte-order mark) or "xlsx" (one worksheet called `title`, cells typed).
    `private`: a copy no shared cache keeps (a director's table, or a reader's own view)."""
    if fmt == "csv":
        response = HttpResponse(with_bom(text).encode(), content_type="text/csv; charset=utf-8")
    elif fmt == "xlsx":
        response = HttpResponse(xlsx_from_csv(text, title), content_type=XLSX_CONTENT_TYPE)
    else:
        raise Http404(f"Tables download as {' or '.join(TABLE_FORMATS)}, not {fmt!r}.")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    if private:
        response["Cache-Control"] = "private, no-store"
    return response
