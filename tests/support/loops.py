"""An event loop of its own for a test's coroutine.

`asyncio.run` refuses to start where a loop already runs, and a test process that has run a
browser test has one: Playwright's sync driver keeps its loop for the whole session. Tests
of the async streams run their coroutine through `run_apart`, in a thread of its own, so
they pass whatever ran before them in their process."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """`asyncio.run(make())` in a thread of its own; its result, or its exception raised here."""
    found: list[T] = []
    failed: list[BaseException] = []

    def main() -> None:
        try:
            found.append(asyncio.run(make()))
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    runner = threading.Thread(target=main)
    runner.start()
    runner.join()
    if failed:
        raise failed[0]
    return found[0]
