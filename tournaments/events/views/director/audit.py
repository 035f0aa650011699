"""The event's audit trail: every change in words, searchable, downloadable as CSV or XLSX."""

from __future__ import annotations

import csv
import io

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from engine.exports.csv import safe_row
from tournaments.events import selectors
from tournaments.events.views.director._common import event_for_director
from tournaments.kernel.downloads import TABLE_FORMATS, table_response


@login_required
@require_GET
def event_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change as a line of words, newest first (`events.selectors.audit_lines`); `?q=` keeps
    the lines that mention it (a board, a table, a pair, an action), `?format=csv` or
    `?format=xlsx` downloads them."""
    event = event_for_director(request, pk)
    query = request.GET.get("q", "").strip()
    lines = selectors.audit_lines(event, query)
    fmt = request.GET.get("format", "")
    if fmt in TABLE_FORMATS:
        out = io.StringIO()
        sheet = csv.writer(out)
        sheet.writerow(["at", "who", "action", "target", "change", "reason"])
        for line in lines:
            # Names and reasons are typed by people: no cell may start a formula.
            cells = (line.at.isoformat(), line.who, line.action, line.target, line.change)
            sheet.writerow(safe_row((*cells, line.reason)))
        return table_response(
            out.getvalue(), f"event-{event.pk}-audit", title="Audit trail", fmt=fmt
        )
    return render(
        request,
        "tournaments/director/event_audit.html",
        {"event": event, "lines": lines, "query": query},
    )
