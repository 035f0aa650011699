"""Services of its own for each pytest-xdist worker (`make test` runs the tests in three).

Loaded with `-p tests.support.workers` (pyproject.toml's addopts), so it runs before
pytest-django reads the settings: conftest files come too late for that. pytest-django
already gives each worker a test database of its own (`test_<name>_gw0`, ...); what the
workers would still share is Redis. The tests clear the cache before each test (a worker
clearing the other's cache mid-test makes it read what it never wrote) and the cache's
database is the broker's number plus one (clubwhist/settings.py, `cache_url`), so each
worker takes two Redis databases of its own: gw0 the numbers REDIS_URL names, gw1 the two
after them, and so on (a CACHE_REDIS_URL, when one is set, moves on the same way). The
Celery workers, gunicorns and servers the tests start are given the same environment, so they
follow.

The figures the load, fault and fuzz tests count (tests/support/figures.py, tests/fuzzing.py)
are kept in the worker that ran them; each worker hands its own to the controller when it
ends, and the controller prints them all (tests/conftest.py, `pytest_terminal_summary`).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from clubwhist.environment import redis_database_moved

_FIGURES = "clubwhist_figures"
_RUN = "clubwhist_fuzz_run"
_ACCEPTED = "clubwhist_fuzz_accepted"


def redis_url_for_worker(url: str, worker: str) -> str:
    """A Redis URL for xdist worker `worker` ("gw0", "gw1", ...): its database moved on by two
    for each worker before it (broker and cache per worker)."""
    return redis_database_moved(url, 2 * int(worker.removeprefix("gw")))


def _isolate() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    for name in ("REDIS_URL", "CACHE_REDIS_URL"):
        url = os.environ.get(name, "").strip()
        if url:
            os.environ[name] = redis_url_for_worker(url, worker)


_isolate()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a worker: hand this worker's figures to the controller (plain lists and dicts, which
    is what xdist can send)."""
    output = getattr(session.config, "workeroutput", None)
    if output is None:
        return
    from tests.fuzzing import ACCEPTED, RUN
    from tests.support.figures import FIGURES

    output[_FIGURES] = list(FIGURES)
    output[_RUN] = dict(RUN)
    output[_ACCEPTED] = dict(ACCEPTED)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent when xdist is not installed
def pytest_testnodedown(node: Any, error: object) -> None:
    """In the controller: add a finished worker's figures to this process's."""
    output = getattr(node, "workeroutput", None) or {}
    from tests.fuzzing import ACCEPTED, RUN
    from tests.support.figures import FIGURES

    FIGURES.extend(output.get(_FIGURES, ()))
    RUN.update(output.get(_RUN, {}))
    ACCEPTED.update(output.get(_ACCEPTED, {}))
