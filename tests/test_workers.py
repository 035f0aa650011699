"""Each pytest-xdist worker's Redis (tests/support/workers.py): two databases of its own, the
broker's and the cache's, none shared with another worker."""

import os

from tests.support.workers import redis_url_for_worker


def test_each_worker_takes_the_two_databases_after_the_one_before() -> None:
    url = "redis://:secret@127.0.0.1:6379/4"
    assert redis_url_for_worker(url, "gw0") == url
    assert redis_url_for_worker(url, "gw1") == "redis://:secret@127.0.0.1:6379/6"
    assert redis_url_for_worker(url, "gw2") == "redis://:secret@127.0.0.1:6379/8"
    assert redis_url_for_worker("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/2"


def test_this_process_uses_its_workers_databases() -> None:
    """Under xdist the environment this process (and every process it starts) reads names its
    worker's databases, and the cache is the one after the broker's."""
    from django.conf import settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    broker = int(os.environ.get("REDIS_URL", "redis://h/0").rsplit("/", 1)[1] or 0)
    if os.environ.get("REDIS_URL"):
        assert settings.CELERY_BROKER_URL.endswith(f"/{broker}")
        assert settings.CACHES["default"]["LOCATION"].endswith(f"/{broker + 1}")
        assert broker % 2 == 0 and broker >= 2 * int(worker.removeprefix("gw"))
