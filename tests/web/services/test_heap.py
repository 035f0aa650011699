"""The web entry points move what the loaded application holds out of the collector's sight
(`clubwhist.heap`): a full collection then walks what requests made, not all of Django."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from benchmarks.harness import ROOT

PROBE = """
import gc, json, sys
import {module}
print(json.dumps({{
    "frozen": gc.get_freeze_count(),
    "seen": len(gc.get_objects()),
    "views_loaded": "tournaments.api.tablets" in sys.modules,
}}))
"""


@pytest.mark.parametrize("module", ["clubwhist.asgi", "clubwhist.wsgi"])
def test_entry_point_freezes_the_loaded_application(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "clubwhist.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # The views are imported before the freeze, not by the first request after it.
    assert found["views_loaded"] is True
    # Django, DRF and the app are tens of thousands of objects; what the collector still
    # walks is what was made after the freeze (next to nothing here).
    assert found["frozen"] > 50_000
    assert found["seen"] < found["frozen"] // 20


WORKER_PROBE = """
import gc, json, sys
from clubwhist.celery import app
# Building the worker is what `celery worker` does before its pool starts: it sets Django up,
# imports the tasks and sends worker_init.
app.WorkController(pool_cls="solo", concurrency=1, hostname="probe@heap")
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "seen": len(gc.get_objects()),
    "tasks_loaded": "tournaments.tasks" in sys.modules,
}))
"""


def test_a_celery_worker_freezes_what_it_loaded_before_its_pool_forks() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WORKER_PROBE],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "clubwhist.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["tasks_loaded"] is True
    assert found["frozen"] > 50_000
    assert found["seen"] < found["frozen"] // 20
