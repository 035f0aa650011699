"""The rows of a Bid Whist team tournament and of a league: teams, rounds, games, tablet links.

Kept beside `models.py` (which re-exports them), as the drives' rows are, and for the same
reason: these rows name the club and the users by string, so this module imports nothing of
the app but the kernel (`kernel.links`). What a tournament means (rotations, a game's winner,
the ranking, the bracket, the pot) is the engine's (`engine.teams`); the rows keep what
happened, so every figure can be worked out again from them.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from tournaments.kernel.audit import AuditRow
from tournaments.kernel.links import TableLink, one_live_link
from tournaments.kernel.member_links import LinkSource, evening_label, register_link_source
from tournaments.kernel.models import Play, status_valid


class League(models.Model):
    """Several weekly tournaments of one club with one team list: the standings add the weeks
    up, "through week N". Each week is a `Tournament` whose `league` is this row."""

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=160)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league-detail", args=[self.pk])


class TournamentStatus(models.TextChoices):
    """Where a tournament stands, from its setting up to its publishing."""

    DRAFT = "draft", "Draft"
    RUNNING = "running", "Running"
    PLAYOFF = "playoff", "Playoff"
    FINISHED = "finished", "Finished"
    PUBLISHED = "published", "Published"


class Tournament(Play):
    """One tournament (or one league week). `settings` is the engine's checked settings as
    stored by `teams.services.teams` (the game, the rotation, rounds, byes, forfeits, ranking keys,
    fees, prizes, the pot, the playoff); they are fixed once the draw is made."""

    Status = TournamentStatus

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.PROTECT, related_name="team_tournaments"
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="weeks"
    )
    week = models.PositiveSmallIntegerField(default=1)
    settings = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The round being played (0 before the draw). Its tables are stored; its games come in
    # table by table; the next round is drawn when all are in.
    round = models.PositiveSmallIntegerField(default=0)
    round_started_at = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    # Draw the next round by itself the moment the round's last game is confirmed.
    moves_on = models.BooleanField(default=False)
    # Counts every change a tablet or the room display shows.
    version = models.PositiveIntegerField(default=0)
    # The playoff: the engine's `Bracket.to_dict()`, {} until the director seeds it.
    bracket = models.JSONField(default=dict, blank=True)

    class Meta(Play.Meta):
        constraints = [
            status_valid(TournamentStatus, "tournament_status_valid"),
            models.UniqueConstraint(
                fields=["league", "week"],
                condition=Q(league__isnull=False),
                name="tournament_one_league_week",
            ),
        ]

    def get_absolute_url(self) -> str:
        return reverse("tournament-detail", args=[self.pk])

    @property
    def is_public(self) -> bool:
        """Anyone may read the standings: published, or live by the director's choice."""
        if self.status == self.Status.PUBLISHED:
            return True
        return self.live_public and self.status != self.Status.DRAFT


class TournamentTeam(models.Model):
    """A team of two. Numbers run from 1 without gaps, as the engine counts them; in a league
    `league_team` keeps the team the same from week to week. `present` is ticked at the door:
    the draw needs both players of every team there. A withdrawn team plays no round after
    `withdrawn_after`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    city = models.CharField(max_length=80, blank=True)
    player_one = models.CharField(max_length=120, blank=True)
    player_two = models.CharField(max_length=120, blank=True)
    # The club's members the two players are, where the director linked them.
    member_one = models.ForeignKey(
        "tournaments.Member",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="team_places_one",
    )
    member_two = models.ForeignKey(
        "tournaments.Member",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="team_places_two",
    )
    #: Each member link and the name field it stands behind (the register merges and erases by it).
    MEMBER_NAMES = {"member_one": "player_one", "member_two": "player_two"}
    # Money is recorded, not processed: what the team paid at the door, in cents.
    paid_cents = models.PositiveIntegerField(default=0)
    in_pot = models.BooleanField(default=False)
    present = models.BooleanField(default=False)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # In a league: the team's number in the league, the same every week whatever its number
    # on the night (a team taken off one week moves the others up a number for that week
    # only). The league table is kept by it. None outside a league.
    league_team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_team_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    def member_evening(self) -> tuple[str, Tournament]:
        """The format's word and the evening this row is in (the register's privacy tools
        reach every format's linked rows through it, importing none)."""
        return "team tournament", self.tournament


class TournamentRound(models.Model):
    """A round's tables as drawn: the engine's `Round.to_dict()`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    tables = models.JSONField()
    drawn_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_round_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of tournament {self.tournament_id}"


class TournamentGame(models.Model):
    """One table's game of a round (or a playoff match), as entered and as counted.

    `hands` holds the game's hands as the Bid Whist rules read them, in play order, when they
    were entered hand by hand; `score` the final score typed from a paper sheet otherwise.
    `result` is the engine's `GameResult.to_dict()`, worked out from either when the game
    counts (confirmed), or set directly for a forfeit or a bye. A game entered at a tablet
    waits for the other team; one the director enters counts at once."""

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered, waiting for the other team"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed: the director is called"

    class Kind(models.TextChoices):
        PLAYED = "played", "Played"
        FORFEIT = "forfeit", "Forfeit"
        BYE = "bye", "Bye"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    # A playoff match's id in the bracket ("" for a round's game).
    match = models.CharField(max_length=12, blank=True)
    home = models.PositiveSmallIntegerField()
    away = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYED)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    hands = models.JSONField(default=list, blank=True)
    score = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    # Which team entered it at the tablet ("home" or "away"; "" for the director's), and what
    # the other team entered on its own if it did before confirming: matching entries count.
    entered_by = models.CharField(max_length=4, blank=True)
    note = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=10, blank=True)
    entered_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "table", "match"],
                name="tournament_game_unique_table",
            )
        ]

    def __str__(self) -> str:
        return f"Round {self.round} table {self.table} of tournament {self.tournament_id}"


class TournamentTableAccess(TableLink):
    """A table's tablet link for the whole tournament (`kernel.links`: teams move, the tablet
    stays)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_access"
    )
    label = "Tournament table"

    class Meta:
        ordering = ["tournament", "table", "-created_at"]
        verbose_name_plural = "tournament table access"
        constraints = [one_live_link("tournament", "tournament_table_access_one_live_token")]


class TournamentAudit(AuditRow):
    """Who changed what in a tournament, when and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")

    class Meta(AuditRow.Meta):
        verbose_name_plural = "tournament audit entries"


# Where this format keeps players' names, for the sweep that links them to the club's members
# (`kernel.member_links.names_link`): registered as the models load, before any request.
register_link_source(
    LinkSource(
        format="tournament",
        model=TournamentTeam,
        club_path="tournament__club",
        evening=lambda row: evening_label(row.tournament),
        related=("tournament",),
    )
)
