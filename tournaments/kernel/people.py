"""A club's people: who directs it, the invitations that bring someone in, and their removal.

Accounts are no longer made only at the command line: an administrator makes a club and invites
its first director by email, and a club's directors invite the others. An invitation is a link
holding a random token; only the token's SHA-256 is stored (`Invitation.token_hash`), so the
raw token lives only in the email and on the page of the director who sent it. The link is good
once, for INVITATION_DAYS, and its sender (or any director of the club) may revoke it before.

Every change of who may do what (an invitation sent, accepted or revoked, a person removed) is
written to the club's `PeopleAudit` in the transaction that makes it, so the trail and the
change stand or fall together. A refusal (`PeopleRefused`) says what is wrong and what to do,
and changes nothing.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import smtplib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from tournaments.kernel.audit import User, actor, audit_write
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Invitation, PeopleAudit, Role
from tournaments.kernel.refusals import Kind, Refused

log = logging.getLogger(__name__)

#: The longest email address an invitation takes (the column's, and the RFC's path limit).
MAX_EMAIL = 254


class PeopleRefused(Refused):
    """An invitation or a removal that cannot be made: the message says why and what to do."""


class LastDirector(PeopleRefused):
    """The club's last director may not be removed: nobody would be left to run it."""

    kind = Kind.CONFLICT


class PersonMissing(PeopleRefused):
    """No such person among the club's: nothing to remove."""

    kind = Kind.NOT_FOUND


class InvitationClosed(PeopleRefused):
    """An invitation that was used, revoked or has expired: it no longer lets anyone in."""

    kind = Kind.CLOSED


def token_hash(token: str) -> str:
    """What is stored of an invitation's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def accept_path(token: str) -> str:
    return f"/invitations/{token}/"


def accept_link(token: str, base_url: str) -> str:
    """The link an invitation's email carries: absolute, from BASE_URL or the sender's page."""
    return base_url.rstrip("/") + accept_path(token)


# ---- what an invitation is now -------------------------------------------------------------


def state_of(invitation: Invitation, now: Any = None) -> str:
    """ "pending", "accepted", "revoked" or "expired": used or revoked first, since those stay
    true after the date has passed too."""
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= (now or timezone.now()):
        return "expired"
    return "pending"


#: What the invitation page says of each closed state, and what to do.
CLOSED_WORDS = {
    "accepted": "This invitation has already been used: it lets someone in once. If it was "
    "you, sign in; otherwise ask one of the club's directors for an invitation of your own.",
    "revoked": "This invitation was withdrawn by the club's directors. Ask one of them for a "
    "new invitation if you should still join.",
    "expired": "This invitation has expired: invitations are good for a limited number of "
    "days. Ask one of the club's directors to send you a new one.",
    "unknown": "This link is not an invitation to any club: check that it was copied whole, "
    "or ask the club's director for a new invitation.",
}


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation a link's token opens, or None. Only the hash is looked up, so the
    comparison never sees the stored secret itself."""
    if not token or len(token) > 200:
        return None
    return (
        Invitation.objects.select_related("club", "invited_by")
        .filter(token_hash=token_hash(token))
        .first()
    )


# ---- who is in the club ----------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """One account with a role in a club, as the People page and the API list them."""

    id: int
    username: str
    email: str
    role: str


def people_of(club: Club) -> list[Person]:
    """The club's directors, then its scorers, each by username."""
    directors = [
        Person(u.pk, u.get_username(), u.email, Role.DIRECTOR)
        for u in club.directors.order_by("username")
    ]
    scorers = [
        Person(u.pk, u.get_username(), u.email, Role.SCORER)
        for u in club.scorers.order_by("username")
    ]
    return directors + scorers


def invitations_open(club: Club) -> QuerySet[Invitation]:
    """The club's invitations not yet used nor revoked (expired ones too, so a director sees
    that one ran out and can send another)."""
    return club.invitations.filter(accepted_at=None, revoked_at=None).select_related("invited_by")


def trail_of(club: Club, limit: int = 100) -> QuerySet[PeopleAudit]:
    return club.people_audit.select_related("user")[:limit]


# ---- the changes -----------------------------------------------------------------------------


def email_checked(email: Any) -> str:
    text = str(email or "").strip()
    if not text:
        raise PeopleRefused("Give the email address to send the invitation to.")
    if len(text) > MAX_EMAIL:
        raise PeopleRefused(f"An email address is at most {MAX_EMAIL} characters.")
    try:
        validate_email(text)
    except ValidationError:
        raise PeopleRefused(
            f"{text!r} is not an email address: write it as name@example.org."
        ) from None
    return text


def role_checked(role: Any) -> str:
    if role not in Role.values:
        choices = ", ".join(Role.values)
        raise PeopleRefused(f"The role is one of: {choices}; got {role!r}.")
    return str(role)


@dataclass(frozen=True)
class Sent:
    """An invitation just made: the row, its link (the only place the raw token is shown)
    and whether its email went out (False: pass the link on yourself)."""

    invitation: Invitation
    link: str
    emailed: bool


