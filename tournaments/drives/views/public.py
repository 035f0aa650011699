"""A drive's public pages: totals, half-time leaders and prizes; the big screen; players' cards.

A drive records no cards, so nothing of it is secret but its existence before publishing:
until then only the club's directors read it (to check it), and anyone else gets a 404. The
same rule (`readable_drive`) covers every page here, so a player's card or the big screen is
never readable where the totals are not. While a drive runs, each page's live part (`?part=1`)
is fetched again by `static/js/drive-live.js`, so a phone or the hall's screen keeps up by
itself.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET

from tournaments.drives.selectors.drives import readable_drive
from tournaments.drives.selectors.public import drive_card, public_drive, refresh_seconds


def _page(request: HttpRequest, page: str, part: str, context: dict[str, Any]) -> HttpResponse:
    """The whole page, or only its live part when the page's script asks for it again (never
    kept by a cache: it is fetched to see what changed)."""
    if not request.GET.get("part"):
        return render(request, page, context)
    response = render(request, part, context)
    add_never_cache_headers(response)
    return response


@require_GET
def drive_public(request: HttpRequest, pk: int) -> HttpResponse:
    """Totals, half-time leaders, totals by role and the prize list."""
    drive = readable_drive(request.user, pk)
    shown = public_drive(drive)
    return _page(
        request,
        "tournaments/public/drive.html",
        "tournaments/public/drive_live.html",
        {"drive": drive, "shown": shown, "state": shown.state},
    )


@require_GET
def drive_display(request: HttpRequest, pk: int) -> HttpResponse:
    """The hall's big screen: the top of the totals (by role where the drive has roles), the
    half-time leaders, the hand being played and its trumps, in type read across a room."""
    drive = readable_drive(request.user, pk)
    shown = public_drive(drive)
    return _page(
        request,
        "tournaments/public/drive_display.html",
        "tournaments/public/drive_screen.html",
        {"drive": drive, "shown": shown, "state": shown.state},
    )


@require_GET
def drive_player(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A player's card, hand by hand as the printed score card; a number the drive does not
    have gets a 404 that says which numbers it has."""
    drive = readable_drive(request.user, pk)
    state, card = drive_card(drive, number)
    context = {
        "drive": drive,
        "state": state,
        "card": card,
        "number": number,
        "refresh": refresh_seconds(drive),
    }
    if card is None:
        return render(request, "tournaments/public/drive_no_player.html", context, status=404)
    return _page(
        request,
        "tournaments/public/drive_player.html",
        "tournaments/public/drive_card.html",
        context,
    )
