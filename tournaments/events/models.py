"""The duplicate pairs events' data model.

Rules that hold for one row live here (status transitions, display); anything that touches several
rows is a service in `tournaments/events/services/`. Invariants that must never break (one result
per pair per board, one movement row per table and round, unique pair numbers) are database
constraints, so two tablets racing each other cannot get past them.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from engine.scoring import pair_key
from tournaments.kernel.audit import AuditRow
from tournaments.kernel.links import TableLink, one_live_link
from tournaments.kernel.member_links import LinkSource, evening_label, register_link_source
from tournaments.kernel.models import Club, Member, Play, PlayStatus, status_valid


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_per_club")
        ]

    def __str__(self) -> str:
        return self.name


class Event(Play):
    Status = PlayStatus

    class Method(models.TextChoices):
        MATCHPOINTS = "mp", "Matchpoints"
        CROSS_IMPS = "cross-imps", "Cross-IMPs"
        BUTLER = "butler", "Butler"
        TOTAL = "total", "Total score"

    class Scale(models.TextChoices):
        EBU = "ebu", "EBU (2 per result beaten)"
        ACBL = "acbl", "ACBL (1 per result beaten)"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    game = models.CharField(max_length=20)  # an engine variant name: classic, bidwhist, ...
    options = models.JSONField(default=dict, blank=True)  # validated by the engine's rules class
    method = models.CharField(max_length=12, choices=Method.choices, default=Method.MATCHPOINTS)
    scale = models.CharField(max_length=4, choices=Scale.choices, default=Scale.EBU)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)

    class Advance(models.TextChoices):
        TABLE = "table", "When the table has finished its round"
        DIRECTOR = "director", "When the director starts the next round"

    # When the tablets move a table on to its next round.
    advance = models.CharField(max_length=8, choices=Advance.choices, default=Advance.TABLE)
    # Results processing outbox: every accepted change bumps results_version; the scorer records
    # the version it has scored. A gap means work to do, whatever happened to the queue.
    results_version = models.PositiveIntegerField(default=0)
    scored_version = models.PositiveIntegerField(default=0)
    rescore_queued_at = models.DateTimeField(null=True, blank=True)

    class Meta(Play.Meta):
        constraints = [
            status_valid(PlayStatus, "event_status_valid"),
            models.CheckConstraint(
                condition=Q(scored_version__lte=models.F("results_version")),
                name="event_scored_not_ahead",
            ),
        ]

    def get_absolute_url(self) -> str:
        return reverse("event-detail", args=[self.pk])

    @property
    def is_public(self) -> bool:
        """Members and anonymous visitors may read it: published, or live by the director's
        choice while it runs or is being checked."""
        if self.status == self.Status.PUBLISHED:
            return True
        return self.live_public and self.status in (self.Status.RUNNING, self.Status.FINISHED)

    @property
    def scoring_pending(self) -> bool:
        return self.scored_version < self.results_version

    @property
    def section(self) -> Section:
        """The event's one section (multi-section events are not built yet).

        Reads `sections.all()`, so a list that prefetched sections asks no query per event.
        """
        sections = list(self.sections.all())
        if len(sections) != 1:
            raise Section.DoesNotExist(f"event {self.pk} has {len(sections)} sections, not 1")
        return sections[0]


class Section(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(max_length=8, default="A")
    movement_kind = models.CharField(max_length=30)
    movement_params = models.JSONField(default=dict)
    tables = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    boards_per_round = models.PositiveSmallIntegerField()
    one_winner = models.BooleanField(default=False)
    relay_sets = models.JSONField(default=list, blank=True)  # [[round, set], ...]
    # The highest round the director has started (Event.Advance.DIRECTOR); tablets go no further.
    released_round = models.PositiveSmallIntegerField(default=1)
    # The round clock the director starts on the room view: when it ends (None: not running).
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="section_unique_name"),
            models.CheckConstraint(condition=Q(tables__gte=1), name="section_has_tables"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="section_has_rounds"),
            models.CheckConstraint(
                condition=Q(boards_per_round__gte=1), name="section_has_boards_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.name} section {self.name}"

    def direction_of(self, seat: str) -> str:
        """The direction a pair is stored with: "" in a one-winner field, where pair 3 is the
        same pair whichever seat it takes; "NS" or "EW" where each direction is a field."""
        return "" if self.one_winner else seat

    def pair_key(self, number: int, seat: str) -> str:
        """The engine's name for the pair ("3", "NS3"): scoring adjustments and session
        figures are keyed by it."""
        return pair_key(number, self.direction_of(seat) or None)

    def boards_of_set(self, board_set: int) -> range:
        """The board numbers of set `board_set`: set 1 is boards 1..k, set 2 is k+1..2k, and so
        on, k being the boards a round plays."""
        k = self.boards_per_round
        return range((board_set - 1) * k + 1, board_set * k + 1)


class Pair(models.Model):
    class Direction(models.TextChoices):
        NS = "NS", "North-South"
        EW = "EW", "East-West"
        NONE = "", "Either (one field)"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveSmallIntegerField()
    direction = models.CharField(max_length=2, choices=Direction.choices, blank=True, default="")
    player1 = models.CharField(max_length=120, blank=True)
    player2 = models.CharField(max_length=120, blank=True)
    # The club's members the two names are, where the director linked them (visitors stay
    # unlinked). The name fields keep the name as played; the link is who it was.
    member1 = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairs_first"
    )
    member2 = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairs_second"
    )
    #: Each member link and the name field it stands behind (the register merges and erases by it).
    MEMBER_NAMES = {"member1": "player1", "member2": "player2"}
    is_phantom = models.BooleanField(default=False)
    arrived_late = models.BooleanField(default=False)
    # The director's arrivals and departures during play, in the order made: each
    # {"round": r, "present": bool, "award": code}: from round r on the pair plays (it came
    # late and took the phantom's place) or not (it left: a phantom from then on). `award` is
    # the artificial score of its meetings while absent, NS/EW as seen from the pair left
    # waiting ("A+/NP": the waiting pair Ave+, the absent pair nothing). Before the first
    # change the pair was the opposite of that change; with none, `is_phantom` says all.
    # `is_phantom` always says how the pair stands after its last change.
    presence = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["section", "direction", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "number", "direction"], name="pair_unique_number"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.label}: {self.names}"

    @property
    def label(self) -> str:
        return f"{self.direction} {self.number}" if self.direction else f"Pair {self.number}"

    @property
    def names(self) -> str:
        if self.is_phantom:
            return self.PHANTOM_NAMES
        return " & ".join(n for n in (self.player1, self.player2) if n) or self.NAMES_TO_COME

    NAMES_TO_COME = "(names to come)"  # shown for a pair whose players are not named yet
    PHANTOM_NAMES = "Phantom (sit-out)"  # shown for a slot nobody fills

    def member_evening(self) -> tuple[str, Event]:
        """The format's word and the evening this row is in (the register's privacy tools
        reach every format's linked rows through it, importing none)."""
        return "pairs event", self.section.event

    def absent_rounds(self, rounds: int) -> frozenset[int]:
        """The rounds 1..`rounds` in which the pair is not there (see `presence`)."""
        return absent_rounds(self.is_phantom, self.presence, rounds)


