"""Background jobs sent by name: the one place the app hands work to Celery.

Services queue work here (always from `transaction.on_commit`, so a worker never sees an id before
its row is committed) and never import `tournaments.tasks`: the tasks call the services, so the
import goes one way only (see docs/development/architecture.md). The tasks register under these
names when `tournaments.tasks` is imported, which the app does as it starts
(`TournamentsConfig.ready`) and a worker does as it loads its tasks; with no broker
(`CELERY_TASK_ALWAYS_EAGER`) `apply_async` runs the task in place.
"""

from __future__ import annotations

from typing import Any

from celery import current_app

RESCORE_EVENT = "clubwhist.rescore_event"
RESCORE_SWEEP = "clubwhist.rescore_sweep"
ANALYSE_EVENT_BOARDS = "clubwhist.analyse_event_boards"
BUILD_PRINT_PACK = "clubwhist.build_print_pack"


def send(name: str, *args: Any, **options: Any) -> None:
    """Queue the task registered as `name` with these positional arguments and Celery's
    `apply_async` options (countdown, retry_policy, ...); raises what the broker raises."""
    current_app.tasks[name].apply_async(args, **options)


def known(name: str) -> bool:
    """Whether a task is registered as `name` (`send` raises KeyError for one that is not):
    for a service that asks for another package's job only once that package provides it."""
    return name in current_app.tasks
