"""Health checks for /health: the database, the broker, the workers, and this process's
live-results streams.

A check never raises: it reports what it found so an operator sees every failing part at once.
Anyone (an uptime monitor) is told each part's status; only a signed-in staff member also gets
the details (the database's kind, worker host names, error texts), which would tell an
attacker what the server runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

from clubwhist.celery import app as celery_app
from tournaments.kernel import live


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # "ok", "eager", "down"
    required: bool
    detail: str = ""

    @property
    def failing(self) -> bool:
        return self.required and self.status == "down"

    def as_dict(self, *, detail: bool = True) -> dict[str, Any]:
        shown: dict[str, Any] = {"status": self.status, "required": self.required}
        if detail:
            shown["detail"] = self.detail
        return shown


def check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down", with its text
        return Check("database", "down", True, f"{type(exc).__name__}: {exc}")
    return Check("database", "ok", True, connection.vendor)


def check_broker() -> Check:
    if settings.CELERY_EAGER:
        return Check("broker", "eager", False, "REDIS_URL unset: tasks run in-process")
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return Check("broker", "down", True, f"{type(exc).__name__}: {exc}")
    return Check("broker", "ok", True, "redis")


def check_worker() -> Check:
    if settings.CELERY_EAGER:
        return Check("worker", "eager", False, "tasks run in the web process")
    try:
        replies = celery_app.control.ping(timeout=settings.HEALTH_WORKER_TIMEOUT)
    except Exception as exc:
        return Check("worker", "down", True, f"{type(exc).__name__}: {exc}")
    if not replies:
        return Check("worker", "down", True, "no worker answered the ping")
    names = sorted(name for reply in replies for name in reply)
    return Check("worker", "ok", True, f"{len(names)} worker(s): {', '.join(names)}")


def check_streams() -> Check:
    """Never failing: how many members follow live results from this process, and how many
    were turned away at a cap (settings LIVE_STREAMS_*), which would say the caps are low."""
    open_now, addresses, turned_away = live.SLOTS.counts()
    return Check(
        "live_streams",
        "ok",
        False,
        f"{open_now} open from {addresses} address(es) in this process; "
        f"{turned_away} reader(s) turned away since it started",
    )


def run_checks() -> list[Check]:
    database = check_database()
    broker = check_broker()
    if broker.status == "down":
        worker = Check("worker", "down", True, "broker unreachable")
    else:
        worker = check_worker()
    return [database, broker, worker, check_streams()]
