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


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested values as one level, keys joined with dots ("entry.ns_tricks")."""
    if not isinstance(value, dict):
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, inner in value.items():
        out.update(_flat(inner, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def describe_change(before: Any, after: Any) -> str:
    """An audit entry's before and after as words: each value that changed, old to new
    ("entry ns_tricks 7 → 9; ns_score 1 → 3; status confirmed → corrected"), in the order the
    values were recorded; plain values are shown as they are."""
    if not isinstance(before, dict) and not isinstance(after, dict):
        if before in (None, "") and after in (None, ""):
            return ""
        return f"{_shown(before)} → {_shown(after)}"
    old = _flat(before) if isinstance(before, dict) else {}
    new = _flat(after) if isinstance(after, dict) else {}
    parts = []
    for key in list(dict.fromkeys([*old, *new])):
        if old.get(key) == new.get(key):
            continue
        label = key.replace("_", " ").replace(".", " ")
        if key not in old:
            parts.append(f"{label} {_shown(new[key])}")
        else:
            parts.append(f"{label} {_shown(old.get(key))} → {_shown(new.get(key))}")
    return "; ".join(parts)
