"""Fixtures for the Django side: a director, a club, ready-made play of each format (an event,
a drive, a team tournament), and a club night's processes (gunicorn and a Celery worker) for
the load and fault tests. A test that needs one of the formats running starts here, not with a
helper of its own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from benchmarks.harness import VAR, CeleryWorker, WebServer
from tournaments.drives.models import Drive
from tournaments.drives.services.drives import drive_create, drive_start
from tournaments.events.models import Event
from tournaments.events.services.events import event_create, event_start
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament
from tournaments.teams.services.teams import team_arrive, tournament_create, tournament_start


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: cached pages of one test's event must not be
    served to another test whose event got the same id."""
    from django.core.cache import cache

    from tournaments.events.selectors.public import forget_snapshots

    cache.clear()
    forget_snapshots()


@pytest.fixture(autouse=True)
def _flush_is_never_the_deadlock_victim(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test beside a club night's processes, the database is emptied (TRUNCATE of
    every table, table after table) while the Celery worker may still be reading (a last
    rescore, the sweep). A reader holding one table and asking for another that TRUNCATE
    holds is a deadlock, and PostgreSQL ends the side that has waited longest when its
    `deadlock_timeout` runs out: the flush, which then fails the test's teardown. With a
    long timeout for the test's own connection (the other processes keep their 1 s), the
    reader's runs out first: its query fails (a task that is retried or dropped at a test's
    end) and the flush goes on. Every test gets it, not only those with a club night: the
    Celery worker a test process shares (`celery_worker`) may still be working on what an
    earlier test of a transactional kind queued when the flush comes (a drive test's teardown
    failed so once)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    flushed = marker is not None and bool(marker.kwargs.get("transaction"))
    if not flushed and not {"club_night", "transactional_db", "live_server"} & set(
        request.fixturenames
    ):
        return  # no flush follows this test (or no database at all)
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET deadlock_timeout = '60s'")


@pytest.fixture
def director(club: Club) -> Any:
    """A club director (not an administrator): directs the `club` fixture's club only."""
    return make_director(club)


def make_director(club: Club) -> Any:
    """The `director` fixture's account, for a fixture of wider scope: "td", directing `club`."""
    user = get_user_model().objects.create_user("td", password="pw-for-tests", is_staff=True)
    club.directors.add(user)
    return user


def director_account(username: str = "td", password: str = "secret-td-pw") -> Any:
    """A director (not an administrator) of every club there is now: browser tests make their
    events first, then log in."""
    user = get_user_model().objects.create_user(username, password=password, is_staff=True)
    for club in Club.objects.all():
        club.directors.add(user)
    return user


def log_in(page: Any, base_url: str, username: str = "td", password: str = "secret-td-pw") -> None:
    """Log a browser page in through the login form, as a director does (`director_account`'s
    name and password unless told otherwise)."""
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


@dataclass
class Mailbox:
    """The emails a real SMTP server (aiosmtpd, on a free loopback port) received."""

    port: int
    received: list[Any]

    def last_to(self, address: str) -> Any:
        found = [m for m in self.received if address in m["To"]]
        assert found, f"no email to {address}; received: {[m['To'] for m in self.received]}"
        return found[-1]


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[Mailbox]:
    """A real SMTP server on a free loopback port, and Django's SMTP backend pointed at it: an
    email the app sends crosses a socket and is parsed back, as a mail server would get it."""
    import socket
    from email import message_from_bytes
    from email import policy as email_policy

    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    box = Mailbox(port=port, received=[])

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            box.received.append(message_from_bytes(envelope.content, policy=email_policy.default))
            return "250 Message accepted for delivery"

    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture
def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def club(db: Any) -> Club:
    return club_get_or_create(name="Test Whist Club")


