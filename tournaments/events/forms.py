"""Forms for the director's pages: they check shape only (required fields, numbers).

The rules of the games and of events are checked by the engine and the services, whose
messages are shown as they are.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from engine.games import find_variant, variant_names
from engine.reading import signed_number
from tournaments.events.models import Event
from tournaments.kernel.forms import LimitedFileField, NameField
from tournaments.kernel.models import Club
from tournaments.kernel.names import RuleRefused, date_checked
from tournaments.kernel.numbers import WholeNumberFormField


def game_choices() -> list[tuple[str, str]]:
    return [(name, find_variant(name).title) for name in variant_names()]


class EventSetupForm(forms.Form):
    name = NameField(max_length=160, initial="Club night")
    date = forms.DateField(
        initial=dt.date.today, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    game = forms.ChoiceField(choices=game_choices)
    pairs = WholeNumberFormField(
        min_value=3,
        max_value=200,
        initial=12,
        label="Pairs present",
        help_text="Count every pair in the room; an odd number gets a sit-out.",
    )
    boards = WholeNumberFormField(
        min_value=4,
        max_value=60,
        initial=24,
        label="Boards to play (about)",
    )
    method = forms.ChoiceField(choices=Event.Method.choices, initial=Event.Method.MATCHPOINTS)
    advance = forms.ChoiceField(
        choices=Event.Advance.choices,
        initial=Event.Advance.TABLE,
        required=False,  # left out: each table moves on when it has finished
        label="Tablets move to the next round",
    )
    scale = forms.ChoiceField(choices=Event.Scale.choices, initial=Event.Scale.EBU)
    movement = forms.CharField(required=False, widget=forms.HiddenInput)
    club = forms.ModelChoiceField(queryset=Club.objects.none(), empty_label=None)

    def __init__(
        self, *args: Any, clubs: Any = None, first_club: bool = False, **kwargs: Any
    ) -> None:
        """`first_club`: no club exists yet (an administrator's first event); the view makes
        it with the event, so, as with a single club, there is nothing to choose (the cleaned
        club is then None)."""
        super().__init__(*args, **kwargs)
        # Only the clubs this director directs; with one there is nothing to choose.
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs if clubs is not None else Club.objects.none()
        self._only_club = clubs.first() if clubs is not None and clubs.count() == 1 else None
        if first_club:
            field.widget = forms.HiddenInput()
            field.required = False
        elif self._only_club is not None:
            field.widget = forms.HiddenInput()
            field.initial = self._only_club.pk
            field.required = False

    def clean_club(self) -> Club | None:
        return self.cleaned_data.get("club") or self._only_club

    def clean_date(self) -> dt.date:
        """The one rule for dates (`kernel.names.date_checked`), checked here as well so a
        date out of range is said with the first answer, not after a movement is picked."""
        try:
            return date_checked(self.cleaned_data.get("date"), what="the event's date")
        except RuleRefused as exc:
            raise forms.ValidationError(str(exc), code="date") from None


def option_fields(game: str, posted: Any = None) -> list[dict[str, Any]]:
    """The game's options as the engine describes them, ready for the setup template; `value`
    is what the director chose on the page before (the setup takes two steps), else the
    default."""
    rules = find_variant(game)
    chosen = options_from_post(game, posted) if posted else {}
    fields = []
    for spec in rules.option_specs:
        value = chosen.get(spec.key, spec.default)
        fields.append(
            {
                "key": spec.key,
                "name": f"opt-{game}-{spec.key}",
                "kind": spec.kind,
                "value": value,
                "choices": spec.choice_labels(),
                "help": spec.help,
            }
        )
    return fields


def options_from_post(game: str, data: Any) -> dict[str, Any]:
    """Collect `opt-<game>-<key>` fields; the engine validates the values and names bad ones.
    A number option is read by the one rule for numbers (`engine.reading`); text it does not
    read ("-²", "١٢") goes to the engine as typed, which refuses it by the option's name."""
    rules = find_variant(game)
    options: dict[str, Any] = {}
    for spec in rules.option_specs:
        name = f"opt-{game}-{spec.key}"
        if spec.kind == "bool":
            options[spec.key] = data.get(name) in {"on", "true", "1", "yes"}
        elif name in data and data.get(name) != "":
            raw = data.get(name)
            number = signed_number(raw) if spec.kind == "int" else None
            options[spec.key] = raw if number is None else number
    return options


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput(attrs={"placeholder": "Why (kept in the audit trail)"}),
    )


class ArtificialForm(ReasonForm):
    code = forms.ChoiceField(
        choices=[
            ("A", "Average to both (A)"),
            ("A+/A-", "Average+ NS / Average- EW"),
            ("A-/A+", "Average- NS / Average+ EW"),
            ("A+", "Average+ to both"),
            ("A-", "Average- to both"),
            ("NP", "Not played"),
        ]
    )


class ImportBoardsForm(forms.Form):
    file = LimitedFileField(
        label="PBN file",
        hint="that is not a board file (200 boards make under 100 KB): choose the .pbn file.",
    )
