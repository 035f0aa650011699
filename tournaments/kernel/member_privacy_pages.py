"""The director's pages for a member's privacy: another record merged into this one (choose
it, see what will move, confirm), the member forgotten (see what will happen, confirm), and
the member's data as a JSON download. Only the club's directors and administrators reach them
(`access.club_for`: another club's register is a 404); each change is a POST, after a page
that says what it will do. Each view calls one function of `kernel.member_privacy`."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.kernel import member_privacy as privacy
from tournaments.kernel.access import club_for
from tournaments.kernel.members import MembersRefused
from tournaments.kernel.models import Club, Member
from tournaments.kernel.numbers import NumberRefused, whole


class MergeForm(forms.Form):
    """The other record, chosen among the club's members not forgotten."""

    other = forms.TypedChoiceField(label="The other record", coerce=int)

    def __init__(self, *args: Any, keep: Member, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = Member.objects.filter(club_id=keep.club_id, erased_at__isnull=True).exclude(
            pk=keep.pk
        )
        field = self.fields["other"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "Choose a member")] + [
            (m.pk, f"{m.name} (no. {m.number})" if m.number else m.name)
            for m in others.order_by("name", "id")
        ]


def _member(request: HttpRequest, slug: str, member_id: int) -> tuple[Club, Member]:
    club = club_for(request.user, slug)
    member = Member.objects.filter(club=club, pk=member_id).first()
    if member is None:
        raise Http404("No such member in this club's register.")
    return club, member


def _other(club: Club, raw: Any) -> Member:
    """The record named by the form's `other`, or a refusal saying what is wrong."""
    try:
        pk = whole(raw, "The other record", low=1, high=2**31 - 1)
    except NumberRefused:
        raise MembersRefused("Choose the other record from the list.") from None
    other = Member.objects.filter(club=club, pk=pk).first()
    if other is None:
        raise MembersRefused("That record is not in this club's register: choose from the list.")
    return other


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def member_merge(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    """GET: choose the other record; GET with `other`: what the merge would move, and the
    button that does it; POST: the merge, then back to the kept member."""
    club, keep = _member(request, slug, member_id)
    data = request.POST if request.method == "POST" else request.GET
    form = MergeForm(data if "other" in data else None, keep=keep)
    context: dict[str, Any] = {"club": club, "member": keep, "form": form, "preview": None}
    status = 200
    if keep.erased_at is not None:
        context["error"] = f"{keep.name} was forgotten: a forgotten record is never merged."
        return render(request, "tournaments/director/member_merge.html", context, status=400)
    if "other" in data:
        try:
            drop = _other(club, data.get("other"))
            if request.method == "POST":
                privacy.member_merge(keep=keep, drop=drop, user=request.user)
                messages.success(request, f"{drop.name}'s record was merged into {keep.name}'s.")
                return redirect("member-edit", club.slug, keep.pk)
            context["preview"] = privacy.merge_preview(keep=keep, drop=drop)
        except MembersRefused as exc:
            form.is_valid()
            form.add_error("other", str(exc))
            status = 400
    return render(request, "tournaments/director/member_merge.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def member_erase(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    """GET: what forgetting the member does, and the button that does it; POST: the erase,
    then back to the (now nameless) member's page."""
    club, member = _member(request, slug, member_id)
    context: dict[str, Any] = {"club": club, "member": member, "error": "", "preview": None}
    try:
        if request.method == "POST":
            done = privacy.member_erase(member=member, user=request.user)
            messages.success(
                request,
                f"The member is forgotten: the register now calls them {done.member.name}, "
                "and their history reads \u201cformer member\u201d.",
            )
            return redirect("member-edit", club.slug, member.pk)
        context["preview"] = privacy.erase_preview(member)
    except MembersRefused as exc:
        context["error"] = str(exc)
        return render(request, "tournaments/director/member_erase.html", context, status=400)
    return render(request, "tournaments/director/member_erase.html", context)


@never_cache
@login_required
@require_GET
def member_data(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    """Everything the club holds about the member, as a JSON file (a subject access
    request's answer)."""
    club, member = _member(request, slug, member_id)
    text = json.dumps(privacy.member_data(member), ensure_ascii=False, indent=2)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{club.slug}-member-{member.pk}.json"'
    return response
