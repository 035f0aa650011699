"""Django's Redis cache, keeping its pools per process, and carrying on without Redis.

One pool per process and one client per pool: Django's `RedisCacheClient.get_client` builds a
new `redis.Redis` object for every cache call (each construction fills a table of some 170
response callbacks: about 0.4 ms here), and keeps its pools on a cache object that lives for
one request under ASGI (a new connection each time). A `redis.Redis` object is safe to share
between threads (it takes a connection from its pool for each command), so one per pool is
kept and reused.

Scripts and raw values: a tablet's request asks Redis once for everything it needs (its request
count, its link, its state and the versions they hang on;
`tournaments/events/selectors/tablet_cache.py`), which takes a Lua script, and values the script
can read without unpickling. `run_script` and `set_raw` give both the same outage handling as every
other call.

Without Redis: the cache holds only copies (tablets' states, published pages, versions) and
request counts, never anything that exists nowhere else, so a Redis that is down or
restarting must not turn a tablet's result into an error. While Redis cannot be reached a
cache call behaves as a miss: a read returns its default, a write does nothing (`incr`, which
cannot be answered without the stored count, still raises). Each process logs the outage
once, and the first call once Redis answers again logs its return.

A write lost that way may leave a copy that should have been retired, if Redis kept its data
across the outage (snapshots, or Redis was reachable from elsewhere): a table's state cached
before a result arrived during the outage would be served after it. So a process that lost a
write first deletes, before its next cache call, every key matching the patterns registered
with `retire_after_outage` (the version keys those copies hang on), and only then carries on.

A Redis restarted from its snapshot is noticed by every process, not only by those that lost a
write: Redis itself holds the run_id of the server that last retired its versions (`MARKER`), and
each new connection compares it with the server's own. A process started while Redis was away
(a web worker its manager restarted, a new machine) has nothing of its own to compare with, which
is why the mark lives in Redis. While one thread retires, the process's other threads read
nothing from Redis; a call that ran while a restart was being noticed answers as a miss.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.utils.functional import cached_property
from redis.commands.core import Script

log = logging.getLogger(__name__)

T = TypeVar("T")

#: What a cache call raises when Redis is unreachable, restarting or not answering in time
#: (BusyLoadingError, a Redis still loading its snapshot, is a ConnectionError).
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)

_RETIRED: set[str] = set()


def retire_after_outage(*patterns: str) -> None:
    """Keys (glob patterns, before the cache's prefix) whose values go stale when a write to
    them is lost: deleted by any process that lost a write, once Redis is back."""
    _RETIRED.update(patterns)


# Connection pools and clients are kept per process, not per cache object: Django makes a
# cache object per thread, and per request under ASGI (its cache handler keeps them in a
# context variable, which every request starts afresh), so pools kept on the object meant a
# new TCP connection to Redis for every request a tablet made.
_POOLS: dict[tuple[str, str, str], Any] = {}
_CLIENTS: dict[int, Any] = {}
_POOLS_LOCK = threading.Lock()


#: The key (after the cache's prefix) holding the run_id of the Redis server that last retired
#: the versions: a snapshot brings back an older one, an empty Redis none.
MARKER = "cache-run-id"


def _run_id(connection: Any) -> str:
    connection.send_command("INFO", "server")
    info = connection.read_response()
    text = info.decode() if isinstance(info, bytes) else str(info)
    return next((line[7:].strip() for line in text.splitlines() if line.startswith("run_id:")), "")


def _restart_watch(server: str, marker: str) -> Callable[[Any], None]:
    """A connection's set-up that notices a Redis whose versions were not retired since it
    started: restarted from its snapshot (it holds the versions it had then, older than any
    moved on while it was away), or new.

    A process that lost a write retires them when Redis is back (`_guard`), but one that lost
    none reconnects without an error (redis-py opens a fresh connection for a dead pooled one),
    and one started during the outage knows nothing of the Redis before it. So each new
    connection (pooled: once a connection, not once a call) asks the server's run_id and the
    one stored under `marker` by the last retirement; if they differ the versions are marked
    for retirement, as after a lost write, and the call that made the connection answers as a
    miss."""

    def on_connect(connection: Any) -> None:
        connection.on_connect()
        run_id = _run_id(connection)
        connection.send_command("GET", marker)
        stored = connection.read_response()
        retired_by = stored.decode() if isinstance(stored, bytes) else stored
        if retired_by != run_id:
            _OUTAGES.setdefault(server, _Outage()).flag()

    return on_connect


class RedisCacheClient(DjangoRedisCacheClient):
    #: The restart mark's key, with the prefix of the cache that made this client.
    marker = MARKER

    def _get_connection_pool(self, write: bool) -> Any:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        server = self._servers[index]  # type: ignore[attr-defined]
        options = repr(sorted(self._pool_options.items()))  # type: ignore[attr-defined]
        key = (server, options, self.marker)
        pool = _POOLS.get(key)
        if pool is None:
            with _POOLS_LOCK:
                pool = _POOLS.get(key)
                if pool is None:
                    pool = _POOLS[key] = self._pool_class.from_url(  # type: ignore[attr-defined]
                        server,
                        redis_connect_func=_restart_watch(server, self.marker),
                        **self._pool_options,  # type: ignore[attr-defined]
                    )
        return pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        found = _CLIENTS.get(id(pool))
        if found is None:
            with _POOLS_LOCK:
                found = _CLIENTS.get(id(pool))
                if found is None:
                    found = _CLIENTS[id(pool)] = self._client(  # type: ignore[attr-defined]
                        connection_pool=pool
                    )
        return found


class _Outage:
    """What this process knows of its cache's Redis being away. Django makes a cache object
    per thread, so this is kept per process (per server), shared by all of them: a write lost
    by one thread is retired before any thread reads again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down = False  # an outage logged and not yet seen to end
        self.lost_writes = False  # a write lost, or a restart noticed, since the last retirement
        self.generation = 0  # how many times that has happened: a call spanning one is a miss
        self.retiring = False  # a thread is deleting the versions: the others read nothing
        self.retire_lock = threading.Lock()  # one retirement at a time

    def flag(self) -> None:
        """The versions in Redis may be stale: retire them before anything is read again."""
        with self.lock:
            self.lost_writes = True
            self.generation += 1

    def unsettled(self) -> bool:
        return self.lost_writes or self.retiring


_OUTAGES: dict[str, _Outage] = {}
_OUTAGES_LOCK = threading.Lock()


_SCRIPTS: dict[str, Script] = {}
_SCRIPTS_LOCK = threading.Lock()


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        with _OUTAGES_LOCK:
            self._outage = _OUTAGES.setdefault(str(server), _Outage())

    @cached_property
    def _cache(self) -> RedisCacheClient:
        client = RedisCacheClient(self._servers, **self._options)  # type: ignore[attr-defined]
        client.marker = self.make_key(MARKER)
        return client

    def run_script(
        self, source: str, keys: Sequence[str], args: Sequence[str | int], default: T
    ) -> Any | T:
        """Run a Lua script on the cache's keys (named as the app names them: the cache's
        prefix is added here); `default` while Redis is away. One round trip once Redis knows
        the script (EVALSHA; the first call of a process, or after a Redis restart, loads it)."""
        client = self._cache.get_client(write=True)
        with _SCRIPTS_LOCK:
            script = _SCRIPTS.get(source)
            if script is None:
                script = _SCRIPTS[source] = Script(client, source)
        full = [self.make_key(key) for key in keys]
        # Not a write of a copy: a script lost while Redis is away leaves nothing stale.
        return self._guard(
            lambda: script(keys=full, args=list(args), client=client), default, write=False
        )

    def set_raw(self, values: Mapping[str, bytes], timeout: int) -> None:
        """Store these bytes as they are (no pickling, so a script can read them), each kept
        `timeout` seconds; one round trip for them all."""

        def store() -> None:
            pipeline = self._cache.get_client(write=True).pipeline(transaction=False)
            for key, value in values.items():
                pipeline.set(self.make_key(key), value, ex=timeout)
            pipeline.execute()

        self._guard(store, None, write=True)

    def decode(self, raw: bytes) -> Any:
        """A value as Django's cache stored it (an integer as is, anything else pickled), read
        raw by a script."""
        return self._cache._serializer.loads(raw)  # type: ignore[attr-defined]

    def _guard(self, call: Callable[[], T], default: T, *, write: bool) -> T:
        outage = self._outage
        seen = outage.generation
        if outage.unsettled() and not self._retire_stale():
            return default
        try:
            found = call()
        except UNREACHABLE as exc:
            self._note_outage(exc, write=write)
            return default
        if outage.unsettled() or outage.generation != seen:
            # Redis was found restarted (`_restart_watch`) during the call, here or in another
            # thread: what it read may be stale
            self._retire_stale()
            return default
        if outage.down:
            with outage.lock:
                if outage.down:
                    outage.down = False
                    log.warning("Redis (the cache) answers again")
        return found

    def _note_outage(self, exc: Exception, *, write: bool) -> None:
        outage = self._outage
        if write:
            outage.flag()
        with outage.lock:
            if not outage.down:
                outage.down = True
                log.warning("Redis (the cache) is unreachable (%s): carrying on without it", exc)

    def _mark_retired(self, client: Any) -> None:
        """Redis's mark: no version in it is older than this server's run (`MARKER`)."""
        client.set(self._cache.marker, client.info("server")["run_id"])

    def _retire_stale(self) -> bool:
        """Delete the registered keys after lost writes or a restart, then mark Redis as
        retired under its run_id; False while Redis is still away. One thread retires; the
        others wait for it here rather than read what it is deleting."""
        outage = self._outage
        with outage.retire_lock:
            if not outage.lost_writes:
                return True  # another thread retired them while this one waited
            outage.retiring = True
            with outage.lock:
                outage.lost_writes = False  # a write lost from now on asks for another round
            try:
                client = self._cache.get_client(write=True)
                retired = 0
                for pattern in sorted(_RETIRED):
                    keys = list(client.scan_iter(match=self.make_key(pattern), count=500))
                    for start in range(0, len(keys), 500):
                        retired += client.delete(*keys[start : start + 500])
                self._mark_retired(client)
            except UNREACHABLE as exc:
                self._note_outage(exc, write=True)
                return False
            finally:
                outage.retiring = False
        if retired:
            log.warning("Redis (the cache) is back: %d versions retired", retired)
        return True

    # Every call Django's cache API makes, guarded (incr is not: a count cannot be made up).

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._guard(
            lambda: super(RedisCache, self).add(key, value, timeout, version), False, write=True
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard(
            lambda: super(RedisCache, self).get(key, default, version), default, write=False
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guard(
            lambda: super(RedisCache, self).set(key, value, timeout, version), None, write=True
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guard(
            lambda: super(RedisCache, self).touch(key, timeout, version), False, write=True
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guard(lambda: super(RedisCache, self).delete(key, version), False, write=True)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._guard(lambda: super(RedisCache, self).get_many(keys, version), {}, write=False)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guard(
            lambda: super(RedisCache, self).has_key(key, version), False, write=False
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._guard(
            lambda: super(RedisCache, self).set_many(data, timeout, version), list(data), write=True
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._guard(lambda: super(RedisCache, self).delete_many(keys, version), None, write=True)

    def clear(self) -> None:
        """Everything goes, the versions with it: the server's mark says none is stale."""

        def clear() -> None:
            super(RedisCache, self).clear()
            self._mark_retired(self._cache.get_client(write=True))

        self._guard(clear, None, write=True)
