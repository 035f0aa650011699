"""Shared fixtures: service gating, a real Celery worker, and a headless Chromium."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.services import CHROMIUM, missing_reason, require_services

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from
# such a thread unless told that this (test-only) use is safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SERVICE_MARKERS = ("postgres", "redis", "browser")


@pytest.fixture(autouse=True)
def _services_gate(request: pytest.FixtureRequest) -> None:
    for marker in SERVICE_MARKERS:
        if request.node.get_closest_marker(marker) is None:
            continue
        reason = missing_reason(marker)
        if reason is None:
            continue
        if require_services():
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)


def _database_url_for_workers() -> str:
    from django.db import connection

    cfg = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(str(cfg['NAME'])).resolve()}"
    user = cfg.get("USER") or ""
    password = f":{cfg['PASSWORD']}" if cfg.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{cfg['PORT']}" if cfg.get("PORT") else ""
    return f"postgres://{auth}{cfg.get('HOST') or '127.0.0.1'}{port}/{cfg['NAME']}"


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Any]:
    """A worker process on a queue of its own, pointed at the test database."""
    reason = missing_reason("redis")
    if reason is not None:
        if require_services():
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
        pytest.skip(reason)
    from clubwhist.celery import app
    from tests.support.celery_worker import WorkerProcess

    with django_db_blocker.unblock():
        database_url = _database_url_for_workers()
    worker = WorkerProcess(database_url=database_url, redis_url=os.environ["REDIS_URL"])
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = worker.queue
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()
        app.conf.task_default_queue = previous_queue


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = missing_reason("browser")
    if reason is not None:
        if require_services():
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        # Let the live server answer what the page still asked for, so no request is mid-way
        # through a transaction when the test database is flushed.
        with contextlib.suppress(Exception):  # a page that never settles is closed all the same
            page.wait_for_load_state("networkidle", timeout=5_000)
        context.close()
