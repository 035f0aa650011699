"""Movements by name, for the command line and the tournaments app (`build("howell", ...)`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.movements.howell import howell
from engine.movements.mitchell import mitchell
from engine.movements.model import Movement, MovementError


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


def build(kind: str, **params: Any) -> Movement:
    """Build a movement by kind name: mitchell (odd tables; an even count gets the skip unless
    `even="relay"`), skip-mitchell, relay-mitchell, howell."""
    try:
        maker = KINDS[kind]
    except KeyError:
        raise MovementError(
            f"unknown movement {kind!r}: choose one of {', '.join(KINDS)}"
        ) from None
    if "tables" not in params:
        raise MovementError("say how many tables")
    try:
        return maker(**params)
    except TypeError as exc:
        raise MovementError(f"{kind} does not take those settings ({exc})") from None
