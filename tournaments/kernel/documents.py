"""The typed documents' base every format's screens and API send: a frozen dataclass whose JSON
is its fields in order (`Document`), and the entry field a tablet's pickers are drawn from (an
engine `EntryField` as plain data), the same in every format's tablet state. Each format's own
documents (`events.selectors.documents`, `drives.selectors.documents`,
`teams.selectors.documents`) derive from these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any


def plain(value: Any) -> Any:
    """`value` as JSON-ready data: dataclasses as dicts in field order (or their own
    `to_dict`, which the engine's documents define), tuples as lists."""
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None and callable(to_dict):
        return to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    return value


class Document:
    """A dataclass whose JSON is its fields in order, nested documents as objects."""

    def to_dict(self) -> dict[str, Any]:
        assert is_dataclass(self)
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True)
class EntryChoiceView(Document):
    value: str
    label: str
    mark: str


@dataclass(frozen=True)
class EntryFieldView(Document):
    """An engine `EntryField` as plain data for the tablet page's pickers."""

    key: str
    kind: str
    label: str
    short: str
    help: str
    min: int | None
    max: int | None
    choices: tuple[EntryChoiceView, ...]
    # (other field, the values it must hold): sent as [other, [values...]]
    only_when: tuple[tuple[str, tuple[object, ...]], ...]


def entry_field_document(field: Any) -> EntryFieldView:
    """An engine `EntryField` as the tablet state's typed field."""
    return EntryFieldView(
        key=field.key,
        kind=field.kind,
        label=field.label,
        short=field.short,
        help=field.help,
        min=field.minimum,
        max=field.maximum,
        choices=tuple(
            EntryChoiceView(value=c.value, label=c.label, mark=c.mark) for c in field.choices
        ),
        only_when=tuple((other, tuple(values)) for other, values in field.only_when),
    )
