"""Numbers as files and people write them, read strictly.

`str.isdigit()` followed by `int()` is not a safe pair: `"²".isdigit()` is true and `int("²")`
fails, and `int()` refuses text of more than 4300 digits. `Fraction("1e999999999")` tries to
build a number with a billion digits. Every reader in the engine takes its whole numbers and
scores through these functions instead: plain ASCII digits, a bounded length, and None for
anything else, so each reader raises its own error with its own message.

>>> whole_number(" 12 "), whole_number("²"), whole_number("1" * 20)
(12, None, None)
>>> signed_number("-50"), exact_number("25/2"), exact_number("12.5"), exact_number("1e9")
(-50, Fraction(25, 2), Fraction(25, 2), None)
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["MAX_DIGITS", "exact_number", "quoted", "signed_number", "whole_number"]

#: No count, number or score in a whist file needs more digits than this.
MAX_DIGITS = 12

_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_DECIMAL = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}(?:\.[0-9]{{1,{MAX_DIGITS}}})?")
_FRACTION = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}/[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str) -> int | None:
    """`text` as a whole number from 0 (spaces around it allowed), else None."""
    cleaned = text.strip()
    return int(cleaned) if _WHOLE.fullmatch(cleaned) else None


def signed_number(text: str) -> int | None:
    """`text` as a whole number with an optional sign, else None."""
    cleaned = text.strip()
    return int(cleaned) if _SIGNED.fullmatch(cleaned) else None


def exact_number(text: str) -> Fraction | None:
    """`text` as an exact number: whole, decimal (`12.5`) or a fraction (`25/2`); no
    exponents, no division by zero; else None."""
    cleaned = text.strip()
    if _DECIMAL.fullmatch(cleaned):
        return Fraction(cleaned)
    if _FRACTION.fullmatch(cleaned) and not re.fullmatch(r"0+", cleaned.split("/")[1]):
        return Fraction(cleaned)
    return None


def quoted(value: object, limit: int = 40) -> str:
    """`repr(value)` cut to about `limit` characters, for a message that quotes what it
    refuses: a line of a file can be megabytes long, and the message is for a person.

    >>> quoted("9" * 100)
    "'99999999999999999999999999999999999'..."
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "'..."
