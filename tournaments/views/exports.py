"""Exports and imports on the web: the director's downloads and import page, and the
members' downloads of a published event.

An export is drawn from the database as it is now. Anonymous visitors get the files of
published events only (a live event's results are not final), everyone else a 404, exactly
like the results pages; directors get every event's.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from engine.exports import ExportError
from tournaments.models import Club, Event
from tournaments.services import exports as export_services

#: Files bigger than this are not results files (a 30-table evening's USEBIO is under 0.5 MB).
MAX_IMPORT_BYTES = 5 * 1024 * 1024


def export_response(event: Event, fmt: str) -> HttpResponse:
    if fmt not in export_services.FORMATS:
        raise Http404(f"There is no export format {fmt!r}.")
    try:
        made = export_services.event_export(event, fmt)
    except ExportError as exc:  # an event the format cannot hold: say so, plainly
        return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(made.text.encode(), content_type=made.content_type)
    response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def event_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    return export_response(get_object_or_404(Event, pk=pk), fmt)


@require_GET
def public_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not request.user.is_authenticated and event.status != Event.Status.PUBLISHED:
        raise Http404("No published results here.")
    return export_response(event, fmt)


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Results file",
        help_text="USEBIO 1.2 (.xml) or PBN with results (.pbn), as clubwhist exports them.",
    )
    club = forms.ModelChoiceField(queryset=Club.objects.all(), empty_label=None)


@login_required
def event_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            error = "The file is over 5 MB: that is not a results file."
        else:
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                error = "The file is not text in UTF-8: export it again as USEBIO or PBN."
            else:
                try:
                    event = export_services.event_import(
                        text=text, club=form.cleaned_data["club"], user=request.user
                    )
                except ValueError as exc:
                    error = str(exc)
                else:
                    from django.contrib import messages

                    messages.success(
                        request,
                        f"Imported: {event.name}. The standings are scored again here; "
                        "compare them with the program that wrote the file.",
                    )
                    return redirect(event)
    return render(
        request,
        "tournaments/director/event_import.html",
        {"form": form, "error": error},
        status=200,
    )
