"""The one audit writer: every format's trail (events, drives, tournaments) is written here.

Each format keeps its own audit table (an event's, a drive's, a tournament's rows), derived
from `AuditRow`, so all three have the same columns: who (an account, or a name in words), when,
what, on what, the state before and after, and why. This writer is the only place those rows are
made, so a rule about the trail (values stored as JSON, a name kept as text) holds for all three at
once.
"""

from __future__ import annotations

import functools
from typing import Any, TypedDict, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.core.exceptions import FieldDoesNotExist
from django.db import connections, models, router
from django.utils import timezone

from clubwhist.queries import quoted_names

# What views pass in: `request.user`, or None from scripts and tasks.
User = AbstractBaseUser | AnonymousUser | None

Row = TypeVar("Row", bound=models.Model)


def actor(user: User) -> AuthUser | None:
    """The logged-in user to record as having done something, or None."""
    if isinstance(user, AuthUser) and user.is_authenticated:
        return user
    return None


def json_safe(value: Any) -> Any:
    """Audit snapshots must be JSON: model values (dates, decimals, choices) become text."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class Change(TypedDict, total=False):
    """What an audit line says changed, as every format's writer passes it on: the state
    before and after, and why."""

    before: Any
    after: Any
    reason: str


def counter_bump(row: models.Model, field: str = "version") -> None:
    """One more on a row's counter (a play's version, an event's results version), as the
    database counts it: `F() + 1` in one UPDATE, so two writers at once both count, whether or
    not they hold the row's lock. The row in hand is not read again: `version_next` does.

    The statement does what `filter(pk=...).update(field=F(field) + 1)` does, written once per
    model, field and database: every tablet's result bumps its event's counter, and Django
    building that UPDATE each time cost about as much as the database running it."""
    model = type(row)
    alias = router.db_for_write(model, instance=row)
    with connections[alias].cursor() as cursor:
        cursor.execute(_bump_sql(model, field, alias), [row.pk])


@functools.cache
def _bump_sql(model: type[models.Model], field: str, alias: str) -> str:
    table, key, column = quoted_names(model, alias, field)
    return f"UPDATE {table} SET {column} = ({column} + 1) WHERE {key} = %s"


def version_next(row: models.Model, field: str = "version") -> int:
    """`counter_bump`, then the new value as this transaction sees it, also set on the row in
    hand: what a change announces to the tablets once it commits."""
    counter_bump(row, field)
    value = int(type(row)._default_manager.filter(pk=row.pk).values_list(field, flat=True).get())
    setattr(row, field, value)
    return value


def _has_column(model: type[models.Model], name: str) -> bool:
    try:
        model._meta.get_field(name)
    except FieldDoesNotExist:
        return False
    return True


def audit_write(
    model: type[Row],
    *,
    user: User,
    action: str,
    target: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    user_name: str | None = None,
    **owner: Any,
) -> Row:
    """One audit row in `model`, for the play named in `owner` (`event=`, `drive=`,
    `tournament=`). Call it inside the transaction that makes the change, so the two stand or
    fall together.

    `user_name` is who did it in words, so a line still says who once no account is linked
    (an imported trail says who did each thing as its file said): by default the acting
    account's username. It is kept where the table has the column and left out where it has
    not, so the writer serves a table before and after it gains one."""
    who = actor(user)
    if user_name is None:
        user_name = "" if who is None else who.get_username()
    fields: dict[str, Any] = {
        "user": who,
        "action": action,
        "target": target,
        "before": json_safe(before),
        "after": json_safe(after),
        "reason": reason,
        **owner,
    }
    if _has_column(model, "user_name"):
        fields["user_name"] = user_name
    return model._default_manager.create(**fields)


class AuditLineText:
    """What an audit line of any format says of itself: its time, action and target, and who
    did it. Mixed into the audit tables that keep a name in words (`user_name`)."""

    at: Any
    action: str
    target: str
    user: Any
    user_name: str

    def line_text(self) -> str:
        """The line in brief, as the admin and the logs show it."""
        return f"{self.at:%H:%M:%S} {self.action} {self.target}"

    @property
    def who(self) -> str:
        """The account's name, else the name kept in words ("as recorded": an imported line,
        or one whose account is gone), else ""."""
        if self.user is not None:
            return str(self.user)
        return f"{self.user_name} (as recorded)" if self.user_name else ""


class AuditRow(AuditLineText, models.Model):
    """An audit line's columns, whatever the format; each format's table adds the row it is
    about (an event, a drive, a tournament). `user_name` keeps who in words: the writer stores
    the acting account's username, and a director's import keeps the name its file gives
    without linking any account, so a line still says who once no account is linked."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    user_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=80)  # e.g. "result 17", "pair NS 3"
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        abstract = True
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return self.line_text()
