"""Form fields every format's director pages share: a name under the one rule for names, an
uploaded file with a size limit, and a game's entry read from a posted form."""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.conf import settings

from engine.games import GameRules
from engine.games.entry import entry_from_values
from engine.names import name_problem


class NameField(forms.CharField):
    """A name under the one rule for names (`engine.names`): a control character or a name
    longer than `max_length` is a form error saying what is wrong; the value is trimmed by
    the rule, not before it, so a name with a new line is refused rather than quietly cut."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = str(super().to_python(value))
        problem = name_problem(text, self.max_length or len(text))
        if problem is not None:
            raise forms.ValidationError(f"{problem[:1].upper()}{problem[1:]}.", code="name")
        return text.strip()


def entry_from_post(rules: GameRules, data: Any, prefix: str = "") -> dict[str, Any] | None:
    """One result's entry from posted fields named `<prefix><field key>`; None when the line
    was left empty. The fields are the game's own (`GameRules.entry_fields`); the engine then
    checks the entry and says what is wrong with it."""
    fields = rules.entry_fields()
    return entry_from_values(fields, {f.key: data.get(f"{prefix}{f.key}", "") for f in fields})


def megabytes(size: int) -> str:
    """A size for people, rounded up to a tenth: a file one byte over 5 MB is "5.1 MB", never
    a "5 MB" file refused for being over 5 MB."""
    return f"{math.ceil(size * 10 / MEGABYTE) / 10:g} MB"


class LimitedFileField(forms.FileField):
    """An uploaded file of at most UPLOAD_MAX_BYTES, refused by its size before anyone reads it
    (clubwhist/uploads.py has kept none of a bigger one), with a message that says how big it
    is, what the limit is, and `hint`: why no real file of this kind is that big."""

    def __init__(self, *, hint: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hint = hint

    def clean(self, data: Any, initial: Any = None) -> Any:
        upload = super().clean(data, initial)
        limit: int = settings.UPLOAD_MAX_BYTES
        if upload is not None and upload.size is not None and upload.size > limit:
            raise forms.ValidationError(
                f"The file is {megabytes(upload.size)}, the limit is {megabytes(limit)}: "
                f"{self.hint} Nothing was imported.",
                code="too_big",
            )
        return upload


MEGABYTE = 1024 * 1024