def make_event(
    club: Club,
    *,
    game: str = "classic",
    kind: str = "mitchell",
    params: dict[str, Any] | None = None,
    start: bool = True,
    user: Any = None,
    **extra: Any,
) -> Event:
    if game == "classic":
        # These fixtures' expected scores count every trick (classic's default is odd tricks).
        extra.setdefault("options", {"scoring": "tricks"})
    event = event_create(
        club=club,
        name=f"{game} test",
        game=game,
        movement_kind=kind,
        movement_params=params or {"tables": 3, "boards_per_round": 2},
        seed=11,
        user=user,
        **extra,
    )
    return event_start(event=event, user=user) if start else event


def make_drive(
    club: Club,
    *,
    players: int = 8,
    name: str = "Test drive",
    start: bool = True,
    seed: int = 4,
    user: Any = None,
    **settings: Any,
) -> Drive:
    """A drive of `players` players ("Player 1" ...), two hands unless `settings` say, started
    (its first seating drawn with `seed`) unless `start` is False."""
    drive = drive_create(
        club=club,
        name=name,
        settings={"hands": 2} | settings,
        players=[f"Player {n}" for n in range(1, players + 1)],
        user=user,
    )
    return drive_start(drive=drive, seed=seed, user=user) if start else drive


def make_tournament(
    club: Club,
    *,
    teams: int = 4,
    name: str = "Test teams",
    start: bool = True,
    seed: int = 2,
    league: League | None = None,
    user: Any = None,
    **settings: Any,
) -> Tournament:
    """A Swiss team tournament of `teams` teams ("Team 1" ...), two rounds unless `settings`
    say; every team arrived and the first round drawn with `seed` unless `start` is False."""
    tournament = tournament_create(
        club=club,
        name=name,
        settings={"rotation": "swiss", "rounds": 2} | settings,
        teams=[{"name": f"Team {n}"} for n in range(1, teams + 1)],
        league=league,
        user=user,
    )
    if start:
        for number in range(1, teams + 1):
            team_arrive(tournament=tournament, number=number, user=user)
        tournament_start(tournament=tournament, seed=seed, user=user)
        tournament.refresh_from_db()
    return tournament


@pytest.fixture
def running_event(club: Club, director: Any) -> Event:
    """Classic whist, 3-table Mitchell, 2 boards a round: 6 boards, 3 rounds."""
    return make_event(club, user=director)


def club_night_env(*, database_url: str, redis_url: str, queue: str) -> dict[str, str]:
    """The environment of a club night's gunicorn: the test database, this Redis, the
    worker's queue, and no per-link request limit (many requests from few links)."""
    return {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
        "TABLET_THROTTLE": "100000/min",
        "LOG_LEVEL": "WARNING",
    }


@dataclass
class ClubNight:
    """gunicorn and a Celery worker on the test database and the test run's Redis."""

    web: WebServer
    worker: CeleryWorker
    database_url: str
    web_app_name: str  # the web processes' PostgreSQL application_name


@pytest.fixture(scope="module")
def club_night(processes_database_url: str) -> Iterator[ClubNight]:
    """One set of processes for a module's tests (starting them takes seconds); a test that
    kills or stops one starts it again before it ends."""
    from clubwhist.celery import app
    from tests.support.services import missing_reason, require_services

    for marker in ("postgres", "redis"):
        reason = missing_reason(marker)
        if reason is not None:
            if require_services():
                pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
            pytest.skip(reason)
    redis_url = os.environ["REDIS_URL"]
    # With beat, as production runs it: its sweep is what scores a change whose request for a
    # rescore was itself lost (its database connection dropped just after the commit).
    worker = CeleryWorker(database_url=processes_database_url, redis_url=redis_url, beat=True)
    app_name = f"web-{worker.queue}"
    env = club_night_env(
        database_url=processes_database_url, redis_url=redis_url, queue=worker.queue
    )
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = worker.queue  # what this process queues goes to our worker
    with (VAR / f"{worker.queue}-web.log").open("w") as log:
        web = WebServer({**env, "PGAPPNAME": app_name}, log=log)
        try:
            worker.start()
            web.start()
            yield ClubNight(web, worker, processes_database_url, app_name)
        finally:
            web.stop()
            worker.stop()
            worker.forget_queue()
            app.conf.task_default_queue = previous_queue
