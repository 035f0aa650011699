"""The club's member register for its directors: the list (search, active or not, counts), a
member added or changed, the CSV import (upload or paste, the preview, the confirmation) and
the export. Only the club's directors and administrators reach them (`access.club_for`: another
club's register is a 404). Each view reads with or calls one function of `kernel.members`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.kernel import members as register
from tournaments.kernel.access import club_for
from tournaments.kernel.downloads import table_response
from tournaments.kernel.forms import LimitedFileField, NameField
from tournaments.kernel.models import Club, Member, PublicName, initials_of
from tournaments.kernel.numbers import NumberRefused, whole

#: The active filter's choices, as the list's address carries them.
SHOWN = {"active": True, "inactive": False, "all": None}


class MemberForm(forms.Form):
    name = NameField(max_length=120, label="Name")
    number = forms.CharField(max_length=20, required=False, label="Membership number", strip=False)
    email = forms.CharField(max_length=254, required=False, label="Email")
    public_name = forms.ChoiceField(
        choices=PublicName.choices,
        initial=PublicName.FULL,
        label="On public pages",
        widget=forms.RadioSelect,
    )
    active = forms.BooleanField(required=False, initial=True, label="Active member")


class ImportForm(forms.Form):
    upload = LimitedFileField(
        required=False,
        label="CSV file",
        hint="a club's register is far smaller.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )
    text = forms.CharField(
        required=False,
        label="Or paste the CSV here",
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )


def _club(request: HttpRequest, slug: str) -> Club:
    return club_for(request.user, slug)


@never_cache
@login_required
@require_GET
def members_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    search = request.GET.get("q", "")[: register.MAX_SEARCH]
    shown = request.GET.get("show", "all")
    if shown not in SHOWN:
        shown = "all"
    found = list(register.members_of(club, search=search, active=SHOWN[shown]))
    context = {
        "club": club,
        "members": found,
        "counts": register.member_counts(club),
        "search": search,
        "shown": shown,
        "filters": [("all", "All"), ("active", "Active"), ("inactive", "Inactive")],
    }
    return render(request, "tournaments/director/members.html", context)


def _member_values(form: MemberForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "number": data["number"],
        "email": data["email"],
        "public_name": data["public_name"],
        "active": data["active"],
    }


@never_cache
@login_required
def member_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    form = MemberForm(request.POST or None, initial={"active": True})
    if request.method == "POST" and form.is_valid():
        try:
            member = register.member_add(club=club, user=request.user, **_member_values(form))
        except ValueError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{member.name} added to the register.")
            return redirect("members", club.slug)
    context = {"club": club, "form": form, "member": None}
    return render(request, "tournaments/director/member_edit.html", context)


@never_cache
@login_required
def member_edit(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    club = _club(request, slug)
    member = Member.objects.filter(club=club, pk=member_id).first()
    if member is None:
        raise Http404("No such member in this club's register.")
    action = request.POST.get("action", "save")
    if request.method == "POST" and action in {"deactivate", "reactivate"}:
        try:
            register.member_edit(member=member, active=action == "reactivate", user=request.user)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            word = "active again" if member.active else "no longer active"
            messages.success(request, f"{member.name} is {word}.")
        return redirect("member-edit", club.slug, member.pk)
    initial = {
        "name": member.name,
        "number": member.number,
        "email": member.email,
        "public_name": member.public_name,
        "active": member.active,
    }
    form = MemberForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            register.member_edit(member=member, user=request.user, **_member_values(form))
        except ValueError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{member.name} saved.")
            return redirect("members", club.slug)
    context = {
        "club": club, "form": form, "member": member, "initials": initials_of(member.name),
        "merge_choices": Member.objects.filter(club=club, erased_at__isnull=True)
        .exclude(pk=member.pk).order_by("name", "id"),
    }  # fmt: skip
    return render(request, "tournaments/director/member_edit.html", context)


def _lines(raw: list[str]) -> list[int]:
    return [whole(value, "A line of the preview", low=1, high=100_000) for value in raw]


@never_cache
@login_required
def members_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload or paste a CSV; the preview shows each line as new, already in the register or
    refused; Confirm stores the new ones (read again then: `members_import_confirm`)."""
    club = _club(request, slug)
    form = ImportForm()
    context: dict[str, Any] = {"club": club, "form": form, "preview": None, "error": ""}
    if request.method != "POST":
        return render(request, "tournaments/director/members_import.html", context)
    if request.POST.get("step") == "confirm":
        text = request.POST.get("text", "")
        try:
            done = register.members_import_confirm(
                club=club, text=text, lines=_lines(request.POST.getlist("line")),
                user=request.user,
            )  # fmt: skip
        except (ValueError, NumberRefused) as exc:
            context["error"] = str(exc)
            return render(request, "tournaments/director/members_import.html", context, status=400)
        count = len(done.stored)
        messages.success(request, f"{count} member{'s' if count != 1 else ''} added.")
        for row in done.not_stored:
            messages.warning(request, f"Line {row.line}, {row.name}: not added. {row.reason}")
        return redirect("members", club.slug)
    form = ImportForm(request.POST, request.FILES)
    context["form"] = form
    if not form.is_valid():
        return render(request, "tournaments/director/members_import.html", context)
    upload = form.cleaned_data["upload"]
    try:
        data: str | bytes = upload.read() if upload is not None else form.cleaned_data["text"]
        if not data:
            raise register.MembersRefused("Choose a CSV file or paste its lines.")
        preview = register.members_import_preview(club=club, text=data)
        text = data if isinstance(data, str) else data.decode("utf-8")
    except ValueError as exc:
        context["error"] = str(exc)
        return render(request, "tournaments/director/members_import.html", context)
    context.update({"preview": preview, "text": text})
    return render(request, "tournaments/director/members_import.html", context)


@login_required
@require_GET
def members_export(request: HttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    """The register as CSV (the import's own columns, so it can be read back) or XLSX."""
    club = _club(request, slug)
    text = register.members_export(club)
    return table_response(text, f"{club.slug}-members", title="Members", fmt=fmt)
