"""A progressive whist drive for its director: set-up, players, each hand, moves, totals, files.

Each view reads with `drives.selectors.drives` or calls one service of `drives.services.drives`,
then renders or redirects; a refusal's text is shown on the next page and nothing is changed.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubwhist.lan import loopback_warning
from engine.drives.prizes import show
from engine.exports.csv import safe_row
from tournaments.drives.access import drive_for, drive_for_scoring
from tournaments.drives.models import Drive, DrivePlayer
from tournaments.drives.selectors.drives import (
    DriveState,
    HandView,
    audit_of,
    drive_state,
    settings_for,
)
from tournaments.drives.selectors.room import drive_links
from tournaments.drives.services import comings as drive_comings
from tournaments.drives.services import drives as drive_services
from tournaments.drives.services import paper as drive_paper
from tournaments.drives.views.forms import DriveForm, register_groups
from tournaments.kernel.access import clubs_for, is_admin
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.downloads import table_response
from tournaments.kernel.forms import entry_from_post
from tournaments.kernel.member_links import member_suggestions
from tournaments.kernel.numbers import NumberRefused, optional_whole
from tournaments.kernel.pages import FIRST_CLUB, act, base_url, no_club
from tournaments.kernel.pdf import pdf_response


def drive_for_director(request: HttpRequest, pk: int) -> Drive:
    return drive_for(request.user, pk, Drive.objects.select_related("club"))


def drive_for_scorer(request: HttpRequest, pk: int) -> Drive:
    """The drive if the account may enter and correct its results (its club's directors and
    scorers): its page, a hand's result entered, one corrected."""
    return drive_for_scoring(request.user, pk, Drive.objects.select_related("club"))


@login_required
def drive_new(request: HttpRequest) -> HttpResponse:
    """The drive's settings and (if known) its players, in one form."""
    clubs = clubs_for(request.user)
    first_club = not clubs.exists()
    if first_club and not is_admin(request.user):
        return no_club(request)
    form = DriveForm(request.POST or None, clubs=clubs)
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = data["club"] or clubs.first() or club_get_or_create(name=FIRST_CLUB)
            players, members = form.players_for(club)
            drive = drive_services.drive_create(
                club=club,
                name=data["name"],
                date=data["date"],
                settings=form.settings(),
                players=players,
                members=members,
                user=request.user,
            )
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(
                request, f"Drive created: {drive.name}. Check the players, then start."
            )
            return redirect("drive-players", drive.pk)
    return render(
        request,
        "tournaments/director/drive_new.html",
        {"form": form, "error": error, "register": register_groups(form), "clubs": clubs},
    )


@never_cache  # it shows the tables' links and QR codes, which are credentials: never kept
@login_required
@require_GET
def drive_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The hand being played: each table's four players and a form for its result, which
    tables are done, "Next hand", the earlier hands (to correct) and the running totals."""
    drive = drive_for_scorer(request, pk)
    state = drive_state(drive)
    fields = state.settings.game_rules.rules.entry_fields() if state.settings else []
    running = drive.status == Drive.Status.RUNNING
    return render(
        request,
        "tournaments/director/drive_detail.html",
        {
            "drive": drive,
            "state": state,
            "fields": fields,
            "member_names": member_suggestions(drive.club),
            "audit": audit_of(drive)[:10],
            "links": drive_links(drive, base_url(request)) if running else [],
            "links_warning": loopback_warning(base_url(request)) if running else None,
        },
    )


@login_required
def drive_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Add, rename and take off players (before the start; renaming any time)."""
    drive = drive_for_director(request, pk)
    if request.method == "POST":
        action = request.POST.get("action", "")
        name = request.POST.get("name", "")
        try:
            number = _number(request.POST.get("number"), "The player's number")
        except NumberRefused as refused:
            messages.error(request, str(refused))
            return redirect("drive-players", drive.pk)
        if action == "add":
            act(
                request, drive_services.player_add, f"Added {name.strip()}.", drive=drive, name=name
            )
        elif action == "rename" and number is not None:
            act(
                request,
                drive_services.player_rename,
                "Renamed.",
                drive=drive,
                number=number,
                name=name,
            )
        elif action == "remove" and number is not None:
            act(
                request,
                drive_services.player_remove,
                f"Player {number} taken off; those after moved up a number.",
                drive=drive,
                number=number,
            )
        else:
            messages.error(
                request, "Say what to do: add a name, or rename or take off a numbered player."
            )
        return redirect("drive-players", drive.pk)
    state = drive_state(drive)
    linked = dict(DrivePlayer.objects.filter(drive=drive).values_list("number", "member_id"))
    return render(
        request,
        "tournaments/director/drive_players.html",
        {
            "drive": drive,
            "state": state,
            "linked": linked,
            "member_names": member_suggestions(drive.club),
        },
    )


