"""Table results: the fields a person enters for a board (`EntryField`, from which forms,
tablet pickers, printed travellers and the API schema are generated) and the helpers the games
use to read and check an entry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from engine import EngineError
from engine.cards import Card, CardError, Seat, Suit
from engine.reading import quoted, signed_number, whole_number

__all__ = [
    "SEAT_CHOICES",
    "SUIT_CHOICES",
    "Choice",
    "Entry",
    "EntryError",
    "EntryField",
    "Score",
    "SessionTally",
    "check_fields",
    "clip",
    "counted",
    "entry_from_values",
    "expect_entry",
    "field_applies",
    "high_card_points",
    "int_field",
    "seat_field",
    "tricks_field",
    "values_from_entry",
]

Score = int | Fraction


class EntryError(EngineError):
    """A table result that the rules of the game do not allow."""


class Entry:
    """Base of the per-game table results (each a frozen dataclass)."""


@dataclass(frozen=True)
class Choice:
    """One allowed value of an entry field: the value the entry holds, the words a screen
    shows, and the few characters a printed traveller column has room for."""

    value: str
    label: str
    short: str = ""

    @property
    def mark(self) -> str:
        return self.short or self.label


@dataclass(frozen=True)
class EntryField:
    """One field of a table result as a person enters it.

    Forms, tablet pickers, printed traveller columns and the API schema are all generated from
    these, so a game describes its result once. `key` is the entry's key; a dotted key
    ("tricks.N") names a key inside a nested object. `kind` is "int" (from `minimum` to
    `maximum`), "choice" (one of `choices`) or "flag" (a yes/no that is left out when no).
    `only_when` lists (other field, values) pairs: the field is asked, and allowed, only when
    every named field holds one of those values (a flag that is not given counts as False).
    `parse_entry` stays the authority; the tests check that the two agree on every value.
    """

    key: str
    kind: str
    label: str
    short: str
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    only_when: tuple[tuple[str, tuple[object, ...]], ...] = ()
    help: str = ""

    def values(self) -> tuple[object, ...]:
        """Every value the field allows, in the order a picker shows them."""
        if self.kind == "int":
            assert self.minimum is not None and self.maximum is not None
            return tuple(range(self.minimum, self.maximum + 1))
        if self.kind == "choice":
            return tuple(choice.value for choice in self.choices)
        return (False, True)

    def choice(self, value: object) -> Choice | None:
        return next((c for c in self.choices if c.value == value), None)


def _lookup(data: Mapping[str, object], key: str) -> object:
    value: object = data
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def field_applies(field: EntryField, values: Mapping[str, object]) -> bool:
    """Whether `field` is asked given the other fields' `values` (flat, keyed by field key)."""
    for other, allowed in field.only_when:
        value = values.get(other)
        if value is None or value == "":
            value = False if False in allowed or True in allowed else None
        if value not in allowed:
            return False
    return True


_YES = {"on", "1", "true", "yes", "y"}


def entry_from_values(
    fields: Sequence[EntryField], values: Mapping[str, object]
) -> dict[str, object] | None:
    """The entry a form or a picker produced, from its flat text values; None when empty.

    Fields that do not apply (a trump suit left selected after choosing no-trump) are dropped,
    whole numbers are converted and anything unreadable is passed on as typed, so that
    `parse_entry` names what is wrong in the engine's own words.
    """
    flat: dict[str, object] = {}
    for field in fields:
        raw = values.get(field.key)
        text = "" if raw is None else str(raw).strip()
        if field.kind == "flag":
            if raw is True or text.lower() in _YES:
                flat[field.key] = True
            continue
        if text == "":
            continue
        if field.kind == "int":
            number = signed_number(text)
            flat[field.key] = number if number is not None else text
        else:
            match = next((c.value for c in field.choices if c.value.lower() == text.lower()), None)
            flat[field.key] = match if match is not None else text
    if not flat:
        return None
    entry: dict[str, object] = {}
    for field in fields:
        if field.key not in flat or not field_applies(field, flat):
            continue
        *outer, last = field.key.split(".")
        target = entry
        for part in outer:
            inner = target.setdefault(part, {})
            assert isinstance(inner, dict)
            target = inner
        target[last] = flat[field.key]
    return entry or None


