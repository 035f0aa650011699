"""A table's tablet link, whatever the format: the columns and rules every link table shares.

Whoever holds a link's token may use that table's tablet page, nothing else. A replaced token
stays, revoked, so its holder is told the link was replaced instead of "not found". Each format
keeps its own table (its links belong to a section, a drive or a tournament) and derives it
from this abstract model; the columns are the ones each table always had, so no migration.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone


class TableLink(models.Model):
    """One table's tablet link; the owner (section, drive, tournament) is the format's."""

    table = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    #: How the link's table is named in lists and logs ("Drive table 3 link").
    label: ClassVar[str] = "Table"

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.label} {self.table} link{' (revoked)' if self.revoked_at else ''}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


def one_live_link(owner: str, name: str) -> models.UniqueConstraint:
    """At most one live link per table of an `owner` (a section, a drive, a tournament): a
    replaced one stays, revoked, beside the new one."""
    return models.UniqueConstraint(
        fields=[owner, "table"], condition=Q(revoked_at__isnull=True), name=name
    )


class LinkUnknown(LookupError):
    """No table has this link (mistyped, or its event, drive or tournament was deleted): the
    tablet page answers 404 with the message."""


class LinkReplaced(LookupError):
    """The director replaced this table's link: its holder is told to scan the new code (the
    tablet page answers 410, Gone)."""