def _number(raw: Any, field: str) -> int | None:
    """A player's, table's or hand's number from the form, None when left empty: every such
    number counts from 1, and anything else is refused by the one rule for numbers, naming
    `field`, rather than read as "not given"."""
    return optional_whole(raw, field, low=1)


@login_required
@require_POST
def drive_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start with the seats drawn (repeatable with a seed, if one is typed)."""
    drive = drive_for_director(request, pk)
    try:
        seed = optional_whole(request.POST.get("seed"), "The seed")
    except NumberRefused as refused:
        messages.error(request, f"{refused} Or leave it empty.")
        return redirect("drive-detail", drive.pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to start: the players are then fixed.")
    else:
        act(
            request,
            drive_services.drive_start,
            "The drive has started: seat the players as shown.",
            drive=drive,
            seed=seed,
        )
    return redirect("drive-detail", drive.pk)


@login_required
@require_POST
def drive_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """One table's result for the hand being played, from the tally sheet."""
    drive = drive_for_scorer(request, pk)
    try:
        table = _number(request.POST.get("table"), "The table")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect("drive-detail", drive.pk)
    entry = _entry(request, drive)
    if table is None:
        messages.error(request, "Say which table the result is for.")
    elif entry is None:
        messages.error(request, f"Table {table}: the result is empty. Fill it in, then save.")
    else:
        act(
            request,
            drive_services.result_enter,
            f"Table {table}'s result is in.",
            drive=drive,
            table=table,
            entry=entry,
        )
    return redirect("drive-detail", drive.pk)


def _entry(request: HttpRequest, drive: Drive, prefix: str = "") -> dict[str, Any] | None:
    try:
        settings = settings_for(drive.settings, max(drive.players.count(), 4))
    except ValueError:
        return None
    return entry_from_post(settings.game_rules.rules, request.POST, prefix)


