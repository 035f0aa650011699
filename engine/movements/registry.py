"""Movements by name, for the command line and the tournaments app (`build("howell", ...)`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.movements.howell import MAX_HOWELL_TABLES, howell
from engine.movements.mitchell import mitchell
from engine.movements.model import Movement, MovementError
from engine.reading import quoted


def _mitchell(**params: Any) -> Movement:
    return mitchell(**params)


def _skip(**params: Any) -> Movement:
    if params.get("tables", 0) % 2:
        raise MovementError("a skip Mitchell needs an even number of tables")
    return mitchell(**params, even="skip")


def _relay(**params: Any) -> Movement:
    if params.get("tables", 0) % 2:
        raise MovementError("a share-and-relay Mitchell needs an even number of tables")
    return mitchell(**params, even="relay")


def _howell(**params: Any) -> Movement:
    return howell(**params)


KINDS: dict[str, Callable[..., Movement]] = {
    "mitchell": _mitchell,
    "skip-mitchell": _skip,
    "relay-mitchell": _relay,
    "howell": _howell,
}


#: The largest movements built, checked before any work (a club night is well inside them;
#: beyond them a request is a mistake or an attack, and would take minutes and gigabytes).
MAX_TABLES = 120
MAX_ROUNDS = 60
MAX_BOARDS_PER_ROUND = 10
MAX_ARROW_ROUNDS = MAX_ROUNDS
#: The most boards a movement within those limits plays (a Mitchell's set a table, 10 boards
#: a set): what an event's own boards, in its clubwhist JSON, are checked against before any
#: is read.
MAX_BOARDS = MAX_TABLES * MAX_BOARDS_PER_ROUND

_WHOLE = {"tables": (1, MAX_TABLES), "rounds": (1, MAX_ROUNDS)}
_WHOLE["boards_per_round"] = (1, MAX_BOARDS_PER_ROUND)
_WORDS = {"even": ("skip", "relay"), "phantom_seat": ("NS", "EW")}


def check_params(kind: str, params: dict[str, Any]) -> None:
    """MovementError, saying which setting and why, for settings that are not plain values of
    the right kind or that exceed the limits above; nothing is built until they pass."""
    if kind not in KINDS:
        raise MovementError(f"unknown movement {quoted(kind)}: choose one of {', '.join(KINDS)}")
    for key, value in params.items():
        if key in _WHOLE:
            low, high = _WHOLE[key]
            if key == "rounds" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise MovementError(f"{key} must be a whole number, not {quoted(value)}")
            if kind == "howell" and key == "tables":
                high = MAX_HOWELL_TABLES
            if not low <= value <= high:
                raise MovementError(f"{key} must be from {low} to {high} (got {value})")
        elif key == "phantom":
            if not isinstance(value, bool):
                raise MovementError(f"phantom must be true or false, not {quoted(value)}")
        elif key in _WORDS:
            if value not in _WORDS[key]:
                raise MovementError(f"{key} must be one of {', '.join(_WORDS[key])}")
        elif key == "arrow_switch":
            if not isinstance(value, list | tuple) or len(value) > MAX_ARROW_ROUNDS:
                raise MovementError("arrow_switch must be a list of round numbers")
            for item in value:
                if isinstance(item, bool) or not isinstance(item, int) or item < 1:
                    raise MovementError(f"arrow_switch: {quoted(item)} is not a round number")
        else:
            raise MovementError(f"{kind} has no setting {quoted(key)}")


def build(kind: str, **params: Any) -> Movement:
    """Build a movement by kind name: mitchell (odd tables; an even count gets the skip unless
    `even="relay"`), skip-mitchell, relay-mitchell, howell. Settings are checked first
    (`check_params`)."""
    check_params(kind, params)
    try:
        maker = KINDS[kind]
    except KeyError:
        raise MovementError(
            f"unknown movement {quoted(kind)}: choose one of {', '.join(KINDS)}"
        ) from None
    if "tables" not in params:
        raise MovementError("say how many tables")
    try:
        return maker(**params)
    except TypeError as exc:
        raise MovementError(f"{kind} does not take those settings ({exc})") from None
