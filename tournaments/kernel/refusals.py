"""The error base every refusal of the app derives from, and the one HTTP status of each kind.

A service refuses with a message written for a player or a director; what differs is the kind
of refusal, and the kind alone decides the HTTP status the API answers with
(`tournaments.kernel.api.errors`): the formats' views no longer map errors of their own. A refusal
is a `ValueError`, as the engine's are, so the pages and commands that catch `ValueError` go on
catching every one of them.
"""

from __future__ import annotations

from enum import Enum
from http import HTTPStatus
from typing import Any, ClassVar


class Kind(Enum):
    """What sort of refusal, whatever the format that refuses."""

    BAD_INPUT = "bad input"  # the request itself is wrong: the message says what to send
    FORBIDDEN = "forbidden"  # a table link asking for what is not its table's
    NOT_FOUND = "not found"  # no such thing (or none this caller may learn of)
    CONFLICT = "conflict"  # contradicts what is stored: another entry, the other side's figures
    CLOSED = "closed"  # the play is not open for this (not started yet, or over)


#: The one mapping of refusals to HTTP: a view never picks a refusal's status itself.
STATUS: dict[Kind, HTTPStatus] = {
    Kind.BAD_INPUT: HTTPStatus.BAD_REQUEST,
    Kind.FORBIDDEN: HTTPStatus.FORBIDDEN,
    Kind.NOT_FOUND: HTTPStatus.NOT_FOUND,
    Kind.CONFLICT: HTTPStatus.CONFLICT,
    Kind.CLOSED: HTTPStatus.CONFLICT,
}


class Refused(ValueError):
    """A request the app will not carry out; the message says why and what to do instead."""

    kind: ClassVar[Kind] = Kind.BAD_INPUT

    @property
    def status(self) -> int:
        """The HTTP status the API answers this refusal with (from its kind, never chosen
        by a view)."""
        return int(STATUS[self.kind])

    def details(self) -> dict[str, Any]:
        """What the API's answer carries besides the message: nothing, unless the refusal
        has more to show (the stored result a submission contradicts)."""
        return {}


def refusal_classes() -> list[type[Refused]]:
    """Every refusal class loaded so far, the base first: for the API's documentation and
    the test that each maps to exactly one status."""
    found: list[type[Refused]] = [Refused]
    for cls in found:
        found.extend(sub for sub in cls.__subclasses__() if sub not in found)
    return found
