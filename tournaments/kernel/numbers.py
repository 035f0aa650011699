"""Whole numbers read from a request: one rule for every query string, form field, path piece
and number sent as text, so a stray character is a clear refusal and never a server error.

The rule is the engine's (`engine.reading`): plain ASCII digits 0-9, at most `MAX_DIGITS` of
them, a minus only where a negative number makes sense. The pair `str.isdigit()` then `int()`
is not safe: "²" passes the first and breaks the second; `int()` also takes "١٢", "５" and
" +3 ", and answers text of more than 4300 digits with a message about `sys`. Whatever is
refused here raises `NumberRefused`, whose message names the field and says what it takes:
pages show it (a 400 or a form error), the API answers it as a 400 (it is a `ValueError`, which
`tournaments.kernel.api.errors` turns into one), and no one ever sees Python's own words.

>>> whole("12", "Week", low=1, high=52)
12
>>> whole("²", "Week", low=1, high=52)
Traceback (most recent call last):
...
tournaments.kernel.numbers.NumberRefused: Week must be a whole number from 1 to 52.
>>> optional_whole(" ", "Seed") is None
True
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpResponse
from rest_framework import serializers

from engine.reading import MAX_DIGITS, signed_number, whole_number
from tournaments.kernel.refusals import Refused

__all__ = [
    "MAX_DIGITS",
    "NumberRefused",
    "WholeNumberField",
    "WholeNumberFormField",
    "expected",
    "optional_whole",
    "refused_page",
    "whole",
]


class NumberRefused(Refused):
    """A value sent for a whole number that is not one this field takes."""

    def __init__(self, field: str, expected: str) -> None:
        self.field = field
        self.expected = expected
        super().__init__(f"{field} must be {expected}.")


def expected(low: int | None, high: int | None) -> str:
    """What a field takes, in words: "a whole number from 1 to 52"."""
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    digits = f"plain digits 0-9, at most {MAX_DIGITS} of them"
    if low is not None:
        return f"a whole number from {low} up ({digits})"
    if high is not None:
        return f"a whole number up to {high} ({digits})"
    return f"a whole number ({digits}, with a minus sign if negative)"


def whole(raw: object, field: str, *, low: int | None = 0, high: int | None = None) -> int:
    """`raw` (text from a request, or an int from JSON) as a whole number from `low` to `high`
    (either None: unbounded on that side, still at most `MAX_DIGITS` digits), else
    `NumberRefused` naming `field`. A negative number is read only when `low` allows one."""
    number: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        number = raw if len(str(abs(raw))) <= MAX_DIGITS else None
    elif isinstance(raw, str):
        negative = low is None or low < 0
        number = signed_number(raw) if negative else whole_number(raw)
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        raise NumberRefused(field, expected(low, high))
    return number


def optional_whole(
    raw: object, field: str, *, low: int | None = 0, high: int | None = None
) -> int | None:
    """As `whole`, with nothing sent (None, or text of spaces only) read as None."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return whole(raw, field, low=low, high=high)


def refused_page(refused: NumberRefused) -> HttpResponse:
    """The 400 a page answers when its address holds a number it does not take."""
    return HttpResponse(str(refused), status=400, content_type="text/plain; charset=utf-8")


class WholeNumberField(serializers.IntegerField):
    """The API's whole number under the same rule: a JSON number, or the same digits as text;
    its refusal is the rule's message for the field, never `int()`'s."""

    def to_internal_value(self, data: Any) -> int:
        try:
            return whole(data, self.field_name or "value", low=self.min_value, high=self.max_value)
        except NumberRefused as refused:
            raise serializers.ValidationError(str(refused), code="invalid") from None


class WholeNumberFormField(forms.IntegerField):
    """A form's whole number under the same rule (Django's own takes "١٢" and "+3")."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        low = self.min_value if isinstance(self.min_value, int) else None
        high = self.max_value if isinstance(self.max_value, int) else None
        try:
            return whole(value, str(self.label or "This field"), low=low, high=high)
        except NumberRefused as refused:
            raise forms.ValidationError(str(refused), code="invalid") from None
