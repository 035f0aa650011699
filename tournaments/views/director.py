"""The director's pages: each reads with a selector or calls one service, then renders or
redirects.

Errors from the engine and the services are `ValueError`s whose text is written for the
director; views show that text next to the form and change nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from clubwhist.lan import loopback_warning
from engine import pbn
from engine.diagrams import board_facts, diagram
from engine.games import find_variant, variant_names
from engine.games.base import values_from_entry
from engine.movements import advise, why
from tournaments import access, selectors
from tournaments.forms import (
    ArtificialForm,
    EventSetupForm,
    ImportBoardsForm,
    ReasonForm,
    entry_from_post,
    option_fields,
    options_from_post,
)
from tournaments.models import Board, Event, Pair, Result
from tournaments.services import analysis as analysis_services
from tournaments.services import closing as closing_services
from tournaments.services import events as event_services
from tournaments.services import results as result_services
from tournaments.services import tablets as tablet_services
from tournaments.services.engine_bridge import engine_board, rules_for


def no_club(request: HttpRequest) -> HttpResponse:
    """An account that directs no club has nothing to set up: say what to do about it."""
    context = {"message": access.NO_CLUB}
    return render(request, "tournaments/director/no_club.html", context, status=403)


def _games_with_options(posted: Any = None) -> list[dict[str, Any]]:
    return [
        {"name": n, "title": find_variant(n).title, "options": option_fields(n, posted)}
        for n in variant_names()
    ]


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """Two steps on one page: the event's details, then the advisor's movements to pick from."""
    suggestions = []
    error = ""
    clubs = access.clubs_for(request.user)
    if not clubs.exists():
        if not access.is_admin(request.user):
            return no_club(request)
        event_services.club_get_or_create(name="My whist club")
    form = EventSetupForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game = data["game"]
        options = options_from_post(game, request.POST)
        suggestions = advise(data["pairs"], data["boards"])
        choice = request.POST.get("choice", "")
        if choice:
            chosen = next((s for s in suggestions if _suggestion_id(s) == choice), None)
            if chosen is None:
                error = "That movement is not offered for this number of pairs; pick again."
            else:
                try:
                    event = event_services.event_create(
                        club=data["club"],
                        name=data["name"],
                        date=data["date"],
                        game=game,
                        options=options,
                        method=data["method"],
                        scale=data["scale"],
                        movement_kind=chosen.kind,
                        movement_params=dict(chosen.params),
                        advance=data["advance"] or Event.Advance.TABLE,
                        user=request.user,
                    )
                except ValueError as exc:
                    error = str(exc)
                else:
                    messages.success(request, f"Event created: {event.name}. Now name the pairs.")
                    return redirect(event)
        elif not suggestions:
            error = "No movement suits that number of pairs and boards; change them."
        else:
            try:
                find_variant(game)(options)
            except ValueError as exc:
                error = str(exc)
    return render(
        request,
        "tournaments/director/event_new.html",
        {
            "form": form,
            "games": _games_with_options(request.POST if request.method == "POST" else None),
            "suggestions": [(_suggestion_id(s), s) for s in suggestions],
            "why": why(suggestions[0], minutes_per_board=_club_pace(form, clubs))
            if suggestions
            else "",
            "error": error,
        },
    )


def _club_pace(form: EventSetupForm, clubs: Any) -> int:
    """The minutes a board of the club the event is for (the advisor's timings use it)."""
    club = form.cleaned_data.get("club") if hasattr(form, "cleaned_data") else None
    club = club or clubs.first()
    return club.minutes_per_board if club is not None else 7


def _suggestion_id(s: Any) -> str:
    params = ",".join(f"{k}={v}" for k, v in sorted(dict(s.params).items()))
    return f"{s.kind}:{params}"


def _event_for_director(request: HttpRequest, pk: int) -> Event:
    """The event if the signed-in account directs its club; another club's answers 404."""
    return access.event_for(
        request.user, pk, Event.objects.select_related("club").prefetch_related("sections")
    )


@login_required
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    section = event.section
    pairs = sorted(
        Pair.objects.filter(section=section),
        key=lambda p: (p.direction != "NS", p.direction, p.number),
    )
    return render(
        request,
        "tournaments/director/event_detail.html",
        {
            "event": event,
            "section": section,
            "pairs": pairs,
            "rules": rules_for(event),
            "boards": event.boards.count(),
            "analysis": analysis_services.analysis_progress(event),
            "import_form": ImportBoardsForm(),
            "standings": selectors.latest_standings(event),
            "links": selectors.tablet_links(event, base_url(request)),
            "links_warning": links_warning(request, event),
            "unnamed": [p for p in pairs if not p.is_phantom and not (p.player1 or p.player2)],
            "audit": event.audit.select_related("user")[:8],
            "closing": closing_services.closing_report(event)
            if event.status == Event.Status.FINISHED
            else None,
        },
    )


def _act(request: HttpRequest, action: Any, success: str, **kwargs: Any) -> bool:
    try:
        action(user=request.user, **kwargs)
    except ValueError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, success)
    return True


