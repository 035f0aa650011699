"""Forms for the director's pages. They check shape (required, numbers); the rules of the games
and of events are checked by the engine and the services, whose messages are shown as they are.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django import forms

from engine.games import find_variant, variant_names
from tournaments.models import Event


def game_choices() -> list[tuple[str, str]]:
    return [(name, find_variant(name).title) for name in variant_names()]


class EventSetupForm(forms.Form):
    name = forms.CharField(max_length=160, initial="Club night")
    date = forms.DateField(
        initial=dt.date.today, widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    game = forms.ChoiceField(choices=game_choices)
    pairs = forms.IntegerField(
        min_value=3,
        max_value=200,
        initial=12,
        label="Pairs present",
        help_text="Count every pair in the room; an odd number gets a sit-out.",
    )
    boards = forms.IntegerField(
        min_value=4,
        max_value=60,
        initial=24,
        label="Boards to play (about)",
    )
    method = forms.ChoiceField(choices=Event.Method.choices, initial=Event.Method.MATCHPOINTS)
    scale = forms.ChoiceField(choices=Event.Scale.choices, initial=Event.Scale.EBU)
    movement = forms.CharField(required=False, widget=forms.HiddenInput)


def option_fields(game: str) -> list[dict[str, Any]]:
    """The game's options as the engine describes them, ready for the setup template."""
    rules = find_variant(game)
    fields = []
    for spec in rules.option_specs:
        fields.append(
            {
                "key": spec.key,
                "name": f"opt-{game}-{spec.key}",
                "kind": spec.kind,
                "default": spec.default,
                "choices": list(spec.choices or ()),
                "help": spec.help,
            }
        )
    return fields


def options_from_post(game: str, data: Any) -> dict[str, Any]:
    """Collect `opt-<game>-<key>` fields; the engine validates the values and names bad ones."""
    rules = find_variant(game)
    options: dict[str, Any] = {}
    for spec in rules.option_specs:
        name = f"opt-{game}-{spec.key}"
        if spec.kind == "bool":
            options[spec.key] = data.get(name) in {"on", "true", "1", "yes"}
        elif name in data and data.get(name) != "":
            raw = data.get(name)
            options[spec.key] = (
                int(raw) if spec.kind == "int" and raw.lstrip("-").isdigit() else raw
            )
    return options


@dataclass(frozen=True)
class EntryField:
    key: str
    label: str
    kind: str  # "int", "seat", "choice", "bool"
    choices: tuple[tuple[str, str], ...] = ()
    width: int = 3


SEATS = (("N", "N"), ("E", "E"), ("S", "S"), ("W", "W"))
SUITS = (("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"))

# What a traveller line asks for in each game (the engine's entry keys; see README).
ENTRY_FIELDS: dict[str, tuple[EntryField, ...]] = {
    "classic": (EntryField("ns_tricks", "NS tricks", "int"),),
    "openwhist": (EntryField("ns_tricks", "NS tricks", "int"),),
    "candid": (
        EntryField("passed_out", "All pass", "bool"),
        EntryField("declarer", "Decl", "seat", SEATS),
        EntryField("bid", "Bid", "int"),
        EntryField("strain", "Strain", "choice", (*SUITS, ("NT", "NT"))),
        EntryField("tricks", "Tricks", "int"),
    ),
    "bidwhist": (
        EntryField("passed_out", "All pass", "bool"),
        EntryField("declarer", "Decl", "seat", SEATS),
        EntryField("bid", "Bid", "int"),
        EntryField(
            "kind",
            "Kind",
            "choice",
            (("uptown", "Uptown"), ("downtown", "Downtown"), ("notrump", "No trump")),
            width=9,
        ),
        EntryField("trumps", "Trumps", "choice", (("", "-"), *SUITS)),
        EntryField(
            "ranking",
            "NT rank",
            "choice",
            (("", "-"), ("uptown", "Uptown"), ("downtown", "Downtown")),
            width=9,
        ),
        EntryField("books", "Books", "int"),
    ),
}


def entry_from_post(game: str, data: Any, prefix: str) -> dict[str, Any] | None:
    """One traveller line's entry from the posted fields; None when the line was left empty."""
    entry: dict[str, Any] = {}
    for f in ENTRY_FIELDS[game]:
        raw = str(data.get(f"{prefix}{f.key}", "")).strip()
        if f.kind == "bool":
            if raw.lower() in {"on", "1", "true", "yes"}:
                entry[f.key] = True
            continue
        if raw == "":
            continue
        if f.kind == "int":
            try:
                entry[f.key] = int(raw)
            except ValueError:
                entry[f.key] = raw  # the engine says what is wrong with it
        else:
            entry[f.key] = raw.upper() if f.kind == "seat" or f.key in {"strain", "trumps"} else raw
    return entry or None


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
    file = forms.FileField(label="PBN file")


class MovePairForm(ReasonForm):
    first = forms.IntegerField(widget=forms.Select)
    second = forms.IntegerField(widget=forms.Select)
