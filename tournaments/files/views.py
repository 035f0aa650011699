"""Results files on the web: the director's downloads and import page (an event's results
file, or the clubwhist JSON of an event, a drive or a team tournament), members' downloads.

The members download the files of a published event.

An export is drawn from the database as it is now. Anonymous visitors get the files of
published events only (a live event's results are not final), everyone else a 404, exactly
like the results pages; directors get every event's.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from tournaments.drives.models import Drive
from tournaments.drives.views.director import drive_for_director
from tournaments.events import access
from tournaments.events.models import Event
from tournaments.files import exports as export_services
from tournaments.kernel.access import clubs_for, is_admin
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.forms import LimitedFileField
from tournaments.kernel.models import Club
from tournaments.kernel.pages import FIRST_CLUB, no_club
from tournaments.teams.models import Tournament
from tournaments.teams.views.director import tournament_for_director


def export_response(event: Event, fmt: str, *, public: bool = False) -> HttpResponse:
    """The export as a download; at a public address (`public`) only the public formats."""
    chosen = export_services.FORMATS.get(fmt)
    if chosen is None or (public and not chosen.public):
        raise Http404(f"There is no export format {fmt!r} here.")
    try:
        made = export_services.event_export(event, fmt, public=public)
    except ValueError as exc:  # an event the format (or its scoring) cannot hold: say so
        return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(made.content(), content_type=made.content_type)
    response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def event_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    return export_response(access.event_for(request.user, pk), fmt)


@require_GET
def public_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if event.status != Event.Status.PUBLISHED and not access.directs(request.user, event):
        raise Http404("No published results here.")
    return export_response(event, fmt, public=True)


class ImportForm(forms.Form):
    file = LimitedFileField(
        label="Results file",
        help_text="USEBIO 1.2 (.xml) or PBN with results (.pbn), as clubwhist exports them, "
        "or the clubwhist JSON (.clubwhist.json) of an event, a whist drive or a team "
        "tournament (a league's week), restored whole.",
        hint="that is not a results file (a 30-table evening's USEBIO is under 0.5 MB); an "
        "installation's whole backup is restored with `manage.py restore`.",
    )
    club = forms.ModelChoiceField(queryset=Club.objects.none(), empty_label=None)

    def __init__(
        self, *args: Any, clubs: Any, first_club: str | None = None, **kwargs: Any
    ) -> None:
        """`first_club`: no club exists yet (an administrator's first import); the choice
        shows this name, and the view makes the club with the event (the cleaned club is then
        None)."""
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs  # only the clubs this director directs
        if first_club is not None:
            field.empty_label = first_club
            field.required = False


@login_required
def event_import(request: HttpRequest) -> HttpResponse:
    """A results file (USEBIO, PBN) becomes a closed event of the chosen club; an event's, a
    drive's or a tournament's clubwhist JSON comes back whole into it (`file_import`).

    An administrator with no club yet is offered the first club by name; it is made when a
    valid file is sent, so opening the page writes nothing."""
    clubs = clubs_for(request.user)
    first_club = not clubs.exists()
    if first_club and not is_admin(request.user):
        return no_club(request)
    form = ImportForm(
        request.POST or None,
        request.FILES or None,
        clubs=clubs,
        first_club=FIRST_CLUB if first_club else None,
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            text = form.cleaned_data["file"].read().decode("utf-8-sig")
        except UnicodeDecodeError:
            error = "The file is not text in UTF-8: export it again as USEBIO, PBN or JSON."
        else:
            try:
                club = form.cleaned_data["club"] or club_get_or_create(name=FIRST_CLUB)
                made = export_services.file_import(text=text, club=club, user=request.user)
            except ValueError as exc:
                error = str(exc)
            else:
                messages.success(request, made.said)
                return redirect(made.item)
    elif form.has_error("file", "too_big"):
        # Said once, in the alert at the top where the page's other refusals are.
        error = str(form.errors.pop("file")[0])
    return render(
        request,
        "tournaments/director/event_import.html",
        {"form": form, "error": error},
        status=200,
    )


@login_required
@require_GET
def drive_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole drive as clubwhist JSON, what a backup holds of it (`drive_json_response`)."""
    return drive_json_response(drive_for_director(request, pk))


def drive_json_response(drive: Drive) -> HttpResponse:
    """The drive's JSON as a download. It carries the tablets' link tokens, as the event's JSON
    does, so it is for the drive's directors only and is never kept by a cache."""
    made = export_services.drive_json_export(drive)
    response = HttpResponse(made.content(), content_type=made.content_type)
    response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def tournament_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as clubwhist JSON, what a backup holds of it; it carries the
    tablets' link tokens, so it is for the tournament's directors only and never cached."""
    return tournament_json_response(tournament_for_director(request, pk))


def tournament_json_response(tournament: Tournament) -> HttpResponse:
    """The tournament's JSON as a download (the page's and the API's)."""
    made = export_services.tournament_json_export(tournament)
    response = HttpResponse(made.content(), content_type=made.content_type)
    response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
