"""The request fields every format's API shares: text that refuses what is not a string, a
name under the one rule for names, a slug, and a list with a bound on its length."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.names import name_problem


class TextField(serializers.CharField):
    """Text in a request is text: a number, true or a list where the schema says string is
    refused (DRF's own CharField would turn 6.1e-05 into "6.1e-05" and store it), so what the
    API takes is what its schema documents. Every string field of the API is one of these."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class TrueOrFalse(serializers.BooleanField):
    """A JSON true or false, as the schema says `boolean`: DRF's own BooleanField takes 1, 0,
    "yes" and "off" too, so a request the schema calls invalid would be acted on."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class SlugText(serializers.SlugField):
    """A slug (a club's web address) under the same rule as `TextField`: text only."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class NameField(TextField):
    """A name under the one rule for names (`engine.names`): a control character or a name
    longer than `max_length` is a 400 naming the field and saying what is wrong; the value is
    trimmed by the rule, not before it, so "Ann\\n" is refused rather than quietly cut."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = name_problem(value, self.max_length or len(value))
        if problem is not None:
            raise serializers.ValidationError(f"{problem[:1].upper()}{problem[1:]}.")
        return value.strip()


class BoundedListField(serializers.ListField):
    """A list refused by its length before any item is read. DRF's ListField checks
    `max_length` only after validating every item, and 5 MB of JSON holds a million short
    names; a list serializer (`many=True`) checks it first already."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, list) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


#: The largest id a member choice may carry (a 64-bit key's): a larger number is a 400 in
#: words, never an overflow in the database.
MEMBER_ID_MAX = 2**63 - 1


class MemberChoiceField(serializers.IntegerField):
    """The club member a name stands for, chosen explicitly: a member's id, or null for a
    visitor (even when a member has that name). Left out, the name typed decides
    (`kernel.member_links`). Only JSON numbers: "12" is refused, as text is not an id."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MEMBER_ID_MAX)
        kwargs.setdefault(
            "help_text",
            "The club member this player is (their id), or null for a visitor; left out, "
            "the name links to the member whose name it is.",
        )
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))
