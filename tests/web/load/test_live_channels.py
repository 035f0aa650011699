"""The live pages' wake-up messages stay within one installation."""

from __future__ import annotations

import os
import time

import pytest

from tournaments.kernel import live

pytestmark = pytest.mark.redis


def test_installations_sharing_a_redis_server_do_not_wake_each_others_streams() -> None:
    base = os.environ["REDIS_URL"].rsplit("/", 1)[0]
    ours, theirs = f"{base}/13", f"{base}/14"
    listener = live._Listener()
    listener.start(ours)
    deadline = time.monotonic() + 5
    while not listener.connected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert listener.connected
    time.sleep(0.1)  # the subscription is in place once psubscribe has returned

    live._client(theirs).publish(f"{live._channel(theirs)}7", "810")  # their event 7
    assert listener.wait(7, None, timeout=0.5) is None
    live._client(ours).publish(f"{live._channel(ours)}7", "3")  # ours
    assert listener.wait(7, None, timeout=15.0) == 3  # returns as soon as it arrives
