"""The drive set-up form: the director's choices in plain words, turned into engine settings.

The form only collects; the engine checks (`DriveSettings`), and its refusal, naming the
setting, is shown above the form. Defaults follow docs/games/drives.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

from django import forms
from django.db.models import QuerySet

from engine.drives import PRIZE_KINDS
from engine.drives.settings import MAX_PLAYERS
from engine.games import find_variant, variant_names
from tournaments.drives.services.base import DriveRefused
from tournaments.kernel.forms import NameField
from tournaments.kernel.member_links import BY_NAME, name_key
from tournaments.kernel.models import Club, Member
from tournaments.kernel.numbers import WholeNumberFormField

#: The move forms offered, as the engine's `MoveForm.to_dict()`.
MOVES: dict[str, tuple[str, dict[str, str]]] = {
    "progressive": ("Progressive: winners stay but part; losers move, A up, B down", {
        "form": "progressive", "losers": "split"}),
    "progressive-up": ("Progressive, both losers move up", {
        "form": "progressive", "losers": "up"}),
    "semi-partner": ("Semi-partner: winners stay together; losers move, A up, B down", {
        "form": "semi-partner", "losers": "split"}),
    "semi-partner-up": ("Semi-partner, both losers move up together", {
        "form": "semi-partner", "losers": "up"}),
    "partner": ("Partner drive: fixed partners, the winners move up", {
        "form": "partner", "movers": "winners", "direction": "up"}),
    "partner-losers": ("Partner drive: fixed partners, the losers move up", {
        "form": "partner", "movers": "losers", "direction": "up"}),
}  # fmt: skip

DEFAULT_PRIZES = "highest\nhighest\nhighest\nfirst_half\nbooby"


def drive_games() -> list[tuple[str, str]]:
    """Every game, by title; the engine refuses those a drive cannot play, saying why."""
    return [(name, find_variant(name).title) for name in variant_names()]


def prizes_from_text(text: str) -> list[dict[str, object]]:
    """One prize a line: its kind, then optionally a role (A or B) or, for a raffle,
    "everyone" ("highest B", "raffle everyone"); a label after a colon ("booby: wooden spoon")."""
    prizes: list[dict[str, object]] = []
    for line in text.splitlines():
        words, _, label = line.partition(":")
        parts = words.split()
        if not parts:
            continue
        prize: dict[str, object] = {"kind": parts[0].lower()}
        for extra in parts[1:]:
            if extra.lower() == "everyone":
                prize["everyone"] = True
            else:
                prize["role"] = extra
        if label.strip():
            prize["label"] = label.strip()
        prizes.append(prize)
    return prizes


class DriveForm(forms.Form):
    name = NameField(max_length=160, initial="Whist drive")
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    club = forms.ModelChoiceField(queryset=Club.objects.none(), required=False)
    game = forms.ChoiceField(choices=(), initial="classic")
    hands = WholeNumberFormField(min_value=1, max_value=60, initial=24)
    half_time = WholeNumberFormField(
        min_value=0,
        required=False,
        help_text="The break comes after this hand (empty: halfway, 0: none).",
    )
    scoring = forms.ChoiceField(
        choices=[
            ("odd_tricks", "Odd tricks (tricks above six)"),
            ("tricks", "Every trick"),
            ("", "The game's own scoring"),
        ],
        required=False,
        initial="odd_tricks",
    )
    trumps = forms.CharField(
        max_length=20, initial="HDSC", help_text="Suit letters in turn, N for a no-trump hand."
    )
    move = forms.ChoiceField(choices=[(k, v[0]) for k, v in MOVES.items()], initial="progressive")
    ends = forms.ChoiceField(
        choices=[("wrap", "Tables in a ring"), ("stay", "Top and bottom tables stay put")],
        initial="wrap",
    )
    short_table = forms.ChoiceField(
        choices=[
            ("sit_out", "Players left over sit out"),
            ("dummy", "Three left over play with a dummy"),
        ],
        initial="sit_out",
    )
    sit_out_score = forms.ChoiceField(
        choices=[("fixed", "A fixed number of tricks"), ("average", "The hand's average")],
        initial="fixed",
    )
    sit_out_tricks = WholeNumberFormField(min_value=0, max_value=13, initial=7)
    role_a = forms.CharField(max_length=20, initial="A", label="Role A's label")
    role_b = forms.CharField(max_length=20, initial="B", label="Role B's label")
    prizes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        initial=DEFAULT_PRIZES,
        help_text="One a line, in order: "
        + ", ".join(PRIZE_KINDS)
        + "; a role after it (highest B).",
    )
    tie_rule = forms.ChoiceField(
        choices=[("countback", "Count-back over the last hands"), ("shared", "Shared")],
        initial="countback",
    )
    one_prize_each = forms.BooleanField(required=False, initial=True)
    late_score = forms.ChoiceField(
        choices=[
            ("nothing", "Nothing: they score from the hand they join"),
            ("lowest", "The lowest score of each hand they missed"),
            ("average", "The average score of each hand they missed"),
        ],
        initial="nothing",
        required=False,
    )
    leavers_in_prizes = forms.BooleanField(required=False, initial=False)
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        help_text="One name a line (visitors, or anyone not ticked below); more can be added "
        "at the door until the start.",
    )
    members = forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": "A member ticked is no longer in the register's active list "
            "(taken off or made inactive meanwhile): reload the page and tick again.",
            "invalid_pk_value": "A member ticked is not one of the register's: reload the "
            "page and tick again.",
        },
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = clubs
        club_field.required = clubs.count() > 1
        members_field = self.fields["members"]
        assert isinstance(members_field, forms.ModelMultipleChoiceField)
        members_field.queryset = register_choices(clubs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = drive_games()

    def settings(self) -> dict[str, Any]:
        """The engine's settings (without the players, who come from the list)."""
        data = self.cleaned_data
        settings: dict[str, Any] = {
            "hands": data["hands"],
            "half_time": data["half_time"],
            "game": data["game"],
            "trumps": data["trumps"],
            "move": MOVES[data["move"]][1],
            "ends": data["ends"],
            "short_table": data["short_table"],
            "sit_out_score": data["sit_out_score"],
            "sit_out_tricks": data["sit_out_tricks"],
            "roles": [data["role_a"], data["role_b"]],
            "prizes": prizes_from_text(data["prizes"]),
            "tie_rule": data["tie_rule"],
            "one_prize_each": data["one_prize_each"],
            "late_score": data["late_score"] or "nothing",
            "leavers_in_prizes": data["leavers_in_prizes"],
        }
        if data["scoring"]:
            settings["scoring"] = data["scoring"]
        return settings

    def player_names(self) -> list[str]:
        """One player a line; reading stops one past MAX_PLAYERS, enough for the service to
        refuse the list, so a pasted page of a million lines is never read whole."""
        names = (line.strip() for line in self.cleaned_data["players"].splitlines())
        return list(islice((name for name in names if name), MAX_PLAYERS + 1))

    def chosen(self) -> list[Member]:
        """The members ticked in the register, by name."""
        return sorted(self.cleaned_data["members"], key=lambda m: (name_key(m.name), m.pk))

    def players_for(self, club: Club) -> tuple[list[str], list[Any]]:
        """The drive's players and, for each, the member it is linked to: the names typed
        (linked by the matching rule, `BY_NAME`), then each member ticked whose name was not
        typed already (a name both typed and ticked is one player, linked to the member
        ticked). A member of another of the director's clubs is refused: a drive's players
        are linked only to its own club's register."""
        names = self.player_names()
        links: list[Any] = [BY_NAME] * len(names)
        typed = {name_key(name): n for n, name in enumerate(names)}
        for member in self.chosen():
            if member.club_id != club.pk:
                raise DriveRefused(
                    f"{member.name} is a member of {member.club.name}, not of {club.name}: "
                    f"untick them, or choose {member.club.name} as the drive's club."
                )
            at = typed.get(name_key(member.name))
            if at is None:
                names.append(member.name)
                links.append(member.pk)
            else:
                links[at] = member.pk
        return names, links


def register_choices(clubs: QuerySet[Club]) -> QuerySet[Member]:
    """The members a director may tick when setting up a drive: the active, not erased
    members of the director's clubs, by club and name (a lapsed member is typed by name)."""
    found = Member.objects.filter(club__in=clubs, active=True, erased_at__isnull=True)
    return found.select_related("club").order_by("club__name", "club_id", "name", "id")


@dataclass(frozen=True)
class RegisterGroup:
    """One club's members as the new-drive page lists them to tick: (member, ticked)."""

    club: Club
    members: list[tuple[Member, bool]]


def register_groups(form: DriveForm) -> list[RegisterGroup]:
    """The register's members to tick, one group a club (a director of several clubs sees each
    club's under its name), each ticked as the director left it when the form comes back."""
    ticked = {str(v) for v in (form["members"].value() or [])}
    field = form.fields["members"]
    assert isinstance(field, forms.ModelMultipleChoiceField)
    groups: list[RegisterGroup] = []
    for member in field.queryset or ():
        if not groups or groups[-1].club.pk != member.club_id:
            groups.append(RegisterGroup(member.club, []))
        groups[-1].members.append((member, str(member.pk) in ticked))
    return groups
