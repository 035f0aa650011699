"""Work to run once the current transaction commits: `after_commit`, for every format.

Django's `transaction.on_commit` runs every callback it is given, however many times the same
work was asked for, and a robust callback that fails is logged by its `__qualname__`, which a
`functools.partial` has not: the log line itself then fails, and the error it was meant to
swallow escapes the commit it was meant to survive. Here each callback carries its name, and
may carry a key: asking again under a key that already waits for the same commit adds
nothing. A results file of 200 lines, or a simulated evening committed in one go, asks for
its event's rescore once instead of 200 times: each ask claims the event's rescore slot, and on
the laptop, where jobs run in place, runs the task, which locks the event to find the
standings already up to date (some 14 ms apiece, measured on a simulated season).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django.db import transaction


class Callback:
    """`func(*args)`, named as `func` is (Django's log names a failing callback), and
    the key it was asked for under (None: every request runs)."""

    def __init__(self, func: Callable[..., object], args: tuple[Any, ...], key: Hashable) -> None:
        self.func = func
        self.args = args
        self.key = key
        self.__qualname__ = getattr(func, "__qualname__", repr(func))

    def __call__(self) -> None:
        self.func(*self.args)

    def __repr__(self) -> str:
        return f"<after commit: {self.__qualname__}{self.args!r}>"


def after_commit(
    func: Callable[..., object],
    *args: Any,
    key: Hashable = None,
    robust: bool = True,
    using: str | None = None,
) -> None:
    """Run `func(*args)` once the current transaction commits (at once outside one); not at
    all if it rolls back. With a `key`, only the first request under that key waiting for
    this commit counts (one rolled back with its savepoint no longer waits, so a later
    request counts again). `robust` (the default): a failure is logged and the code after the
    commit goes on, for work the committed change does not depend on (a rescore, a cache, a
    stream's wake-up, each with its own way of catching up)."""
    connection = transaction.get_connection(using)
    if key is not None and connection.in_atomic_block:
        # the callbacks waiting for this commit, those of savepoints rolled back removed
        for _savepoints, waiting, _robust in connection.run_on_commit:
            if isinstance(waiting, Callback) and waiting.key == key:
                return
    transaction.on_commit(Callback(func, args, key), using=using, robust=robust)
