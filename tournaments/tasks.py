"""Celery tasks: thin wrappers that take ids, load nothing themselves and call one service.

They are queued with `transaction.on_commit` by the services, so a worker never sees an id
before its row is committed. Reruns are harmless (the services are idempotent), which is what
makes `acks_late` safe here: a task lost with its worker runs again (and the sweep a worker
runs when it connects to the broker, `clubwhist.celery.SweepOnConnect`, does not wait for it).
"""

from __future__ import annotations

import logging
import os

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="clubwhist.ping")
def ping(payload: str) -> dict[str, str]:
    """Echo a payload back: proves the broker-worker-result path end to end (used by tests)."""
    return {"payload": payload, "pid": str(os.getpid())}


@shared_task(name="clubwhist.rescore_event", acks_late=True, ignore_result=True)
def rescore_event(event_id: int) -> None:
    from tournaments.services.scoring import standings_refresh

    standings_refresh(event_id=event_id)


@shared_task(name="clubwhist.rescore_sweep", acks_late=True, ignore_result=True)
def rescore_sweep(reclaim: bool = False) -> None:
    from tournaments.services.scoring import rescore_sweep as sweep

    queued = sweep(reclaim=reclaim)
    if queued:
        log.info("rescore sweep queued events %s", queued)


@shared_task(name="clubwhist.analyse_event_boards", acks_late=True, ignore_result=True)
def analyse_event_boards(event_id: int) -> None:
    from tournaments.services.analysis import boards_analyse

    boards_analyse(event_id=event_id)


@shared_task(name="clubwhist.build_print_pack", acks_late=True, ignore_result=True)
def build_print_pack(job_id: int) -> None:
    from tournaments.services.printing import print_pack_build

    print_pack_build(job_id=job_id)
