"""A paper drive's score cards for its director: every player's figures typed from their card.

A refusal shows the page again with everything typed so far and the reason, so one mistyped
card among sixty never costs the others; nothing is stored until every card is right.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournaments.drives.models import DriveResult
from tournaments.drives.selectors.drives import player_names
from tournaments.drives.services import cards as drive_cards
from tournaments.drives.views.director import drive_for_scorer


@login_required
def drive_cards_page(request: HttpRequest, pk: int) -> HttpResponse:
    drive = drive_for_scorer(request, pk)
    names = player_names(drive)
    half, big = drive_cards.needs(drive)
    error = ""
    typed: dict[int, dict[str, Any]] = {
        int(p): dict(card) for p, card in (drive.cards or {}).items()
    }
    if request.method == "POST":
        typed = {
            number: {
                "total": request.POST.get(f"total-{number}", ""),
                "first_half": request.POST.get(f"first-{number}", ""),
                "ten_plus": request.POST.get(f"ten-{number}", ""),
            }
            for number in names
        }
        try:
            drive_cards.cards_enter(drive=drive, cards=typed, user=request.user)
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(request, "The score cards are in: the totals and prizes below.")
            return redirect("drive-totals", drive.pk)
    rows = [(number, name, typed.get(number, {})) for number, name in names.items()]
    return render(
        request,
        "tournaments/director/drive_cards.html",
        {
            "drive": drive,
            "rows": rows,
            "half": half,
            "big": big,
            "error": error,
            "has_results": DriveResult.objects.filter(drive=drive).exists(),
        },
        status=400 if error else 200,
    )
