"""Waking the live pages' streams the moment new standings are stored, and how many may be open.

A stored standings version is announced in the shared cache (`scoring.announce_version`) and,
with Redis, published on a pub/sub channel. Each web process runs one listener thread on
those channels; an open stream sleeps until the listener says its event has a newer version,
so a room of readers costs no Redis traffic at all between versions and hears of a new one
within milliseconds. A stream served by a thread (WSGI: `make run`) sleeps on a condition; a
stream served by the event loop (ASGI: gunicorn's uvicorn worker, as production and the club
laptop run) awaits an asyncio event the listener sets through `call_soon_threadsafe`, so a
thousand open streams cost no thread at all. Without Redis (`make run`, the club laptop), or
while the listener is reconnecting, streams look at the cached version every `fallback`
seconds instead; they also look every few seconds anyway, so a message lost in a reconnect
costs a moment, never an update.

`StreamSlots` caps the open streams of a process and of one client (an address, a tablet's
link), so that readers, however many, never take what the tablets need: a reader over a cap is
told to ask the small version endpoint now and then instead (see `views/live.py`). A client's
cap holds across every web process and node of an installation: its streams are counted in
Redis (`_SharedCounts`), and in each process alone when there is no Redis (the club laptop).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
import time
import uuid
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

CHANNEL = "clubwhist:scored:"
#: A drive's version (`Drive.version`): its tablets' streams wake on it (views/drive_tablets.py).
DRIVE_CHANNEL = "clubwhist:drive:"
#: A team tournament's version (`Tournament.version`): its tablets' streams wake on it
#: (views/team_tablets.py).
TEAM_CHANNEL = "clubwhist:team:"


def _channel(url: str, prefix: str = CHANNEL) -> str:
    """The channels' prefix for this installation. Pub/sub ignores Redis database numbers, so
    two installations sharing one Redis server (each on databases of its own) would wake each
    other's streams with their own events' versions: the cache's database number tells them
    apart, as it does for everything else they keep in Redis."""
    number = urlsplit(url).path.strip("/") or "0"
    return f"{prefix}{number}:"


def _redis_url() -> str | None:
    cache = settings.CACHES["default"]
    if "redis" not in str(cache["BACKEND"]).lower():
        return None
    location = cache["LOCATION"]
    return str(location[0] if isinstance(location, list | tuple) else location)


def publish(event_id: int, version: int, *, channel: str = CHANNEL) -> None:
    """Tell every process's listener (best effort: streams also poll the cache). `event_id`
    is a drive's id on DRIVE_CHANNEL."""
    url = _redis_url()
    if url is None:
        return
    try:
        _client(url).publish(f"{_channel(url, channel)}{event_id}", str(version))
    except Exception:  # a missed wake-up costs a poll interval, never an update
        log.warning("could not publish standings version %s of event %s", version, event_id)


def drive_version_key(drive_id: int) -> str:
    return f"drive-version:{drive_id}"


def drive_moved_key(drive_id: int) -> str:
    return f"drive-moved:{drive_id}"


def announce_drive(drive_id: int, version: int, *, epoch: int, moved: bool = False) -> None:
    """A drive changed: its version in the cache (a tablet's poll reads that, not the
    database), with the drive's `epoch` (its creation time: a drive restored under the id of a
    deleted one is another drive, whatever its version). A change that moves people (`moved`:
    the next seating, the end) is also the drive's new "moved" version, and a pub/sub message
    wakes its tablets' streams at once; other changes (a table's result) wake nobody, so 250
    tables entering results cost the streams nothing."""
    key = drive_version_key(drive_id)
    current = cache.get(key)
    if current is None or current[0] != epoch or current[1] < version:
        cache.set(key, (epoch, version), timeout=12 * 3600)
    if moved:
        key = drive_moved_key(drive_id)
        current = cache.get(key)
        if current is None or int(current) < version:
            cache.set(key, version, timeout=12 * 3600)
        publish(drive_id, version, channel=DRIVE_CHANNEL)