@login_required
@require_POST
def drive_next(request: HttpRequest, pk: int) -> HttpResponse:
    drive = drive_for_director(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box first: moving on fixes this hand's moves.")
    else:
        act(
            request,
            drive_services.hand_next,
            "Next hand: the new seating is below. Call the moves.",
            drive=drive,
        )
    return redirect("drive-detail", drive.pk)


@login_required
@require_POST
def drive_comes_and_goes(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """A player arrives late, or a player leaves, on the running drive."""
    drive = drive_for_director(request, pk)
    if action == "arrive":
        name = request.POST.get("name", "")
        act(
            request,
            drive_comings.player_arrive,
            f"{name.strip()} has joined: their seat is on the room display and the tablets.",
            drive=drive,
            name=name,
        )
    elif action == "leave":
        try:
            number = _number(request.POST.get("number"), "The player's number")
        except NumberRefused as refused:
            messages.error(request, str(refused))
            return redirect("drive-detail", drive.pk)
        if number is None:
            messages.error(request, "Choose the player who is leaving.")
        else:
            act(
                request,
                drive_comings.player_leave,
                "The player has left: their card is closed and their place filled.",
                drive=drive,
                number=number,
            )
    else:
        raise Http404("A player arrives or leaves.")
    return redirect("drive-detail", drive.pk)


@login_required
@require_POST
def drive_correct(request: HttpRequest, pk: int) -> HttpResponse:
    drive = drive_for_scorer(request, pk)
    try:
        hand = _number(request.POST.get("hand"), "The hand")
        table = _number(request.POST.get("table"), "The table")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect("drive-detail", drive.pk)
    entry = _entry(request, drive)
    reason = request.POST.get("reason", "").strip()[:500]
    if hand is None or table is None or entry is None:
        messages.error(request, "Say which hand and table to correct, and the right result.")
        return redirect("drive-detail", drive.pk)
    try:
        said = drive_services.result_correct(
            drive=drive, hand=hand, table=table, entry=entry, reason=reason, user=request.user
        )
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Hand {hand}, table {table} corrected: {said}.")
    return redirect("drive-detail", drive.pk)


@login_required
@require_POST
def drive_status(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Finish, publish, or switch the public live totals on or off."""
    drive = drive_for_director(request, pk)
    if action == "finish":
        act(
            request,
            drive_services.drive_finish,
            "The drive is finished: check the totals and prizes, then publish.",
            drive=drive,
        )
    elif action == "publish":
        act(
            request,
            drive_services.drive_publish,
            "Published: everyone can read the totals and prizes.",
            drive=drive,
        )
    elif action == "live":
        live = request.POST.get("live") == "1"
        act(
            request,
            drive_services.drive_live,
            "Live totals are public." if live else "Live totals are hidden again.",
            drive=drive,
            live=live,
        )
    else:
        raise Http404("No such action.")
    return redirect("drive-detail", drive.pk)


@login_required
@require_GET
def drive_totals(request: HttpRequest, pk: int) -> HttpResponse:
    drive = drive_for_director(request, pk)
    return render(
        request,
        "tournaments/director/drive_totals.html",
        {"drive": drive, "state": drive_state(drive)},
    )


def _played(state: DriveState) -> list[HandView]:
    return [*state.earlier, *([state.current] if state.current else [])]


@login_required
@require_GET
def drive_export(request: HttpRequest, pk: int, what: str, fmt: str = "csv") -> HttpResponse:
    """CSV or XLSX (`fmt`): every hand at every table (`hands`), or the totals (`totals`).
    Names are typed by people: every cell goes through the formula rule (`safe_row`)."""
    drive = drive_for_director(request, pk)
    state = drive_state(drive)
    out = io.StringIO()
    sheet = csv.writer(out)
    if what == "hands":
        sheet.writerow(
            ["hand", "trumps", "table", "N", "E", "S", "W", "result", "ns_points", "ew_points"]
        )
        for record, view in zip(state.records, _played(state), strict=False):
            for score, table in zip(record.scores, view.tables, strict=True):
                names = [seat.name for seat in table.seats]
                cells = (record.hand, view.trumps, table.number, *names, table.text)
                sheet.writerow(safe_row((*cells, show(score.ns), show(score.ew))))
    elif what == "totals":
        sheet.writerow(
            [
                "place",
                "player",
                "name",
                "role",
                "total",
                "first_half",
                "second_half",
                "ten_plus",
                "sat_out",
            ]
        )
        for line in state.lines:
            sheet.writerow(
                safe_row(
                    (
                        line.place,
                        line.player,
                        line.name,
                        line.role,
                        line.total,
                        line.first_half,
                        line.second_half,
                        line.ten_plus,
                        line.sat_out,
                    )
                )
            )
    else:
        raise Http404("The drive's tables are hands and totals.")
    title = "Hands" if what == "hands" else "Totals"
    return table_response(out.getvalue(), f"drive-{drive.pk}-{what}", title=title, fmt=fmt)


@login_required
@require_GET
def drive_print(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    """Score cards, table cards or the prize sheet, as a PDF on the club's paper; a refusal
    (too few players, no hand played yet for the prizes) goes back to the drive's page."""
    drive = drive_for_director(request, pk)
    if what not in drive_paper.DOCUMENTS:
        raise Http404(f"A drive's paper is {', '.join(drive_paper.DOCUMENTS)}.")
    try:
        pdf = drive_paper.drive_pdf(drive=drive, what=what)
    except drive_services.DriveRefused as exc:
        messages.error(request, str(exc))
        return redirect("drive-detail", drive.pk)
    return pdf_response(pdf, f"drive-{drive.pk}-{what}.pdf")