def absent_rounds(phantom: bool, presence: list[dict[str, object]], rounds: int) -> frozenset[int]:
    """The rounds 1..`rounds` a pair misses, from its `is_phantom` and `presence` (kept apart
    from the model so that readers of plain values need no instance)."""
    if not presence:
        return frozenset(range(1, rounds + 1)) if phantom else frozenset()
    changes = sorted((int(str(c["round"])), bool(c["present"])) for c in presence)
    here = not changes[0][1]
    missed = set()
    for rnd in range(1, rounds + 1):
        for at, present in changes:
            if at == rnd:
                here = present
        if not here:
            missed.add(rnd)
    return frozenset(missed)


class Board(models.Model):
    class ParStatus(models.TextChoices):
        NONE = "none", "Par not computed"
        QUEUED = "queued", "Queued"
        DONE = "done", "Computed"
        FAILED = "failed", "Failed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    record = models.TextField()  # the board in PBN, as the engine writes it (engine.pbn)
    par = models.JSONField(null=True, blank=True)
    par_status = models.CharField(max_length=8, choices=ParStatus.choices, default=ParStatus.NONE)
    fouled = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Board {self.number}"


class MovementRow(models.Model):
    """One table in one round: who sits where and which board set is played."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="movement_rows")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_pair = models.PositiveSmallIntegerField()  # 0 = phantom/sit-out
    ew_pair = models.PositiveSmallIntegerField()
    board_set = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["section", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "round", "table"], name="movement_one_row_per_table_round"
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round} T{self.table}: {self.ns_pair} v {self.ew_pair}, set {self.board_set}"


class Result(models.Model):
    class Status(models.TextChoices):
        ENTERED = "entered", "Entered"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        CORRECTED = "corrected", "Corrected by the director"
        ARTIFICIAL = "artificial", "Artificial score"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="results")
    board_number = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    ew_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    entry = models.JSONField(null=True, blank=True)  # the game's entry, as the engine defines it
    ns_score = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    artificial_code = models.CharField(max_length=8, blank=True)  # e.g. "A+/A-"
    entered_by_device = models.CharField(max_length=80, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    idempotency_key = models.CharField(max_length=80, unique=True, default=uuid.uuid4)
    # Why the result looks like a slip ("NS took 11 tricks, but double dummy gives NS 7"):
    # the players were asked "are you sure?" and the director sees it on the room view.
    flag = models.CharField(max_length=200, blank=True)
    # When the opponents (or the director's traveller) confirmed it: the audit trail's line.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["section", "board_number", "ns_pair__number"]
        constraints = [
            # A pair plays a board once: whatever two tablets send, one result per meeting.
            models.UniqueConstraint(
                fields=["section", "board_number", "ns_pair"], name="result_once_per_ns_pair"
            ),
            models.UniqueConstraint(
                fields=["section", "board_number", "ew_pair"], name="result_once_per_ew_pair"
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="artificial", ns_score__isnull=True) & ~Q(artificial_code="")
                    | ~Q(status="artificial") & Q(ns_score__isnull=False) & Q(artificial_code="")
                ),
                name="result_score_or_artificial",
            ),
        ]

    def __str__(self) -> str:
        return f"Board {self.board_number}: {self.ns_pair_id} v {self.ew_pair_id}"

    #: `entered_by_device` of the artificial results the software gives by itself: a pair's
    #: absence (its meetings while it is away, `services.presence`) and the boards a table
    #: had not finished when the director started the next round (a late result typed for
    #: one of those replaces it).
    ABSENCE_DEVICE = "absence"
    UNFINISHED_DEVICE = "unfinished"

    #: The statuses that go into the standings; entered (not yet confirmed by the opponents)
    #: and disputed results wait.
    COUNTING = frozenset({Status.CONFIRMED, Status.CORRECTED, Status.ARTIFICIAL})

    @property
    def counts(self) -> bool:
        return self.status in self.COUNTING


class AuditEntry(AuditRow):
    """Who changed what, when and why: every director action on an event leaves one."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")

    class Meta(AuditRow.Meta):
        verbose_name_plural = "audit entries"