def values_from_entry(
    fields: Sequence[EntryField], entry: Mapping[str, object] | None
) -> dict[str, str]:
    """A stored entry as flat text values, to fill a form (the reverse of `entry_from_values`)."""
    out: dict[str, str] = {}
    for field in fields:
        value = _lookup(entry or {}, field.key)
        if value is None or value is False:
            continue
        out[field.key] = "on" if value is True else str(value)
    return out


@dataclass(frozen=True)
class SessionTally:
    """What a game adds to a pair's session beyond its board scores (Candid Whist: bags).

    `adjustment` is added to the pair's session total in points (a penalty is negative);
    `shown` holds the figures the standings show beside the score, keyed as the game's
    `session_columns` name them.
    """

    adjustment: int
    shown: Mapping[str, int]


E = TypeVar("E", bound=Entry)


# ---- helpers for reading entries ----------------------------------------------------------


def check_fields(
    title: str, data: Mapping[str, object], required: Iterable[str], optional: Iterable[str] = ()
) -> None:
    """EntryError for a missing or an unknown field, naming it."""
    if not isinstance(data, Mapping):
        raise EntryError(f"a {title} result must be a set of named fields, not {quoted(data)}")
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in data:
        if key not in allowed:
            raise EntryError(
                f"a {title} result has no field {quoted(key)} "
                f"(fields: {', '.join(sorted(allowed))})"
            )
    for key in required:
        if data.get(key) is None:
            raise EntryError(f"a {title} result needs the {key}")


def int_field(data: Mapping[str, object], key: str, label: str) -> int:
    value = data.get(key)
    if isinstance(value, bool):
        raise EntryError(f"{label} must be a whole number, not {quoted(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        number = whole_number(value)
        if number is not None:
            return number
    raise EntryError(f"{label} must be a whole number, not {quoted(value)}")


def seat_field(data: Mapping[str, object], key: str, label: str = "the declarer") -> Seat:
    value = data.get(key)
    if isinstance(value, Seat):
        return value
    if isinstance(value, str):
        try:
            return Seat.from_str(value)
        except CardError:
            pass
    raise EntryError(f"{label} must be N, E, S or W, not {quoted(value)}")


def expect_entry(entry: Entry, kind: type[E], title: str) -> E:
    """The entry as this game's own type; EntryError for another game's result."""
    if not isinstance(entry, kind):
        raise EntryError(f"{type(entry).__name__} is not a {title} result")
    return entry


def counted(count: int, word: str = "trick") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_HCP = {14: 4, 13: 3, 12: 2, 11: 1}


def high_card_points(cards: Iterable[Card]) -> int:
    """A 4, K 3, Q 2, J 1 (jokers count nothing): Candid Whist's announcement, and the
    simulator's sense of a hand's strength."""
    return sum(_HCP.get(card.rank, 0) for card in cards if card.suit is not None)


def clip(value: float, low: int, high: int) -> int:
    return max(low, min(high, round(value)))


SEAT_CHOICES = tuple(Choice(seat.value, seat.full_name, seat.value) for seat in Seat)
SUIT_CHOICES = tuple(
    Choice(suit.value, f"{suit.symbol} {suit_name_plural}", suit.symbol)
    for suit, suit_name_plural in (
        (Suit.CLUBS, "clubs"),
        (Suit.DIAMONDS, "diamonds"),
        (Suit.HEARTS, "hearts"),
        (Suit.SPADES, "spades"),
    )
)


def tricks_field(key: str, label: str, short: str, total: int, help: str = "") -> EntryField:
    return EntryField(key, "int", label, short, minimum=0, maximum=total, help=help)
