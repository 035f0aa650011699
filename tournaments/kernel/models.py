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
from django.db.models.functions import Lower
from django.utils import timezone

from tournaments.kernel.audit import AuditRow


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
    # The club's scorers: they enter and correct its evenings' results, and change nothing
    # else (kernel.directors.scored). A second list beside the directors, so every rule
    # written for directors stays as it was.
    scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="scored_clubs", blank=True
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


class PublicName(models.TextChoices):
    """How public pages will show a member: the whole name, the initials, or not at all."""

    FULL = "full", "Full name"
    INITIALS = "initials", "Initials"
    HIDDEN = "hidden", "Hidden (\u201ca member\u201d)"


#: What a public page says for a member who chose to be hidden.
HIDDEN_NAME = "a member"


def initials_of(name: str) -> str:
    """A name as initials, as public pages will show a member who chose them.

    Each word becomes its first letter (in capitals) and a full stop; a double-barrelled word
    keeps its hyphen ("A.-M."); a word whose first letter stands before an apostrophe keeps the
    letter after it ("O'N.", "D'A."), so the O'Neils stay apart from the Neils; words in lower
    case ("van", "de", "la"), other than the first, are left out; a word with no letter too.

    >>> initials_of("Siân O'Neil")
    "S. O'N."
    >>> initials_of("Anne-Marie van der Berg")
    'A.-M. B.'
    >>> initials_of("Zoë Brontë")
    'Z. B.'
    """
    words = []
    for i, word in enumerate(name.split()):
        if i and word[:1].islower():
            continue
        parts = [_initial(piece) for piece in word.split("-")]
        parts = [p for p in parts if p]
        if parts:
            words.append("-".join(parts))
    return " ".join(words)


def _initial(piece: str) -> str:
    letters = [c for c in piece if c.isalpha()]
    if not letters:
        return ""
    if len(piece) > 2 and piece[0].isalpha() and piece[1] in "'\u2019" and piece[2].isalpha():
        return f"{piece[0].upper()}{piece[1]}{piece[2].upper()}."
    return f"{letters[0].upper()}."


class Member(models.Model):
    """One member of a club's register: the person behind the names the formats keep (linking
    them comes later). Visitors play without being members. A name appears once in a club,
    compared without regard to case; a membership number, when given, once too."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=120)
    number = models.CharField(max_length=20, blank=True)
    email = models.EmailField(max_length=254, blank=True)
    active = models.BooleanField(default=True)
    public_name = models.CharField(
        max_length=8, choices=PublicName.choices, default=PublicName.FULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Set when the member asked to be forgotten: the name, number and email are gone, the
    # history stays under "former member" (kernel.members.member_erase).
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="member_name_once_per_club"),
            models.UniqueConstraint(
                fields=["club", "number"],
                condition=~models.Q(number=""),
                name="member_number_once_per_club",
            ),
            models.CheckConstraint(
                condition=models.Q(public_name__in=list(PublicName.values)),
                name="member_public_name_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def shown_name(self) -> str:
        """The name public pages will show: the whole name, its initials (`initials_of`) or
        "a member", as the member chose."""
        if self.public_name == PublicName.INITIALS:
            return initials_of(self.name) or HIDDEN_NAME
        if self.public_name == PublicName.HIDDEN:
            return HIDDEN_NAME
        return self.name


class MemberAudit(AuditRow):
    """The register's trail: each addition, change and import of a club's members, with the
    columns every format's audit line has (`kernel.audit.AuditRow`)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="member_audit")
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )

    class Meta(AuditRow.Meta):
        pass


class Role(models.TextChoices):
    """What an invitation makes of the person who accepts it, in the club it is for."""

    DIRECTOR = "director", "Director"
    SCORER = "scorer", "Scorer"


class Invitation(models.Model):
    """An invitation to one club's people, sent by email to `email`: its link carries a random
    token, and only the token's SHA-256 is kept here, so a copy of the database (a backup, a
    log of queries) lets nobody in. It is good once, until `expires_at`, unless revoked
    (kernel.people says what each state means)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(max_length=254)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.DIRECTOR)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations_sent",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations_accepted",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=list(Role.values)), name="invitation_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.club} as {self.role}"


class PeopleAudit(AuditRow):
    """The trail of who may do what in a club: each invitation sent, accepted and revoked, and
    each person removed, with the columns every audit line has (`kernel.audit.AuditRow`)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="people_audit")

    class Meta(AuditRow.Meta):
        pass
