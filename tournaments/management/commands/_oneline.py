"""The commands' base: a refusal (any ValueError, a file that cannot be read) is one line.

Django prints a `CommandError` as one line and exits with status 1; anything else ends in a
Python traceback, which tells a club's director nothing. The engine and the services raise
`ValueError` subclasses whose messages are written for people (a scoring method refusing a
result, a file that cannot be read, a name with a control character), so every command turns
those, and operating-system errors, into a `CommandError` with the same message. The leading
underscore keeps Django from listing this module as a command.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError


class OneLineCommand(BaseCommand):
    """A command whose refusals end in one line, never a traceback."""

    def execute(self, *args: Any, **options: Any) -> str | None:
        try:
            return super().execute(*args, **options)
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc) or type(exc).__name__) from None