def forget_drive(drive_id: int) -> None:
    """A drive restored (or deleted): whatever the cache holds under its id is another's."""
    cache.delete_many([drive_version_key(drive_id), drive_moved_key(drive_id)])


def announce_team(tournament_id: int, version: int) -> None:
    """A team tournament's version moved (a draw, a correction, the director's entry, the
    end): wake its tablets' streams at once; they read the version from the tournament's row
    (one small query per process, however many tablets), so nothing is kept in the cache. A
    table's own game moves no version (the tablets write side by side) and wakes nobody: its
    tablet has its answer, and the other tables' counts come with the poll."""
    publish(tournament_id, version, channel=TEAM_CHANNEL)


_CLIENTS: dict[str, Any] = {}


def _client(url: str) -> Any:
    import redis

    found = _CLIENTS.get(url)
    if found is None:
        found = _CLIENTS[url] = redis.Redis.from_url(url)
    return found


class _Listener:
    """One thread per process and channel: pub/sub messages into a dict of versions and a
    condition."""

    def __init__(self, channel: str = CHANNEL) -> None:
        self.channel = channel
        self.versions: dict[int, int] = {}
        self.condition = threading.Condition()
        self.connected = False
        self._started = False
        self._lock = threading.Lock()
        # Per event loop (one per ASGI worker process), the asyncio events its streams await,
        # by standings event id. Touched only from its own loop, except the dict of loops.
        self._loops: dict[asyncio.AbstractEventLoop, dict[int, asyncio.Event]] = {}

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
                pubsub.psubscribe(f"{_channel(url, self.channel)}*")
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
        with self._lock:
            loops = list(self._loops)
        for loop in loops:
            try:
                loop.call_soon_threadsafe(self._wake, loop, event_id)
            except RuntimeError:  # that loop has closed (its worker is exiting)
                with self._lock:
                    self._loops.pop(loop, None)

    def _wake(self, loop: asyncio.AbstractEventLoop, event_id: int) -> None:
        """In `loop`: wake every stream of `event_id` waiting there (they share one event)."""
        waiting = self._loops.get(loop, {}).pop(event_id, None)
        if waiting is not None:
            waiting.set()

    def wait(self, event_id: int, last: int | None, timeout: float) -> int | None:
        with self.condition:
            self.condition.wait_for(
                lambda: self.versions.get(event_id, -1) > (last if last is not None else -1),
                timeout,
            )
            return self.versions.get(event_id)

    async def wait_async(self, event_id: int, last: int | None, timeout: float) -> int | None:
        """As `wait`, without a thread: the caller's event loop sleeps until `_heard` wakes
        it. No await between the check and taking the event, so no message is missed."""
        loop = asyncio.get_running_loop()
        with self._lock:
            waiting = self._loops.setdefault(loop, {})
        if self.versions.get(event_id, -1) <= (last if last is not None else -1):
            event = waiting.get(event_id)
            if event is None:
                event = waiting[event_id] = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        return self.versions.get(event_id)


_LISTENER = _Listener()
_LISTENERS = {
    CHANNEL: _LISTENER,
    DRIVE_CHANNEL: _Listener(DRIVE_CHANNEL),
    TEAM_CHANNEL: _Listener(TEAM_CHANNEL),
}


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


async def wait_for_newer_async(
    event_id: int, last: int | None, *, fallback: float, poll: float, channel: str = CHANNEL
) -> int | None:
    """`wait_for_newer` for a stream served by the event loop: the same answers, no thread
    held while it waits. On DRIVE_CHANNEL, `event_id` is a drive's and the versions its; on
    TEAM_CHANNEL, a team tournament's."""
    url = _redis_url()
    if url is None:
        await asyncio.sleep(fallback)
        return None
    listener = _LISTENERS[channel]
    listener.start(url)
    if not listener.connected:
        await asyncio.sleep(fallback)
        return None
    return await listener.wait_async(event_id, last, poll)


