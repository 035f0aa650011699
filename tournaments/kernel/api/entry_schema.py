"""The OpenAPI schema of a result's `entry`, generated from the games' own entry fields.

Each game describes what a person enters (`GameRules.entry_fields`); this turns every distinct
field set (the defaults, and whatever an option changes, such as three-player Open Whist) into
one JSON Schema object, so a script writer reads the same fields, ranges and choices a director
sees on the traveller form. The engine still checks every entry and gives its own message.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework_dataclasses.serializers import DataclassSerializer

from engine.games import GameRules, find_variant, variant_names
from engine.games.entry import EntryField
from engine.games.options import OptionSpec
from tournaments.kernel.documents import EntryFieldView


def _property(field: EntryField) -> dict[str, Any]:
    words = field.label + (f": {field.help}" if field.help else "")
    conditions = [
        f"{other} is {' or '.join(str(v).lower() for v in values)}"
        for other, values in field.only_when
    ]
    if conditions:
        words += f" (only when {' and '.join(conditions)})"
    if field.kind == "int":
        return {
            "type": "integer",
            "minimum": field.minimum,
            "maximum": field.maximum,
            "description": words,
        }
    if field.kind == "choice":
        return {"type": "string", "enum": list(field.values()), "description": words}
    return {"type": "boolean", "description": words}


def _always(field: EntryField) -> bool:
    """Asked whenever the board was played: no condition but a flag (all passed) being off."""
    return all(False in values for _, values in field.only_when)


def _object(title: str, fields: list[EntryField]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "title": title, "properties": {}, "required": []}
    for field in fields:
        *outer, last = field.key.split(".")
        target = schema
        for part in outer:  # "tricks.N": N inside the object "tricks"
            if part not in target["properties"]:
                target["properties"][part] = {"type": "object", "properties": {}, "required": []}
                target["required"].append(part)
            target = target["properties"][part]
        target["properties"][last] = _property(field)
        if _always(field):
            target["required"].append(last)
    return schema


def _shapes(rules: GameRules, setting: str) -> list[dict[str, Any]]:
    """The entry's alternative objects: the played result, and each flag on its own (all
    passed) where the game has one."""
    fields = rules.entry_fields()
    title = f"{rules.title} result{setting}"
    shapes = [_object(title, [f for f in fields if f.kind != "flag"])]
    for flag in (f for f in fields if f.kind == "flag"):
        shapes.append(
            {
                "type": "object",
                "title": f"{rules.title}: {flag.label.lower()}",
                "properties": {flag.key: {"type": "boolean", "enum": [True]}},
                "required": [flag.key],
            }
        )
    return shapes


def _rule_variants(name: str) -> list[tuple[str, GameRules]]:
    """The game's rules at their defaults and at each listed value of each option, so every
    field set an event can have is described once ("" or " (players=3)", and the rules)."""
    rules_class = find_variant(name)
    found: list[tuple[str, GameRules]] = [("", rules_class())]
    for spec in rules_class.option_specs:
        for choice in spec.choices:
            try:
                found.append((f" ({spec.key}={choice})", rules_class({spec.key: choice})))
            except ValueError:
                continue  # a value that needs another option set too
    return found


def entry_schema() -> dict[str, Any]:
    shapes: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in variant_names():
        for setting, rules in _rule_variants(name):
            for shape in _shapes(rules, setting):
                key = repr((name, sorted(shape["properties"].items())))
                if key not in seen:
                    seen.add(key)
                    shapes.append(shape)
    return {
        "oneOf": shapes,
        "description": "The table result, as the event's game defines it (see docs/games/ "
        "for each game). The engine checks it and answers 400 with its own message.",
    }


def game_entry_schema(name: str) -> dict[str, Any]:
    """One game's entry, with every field set its options can give: `anyOf`, since the sets of
    one game overlap (an entry may match more than one)."""
    shapes: list[dict[str, Any]] = []
    for setting, rules in _rule_variants(name):
        for shape in _shapes(rules, setting):
            if shape not in shapes:
                shapes.append(shape)
    return {"anyOf": shapes}


@extend_schema_field(entry_schema())
class EntryJsonField(serializers.DictField):
    """A result's entry: a JSON object checked by the event's game (`parse_entry`)."""


@extend_schema_field(
    {
        "anyOf": entry_schema()["oneOf"],
        "description": "The result as entered: the game's entry (see `entry` of a submission).",
    }
)
class StoredEntryField(serializers.DictField):
    """A stored entry in an answer: `anyOf` the entry's shapes, since one game's field sets
    overlap (what is stored may match several)."""


def _option_schema(spec: OptionSpec) -> dict[str, Any]:
    """One option's value as the engine takes it (`OptionSpec.coerce`: a yes/no option also
    as the words yes or no, a number also as its digits)."""
    words = {"description": spec.help} if spec.help else {}
    if spec.kind == "bool":
        return {"anyOf": [{"type": "boolean"}, {"type": "string"}], **words}
    if spec.kind == "int":
        return {"anyOf": [{"type": "integer"}, {"type": "string"}], **words}
    if spec.kind == "choice":
        choice = {"type": "string", "enum": [str(c) for c in spec.choices]}
        if "yes" in spec.choices:
            return {"anyOf": [choice, {"type": "boolean"}], **words}
        return {**choice, **words}
    return {"type": "string", **words}


def options_schema(game: str, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """A game's options: an object whose keys are the game's own (`option_specs`)."""
    specs = [s for s in find_variant(game).option_specs if s.key not in leave_out]
    return {
        "type": "object",
        "description": f"The {game} game's options, by name; any left out take their default.",
        "properties": {spec.key: _option_schema(spec) for spec in specs},
    }


#: A value an entry field may hold: a choice, a number or a flag.
_ENTRY_VALUE = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}


@extend_schema_field(
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {"anyOf": [{"type": "string"}, {"type": "array", "items": _ENTRY_VALUE}]},
    }
)
class OnlyWhenField(serializers.ListField):
    """One condition: [the other field's key, [the values it must hold]]."""


class EntryFieldViewOut(DataclassSerializer[EntryFieldView]):
    only_when = serializers.ListField(
        child=OnlyWhenField(),
        help_text="Pairs [other field, [values]]: the field is asked only when every named "
        "field holds one of its values.",
    )

    class Meta:
        dataclass = EntryFieldView
