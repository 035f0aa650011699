"""Background jobs sent by name: the one place the app hands work to Celery.

Services queue work here (always once their transaction has committed: `transaction.on_commit`,
or `tournaments.kernel.commits.after_commit` for work asked for once a commit; so a worker never
sees an id before its row is committed) and never import `tournaments.tasks`: the tasks call
the services, so the import goes one way only (see docs/development/architecture.md). The tasks
register under these names when `tournaments.tasks` is imported, which the app does as it starts
(`TournamentsConfig.ready`) and a worker does as it loads its tasks; with no broker
(`CELERY_TASK_ALWAYS_EAGER`) `apply_async` runs the task in place.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app

from tournaments.kernel.commits import after_commit

log = logging.getLogger(__name__)

RESCORE_EVENT = "clubwhist.rescore_event"
RESCORE_SWEEP = "clubwhist.rescore_sweep"
ANALYSE_EVENT_BOARDS = "clubwhist.analyse_event_boards"
BUILD_PRINT_PACK = "clubwhist.build_print_pack"
SEASON_PLAY_CHANGED = "clubwhist.season_play_changed"
SEASON_RECOMPUTE = "clubwhist.season_recompute"


def send(name: str, *args: Any, **options: Any) -> None:
    """Queue the task registered as `name` with these positional arguments and Celery's
    `apply_async` options (countdown, retry_policy, ...); raises what the broker raises."""
    current_app.tasks[name].apply_async(args, **options)


def season_play_changed(format_name: str, play_id: int) -> None:
    """Tell the season an evening was published or reopened ("event", "drive" or
    "tournament"), once the change is committed: its ledger lines are taken again and the
    competitions that count it recomputed. A broker that cannot be reached is logged, not
    raised: the publish stands, and the season's own check finds the evening out of date."""
    after_commit(_season_send, SEASON_PLAY_CHANGED, format_name, play_id)


def season_recompute(club_id: int) -> None:
    """Ask for every season table of the club to be computed again, once the change is
    committed (a member merged or forgotten changes who the ledger's lines belong to). As with
    `season_play_changed`, a broker that cannot be reached is logged, not raised."""
    after_commit(_season_send, SEASON_RECOMPUTE, club_id)


def _season_send(name: str, *args: Any) -> None:
    try:
        send(name, *args)
    except Exception as exc:
        log.warning("could not queue %s%r: %s", name, args, exc)
