"""Tests against real processes: gunicorn, Celery workers, Redis and PostgreSQL.

Load, faults (a worker killed, Redis or the database away), races between tablets, the live
channels: marked `postgres` and/or `redis`, they start their processes from `benchmarks.harness`.
"""
