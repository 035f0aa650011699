"""The rows of a progressive whist drive: the drive, its players, each hand's seating and results.

Kept beside `models.py` (which re-exports them) because that module is at its size limit. These
rows name the club and the users by string, so this module imports nothing of the app but the
kernel (`kernel.links`), and `models.py` may import it without a circle. What a drive means
(seatings, moves, scores) is the engine's (`engine.drives`); the rows only keep what happened,
so every figure can be worked out again from them.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from tournaments.kernel.audit import AuditRow
from tournaments.kernel.links import TableLink, one_live_link
from tournaments.kernel.member_links import LinkSource, evening_label, register_link_source
from tournaments.kernel.models import Play, PlayStatus, status_valid


class Drive(Play):
    """One evening's drive. `settings` is the engine's `DriveSettings.to_dict()` without the
    number of players, which always comes from the players list (so it cannot disagree)."""

    Status = PlayStatus

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="drives")
    game = models.CharField(max_length=20)
    settings = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The hand being played (0 before the start). The seating of this hand is stored; its
    # results come in table by table; the next seating is worked out when all are in.
    hand = models.PositiveSmallIntegerField(default=0)
    # The draw of the first seating and of any raffle prize: stored so both can be repeated.
    seed = models.BigIntegerField(null=True, blank=True)
    # Move on to the next hand by itself the moment a table's tablet confirms the hand's last
    # result (the director may still move on, "ring the bell", whenever every table is in).
    moves_on = models.BooleanField(default=True)
    # Counts every change a tablet or the room display shows (a result, a confirmation, a move,
    # a correction): a tablet's stream wakes on a new number and reads the table's state again.
    version = models.PositiveIntegerField(default=0)
    # A drive played on paper whose hands were never entered: each player's figures as added
    # up on their own score card, {"<player>": {"total": "84", "first_half": "40" or null,
    # "ten_plus": 2 or null}} (numbers as text: a sit-out's average can be a fraction). The
    # totals and prizes then come from these (`engine.drives.card_lines`).
    cards = models.JSONField(default=dict, blank=True)

    class Meta(Play.Meta):
        constraints = [status_valid(PlayStatus, "drive_status_valid")]

    def get_absolute_url(self) -> str:
        return reverse("drive-detail", args=[self.pk])

    @property
    def is_public(self) -> bool:
        """Anyone may read the totals: published, or live by the director's choice."""
        if self.status == self.Status.PUBLISHED:
            return True
        return self.live_public and self.status in (self.Status.RUNNING, self.Status.FINISHED)


class DrivePlayer(models.Model):
    """A player of a drive: numbers run from 1 without gaps, as the engine counts them."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    # The club's member this player is, where the director linked them (visitors stay unlinked).
    member = models.ForeignKey(
        "tournaments.Member",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="drive_players",
    )
    #: The member link and the name field it stands behind (the register merges and erases by it).
    MEMBER_NAMES = {"member": "name"}

    class Meta:
        ordering = ["drive", "number"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "number"], name="drive_player_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    def member_evening(self) -> tuple[str, Drive]:
        """The format's word and the evening this row is in (the register's privacy tools
        reach every format's linked rows through it, importing none)."""
        return "drive", self.drive


class DriveSeating(models.Model):
    """Who sat where for one hand: the engine's `Seating.to_dict()`."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="seatings")
    hand = models.PositiveSmallIntegerField()
    seating = models.JSONField()

    class Meta:
        ordering = ["drive", "hand"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "hand"], name="drive_seating_unique_hand")
        ]

    def __str__(self) -> str:
        return f"Seating of hand {self.hand} of drive {self.drive_id}"


class DriveResult(models.Model):
    """One table's result for one hand, as the game's rules read it (`{"ns_tricks": 9}`).

    A result entered at the table's tablet waits for the other side's confirmation; one the
    director enters (from a tally sheet, or a correction) counts at once. Only confirmed
    results count in the totals and the moves."""

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered, waiting for East-West"
        CONFIRMED = "confirmed", "Confirmed"

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="results")
    hand = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    entry = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    # "tablet" for a result the table entered, "" for the director's.
    source = models.CharField(max_length=10, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    entered_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "hand", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["drive", "hand", "table"], name="drive_result_unique_table"
            )
        ]

    def __str__(self) -> str:
        return f"Hand {self.hand} table {self.table} of drive {self.drive_id}"


class DriveTableAccess(TableLink):
    """A drive table's tablet link (`kernel.links`): the tablet stays on its table all evening
    while the players move, so a link is the drive's table, not anyone's seat."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="table_access")
    label = "Drive table"

    class Meta:
        ordering = ["drive", "table", "-created_at"]
        verbose_name_plural = "drive table access"
        constraints = [one_live_link("drive", "drive_table_access_one_live_token")]


class DriveAudit(AuditRow):
    """Who changed what in a drive, when and why."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="audit")

    class Meta(AuditRow.Meta):
        verbose_name_plural = "drive audit entries"


# Where this format keeps players' names, for the sweep that links them to the club's members
# (`kernel.member_links.names_link`): registered as the models load, before any request.
register_link_source(
    LinkSource(
        format="drive",
        model=DrivePlayer,
        club_path="drive__club",
        evening=lambda row: evening_label(row.drive),
        related=("drive",),
    )
)
