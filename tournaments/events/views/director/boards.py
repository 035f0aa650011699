"""The event's boards: PBN import and download, fouled boards, the traveller line preview.

The preview checks and scores a traveller line as it is typed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_GET, require_POST

from tournaments.events.bridge import rules_for
from tournaments.events.forms import ImportBoardsForm
from tournaments.events.models import Board
from tournaments.events.selectors.records import hand_records_pbn
from tournaments.events.services import corrections
from tournaments.events.services import events as event_services
from tournaments.events.services import results as result_services
from tournaments.events.views.director._common import event_for_director
from tournaments.kernel.forms import entry_from_post
from tournaments.kernel.pages import act


@login_required
@require_POST
def event_import_boards(request: HttpRequest, pk: int) -> HttpResponse:
    """The deals from a PBN file (a dealing machine's, another program's) for this event."""
    event = event_for_director(request, pk)
    form = ImportBoardsForm(request.POST, request.FILES)
    if not form.is_valid():  # no file, or one over the size limit (refused unread)
        too_big = form.has_error("file", "too_big")
        said = str(form.errors["file"][0]) if too_big else "Choose a PBN file to import."
        messages.error(request, said)
        return redirect(event)
    raw = form.cleaned_data["file"].read()
    if b"\x00" in raw:
        messages.error(request, "The file is not a text PBN file: choose the .pbn file itself.")
        return redirect(event)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # PBN's own character set is Latin-1 (ISO 8859-1), which older dealing programs write;
        # every byte is a Latin-1 character, so such a file reads as its author meant.
        text = raw.decode("latin-1")
    try:
        boards, unused = event_services.boards_import_counted(
            event=event, pbn_text=text, user=request.user
        )
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect(event)
    note = f" The file's other {unused} boards are not played in this movement." if unused else ""
    messages.success(request, f"{len(boards)} boards imported.{note}")
    return redirect(event)


@login_required
@require_GET
def event_boards_pbn(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's deals as one PBN file (for a dealing machine, or another program)."""
    event = event_for_director(request, pk)
    # One file: one header, the games separated by blank lines (as other PBN readers expect),
    # with Event, Site, Date and, where computed, the double-dummy table and par.
    text = hand_records_pbn(event)
    response = HttpResponse(text, content_type="application/x-pbn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-boards.pbn"'
    return response


@login_required
@require_POST
def board_preview(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """Validate and score one traveller line as it is typed (JSON for the page's script)."""
    event = event_for_director(request, pk)
    entry = entry_from_post(rules_for(event), request.POST)
    if entry is None:
        return JsonResponse({"valid": False, "error": ""})
    try:
        preview = result_services.result_preview(event=event, board_number=number, entry=entry)
    except (ValueError, Board.DoesNotExist) as exc:
        return JsonResponse({"valid": False, "error": str(exc)})
    return JsonResponse({"valid": True, **preview})


@login_required
@require_POST
def board_fouled(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Mark a board fouled (its cards were mixed up at a table), or playable again."""
    event = event_for_director(request, pk)
    board = get_object_or_404(Board, event=event, number=number)
    fouled = request.POST.get("fouled") == "1"
    act(
        request,
        corrections.board_mark_fouled,
        f"Board {number} marked {'fouled' if fouled else 'playable again'}.",
        board=board,
        fouled=fouled,
        reason=request.POST.get("reason", ""),
    )
    return redirect("event-traveller", pk=event.pk, number=number)
