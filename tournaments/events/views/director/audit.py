"""The event's audit trail: every change in words, searchable, downloadable as CSV."""

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


@login_required
@require_GET
def event_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change as a line of words, newest first (`events.selectors.audit_lines`); `?q=` keeps
    the lines that mention it (a board, a table, a pair, an action), `?format=csv` downloads
    them."""
    event = event_for_director(request, pk)
    query = request.GET.get("q", "").strip()
    lines = selectors.audit_lines(event, query)
    if request.GET.get("format") == "csv":
        out = io.StringIO()
        sheet = csv.writer(out)
        sheet.writerow(["at", "who", "action", "target", "change", "reason"])
        for line in lines:
            # Names and reasons are typed by people: no cell may start a formula.
            cells = (line.at.isoformat(), line.who, line.action, line.target, line.change)
            sheet.writerow(safe_row((*cells, line.reason)))
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-audit.csv"'
        return response
    return render(
        request,
        "tournaments/director/event_audit.html",
        {"event": event, "lines": lines, "query": query},
    )