#: How long a stream's slot counts in Redis unless its process renews it: a web node that
#: dies (killed, powered off) cannot give its slots back, and its clients reconnect through
#: another node at once; their old slots lapse within this time.
LEASE_SECONDS = 60.0
#: How often a process renews the slots of its open streams (one Redis round trip per slot,
#: from one thread of its own, never from the event loop).
RENEW_SECONDS = 20.0
#: After Redis failed to answer, the caps are counted in this process alone for this long
#: (each stream opened meanwhile costs no wait on a Redis that is away).
REDIS_PAUSE_SECONDS = 5.0

# Take a slot under KEYS[1] (a sorted set of slots by expiry) if fewer than ARGV[1] are held:
# the lapsed ones are dropped first; the time is Redis's own, so the nodes' clocks may differ.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return 1
"""
# How many slots under KEYS[1] have not lapsed.
_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
"""
# Renew slot ARGV[2] under KEYS[1] for ARGV[1] seconds (added again if it lapsed meanwhile:
# its stream is still open, so it counts).
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1])) + 1)
return 1
"""


class _SharedCounts:
    """The per-client caps counted across every web process of an installation, in Redis:
    one sorted set per client (address or link), one member per open stream, scored by when
    it lapses. A process renews its own streams' slots every RENEW_SECONDS (a thread of its
    own); a process that dies leaves slots that lapse after LEASE_SECONDS. When Redis does not
    answer, `take` says so (None) and the caller counts in its process alone: a Redis outage
    must cost the readers nothing but the cap's reach across nodes."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._prefix = f"clubwhist:streams:{kind}:"
        self._held: dict[str, str] = {}  # slot id -> its key in Redis
        self._lock = threading.Lock()
        self._paused_until = 0.0
        self._renewer: threading.Thread | None = None
        self._url: str | None = None
        self._client: Any = None

    def _redis(self) -> Any | None:
        """A client with short timeouts (a take may run in the event loop), None without
        Redis or while it is paused after a failure."""
        url = _redis_url()
        if url is None or time.monotonic() < self._paused_until:
            return None
        if self._client is None or self._url != url:
            import redis

            self._url = url
            self._client = redis.Redis.from_url(
                url, socket_connect_timeout=0.25, socket_timeout=0.5, retry_on_timeout=False
            )
        return self._client

    def _key(self, address: str) -> str:
        assert self._url is not None
        return f"{_channel(self._url, self._prefix)}{address}"

    def _failed(self) -> None:
        self._paused_until = time.monotonic() + REDIS_PAUSE_SECONDS
        log.warning("live streams: Redis did not answer; caps counted per process for now")

    def take(self, address: str, cap: int) -> tuple[bool, str] | None:
        """(taken, the slot's id) for a stream of `address` under `cap` across every process;
        None when Redis cannot say (no Redis, or it did not answer)."""
        client = self._redis()
        if client is None:
            return None
        slot = uuid.uuid4().hex
        key = self._key(address)
        try:
            taken = bool(client.eval(_TAKE, 1, key, cap, LEASE_SECONDS, slot))
        except Exception:
            self._failed()
            return None
        if taken:
            with self._lock:
                self._held[slot] = key
            self._start_renewing()
        return taken, slot

    def held(self, address: str) -> int | None:
        """The slots `address` holds across every process; None when Redis cannot say."""
        client = self._redis()
        if client is None:
            return None
        try:
            return int(client.eval(_COUNT, 1, self._key(address)))
        except Exception:
            self._failed()
            return None

    def give_back(self, slot: str) -> None:
        with self._lock:
            key = self._held.pop(slot, None)
        client = self._redis()
        if key is None or client is None:
            return  # it lapses by itself
        try:
            client.zrem(key, slot)
        except Exception:
            self._failed()

    def renew(self) -> None:
        """Renew every slot this process holds (one pipeline)."""
        with self._lock:
            held = list(self._held.items())
        client = self._redis()
        if not held or client is None:
            return
        try:
            with client.pipeline(transaction=False) as pipe:
                for slot, key in held:
                    pipe.eval(_RENEW, 1, key, LEASE_SECONDS, slot)
                pipe.execute()
        except Exception:
            self._failed()

    def _start_renewing(self) -> None:
        with self._lock:
            if self._renewer is not None:
                return
            self._renewer = threading.Thread(
                target=self._renew_forever, name=f"stream-slots-{self.kind}", daemon=True
            )
        self._renewer.start()

    def _renew_forever(self) -> None:
        while True:
            time.sleep(RENEW_SECONDS)
            self.renew()


