"""A drive's public page: the totals and the prize list, once published or while live.

A drive records no cards, so nothing of it is secret but its existence before publishing:
until then only the club's directors read it (to check it), and anyone else gets a 404.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.selectors.drives import drive_state, readable_drive


@require_GET
def drive_public(request: HttpRequest, pk: int) -> HttpResponse:
    drive = readable_drive(request.user, pk)
    return render(
        request, "tournaments/public/drive.html", {"drive": drive, "state": drive_state(drive)}
    )
