"""A drive's tablets and room display for its director: the tables' links and QR codes, a
link replaced, moving on by itself or when told, and the hall's big screen.

The room display reloads its live part every few seconds (static/js/drive-room.js) and shows
the new seating the moment the drive moves on, for the players sitting out as well as those
at the tables.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.drives.selectors.room import room_view
from tournaments.drives.services import tablets as drive_tablets
from tournaments.drives.views.director import drive_for_director
from tournaments.kernel.pages import act


@login_required
@require_POST
def drive_link_replace(request: HttpRequest, pk: int, table: int) -> HttpResponse:
    drive = drive_for_director(request, pk)
    act(
        request,
        drive_tablets.link_replace,
        f"Table {table} has a new link: scan its new code; the old link says it was replaced.",
        drive=drive,
        table=table,
    )
    return redirect("drive-detail", drive.pk)


@login_required
@require_POST
def drive_moves_on(request: HttpRequest, pk: int) -> HttpResponse:
    drive = drive_for_director(request, pk)
    on = request.POST.get("on") == "1"
    act(
        request,
        drive_tablets.moves_on_set,
        "The drive moves on by itself when the last table confirms."
        if on
        else "The drive waits for you to move it on (Next hand).",
        drive=drive,
        on=on,
    )
    return redirect("drive-detail", drive.pk)


@login_required
@require_GET
def drive_room(request: HttpRequest, pk: int) -> HttpResponse:
    """The hall's big screen (full screen on the laptop or a projector)."""
    drive = drive_for_director(request, pk)
    return render(request, "tournaments/director/drive_room.html", {"room": room_view(drive)})


@never_cache
@login_required
@require_GET
def drive_room_part(request: HttpRequest, pk: int) -> HttpResponse:
    """The big screen's live part, for its script; the drive's version in a header so the
    script replaces the part only when something changed."""
    drive = drive_for_director(request, pk)
    response = render(request, "tournaments/director/_drive_room.html", {"room": room_view(drive)})
    response["X-Drive-Version"] = str(drive.version)
    return response