class Standings(models.Model):
    """A complete, immutable standings table; readers take the highest version."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    version = models.PositiveIntegerField()  # the event's results_version it was computed from
    computed_at = models.DateTimeField(default=timezone.now)
    data = models.JSONField()
    #: The public pages cache a standings row under its id (`selectors.public.snapshot_key`):
    #: one rewritten in place (a member forgotten, `kernel.member_privacy`) is stored as a new
    #: row instead, so no copy of the old one is ever read again.
    REWRITE_AS_NEW_ROW = True

    class Meta:
        ordering = ["event", "-version"]
        verbose_name_plural = "standings"
        constraints = [
            models.UniqueConstraint(fields=["event", "version"], name="standings_unique_version")
        ]

    def __str__(self) -> str:
        return f"Standings v{self.version} of {self.event_id}"


class TableAccess(TableLink):
    """A table's tablet link (`kernel.links`): whoever holds the token may read and write that
    table's meetings of the current round, nothing else."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="table_access")

    class Meta:
        ordering = ["section", "table", "-created_at"]
        verbose_name_plural = "table access"
        constraints = [one_live_link("section", "table_access_one_live_token")]


class DirectorCall(models.Model):
    """A table asking for the director; open until the director marks it handled."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="calls")
    table = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Reason(models.TextChoices):
        REVOKE = "revoke", "Revoke"
        BOARD = "board", "Wrong board or cards"
        CLAIM = "claim", "Claim or play disputed"
        RESULT = "result", "Result disputed"
        OTHER = "other", "Something else"

    note = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.OTHER)
    # The board of the disputed result this call is about (same table and round): the call
    # is settled when the director corrects that result.
    board_number = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    handled_at = models.DateTimeField(null=True, blank=True)
    # The table took the call back before the director came (a tap by mistake).
    cancelled = models.BooleanField(default=False)

    class Meta:
        ordering = ["handled_at", "-created_at"]

    def __str__(self) -> str:
        return f"Table {self.table} calls the director"


class PrintJob(models.Model):
    """A print pack, or one big document, being drawn in the background, and the finished PDF.

    `kind` is "pack" or the document's kind ("travellers"): a document too big to draw while
    the director waits is drawn by a job too (tournaments/events/services/printing.py). The PDF is
    kept in the row (a few megabytes, up to about 10 for the biggest event's travellers) so
    every web process and worker sees it without shared disk; only the newest few jobs of an
    event are kept. `fingerprint` sums up what the pack was made from (boards, pairs and names,
    results, paper, links), so the page can say when a pack no longer matches the event."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Being built"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=20, default="pack")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    paper = models.CharField(max_length=6, choices=Club.Paper.choices, default=Club.Paper.A4)
    base_url = models.CharField(max_length=200, blank=True)  # for the tablet links' QR codes
    done = models.PositiveSmallIntegerField(default=0)
    total = models.PositiveSmallIntegerField(default=0)
    step = models.CharField(max_length=60, blank=True)  # the part being drawn now
    fingerprint = models.CharField(max_length=64, blank=True)
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    pages = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"Print pack {self.pk} of event {self.event_id}: {self.status}"


# Where this format keeps players' names, for the sweep that links them to the club's members
# (`kernel.member_links.names_link`): registered as the models load, before any request.
register_link_source(
    LinkSource(
        format="event",
        model=Pair,
        club_path="section__event__club",
        evening=lambda row: evening_label(row.section.event),
        related=("section__event",),
    )
)
