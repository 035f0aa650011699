"""The audit trail: one entry per director action, with the state before and after."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as AuthUser

from tournaments.models import AuditEntry, Event, json_safe

# What views pass in: `request.user`, or None from scripts and tasks.
User = AbstractBaseUser | AnonymousUser | None


def actor(user: User) -> AuthUser | None:
    """The logged-in user to record as having done something, or None."""
    if isinstance(user, AuthUser) and user.is_authenticated:
        return user
    return None


def audit_record(
    *,
    event: Event,
    user: User,
    action: str,
    target: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Call inside the transaction that makes the change, so the two stand or fall together."""
    return AuditEntry.objects.create(
        event=event,
        user=actor(user),
        action=action,
        target=target,
        before=json_safe(before),
        after=json_safe(after),
        reason=reason,
    )
