"""The tests' PostgreSQL backend: clubwhist's own (clubwhist/postgresql), emptied between
transactional tests by DELETE instead of TRUNCATE.

A test that commits (`django_db(transaction=True)`: every test that starts a server, a Celery
worker or a browser, and the races) leaves the database to be emptied after it, and Django
empties it with one TRUNCATE of every table. TRUNCATE gives each table and each of its
indexes a new file on disk and syncs them at commit: 0.12 to 1.26 s for clubwhist's fifty
tables on the 2-core CI machine, where one statement deleting the few rows a test left took 1
to 4 ms. Over the two hundred transactional tests of a run that was minutes of CI.

DELETE empties the same tables, locked first as TRUNCATE locks them (so nothing another
connection commits meanwhile survives); the foreign keys Django creates are deferred to the
commit, by which time every table is empty, so the order does not matter. Sequences are left
alone, as TRUNCATE without RESTART IDENTITY leaves them; a test that asks for its sequences
reset gets Django's TRUNCATE ... RESTART IDENTITY unchanged. Only the tests use this backend
(tests/conftest.py, `pytest_configure`); `manage.py flush` in production keeps Django's.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.management.color import Style
from django.db.backends.postgresql.operations import DatabaseOperations

from clubwhist.postgresql import base


class FlushByDelete(DatabaseOperations):
    def sql_flush(
        self,
        style: Style,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if not tables or reset_sequences:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        # One statement, one round trip: about 1 ms where fifty took 5 to 20. The tables are
        # locked first, as TRUNCATE locks them: a request or job a test left running (a live
        # server's thread, a rescore) finishes its transaction before the rows are deleted, or
        # waits until they are. Without the lock, a row it committed between two DELETEs (a
        # standings row for an event) outlived its table's DELETE and failed the commit.
        names = ", ".join(style.SQL_FIELD(self.quote_name(table)) for table in tables)
        deletes = " ".join(
            f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
            f"{style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        )
        return [
            f"{style.SQL_KEYWORD('SET CONSTRAINTS ALL DEFERRED')}; "
            f"{style.SQL_KEYWORD('LOCK TABLE')} {names} "
            f"{style.SQL_KEYWORD('IN ACCESS EXCLUSIVE MODE')}; {deletes}"
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = FlushByDelete