def invite(*, club: Club, email: Any, user: User, base_url: str, role: Any = Role.DIRECTOR) -> Sent:
    """Invite `email` to `club` in `role`: the invitation and its audit line, then the email.

    The email is sent after the commit, so a mail server that refuses or does not answer never
    undoes the invitation: the page shows the link either way, and says whether it went."""
    address = email_checked(email)
    role = role_checked(role)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club,
            email=address,
            role=role,
            token_hash=token_hash(token),
            invited_by=actor(user),
            created_at=now,
            expires_at=now + timedelta(days=settings.INVITATION_DAYS),
        )
        audit_write(
            PeopleAudit,
            user=user,
            action="invite",
            target=f"invitation {invitation.pk}",
            after={"email": address, "role": role, "expires_at": invitation.expires_at},
            club=club,
        )
    link = accept_link(token, base_url)
    return Sent(invitation, link, _email_invitation(invitation, link, user))


def _email_invitation(invitation: Invitation, link: str, user: User) -> bool:
    sender = getattr(user, "get_username", lambda: "")() or "The administrator"
    context = {
        "club": invitation.club,
        "role": invitation.get_role_display().lower(),
        "link": link,
        "sender": sender,
        "expires_at": invitation.expires_at,
    }
    subject = f"You are invited to help run {invitation.club.name} on clubwhist"
    body = render_to_string("registration/invitation_email.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except (OSError, smtplib.SMTPException) as exc:
        log.warning("invitation %s: the email could not be sent: %s", invitation.pk, exc)
        return False
    return True


def revoke(*, invitation: Invitation, user: User) -> Invitation:
    """Withdraw an invitation that is still open: its link lets nobody in any more."""
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
        state = state_of(locked)
        if state in {"accepted", "revoked"}:
            raise InvitationClosed(
                f"The invitation to {locked.email} was already {state}: there is nothing to "
                "withdraw."
                + (" Remove the person from the club instead." if state == "accepted" else "")
            )
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
        audit_write(
            PeopleAudit,
            user=user,
            action="revoke",
            target=f"invitation {locked.pk}",
            before={"email": locked.email, "role": locked.role, "state": state},
            club=locked.club,
        )
    return locked


def accept(*, invitation: Invitation, user: Any) -> Invitation:
    """`user` joins the invitation's club in its role, once: a link used, revoked or out of
    date is refused and changes nothing (the row is locked, so two clicks at once make one
    acceptance)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise PeopleRefused("Sign in, or make an account, to accept the invitation.")
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
        state = state_of(locked)
        if state != "pending":
            raise InvitationClosed(CLOSED_WORDS[state])
        locked.accepted_at = timezone.now()
        locked.accepted_by = user
        locked.save(update_fields=["accepted_at", "accepted_by"])
        already = _role_in(locked.club, user.pk)
        if locked.role == Role.DIRECTOR:
            # A scorer invited to direct moves up: one role a person, the larger one.
            locked.club.scorers.remove(user)
            locked.club.directors.add(user)
        elif already != Role.DIRECTOR:
            # A director invited to score keeps directing: the invitation takes nothing away.
            locked.club.scorers.add(user)
        audit_write(
            PeopleAudit,
            user=user,
            action="accept",
            target=f"invitation {locked.pk}",
            before={"email": locked.email, "role": locked.role},
            after={"username": user.get_username(), "role": locked.role, "already": already},
            club=locked.club,
        )
    return locked


def _role_in(club: Club, user_id: int) -> str | None:
    """The role `user_id` has in `club` (director first), or None."""
    if club.directors.filter(pk=user_id).exists():
        return Role.DIRECTOR
    if club.scorers.filter(pk=user_id).exists():
        return Role.SCORER
    return None


def remove(*, club: Club, person_id: int, user: User) -> Person:
    """Take `person_id` off the club's directors or scorers. The club's last director stays:
    the refusal says to invite another first. An administrator is not a director by the
    club's list and is never "removed" here (they reach every club by being an administrator)."""
    with transaction.atomic():
        # Lock the club, so two directors removing each other at once leave one of them.
        Club.objects.select_for_update().filter(pk=club.pk).get()
        role = _role_in(club, person_id)
        if role is None:
            raise PersonMissing(
                "That account is not one of the club's people: reload the People page."
            )
        person = get_user_model().objects.get(pk=person_id)
        if role == Role.DIRECTOR and club.directors.count() <= 1:
            raise LastDirector(
                f"{person.get_username()} is the last director of {club.name}: a club needs "
                "at least one. Invite another director first, then remove this one."
            )
        (club.directors if role == Role.DIRECTOR else club.scorers).remove(person)
        audit_write(
            PeopleAudit,
            user=user,
            action="remove",
            target=f"{role} {person.get_username()}"[:80],
            before={"username": person.get_username(), "role": role},
            club=club,
        )
    return Person(person.pk, person.get_username(), person.email, role)


def club_create(*, name: Any, user: User) -> Club:
    """A new club, made by an administrator: a name another club has is refused (invite that
    club's directors from its People page instead), so nobody is joined to a club by mistake."""
    text = str(name or "").strip()
    if Club.objects.filter(name__iexact=text).exists():
        raise PeopleRefused(
            f"A club called {text!r} already exists: open its People page to invite its "
            "directors, or choose another name."
        )
    club = club_get_or_create(name=text)
    audit_write(
        PeopleAudit,
        user=user,
        action="club",
        target=f"club {club.slug}"[:80],
        after={"name": club.name},
        club=club,
    )
    return club


def account_create(*, username: str, email: str, password: str) -> Any:
    """A new account for someone accepting an invitation (the form has checked the name and
    the password with Django's validators)."""
    return get_user_model().objects.create_user(username, email=email, password=password)
