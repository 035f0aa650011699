"""The kernel's one table, the club, and what every format's evening shares. Every format's
rows belong to a club, and the club's directors are the people who may change them
(`tournaments.kernel.directors`). An event, a drive and a team tournament are each a `Play`:
named and dated, created by someone, public while live by the director's choice.

The app label stays `tournaments` for every model in the app, kernel and formats alike
(`tournaments/models.py` gathers them), so no table was renamed when the packages were drawn.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Club(models.Model):
    class Paper(models.TextChoices):
        A4 = "a4", "A4"
        LETTER = "letter", "US Letter"

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The paper in the club's printer: every document the club prints is laid out for it.
    paper = models.CharField(max_length=6, choices=Paper.choices, default=Paper.A4)
    # The club's pace: how long a board takes, for the advisor's timings and the round clock.
    minutes_per_board = models.PositiveSmallIntegerField(default=7)
    # The club's directors: they see and change this club's events and nothing else. An
    # administrator (a superuser) sees every club; everyone else sees only published results.
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayStatus(models.TextChoices):
    """Where an evening stands, from its setting up to its publishing: an event's and a
    drive's (a tournament has a playoff between running and finished, so choices of its own)."""

    DRAFT = "draft", "Draft"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    PUBLISHED = "published", "Published"


def status_valid(status: type[models.TextChoices], name: str) -> models.CheckConstraint:
    """The database's own check that a play's `status` is one of its format's `status`
    choices, in their order (draft, running, ..., published)."""
    return models.CheckConstraint(condition=models.Q(status__in=list(status.values)), name=name)


class Play(models.Model):
    """An evening's play in any format (an event, a drive, a tournament): the columns all three
    have, under the names they always had (so no migration), and how each names itself. Each
    format adds its club (with its own related name), its status and what it plays."""

    name = models.CharField(max_length=160)
    date = models.DateField(default=timezone.localdate)
    # Anyone may follow it while it runs (otherwise only once published).
    live_public = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d %b %Y})"
