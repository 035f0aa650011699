"""The Celery application.

Configuration comes from Django settings (the CELERY_ namespace), so the broker is Redis when
REDIS_URL is set and tasks run eagerly in-process when it is not.
"""

import logging
import os
from typing import Any

from celery import Celery, bootsteps, signals

from clubwhist import heap
from tournaments.kernel.jobs import RESCORE_SWEEP

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
log = logging.getLogger(__name__)

app = Celery("clubwhist")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class SweepOnConnect(bootsteps.StartStopStep):
    """Each time a worker's consumer connects to the broker (at start, and again after the
    broker was away) it queues a sweep that reclaims every event whose standings are behind:
    work left by a worker that died, or results saved while Redis was down, is scored at once
    rather than at the next result or at beat's next sweep
    (`tournaments/events/services/scoring.py`). It runs after the task consumer is set up, so the
    broker is reachable when it sends."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        try:
            # By name, as the app sends every task (tournaments.kernel.jobs): the worker has loaded
            # the tasks by now, and this module is imported long before the app's models are.
            parent.app.tasks[RESCORE_SWEEP].apply_async(kwargs={"reclaim": True})
        except Exception as exc:  # gone again already: the next connection sweeps
            log.warning("could not queue the sweep on connecting: %s", exc)


app.steps["consumer"].add(SweepOnConnect)


@signals.worker_init.connect
def settle_heap(**_: Any) -> None:
    """Sent once the worker has set Django up and imported the tasks, before its pool forks:
    what is loaded then leaves the collector's sight, in this process and in every child
    (`clubwhist.heap`)."""
    heap.freeze_loaded()
