"""Django's Redis cache, keeping one client per connection pool.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` object for every cache call
(each construction fills a table of some 170 response callbacks: about 0.4 ms here), and a
tablet's request makes five cache calls (its request limit, the state's versions, the state).
A `redis.Redis` object is safe to share between threads (it takes a connection from its pool
for each command), so one per pool is kept and reused. Behaviour is otherwise Django's.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._clients_lock = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        found = self._clients.get(id(pool))
        if found is None:
            with self._clients_lock:
                found = self._clients.get(id(pool))
                if found is None:
                    found = self._clients[id(pool)] = self._client(  # type: ignore[attr-defined]
                        connection_pool=pool
                    )
        return found


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
