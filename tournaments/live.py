"""Waking the live pages' streams the moment new standings are stored.

A stored standings version is announced in the shared cache (`scoring.announce_version`) and,
with Redis, published on a pub/sub channel. Each web process runs one listener thread on
those channels; an open stream sleeps on a condition until the listener says its event has a
newer version, so a room of readers costs no Redis traffic at all between versions and hears
of a new one within milliseconds. Without Redis (`make run`), or while the listener is
reconnecting, streams look at the cached version every `fallback` seconds instead; they also
look every few seconds anyway, so a message lost in a reconnect costs a moment, never an update.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

log = logging.getLogger(__name__)

CHANNEL = "clubwhist:scored:"


def _channel(url: str) -> str:
    """The channels' prefix for this installation. Pub/sub ignores Redis database numbers, so
    two installations sharing one Redis server (each on databases of its own) would wake each
    other's streams with their own events' versions: the cache's database number tells them
    apart, as it does for everything else they keep in Redis."""
    number = urlsplit(url).path.strip("/") or "0"
    return f"{CHANNEL}{number}:"


def _redis_url() -> str | None:
    cache = settings.CACHES["default"]
    if "redis" not in str(cache["BACKEND"]).lower():
        return None
    location = cache["LOCATION"]
    return str(location[0] if isinstance(location, list | tuple) else location)


def publish(event_id: int, version: int) -> None:
    """Tell every process's listener (best effort: streams also poll the cache)."""
    url = _redis_url()
    if url is None:
        return
    try:
        _client(url).publish(f"{_channel(url)}{event_id}", str(version))
    except Exception:  # a missed wake-up costs a poll interval, never an update
        log.warning("could not publish standings version %s of event %s", version, event_id)


_CLIENTS: dict[str, Any] = {}


def _client(url: str) -> Any:
    import redis

    found = _CLIENTS.get(url)
    if found is None:
        found = _CLIENTS[url] = redis.Redis.from_url(url)
    return found


class _Listener:
    """One thread per process: pub/sub messages into a dict of versions and a condition."""

    def __init__(self) -> None:
        self.versions: dict[int, int] = {}
        self.condition = threading.Condition()
        self.connected = False
        self._started = False
        self._lock = threading.Lock()

    def start(self, url: str) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, args=(url,), name="live-listener", daemon=True).start()

    def _run(self, url: str) -> None:
        import redis

        while True:
            try:
                pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(f"{_channel(url)}*")
                self.connected = True
                for message in pubsub.listen():  # type: ignore[no-untyped-call]
                    self._heard(message)
            except Exception:
                log.warning("live listener lost Redis; reconnecting in 1 s")
            self.connected = False
            time.sleep(1.0)

    def _heard(self, message: dict[str, Any]) -> None:
        try:
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            event_id = int(channel.rsplit(":", 1)[1])  # ours: subscribed to our prefix only
            version = int(message["data"])
        except (KeyError, ValueError, TypeError):
            return
        with self.condition:
            if version > self.versions.get(event_id, -1):
                self.versions[event_id] = version
            self.condition.notify_all()

    def wait(self, event_id: int, last: int | None, timeout: float) -> int | None:
        with self.condition:
            self.condition.wait_for(
                lambda: self.versions.get(event_id, -1) > (last if last is not None else -1),
                timeout,
            )
            return self.versions.get(event_id)


_LISTENER = _Listener()


def wait_for_newer(event_id: int, last: int | None, *, fallback: float, poll: float) -> int | None:
    """Return when the event may have a version newer than `last`: at once on a pub/sub
    message, else after `poll` seconds (the periodic look); `fallback` seconds when there is
    no listener (no Redis, or reconnecting). Returns the newest version heard, if any (the
    caller takes the larger of it and the cached one, so it never waits on a version it was
    already told of)."""
    url = _redis_url()
    if url is None:
        time.sleep(fallback)
        return None
    _LISTENER.start(url)
    if not _LISTENER.connected:
        time.sleep(fallback)
        return None
    return _LISTENER.wait(event_id, last, poll)
