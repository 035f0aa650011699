"""The audit trail: one entry per director action, with the state before and after."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import AuditEntry, Event, json_safe

User = AbstractBaseUser | AnonymousUser | None


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
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        target=target,
        before=json_safe(before),
        after=json_safe(after),
        reason=reason,
    )
