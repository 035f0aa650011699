"""Shared fixtures: service gating, a real Celery worker, and a headless Chromium."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test.utils import override_settings
from hypothesis import settings

from benchmarks.harness import CeleryWorker
from clubwhist.settings import password_hashers
from tests.support.services import CHROMIUM, missing_reason, require_services

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from
# such a thread unless told that this (test-only) use is safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Passwords hashed with MD5, as Django's docs advise for tests (PBKDF2 costs ~0.2 s a director):
# set in the environment for the servers and workers the tests start, which must check the
# passwords this process hashed (clubwhist/settings.py, `password_hashers`).
os.environ["CLUBWHIST_TEST_FAST_HASHER"] = "1"

SERVICE_MARKERS = ("postgres", "redis", "browser")

# Hypothesis profiles: `ci` (the default, what `make test` and CI run) and `deep` for a long
# hunt before a release or after a change to a reader: `pytest --hypothesis-profile=deep ...`.
# Tests that set their own max_examples keep it; the fuzz tests take a share of the profile's
# (tests/fuzzing.py, `examples`). No deadline: two shared cores make timings noisy.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("deep", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """This process read its settings before this file set CLUBWHIST_TEST_FAST_HASHER (pytest-
    django loads them first): give it the same hashers its children get; and its PostgreSQL
    connections the tests' backend."""
    override_settings(PASSWORD_HASHERS=password_hashers(fast=True)).enable()
    # PostgreSQL emptied between transactional tests by DELETE, not TRUNCATE
    # (tests/support/postgresql/base.py says why). Django made its connection objects while
    # it set up, before any test could use them: each is dropped, to be made again, lazily,
    # by the tests' backend.
    from django.db import connections

    for alias in connections:
        database = connections.settings[alias]
        if database["ENGINE"] == "clubwhist.postgresql":
            database["ENGINE"] = "tests.support.postgresql"
            connections[alias].close()
            del connections[alias]


#: Where the tests marked solo live: `make test` runs them with `pytest -m solo tests/web/load`.
SOLO_HOME = "tests/web/load/"

#: Fixtures that start real processes or a browser's server: a file using one takes seconds a test.
_SLOW_FIXTURES = {"live_server", "club_night", "celery_worker"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow files first. `make test` hands out whole files to its test processes
    (pytest-xdist, `--dist loadfile`), in collection order (`--no-loadscope-reorder`; xdist's
    own order, most tests first, put the few-test browser, fault and walk files last, where
    one of them alone kept a process busy a minute after the others had finished). Slow: a
    file with a browser test, one that starts processes or a live server, or one marked
    `heavy`. Stable: every process sorts alike, as xdist requires."""
    slow: set[str] = set()
    for item in items:
        if item.get_closest_marker("solo") is not None and not item.nodeid.startswith(SOLO_HOME):
            # `make test` runs the solo tests from their folder only (collecting the whole
            # suite to pick two tests out cost 9 s): one elsewhere would never run there.
            raise pytest.UsageError(f"{item.nodeid} is marked solo: put it in {SOLO_HOME}")
        if (
            item.get_closest_marker("browser") is not None
            or item.get_closest_marker("heavy") is not None
            or _SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
        ):
            slow.add(item.nodeid.split("::", 1)[0])
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in slow)


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


@pytest.fixture(scope="session", autouse=True)
def _form_widgets_unrecorded(django_test_environment: None) -> Iterator[None]:
    """Django's own form templates render without the test signal. Under test, Django has
    every template render send `template_rendered`, and its test client keeps a copy of each
    render's context for `response.context`. Django draws every form widget, and every option
    of a select, with a template of its own (`django/forms/...`): in the security walks and
    the pages' tests they were 81,108 of 85,878 renders, and recording them took a fifth of
    those tests' CPU time (71.6 against 53.4 CPU seconds, one after the other). No test reads
    a widget's context: `response.context` still holds every page template's.
    Django keeps the renderer it replaced (`setup_test_environment`): the widgets get that one."""
    from django.template.base import Template
    from django.test.utils import _TestState

    recorded = Template._render
    plain = _TestState.saved_data.template_render

    def render(self: Template, context: Any) -> Any:
        name = self.origin.template_name
        if isinstance(name, str) and name.startswith("django/forms/"):
            return plain(self, context)
        return recorded(self, context)

    Template._render = render  # type: ignore[method-assign]
    try:
        yield
    finally:
        Template._render = recorded  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figures a run is judged by, together at its end where CI shows them: the load and
    fault tests' (results sent, lost, duplicated; how long the standings took to converge)
    and how many fuzz cases ran (tests/fuzzing.py counts them)."""
    from tests.fuzzing import ACCEPTED, RUN
    from tests.support.figures import FIGURES

    if FIGURES:
        terminalreporter.section("club night: results and convergence")
        for line in FIGURES:
            terminalreporter.write_line(line)
    if RUN:
        terminalreporter.section("fuzz cases run")
        for name, count in sorted(RUN.items()):
            accepted = f" ({ACCEPTED[name]} accepted)" if name in ACCEPTED else ""
            terminalreporter.write_line(f"{name}: {count}{accepted}")
        terminalreporter.write_line(f"total: {sum(RUN.values())}")


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
def processes_database_url(django_db_setup: Any, django_db_blocker: Any) -> str:
    """The test database as a URL, for processes of their own (a worker, gunicorn): they see
    what a `django_db(transaction=True)` test commits."""
    with django_db_blocker.unblock():
        return _database_url_for_workers()


@pytest.fixture(scope="session")
def celery_worker(processes_database_url: str) -> Iterator[CeleryWorker]:
    """A worker process on a queue of its own, pointed at the test database."""
    reason = missing_reason("redis")
    if reason is not None:
        if require_services():
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
        pytest.skip(reason)
    from clubwhist.celery import app

    worker = CeleryWorker(database_url=processes_database_url, redis_url=os.environ["REDIS_URL"])
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


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Every browser context a test opened is closed when it ends, before its fixtures are
    torn down. Left open, a tablet's page went on polling and streaming from the session's
    live server through the next tests (answered 404: its drive was gone), taking their CPU
    and the server's threads; and its requests met the database's flush at the test's end,
    which could deadlock with them. Closed first, nothing is in flight when the flush runs."""
    browser = getattr(item, "funcargs", {}).get("browser")
    if browser is not None:
        for context in list(browser.contexts):
            context.close()


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