class StreamSlots:
    """The open live streams: in this process (all of them: what one process can follow),
    and by client (an address, or a tablet's link), counted across every web process of the
    installation in Redis (`_SharedCounts`) and in this process alone without it.

    A stream takes a slot as it starts sending and gives it back however it ends (the
    reader left, the minute ran out, the process is stopping). `refusal` is asked first, so
    a reader over a cap gets a 503 at once; `take` decides again, since readers arriving
    together may all have passed that look, and answers the slot to give back (None when the
    stream is refused). Thread-safe: a WSGI server runs each stream in a thread of its own;
    under ASGI they all run in the event loop's thread.
    """

    def __init__(self, kind: str = "readers") -> None:
        self._lock = threading.Lock()
        self._open = 0
        self._by_address: Counter[str] = Counter()
        self._turned_away = 0
        self._shared = _SharedCounts(kind)

    def refusal(self, address: str, *, per_process: int, per_address: int) -> str | None:
        """Why a stream for `address` would be over a cap now, in words for the reader; None
        when there is room (in this process: `take` asks the other processes' counts)."""
        with self._lock:
            if self._by_address[address] >= per_address or self._open >= per_process:
                self._turned_away += 1
            if self._by_address[address] >= per_address:
                return per_address_refusal(per_address)
            if self._open >= per_process:
                return f"this server already follows {per_process} live pages, its most at once"
        held = self._shared.held(address)
        if held is not None and held >= per_address:
            with self._lock:
                self._turned_away += 1
            return per_address_refusal(per_address)
        return None

    def take(self, address: str, *, per_process: int, per_address: int) -> Slot | None:
        """A slot for a stream of `address`, or None when a cap is full (in this process, or
        `address`'s across every process)."""
        with self._lock:
            if self._by_address[address] >= per_address or self._open >= per_process:
                self._turned_away += 1
                return None
            self._open += 1
            self._by_address[address] += 1
        shared = self._shared.take(address, per_address)
        if shared is not None and not shared[0]:
            with self._lock:
                self._turned_away += 1
            self._local_give_back(address)
            return None
        return Slot(address, shared[1] if shared is not None else None)

    def give_back(self, slot: Slot) -> None:
        self._local_give_back(slot.address)
        if slot.shared is not None:
            self._shared.give_back(slot.shared)

    def _local_give_back(self, address: str) -> None:
        with self._lock:
            self._open -= 1
            self._by_address[address] -= 1
            if self._by_address[address] <= 0:
                del self._by_address[address]

    def counts(self) -> tuple[int, int, int]:
        """(streams open, addresses with one open, readers turned away since the process
        started), in this process: for /health and the tests."""
        with self._lock:
            return self._open, len(self._by_address), self._turned_away


@dataclasses.dataclass(frozen=True)
class Slot:
    """A stream's slot: its client, and its id in Redis (None when counted here alone)."""

    address: str
    shared: str | None


def per_address_refusal(per_address: int) -> str:
    return (
        f"{per_address} live pages are already open from your network address, the most this "
        "server follows at once"
    )


SLOTS = StreamSlots()
