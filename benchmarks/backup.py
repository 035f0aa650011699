"""Backup and restore: how big a club night's JSON is and how long writing and restoring take.

What runs:
- a database of its own: on the PostgreSQL server of DATABASE_URL (or the default one), named
  `clubwhist_bench_<random>` and dropped at the end; or, with BENCH_SQLITE=1, a SQLite file in
  a temporary folder;
- a 30-table two-winner Mitchell of classic whist cut to 9 rounds of 3 boards (90 boards, 810
  results) played through the simulator, with tablet links, a correction and a call, closed;
- the event's JSON document (`backup.event_document`, the director's download): median time
  of 5, its size plain and gzip-compressed;
- `manage.py backup` of the whole database to a .json.gz, then everything deleted and
  `manage.py restore --dry-run` and `manage.py restore` of that file, timed once each (the
  restore checks every row, writes it, scores the event again and compares the standings).

A PostgreSQL server that cannot be reached is reported loudly; exit 0.
"""

from __future__ import annotations

import gzip
import os
import secrets
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path
from typing import Any

from benchmarks.harness import median_ms, played_event
from benchmarks.results_pipeline import (
    admin_execute,
    loud,
    migrate_fresh,
    postgres_problem,
    server_url,
    with_database,
)


def make_event() -> Any:
    """The 30-table evening with what a backup must also carry: tablet links, a dispute, a
    director's call, then finished."""
    from tournaments.events.models import Event, Result
    from tournaments.events.services.events import event_finish
    from tournaments.events.services.results import result_dispute
    from tournaments.events.services.tablets import director_call

    event = played_event("Backup benchmark", links=True)
    result_dispute(result=Result.objects.filter(section__event=event).first())  # type: ignore[arg-type]
    director_call(section=event.section, table=4, round=9, note="a revoke")
    return event_finish(event=Event.objects.get(pk=event.pk))


def measure(folder: Path) -> None:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from tournaments.events.models import Event, Result
    from tournaments.files import backup
    from tournaments.kernel.models import Club

    event = make_event()
    results = Result.objects.filter(section__event=event).count()
    took = median_ms(lambda: backup.dumps(backup.event_document(event)), 5)
    text = backup.dumps(backup.event_document(event))
    packed = gzip.compress(text.encode())
    print(
        f"event JSON ({results} results, {event.boards.count()} boards): {took:.0f} ms, "
        f"{len(text.encode()) / 1024:,.0f} KB, gzip {len(packed) / 1024:,.0f} KB"
    )
    out = folder / "bench.json.gz"
    started = time.perf_counter()
    call_command("backup", "-o", str(out), stdout=StringIO())
    print(f"manage.py backup (whole database): {time.perf_counter() - started:.2f} s")
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()
    for args, label in (((str(out), "--dry-run"), "restore --dry-run"), ((str(out),), "restore")):
        said = StringIO()
        started = time.perf_counter()
        call_command("restore", *args, stdout=said)
        print(f"manage.py {label}: {time.perf_counter() - started:.2f} s")
    assert Result.objects.count() == results, "the restore lost results"
    print(said.getvalue().strip())


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")
    os.environ.pop("REDIS_URL", None)  # results processing in-process: nothing else to run
    with tempfile.TemporaryDirectory() as folder:
        if os.environ.get("BENCH_SQLITE") == "1":
            os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
            print("database: SQLite file")
            return run(Path(folder))
        base = server_url()
        problem = postgres_problem(base)
        if problem:
            loud(problem)
            return 0
        name = f"clubwhist_bench_{secrets.token_hex(4)}"
        admin_execute(base, f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = with_database(base, name)
        print(f"database: PostgreSQL {name}")
        try:
            return run(Path(folder))
        finally:
            from django.db import connections

            connections.close_all()
            admin_execute(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            print(f"database {name} dropped")


def run(folder: Path) -> int:
    import django

    django.setup()

    migrate_fresh()
    measure(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