@login_required
@require_POST
def event_pairs(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    names = {}
    absent = {}
    for pair_id in Pair.objects.filter(section__event=event).values_list("pk", flat=True):
        first = request.POST.get(f"pair-{pair_id}-1")
        second = request.POST.get(f"pair-{pair_id}-2")
        if first is not None and second is not None:
            names[pair_id] = (first, second)
        absent[pair_id] = request.POST.get(f"pair-{pair_id}-absent") == "on"
    _act(
        request,
        event_services.pairs_update,
        "Pair names saved.",
        event=event,
        names=names,
        absent=absent,
    )
    return redirect(event)


@login_required
@require_POST
def event_move_pair(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    pairs = Pair.objects.filter(section__event=event)
    try:
        first = pairs.get(pk=int(request.POST.get("first", "0")))
        second = pairs.get(pk=int(request.POST.get("second", "0")))
    except (Pair.DoesNotExist, ValueError):
        messages.error(request, "Choose two pairs of this event.")
        return redirect(event)
    _act(
        request,
        event_services.pairs_swap,
        f"{first.label} and {second.label} have changed places.",
        event=event,
        first=first,
        second=second,
        reason=request.POST.get("reason", ""),
    )
    return redirect(event)


@login_required
@require_POST
def event_import_boards(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    form = ImportBoardsForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "Choose a PBN file to import.")
        return redirect(event)
    upload = form.cleaned_data["file"]
    if upload.size > event_services.MAX_FILE_BYTES:  # refused before it is read
        limit = event_services.MAX_FILE_BYTES // (1024 * 1024)
        messages.error(request, f"The file is over {limit} MB: that is not a board file.")
        return redirect(event)
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        messages.error(request, "The file is not a text PBN file (it is not UTF-8).")
        return redirect(event)
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
    event = _event_for_director(request, pk)
    # One file: one header, the games separated by blank lines (as other PBN readers expect),
    # not the stored records one after another (each carries its own header).
    text = pbn.dumps([engine_board(b) for b in event.boards.order_by("number")])
    response = HttpResponse(text, content_type="application/x-pbn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-boards.pbn"'
    return response


@login_required
@require_POST
def event_status(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    event = _event_for_director(request, pk)
    actions = {
        "start": (event_services.event_start, "The event has started: result entry is open."),
        "publish": (event_services.event_publish, "The results are published."),
    }
    if action == "publish" and request.POST.get("confirm") != "yes":
        messages.error(request, "Tick “I have checked the standings” to publish them.")
        return redirect(event)
    if action == "start" and request.POST.get("confirm") != "yes":
        # Starting fixes the movement and the boards: asked for, not done on one stray click.
        messages.error(
            request,
            "Tick “Start now” to start the event: the pairs, movement and boards are then fixed.",
        )
        return redirect(event)
    if action == "finish":
        decided = "missing" in request.POST or "confirm" in request.POST
        if not decided:
            # Closing makes the scores final: the close page says what is still missing (or
            # that nothing is) and asks first.
            return redirect("event-close", pk=event.pk)
        done = _act(
            request,
            closing_services.event_close,
            "The event is closed and the scores are final.",
            event=event,
            missing=request.POST.get("missing") or None,
            confirm=request.POST.get("confirm") == "yes",
        )
        if not done and event.status == Event.Status.RUNNING:
            return redirect("event-close", pk=event.pk)
    elif action == "reopen":
        _act(
            request,
            event_services.event_reopen,
            "The event is open again.",
            event=event,
            reason=request.POST.get("reason", ""),
        )
    elif action in actions:
        service, success = actions[action]
        _act(request, service, success, event=event)
    else:
        raise Http404(action)
    return redirect(event)


@login_required
@require_GET
def event_close_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Before closing: what is still missing, and the director's decisions about it."""
    event = _event_for_director(request, pk)
    if event.status != Event.Status.RUNNING:
        return redirect(event)
    return render(
        request,
        "tournaments/director/event_close.html",
        {
            "event": event,
            "report": closing_services.closing_report(event),
            "choices": closing_services.MISSING_CHOICES,
        },
    )


@login_required
@require_POST
def event_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    queued = analysis_services.boards_analyse_request(event=event, user=request.user)
    if queued:
        messages.success(request, f"Par is being computed for {queued} board(s).")
    else:
        messages.info(request, "Every board already has its par.")
    return redirect(event)


@login_required
@require_GET
def event_analysis_progress(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(analysis_services.analysis_progress(_event_for_director(request, pk)))


@login_required
@require_GET
def event_room(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    links = {link.table: link for link in selectors.tablet_links(event, base_url(request))}
    return render(
        request,
        "tournaments/director/event_room.html",
        {
            "event": event,
            "room": selectors.room_view(event),
            "links": links,
            "default_clock": event.club.minutes_per_board * event.section.boards_per_round,
            "flagged": selectors.flagged_results(event),
        },
    )


def base_url(request: HttpRequest) -> str:
    """Where the tablets reach this server: the setting, else the address the director used."""
    return settings.BASE_URL or request.build_absolute_uri("/").rstrip("/")


def links_warning(request: HttpRequest, event: Event) -> str | None:
    """A warning for the event and print pages when the event's table links and QR codes would
    name the laptop itself (127.0.0.1, localhost), which no tablet can open."""
    if event.status not in (Event.Status.DRAFT, Event.Status.RUNNING):
        return None
    return loopback_warning(base_url(request))


@login_required
@require_POST
def event_tablet_links(request: HttpRequest, pk: int) -> HttpResponse:
    """Give every table a tablet link (events started before tablets existed)."""
    event = _event_for_director(request, pk)
    _act(request, tablet_services.table_links_ensure_for, "Tablet links are ready.", event=event)
    return redirect(event)


@login_required
@require_POST
def event_tablet_replace(request: HttpRequest, pk: int, table: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    _act(
        request,
        tablet_services.table_link_replace,
        f"Table {table} has a new link: the old one now says it was replaced.",
        event=event,
        table=table,
    )
    return redirect(request.POST.get("back") or event.get_absolute_url())


@login_required
@require_POST
def event_round_start(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    try:
        number = int(request.POST.get("round", ""))
    except ValueError:
        messages.error(request, "Say which round to start.")
        return redirect("event-room", pk=event.pk)
    _act(
        request,
        tablet_services.round_start,
        f"Round {number} has started: the tablets move on.",
        event=event,
        round=number,
    )
    return redirect("event-room", pk=event.pk)


@login_required
@require_POST
def event_round_clock(request: HttpRequest, pk: int) -> HttpResponse:
    """Start, restart or stop the round clock the room shows."""
    event = _event_for_director(request, pk)
    if request.POST.get("stop"):
        _act(request, tablet_services.round_clock_stop, "The round clock is stopped.", event=event)
        return redirect("event-room", pk=event.pk)
    try:
        minutes = int(request.POST.get("minutes") or 0) or None
    except ValueError:
        messages.error(request, "Give the round's length in whole minutes.")
        return redirect("event-room", pk=event.pk)
    _act(
        request,
        tablet_services.round_clock_start,
        "The round clock is running.",
        event=event,
        minutes=minutes,
    )
    return redirect("event-room", pk=event.pk)


@login_required
@require_POST
def call_handled(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    result_services.call_mark_handled(event=event, call_id=call_id, user=request.user)
    return redirect("event-room", pk=event.pk)


@login_required
def event_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick a board to enter from its paper traveller."""
    event = _event_for_director(request, pk)
    number = request.GET.get("board")
    if number and number.isdigit() and event.boards.filter(number=int(number)).exists():
        return redirect("event-traveller", pk=event.pk, number=int(number))
    if number:
        messages.error(request, f"There is no board {number} in this event.")
    counts = selectors.traveller_counts(event)
    boards = [
        {"number": b.number, "entered": counts.get(b.number, 0), "fouled": b.fouled}
        for b in event.boards.order_by("number")
    ]
    return render(
        request, "tournaments/director/event_enter.html", {"event": event, "boards": boards}
    )


@login_required
def event_traveller(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One board's traveller: every meeting, entered as fast as the keyboard allows.

    Lines left empty are skipped; lines already holding a result are changed only through
    the correction form (with a reason), or by choosing the second of two entries typed at
    once. All new lines are saved together or not at all.
    """
    event = _event_for_director(request, pk)
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
@require_POST
def board_preview(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """Validate and score one traveller line as it is typed (JSON for the page's script)."""
    event = _event_for_director(request, pk)
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
    event = _event_for_director(request, pk)
    board = get_object_or_404(Board, event=event, number=number)
    fouled = request.POST.get("fouled") == "1"
    _act(
        request,
        result_services.board_mark_fouled,
        f"Board {number} marked {'fouled' if fouled else 'playable again'}.",
        board=board,
        fouled=fouled,
        reason=request.POST.get("reason", ""),
    )
    return redirect("event-traveller", pk=event.pk, number=number)


@login_required
def result_correct(request: HttpRequest, pk: int, result_id: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    result = get_object_or_404(Result, pk=result_id, section__event=event)
    error = ""
    rules = rules_for(event)
    # The result as the form shows it; a correction posted from an older view is refused.
    seen = request.POST.get("seen") or result_services.result_revision(result)
    if request.method == "POST":
        entry = entry_from_post(rules, request.POST) or {}
        try:
            result_services.result_correct(
                result=result,
                entry=entry,
                reason=request.POST.get("reason", ""),
                user=request.user,
                # Another director's change since the form was shown is shown to this
                # director, never silently undone.
                seen=request.POST.get("seen") or None,
            )
        except result_services.CorrectionConflict as exc:
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
    event = _event_for_director(request, pk)
    section = event.section
    form = ArtificialForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            result_services.result_set_artificial(
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


@login_required
@require_GET
def event_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change as a line of words, newest first (`selectors.audit_lines`); `?q=` keeps
    the lines that mention it (a board, a table, a pair, an action), `?format=csv` downloads
    them."""
    import csv
    import io

    event = _event_for_director(request, pk)
    query = request.GET.get("q", "").strip()
    lines = selectors.audit_lines(event, query)
    if request.GET.get("format") == "csv":
        out = io.StringIO()
        sheet = csv.writer(out)
        sheet.writerow(["at", "who", "action", "target", "change", "reason"])
        for line in lines:
            sheet.writerow(
                [line.at.isoformat(), line.who, line.action, line.target, line.change, line.reason]
            )
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-audit.csv"'
        return response
    return render(
        request,
        "tournaments/director/event_audit.html",
        {"event": event, "lines": lines, "query": query},
    )


@login_required
@require_POST
def event_live_public(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for_director(request, pk)
    live = request.POST.get("live") == "1"
    _act(
        request,
        event_services.event_set_live_public,
        "Everyone can follow the results live." if live else "Live results are for you only.",
        event=event,
        live=live,
    )
    return redirect(event)
