"""The pages about a club's people: the People page (its directors, the open invitations, the
trail of who changed what, a form to invite), a person's removal, an invitation's withdrawal,
the administrator's page that makes a club and invites its first director, and the page an
invitation's link opens. Each view calls one function of `kernel.people`, which refuses with
words and changes nothing when it refuses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments.kernel import people
from tournaments.kernel.access import club_for, is_admin
from tournaments.kernel.forms import NameField
from tournaments.kernel.models import Club, Invitation, Role
from tournaments.kernel.pages import base_url


class InviteForm(forms.Form):
    email = forms.EmailField(max_length=people.MAX_EMAIL, label="Their email address")
    role = forms.ChoiceField(
        choices=Role.choices, initial=Role.DIRECTOR, label="As", widget=forms.RadioSelect
    )


class ClubNewForm(forms.Form):
    name = NameField(max_length=120, label="The club's name")
    email = forms.EmailField(max_length=people.MAX_EMAIL, label="Its first director's email")


class AccountForm(UserCreationForm):  # type: ignore[type-arg]
    """A new account for someone accepting an invitation: a username, their email (the
    invitation's, which they may change) and a password twice, checked by Django's validators
    (AUTH_PASSWORD_VALIDATORS)."""

    email = forms.EmailField(max_length=people.MAX_EMAIL, label="Email")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _people_context(club: Club, request: HttpRequest, **more: Any) -> dict[str, Any]:
    return {
        "club": club,
        "people": people.people_of(club),
        "invitations": [(i, people.state_of(i)) for i in people.invitations_open(club)],
        "trail": people.trail_of(club),
        "form": more.pop("form", None) or InviteForm(),
        "can_remove": club.directors.count() > 1,
        **more,
    }


@never_cache
@login_required
def people_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's People page; a POST invites someone and shows the link on the page, since
    it is shown nowhere else (only its hash is kept)."""
    club = club_for(request.user, slug)
    form = InviteForm(request.POST or None)
    sent = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                sent = people.invite(
                    club=club,
                    email=form.cleaned_data["email"],
                    role=form.cleaned_data["role"],
                    user=request.user,
                    base_url=base_url(request),
                )
            except people.PeopleRefused as exc:
                form.add_error(None, str(exc))
            else:
                form = InviteForm()
        if sent is None:
            status = 400
    context = _people_context(club, request, form=form, sent=sent)
    return render(request, "tournaments/director/people.html", context, status=status)


@never_cache
@login_required
@require_POST
def person_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = club_for(request.user, slug)
    try:
        gone = people.remove(club=club, person_id=user_id, user=request.user)
    except people.PeopleRefused as exc:
        messages.error(request, str(exc))
    else:
        what = "directs" if gone.role == Role.DIRECTOR else "scores for"
        messages.success(request, f"{gone.username} no longer {what} {club.name}.")
    return redirect("people", club.slug)


@never_cache
@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    club = club_for(request.user, slug)
    invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation among this club's.")
    try:
        people.revoke(invitation=invitation, user=request.user)
    except people.PeopleRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The invitation to {invitation.email} was withdrawn.")
    return redirect("people", club.slug)


@never_cache
@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    """An administrator makes a club and invites its first director; anyone else is told who
    makes clubs."""
    if not is_admin(request.user):
        context = {
            "message": "Only the installation's administrator makes new clubs. Ask them to "
            "make yours and invite you as its director; a club's directors invite the others "
            "from the club's People page."
        }
        return render(request, "tournaments/director/no_club.html", context, status=403)
    form = ClubNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                club = people.club_create(name=form.cleaned_data["name"], user=request.user)
        except ValueError as exc:
            form.add_error("name", str(exc))
        else:
            sent = people.invite(
                club=club,
                email=form.cleaned_data["email"],
                user=request.user,
                base_url=base_url(request),
            )
            context = _people_context(club, request, sent=sent, created=True)
            return render(request, "tournaments/director/people.html", context)
    status = 400 if form.errors else 200
    return render(request, "tournaments/director/club_new.html", {"form": form}, status=status)


@never_cache
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link. Signed in: a button joins the club. Not signed in: a form makes
    an account and joins, or the login page comes back here. A link used, revoked, out of
    date or unknown gets a page saying which and what to do, and changes nothing."""
    invitation = people.invitation_by_token(token)
    state = "unknown" if invitation is None else people.state_of(invitation)
    if invitation is None or state != "pending":
        return _closed(request, state, invitation)
    signed_in = request.user.is_authenticated
    form = None if signed_in else AccountForm(initial={"email": invitation.email})
    if request.method == "POST":
        try:
            if signed_in:
                people.accept(invitation=invitation, user=request.user)
            else:
                form = AccountForm(request.POST)
                if not form.is_valid():
                    return _accept_page(request, invitation, form, status=400)
                with transaction.atomic():
                    user = people.account_create(
                        username=form.cleaned_data["username"],
                        email=form.cleaned_data["email"],
                        password=form.cleaned_data["password1"],
                    )
                    people.accept(invitation=invitation, user=user)
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except people.InvitationClosed:
            invitation.refresh_from_db()
            return _closed(request, people.state_of(invitation), invitation)
        role = invitation.get_role_display().lower()
        messages.success(request, f"Welcome: you are now a {role} of {invitation.club.name}.")
        if invitation.role == Role.SCORER:
            return redirect("home")  # the evenings to score are listed there
        return redirect("people", invitation.club.slug)
    return _accept_page(request, invitation, form)


def _accept_page(
    request: HttpRequest, invitation: Invitation, form: Any, status: int = 200
) -> HttpResponse:
    context = {
        "invitation": invitation,
        "role": invitation.get_role_display().lower(),
        "form": form,
        "login_next": request.path,
    }
    return render(request, "registration/invitation.html", context, status=status)


def _closed(request: HttpRequest, state: str, invitation: Invitation | None) -> HttpResponse:
    context = {"state": state, "words": people.CLOSED_WORDS[state], "invitation": invitation}
    status = 404 if state == "unknown" else 410
    return render(request, "registration/invitation_closed.html", context, status=status)
