"""The shared cache carries on without Redis (a miss, never an error) and, once Redis is back,
retires the versions a lost write should have moved on. End to end, with tablets and a Redis
stopped mid-event, in test_faults.py."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from benchmarks.harness import RedisServer, free_port
from clubwhist.cache import RedisCache


def _cache(url: str) -> RedisCache:
    return RedisCache(url, {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}})


def test_the_cache_answers_as_a_miss_while_redis_is_unreachable(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache = _cache(f"redis://127.0.0.1:{free_port()}/1")  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="clubwhist.cache"):
        assert cache.get("a", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("a", 1) is False
        assert cache.has_key("a") is False
        cache.set("a", 1)
        cache.set_many({"a": 1})
        cache.delete("a")
        assert cache.get_or_set("b", 2) == 2  # computed, not stored
    outages = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(outages) == 1  # said once, not once a call


@pytest.mark.redis
def test_versions_written_during_an_outage_are_retired_once_redis_is_back(
    tmp_path: Path,
) -> None:
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        cache = _cache(redis.url(1))
        cache.set("tablet-version:7:1", "before")  # a table's state version
        cache.set("kept", "unrelated")
        redis.stop(save=True)  # a Redis that keeps its data across a restart
        cache.set("tablet-version:7:1", "during")  # lost: the table's state moved on
        assert cache.get("tablet-version:7:1") is None
        redis.start()
        # The stale version came back with the snapshot, but is never read: retired first.
        assert cache.get("tablet-version:7:1") is None
        assert cache.get("kept") == "unrelated"
        cache.set("tablet-version:7:1", "after")
        assert cache.get("tablet-version:7:1") == "after"  # retired once, not on every call
    finally:
        redis.stop()


@pytest.mark.redis
def test_a_process_that_lost_no_write_does_not_read_a_restarted_redis_s_old_versions(
    tmp_path: Path,
) -> None:
    """Another process moved the version on while Redis was away; this one made no call then,
    and its pooled connection is reopened without an error: the new run_id retires the
    snapshot's versions before anything of them is read."""
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        cache = _in_use(redis, "tablet-version:7:2")
        redis.stop(save=True)
        redis.start()  # from the snapshot: the version another process lost is back
        assert cache.get("tablet-version:7:2") is None  # the call that noticed: a miss
        assert cache.get("tablet-version:7:2") is None  # retired, not read
        assert cache.get("kept") == "unrelated"
        cache.set("tablet-version:7:2", "after")
        assert cache.get("tablet-version:7:2") == "after"  # retired once, not on every call
    finally:
        redis.stop()


@pytest.mark.redis
def test_a_process_started_while_redis_was_away_does_not_read_its_old_versions(
    tmp_path: Path,
) -> None:
    """A web worker restarted by its manager during the outage has no connection from before
    it to compare with: the run_id Redis keeps under its mark (the server's that last retired
    the versions) is older than the restarted server's, and that retires them."""
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        _in_use(redis, "tablet-version:7:3")
        redis.stop(save=True)
        _forget_this_process()  # as if this were the new worker, started while Redis was away
        redis.start()
        fresh = _cache(redis.url(1))
        assert fresh.get("tablet-version:7:3") is None  # the call that noticed: a miss
        assert fresh.get("tablet-version:7:3") is None  # retired, not read
        assert fresh.get("kept") == "unrelated"
        fresh.set("tablet-version:7:3", "after")
        _forget_this_process()  # another new process: the mark now says nothing is stale
        again = _cache(redis.url(1))
        assert again.get("tablet-version:7:3") == "after"
    finally:
        redis.stop()


def _in_use(redis: RedisServer, version: str) -> RedisCache:
    """A cache on a Redis in use (its versions retired once, under its mark) holding `version`
    ("before") and a key no outage concerns."""
    cache = _cache(redis.url(1))
    cache.clear()
    cache.set(version, "before")
    cache.set("kept", "unrelated")
    assert cache.get(version) == "before"
    return cache


def _forget_this_process() -> None:
    """Drop what this process keeps of its Redis connections and outages, as a process that
    has just started holds none."""
    from clubwhist import cache as module

    for pool in module._POOLS.values():
        pool.disconnect()
    module._POOLS.clear()
    module._CLIENTS.clear()
    module._OUTAGES.clear()
