"""A season's rows: the season (dates, how handicaps are taken), its competitions (which
formats and evenings count, how, and the table last computed) and its trail."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone

from tournaments.kernel.audit import AuditRow
from tournaments.kernel.models import Club


class Season(models.Model):
    """A club's season: the dates its competitions cover and the rule for its handicaps."""

    class Basis(models.TextChoices):
        # A member's handicap is taken once, from the sessions before the season starts...
        FIXED = "fixed", "Fixed at the season's start"
        # ... or afresh before each evening, from the sessions before that evening.
        FLUCTUATING = "floating", "Fluctuating (before each evening)"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    starts = models.DateField()
    ends = models.DateField()
    handicap_basis = models.CharField(max_length=8, choices=Basis.choices, default=Basis.FIXED)
    # A member's handicap is taken over their last this many pairs sessions...
    handicap_window = models.PositiveSmallIntegerField(default=10)
    # ... and only once they have played at least this many (fewer: no handicap, 0).
    handicap_min_sessions = models.PositiveSmallIntegerField(default=3)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-starts", "-id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="season_name_once_per_club"),
            models.CheckConstraint(condition=Q(ends__gte=F("starts")), name="season_ends_after"),
            models.CheckConstraint(
                condition=Q(handicap_basis__in=["fixed", "floating"]), name="season_basis_valid"
            ),
            models.CheckConstraint(
                condition=Q(handicap_window__gte=1), name="season_window_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Competition(models.Model):
    """One of a season's competitions: which formats' evenings count (all of the season's
    published ones, or those chosen in `CompetitionPlay`), how they are added up (`kind`), how
    many count and how many qualify, how ties are split, and the table last computed."""

    class Kind(models.TextChoices):
        LADDER = "ladder", "Ladder by average percentage"
        TOTAL = "total", "Total points (matchpoints or drive points)"
        IMPROVED = "improved", "Most improved"
        ATTENDANCE = "attendance", "Attendance"
        LEAGUE = "league", "Bid Whist league points"

    class Ties(models.TextChoices):
        SHARE = "share", "Tied members share the place"
        SESSIONS = "sessions", "More sessions played ranks higher"
        BEST = "best", "Better single best result ranks higher"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LADDER)
    count_events = models.BooleanField(default=True)  # duplicate pairs events
    count_drives = models.BooleanField(default=False)  # whist drives
    count_teams = models.BooleanField(default=False)  # Bid Whist team tournaments
    # Only a member's best this many evenings count (None: all of them).
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    # A member qualifies (is ranked) after this many evenings; fewer are listed unranked.
    min_sessions = models.PositiveSmallIntegerField(default=0)
    ties = models.CharField(max_length=8, choices=Ties.choices, default=Ties.SHARE)
    # The ladder (and total) by handicapped figures: each pairs percentage plus the pair's
    # handicap on the night (see docs/directors/season.md).
    handicapped = models.BooleanField(default=False)
    position = models.PositiveSmallIntegerField(default=0)
    # The table as last computed (engine.season's document), when, and from which results.
    table = models.JSONField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    computed_from = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["season", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "season", name="competition_name_once_per_season"
            ),
            models.CheckConstraint(
                condition=Q(count_events=True) | Q(count_drives=True) | Q(count_teams=True),
                name="competition_counts_a_format",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["ladder", "total", "improved", "attendance", "league"]),
                name="competition_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(ties__in=["share", "sessions", "best"]), name="competition_ties_valid"
            ),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                name="competition_best_of_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CompetitionPlay(models.Model):
    """An evening chosen for a competition. A competition with none counts every published
    evening of its formats within the season's dates; with some, only those."""

    class Format(models.TextChoices):
        EVENT = "event", "Duplicate pairs"
        DRIVE = "drive", "Whist drive"
        TOURNAMENT = "tournament", "Bid Whist teams"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="plays")
    format = models.CharField(max_length=10, choices=Format.choices)
    play_id = models.PositiveIntegerField()

    class Meta:
        ordering = ["competition", "format", "play_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "format", "play_id"], name="competition_play_once"
            ),
            models.CheckConstraint(
                condition=Q(format__in=["event", "drive", "tournament"]),
                name="competition_play_format_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.format} {self.play_id}"


class SeasonLine(models.Model):
    """The season's ledger: one person's published evening in any format
    (`engine.season.Appearance`), taken from the format's results when the evening is
    published or corrected. Competitions, handicaps and members' pages read these lines, not
    the formats' rows, so a recompute after a publish is one query whatever the formats.
    The figures are exact fractions as text ({"percentage": "1241/20", ...})."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="season_lines")
    format = models.CharField(max_length=10, choices=CompetitionPlay.Format.choices)
    play_id = models.PositiveIntegerField()
    play_name = models.CharField(max_length=160)
    date = models.DateField()
    entrant = models.CharField(max_length=24)
    member = models.ForeignKey(
        "tournaments.Member",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="season_lines",
    )
    name = models.CharField(max_length=120)
    rank = models.CharField(max_length=8, blank=True)
    field_size = models.PositiveSmallIntegerField(default=0)
    figures = models.JSONField(default=dict, blank=True)
    taken_at = models.DateTimeField(default=timezone.now)

    #: The member link and the name field it stands behind (the register merges and erases by it).
    MEMBER_NAMES = {"member": "name"}

    class Meta:
        ordering = ["club", "date", "format", "play_id", "entrant", "id"]
        indexes = [
            models.Index(fields=["club", "date"], name="season_line_club_date"),
            models.Index(fields=["format", "play_id"], name="season_line_play"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=["event", "drive", "tournament"]),
                name="season_line_format_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.format} {self.play_id}"


class SeasonAudit(AuditRow):
    """The seasons' trail: each season and competition set up, changed or removed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="season_audit")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )

    class Meta(AuditRow.Meta):
        pass
