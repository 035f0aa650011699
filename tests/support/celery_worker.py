"""A real Celery worker process for tests, started and stopped by a fixture.

The worker listens on a queue of its own so a developer's running worker never steals test
tasks, and uses the test database so tasks see what the test committed. It is the club
night's worker (`benchmarks/_club_night.py`), which the load and fault tests also kill and
restart.
"""

from __future__ import annotations

from benchmarks._club_night import CeleryWorker as WorkerProcess

__all__ = ["WorkerProcess"]
