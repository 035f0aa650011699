"""The events' audit trail: one entry per director action, with the state before and after.

Written by the kernel's one audit writer (`kernel.audit`), as the drives' and tournaments' are.
"""

from __future__ import annotations

from typing import Unpack

from tournaments.events.models import AuditEntry, Event
from tournaments.kernel.audit import Change, User, audit_write


def audit_record(
    *, event: Event, user: User, action: str, target: str, **change: Unpack[Change]
) -> AuditEntry:
    """Call inside the transaction that makes the change, so the two stand or fall together.
    An event's line names its account only: `user_name` is the imported trail's (`AuditEntry`)."""
    return audit_write(
        AuditEntry, event=event, user=user, action=action, target=target, user_name="", **change
    )
