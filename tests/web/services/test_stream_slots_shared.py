"""The live streams' per-client caps hold across web processes (web nodes), through Redis.

Two `StreamSlots` are what two web processes hold: each its own counts, its own Redis client
and its own open slots. A client's cap (an address's readers, a tablet link's streams) is
counted across both; a process that dies leaves slots that lapse; a process renews the slots
of its open streams; with Redis away the cap is counted in each process alone and no stream
waits on Redis. The real processes behind a real balancer are
tests/web/load/test_two_web_nodes.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import override_settings

from benchmarks.harness import free_port
from tournaments.kernel import live

pytestmark = pytest.mark.redis

CAPS = {"per_process": 100, "per_address": 3}
ADDRESS = "203.0.113.9"


@pytest.fixture(autouse=True)
def _empty_redis() -> Iterator[None]:
    cache.clear()  # the slots live in the cache's Redis database
    yield
    cache.clear()


def test_an_addresss_cap_counts_its_streams_on_every_node() -> None:
    node_a, node_b = live.StreamSlots(), live.StreamSlots()
    held_a = [node_a.take(ADDRESS, **CAPS), node_a.take(ADDRESS, **CAPS)]
    held_b = node_b.take(ADDRESS, **CAPS)
    assert None not in held_a and held_b is not None
    # Each node holds fewer than 3, but the address holds 3 in all: both refuse a fourth,
    # the look before the stream (a 503 with the reason) and the take itself.
    assert node_b.refusal(ADDRESS, **CAPS) == live.per_address_refusal(3)
    assert node_a.refusal(ADDRESS, **CAPS) == live.per_address_refusal(3)
    assert node_b.take(ADDRESS, **CAPS) is None
    assert node_b.counts()[:2] == (1, 1)  # the refused stream took nothing, even here
    # another address is under its own cap
    other = node_b.take("203.0.113.10", **CAPS)
    assert other is not None
    # a stream that ends on node A makes room on node B
    node_a.give_back(held_a[0])  # type: ignore[arg-type]
    assert node_b.refusal(ADDRESS, **CAPS) is None
    again = node_b.take(ADDRESS, **CAPS)
    assert again is not None
    for node, slot in ((node_a, held_a[1]), (node_b, held_b), (node_b, again), (node_b, other)):
        node.give_back(slot)  # type: ignore[arg-type]
    assert node_a.counts()[:2] == node_b.counts()[:2] == (0, 0)
    assert node_b.refusal(ADDRESS, **CAPS) is None


def test_a_dead_nodes_slots_lapse_and_a_live_nodes_are_renewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live, "LEASE_SECONDS", 1.0)
    dead, alive, other = live.StreamSlots(), live.StreamSlots(), live.StreamSlots()
    caps = {"per_process": 100, "per_address": 2}
    assert dead.take(ADDRESS, **caps) is not None  # a node killed with a stream open:
    kept = alive.take(ADDRESS, **caps)  # it never gives its slot back
    assert kept is not None
    assert other.take(ADDRESS, **caps) is None
    started = time.monotonic()
    while time.monotonic() - started < 1.6:  # past the lease: the live node renews its own
        alive._shared.renew()
        time.sleep(0.25)
    taken = other.take(ADDRESS, **caps)  # the dead node's slot has lapsed, not the live one's
    assert taken is not None
    assert other.take(ADDRESS, **caps) is None
    alive.give_back(kept)
    other.give_back(taken)


def test_with_redis_away_each_node_counts_alone_and_no_stream_waits_on_it() -> None:
    away = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    redis_cache = {"default": {"BACKEND": "clubwhist.cache.RedisCache", "LOCATION": away}}
    with override_settings(CACHES=redis_cache):
        node = live.StreamSlots()
        started = time.monotonic()
        held = [node.take(ADDRESS, **CAPS) for _ in range(3)]
        assert None not in held
        assert node.take(ADDRESS, **CAPS) is None  # the process's own count still caps it
        assert node.refusal(ADDRESS, **CAPS) == live.per_address_refusal(3)
        # one failed connection (its short timeout), then none tried for a while
        assert time.monotonic() - started < 2.0
        for slot in held:
            assert slot is not None and slot.shared is None
            node.give_back(slot)
        assert node.counts()[:2] == (0, 0)
