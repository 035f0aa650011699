"""Results from paper: travellers typed in, corrections with a reason, artificial scores. The
club's scorers reach these pages as its directors do (`event_for_scorer`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from engine.diagrams import board_facts, diagram
from engine.games.entry import values_from_entry
from tournaments.events import selectors
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.forms import ArtificialForm, ReasonForm
from tournaments.events.models import Board, Result
from tournaments.events.services import corrections
from tournaments.events.services import results as result_services
from tournaments.events.views.director._common import event_for_scorer
from tournaments.kernel.forms import entry_from_post
from tournaments.kernel.numbers import NumberRefused, optional_whole


@login_required
def event_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick a board to enter from its paper traveller."""
    event = event_for_scorer(request, pk)
    refused = False
    try:
        number = optional_whole(request.GET.get("board"), "The board", low=1)
    except NumberRefused as exc:
        messages.error(request, str(exc))
        number, refused = None, True
    if number is not None and event.boards.filter(number=number).exists():
        return redirect("event-traveller", pk=event.pk, number=number)
    if number is not None:
        messages.error(request, f"There is no board {number} in this event.")
    counts = selectors.traveller_counts(event)
    boards = [
        {"number": b.number, "entered": counts.get(b.number, 0), "fouled": b.fouled}
        for b in event.boards.order_by("number")
    ]
    return render(
        request,
        "tournaments/director/event_enter.html",
        {"event": event, "boards": boards},
        status=400 if refused else 200,
    )


@login_required
def event_traveller(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One board's traveller: every meeting, entered as fast as the keyboard allows.

    Lines left empty are skipped; lines already holding a result are changed only through
    the correction form (with a reason), or by choosing the second of two entries typed at
    once. All new lines are saved together or not at all.
    """
    event = event_for_scorer(request, pk)
    section = event.section
    board = get_object_or_404(Board, event=event, number=number)
    rules = rules_for(event)
    rows = selectors.traveller(section, number)
    errors: dict[int, str] = {}
    conflicts: dict[int, dict[str, Any]] = {}
    if request.method == "POST":
        lines = []
        for i, row in enumerate(rows):
            # A line stored since this page was opened (another tab, a tablet) and typed here
            # too is submitted all the same: the same entry is a harmless repeat, a different
            # one a conflict shown beside the stored result, never silently dropped.
            entry = entry_from_post(rules, request.POST, f"r{i}-")
            if entry is not None:
                lines.append(result_services.TravellerLine(i, row.round, row.table, entry))
        try:
            saved = result_services.traveller_submit(
                section=section, board_number=number, lines=lines, user=request.user
            )
        except result_services.TravellerError as exc:
            errors = exc.errors
            messages.error(request, str(exc))
            conflicts = _second_entries(rules, board, lines, exc.conflicts)
            rows = selectors.traveller(section, number)  # with what was stored meanwhile
        else:
            if saved:
                messages.success(request, f"Board {number}: {saved} result(s) saved.")
            following = event.boards.filter(number__gt=number).order_by("number").first()
            if "next" in request.POST and following is not None:
                return redirect("event-traveller", pk=event.pk, number=following.number)
            return redirect("event-traveller", pk=event.pk, number=number)
    played = engine_board(board)
    fields = rules.entry_fields()
    lines_shown = [
        {
            "i": i,
            "row": row,
            "error": errors.get(i, ""),
            "describe": rules.describe(rules.parse_entry(played, row.result.entry))
            if row.result is not None and row.result.entry
            else "",
            "posted": {f.key: request.POST.get(f"r{i}-{f.key}", "") for f in fields}
            if errors
            else {},
            "second": conflicts.get(i),
        }
        for i, row in enumerate(rows)
    ]
    numbers = list(event.boards.order_by("number").values_list("number", flat=True))
    return render(
        request,
        "tournaments/director/event_traveller.html",
        {
            "event": event,
            "board": board,
            "board_summary": " · ".join(board_facts(played)),
            "deal_text": diagram(played, heading=False).strip("\n"),
            "lines": lines_shown,
            "fields": fields,
            "previous": max((n for n in numbers if n < number), default=None),
            "next": min((n for n in numbers if n > number), default=None),
            "reason_form": ReasonForm(),
        },
    )


def _second_entries(
    rules: Any,
    board: Board,
    lines: list[result_services.TravellerLine],
    conflicts: dict[int, Result],
) -> dict[int, dict[str, Any]]:
    """For each line refused because another entry of its meeting was stored first: the
    entry just typed, described and scored, to show beside the stored one with the choice
    to keep either (never dropped without a word)."""
    played = engine_board(board)
    typed = {line.line: line.entry for line in lines}
    shown = {}
    for i, stored in conflicts.items():
        parsed = rules.parse_entry(played, dict(typed[i]))
        shown[i] = {
            "stored": stored,
            "seen": result_services.result_revision(stored),
            "describe": rules.describe(parsed),
            "ns_score": int(rules.ns_score(played, parsed)),
            "values": values_from_entry(rules.entry_fields(), rules.entry_to_dict(parsed)),
        }
    return shown


@login_required
def result_correct(request: HttpRequest, pk: int, result_id: int) -> HttpResponse:
    """Change a stored result, with the reason the audit keeps; another director's change
    made meanwhile is shown, never silently undone."""
    event = event_for_scorer(request, pk)
    result = get_object_or_404(Result, pk=result_id, section__event=event)
    error = ""
    rules = rules_for(event)
    # The result as the form shows it; a correction posted from an older view is refused.
    seen = request.POST.get("seen") or result_services.result_revision(result)
    if request.method == "POST":
        entry = entry_from_post(rules, request.POST) or {}
        try:
            corrections.result_correct(
                result=result,
                entry=entry,
                reason=request.POST.get("reason", ""),
                user=request.user,
                # Another director's change since the form was shown is shown to this
                # director, never silently undone.
                seen=request.POST.get("seen") or None,
            )
        except corrections.CorrectionConflict as exc:
            error = str(exc)
            result.refresh_from_db()  # what is stored now, to show and to decide from
            seen = result_services.result_revision(result)
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(request, f"Board {result.board_number} corrected.")
            return redirect("event-traveller", pk=event.pk, number=result.board_number)
    return render(
        request,
        "tournaments/director/result_correct.html",
        {
            "event": event,
            "result": result,
            "fields": rules.entry_fields(),
            "current": request.POST
            if request.method == "POST"
            else values_from_entry(rules.entry_fields(), result.entry),
            "seen": seen,
            "error": error,
        },
    )


@login_required
def result_artificial(
    request: HttpRequest, pk: int, number: int, round: int, table: int
) -> HttpResponse:
    """An artificial score (average, average plus, ...) for a meeting that could not play
    the board."""
    event = event_for_scorer(request, pk)
    section = event.section
    form = ArtificialForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            corrections.result_set_artificial(
                section=section,
                round=round,
                table=table,
                board_number=number,
                code=form.cleaned_data["code"],
                reason=form.cleaned_data["reason"],
                user=request.user,
            )
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(request, f"Board {number}: artificial score given.")
            return redirect("event-traveller", pk=event.pk, number=number)
    return render(
        request,
        "tournaments/director/result_artificial.html",
        {
            "event": event,
            "form": form,
            "number": number,
            "round": round,
            "table": table,
            "error": error,
        },
    )
