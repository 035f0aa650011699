"""The web entry points and the Celery worker move what the loaded application holds out of
the collector's sight (`clubwhist.heap`): a full collection then walks what requests and
tasks made, not all of Django."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from benchmarks.harness import ROOT

ENTRY_POINT = """
import sys
import {module}
loaded = "tournaments.events.api.tablets" in sys.modules
"""

WORKER = """
import sys
from clubwhist.celery import app
# Building the worker is what `celery worker` does before its pool starts: it sets Django up,
# imports the tasks and sends worker_init.
app.WorkController(pool_cls="solo", concurrency=1, hostname="probe@heap")
loaded = "tournaments.tasks" in sys.modules
"""

REPORT = """
import gc, json
print(json.dumps({"frozen": gc.get_freeze_count(), "seen": len(gc.get_objects()),
                  "loaded": loaded}))
"""


def probe(code: str) -> dict[str, Any]:
    """Run `code` in a fresh interpreter and tell what its collector holds afterwards."""
    done = subprocess.run(
        [sys.executable, "-c", code + REPORT],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "clubwhist.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def settled(found: dict[str, Any]) -> bool:
    """Django, DRF and the app are tens of thousands of objects; what the collector still
    walks is what was made after the freeze (next to nothing here)."""
    return bool(found["frozen"] > 50_000 and found["seen"] < found["frozen"] // 20)


@pytest.mark.parametrize("module", ["clubwhist.asgi", "clubwhist.wsgi"])
def test_entry_point_freezes_the_loaded_application(module: str) -> None:
    found = probe(ENTRY_POINT.format(module=module))
    # The views are imported before the freeze, not by the first request after it.
    assert found["loaded"] is True
    assert settled(found), found


def test_a_celery_worker_freezes_what_it_loaded_before_its_pool_forks() -> None:
    found = probe(WORKER)
    assert found["loaded"] is True
    assert settled(found), found
