"""A game's settings: each option declared once (`OptionSpec`) and read from Python values or
from command-line text, so forms, the API and the command line accept the same things."""

from __future__ import annotations

from dataclasses import dataclass

from engine import EngineError
from engine.reading import quoted, signed_number

__all__ = ["OptionSpec", "OptionsError"]


class OptionsError(EngineError):
    """A game option that does not exist or has a value the option does not take."""


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class OptionSpec:
    """One setting of a game: its key, kind ('choice', 'bool', 'int' or 'text'), default, and
    for people a one-line `help` and plain words for each choice (`labels`)."""

    key: str
    kind: str
    default: object
    choices: tuple[object, ...] = ()
    help: str = ""
    labels: tuple[str, ...] = ()  # each choice in plain words, for people (same order)

    def choice_labels(self) -> list[tuple[object, str]]:
        """(value, words) for each choice: the words given, else the value itself."""
        return [
            (value, self.labels[i] if i < len(self.labels) else str(value))
            for i, value in enumerate(self.choices)
        ]

    def coerce(self, value: object) -> object:
        """The option's value from Python or from command-line text; OptionsError if bad."""
        key = self.key
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise OptionsError(f"option {key} is yes or no, not {quoted(value)}")
        if self.kind == "int":
            number: int
            if isinstance(value, int) and not isinstance(value, bool):
                number = value
            elif isinstance(value, str) and signed_number(value) is not None:
                number = int(value.strip())
            else:
                raise OptionsError(f"option {key} is a whole number, not {quoted(value)}")
            if self.choices and number not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {key} must be one of {allowed}, not {number}")
            return number
        if self.kind == "choice":
            if isinstance(value, bool) and "yes" in self.choices:
                value = "yes" if value else "no"
            text = str(value).strip().lower() if isinstance(value, str) else value
            if text not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionsError(f"option {key} must be one of {allowed}, not {quoted(value)}")
            return text
        if self.kind == "text":
            if not isinstance(value, str):
                raise OptionsError(f"option {key} is text, not {quoted(value)}")
            return value.strip()
        raise OptionsError(
            f"option {key} has an unknown kind {quoted(self.kind)}"
        )  # pragma: no cover
