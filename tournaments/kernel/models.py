"""The kernel's one table: the club. Every format's rows belong to a club, and the club's
directors are the people who may change them (`tournaments.kernel.directors`).

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
