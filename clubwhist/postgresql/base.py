"""Django's PostgreSQL backend, whose pool finds connections the server dropped before a
request uses one.

With a pool (`DB_POOL_SIZE`), each request takes a connection the pool kept open. If the
server dropped it while it sat idle (a restart, a failover, `pg_terminate_backend`, a
firewall forgetting idle sockets) the request's first query would fail with a 500. So the
connection is checked first (one empty round trip, as Django's `CONN_HEALTH_CHECKS` would do),
and when the check fails the pool checks every connection it holds idle at once, since the
same cause most likely dropped them all, and the request takes a fresh one.

Why not `CONN_HEALTH_CHECKS`: with a pool it hands the check to psycopg's pool, which finds
dead connections one at a time and waits 1, 2, 4, 8 ... seconds between two failed checks of
one request, so a pool of ten dead connections keeps the request waiting past its 20 s
timeout (found by `tests/web/load/test_faults.py`).
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: Any) -> Any:
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None:
            return connection  # no pool: CONN_HEALTH_CHECKS does this (settings.py)
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error:
            pool.putconn(connection)  # broken: the pool closes it and opens another
            pool.check()  # and every idle one the same cause dropped
            connection = super().get_new_connection(conn_params)
        return connection
