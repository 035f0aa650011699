"""Celery tasks: thin wrappers that take ids, load nothing themselves and call one service.

The services queue them by name (`tournaments.kernel.jobs`) with `transaction.on_commit`, so a
worker never sees an id before its row is committed. Reruns are harmless (the services are
idempotent), which is what makes `acks_late` safe here: a task lost with its worker runs again
(and the sweep a worker runs when it connects to the broker, `clubwhist.celery.SweepOnConnect`,
does not wait for it).
"""

from __future__ import annotations

import logging
import os

from celery import shared_task

from tournaments.events.services.analysis import boards_analyse
from tournaments.events.services.printing import print_job_build
from tournaments.events.services.scoring import rescore_sweep as sweep
from tournaments.events.services.scoring import standings_refresh
from tournaments.kernel import jobs
from tournaments.seasons.services.seasons import competitions_recompute, play_changed

log = logging.getLogger(__name__)


@shared_task(name="clubwhist.ping")
def ping(payload: str) -> dict[str, str]:
    """Echo a payload back: proves the broker-worker-result path end to end (used by tests)."""
    return {"payload": payload, "pid": str(os.getpid())}


@shared_task(name=jobs.RESCORE_EVENT, acks_late=True, ignore_result=True)
def rescore_event(event_id: int) -> None:
    standings_refresh(event_id=event_id)


@shared_task(name=jobs.RESCORE_SWEEP, acks_late=True, ignore_result=True)
def rescore_sweep(reclaim: bool = False) -> None:
    queued = sweep(reclaim=reclaim)
    if queued:
        log.info("rescore sweep queued events %s", queued)


@shared_task(name=jobs.ANALYSE_EVENT_BOARDS, acks_late=True, ignore_result=True)
def analyse_event_boards(event_id: int) -> None:
    boards_analyse(event_id=event_id)


@shared_task(name=jobs.BUILD_PRINT_PACK, acks_late=True, ignore_result=True)
def build_print_pack(job_id: int) -> None:
    """Any print job: the pack, or one document too big to draw in a web request (the task
    keeps its first name so that jobs queued before an upgrade still find it)."""
    print_job_build(job_id=job_id)


@shared_task(name=jobs.SEASON_PLAY_CHANGED, acks_late=True, ignore_result=True)
def season_play_changed(format_name: str, play_id: int) -> None:
    """An evening published or reopened: the season's ledger takes it again, and the
    competitions of the seasons covering its date are recomputed."""
    play_changed(format_name=format_name, play_id=play_id)


@shared_task(name=jobs.SEASON_RECOMPUTE, acks_late=True, ignore_result=True)
def season_recompute(club_id: int) -> None:
    """A member merged or forgotten: every season table of the club computed again."""
    competitions_recompute(club_id=club_id, force=True)
