"""The live-results streams' caps, their 503 and `busy` answers, their slots, the ASGI stream
(a coroutine, no thread) and the spacing of parts. The crowd itself (a thousand readers while
three hundred tablets play, on two real web nodes) is tests/web/load/test_two_web_nodes.py."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import threading
import time
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any

import pytest
from django.test import AsyncRequestFactory, Client, override_settings

from tests.support.loops import run_apart
from tests.web.conftest import make_event
from tournaments.events.models import Event
from tournaments.events.services.events import event_set_live_public
from tournaments.events.services.scoring import announce_version, scored_version, standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.views import live as live_views
from tournaments.kernel import live
from tournaments.kernel.streams import RECONNECT_MS

pytestmark = pytest.mark.django_db(transaction=True)  # streams read in threads of their own


@pytest.fixture
def running(club: Any, director: Any) -> Event:
    event = make_event(club, user=director)
    event_set_live_public(event=event, live=True, user=director)
    event_simulate(event=event, rounds=1, seed=5, batch=True)
    standings_refresh(event_id=event.pk)
    return event


@pytest.fixture(autouse=True)
def slots(monkeypatch: pytest.MonkeyPatch) -> Iterator[live.StreamSlots]:
    """A process's slots of its own for each test, checked empty at the end: every stream
    gives its slot back, however it ended."""
    fresh = live.StreamSlots()
    monkeypatch.setattr(live, "SLOTS", fresh)
    monkeypatch.setattr(live_views, "STREAM_CHECK", 0.01)
    yield fresh
    deadline = time.monotonic() + 5
    while fresh.counts()[0] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert fresh.counts()[:2] == (0, 0), "a stream kept its slot"


def _opens_a_version(chunk: str) -> bool:
    """A stream's first event: how long to wait before opening it again if it drops (drawn
    in RECONNECT_MS, so a node's readers do not all come back at once), then the version."""
    found = re.match(r"retry: (\d+)\nevent: version\n", chunk)
    return found is not None and RECONNECT_MS[0] <= int(found[1]) <= RECONNECT_MS[1]


def _stream(event: Event) -> Any:
    return Client().get(f"/results/{event.pk}/stream", {"page": f"/results/{event.pk}/"})


@override_settings(LIVE_STREAMS_PER_ADDRESS=2)
def test_a_reader_over_the_per_address_cap_is_told_why_and_to_poll(
    running: Event, slots: live.StreamSlots
) -> None:
    caps = {"per_process": 100, "per_address": 2}
    held = [slots.take("127.0.0.1", **caps), slots.take("127.0.0.1", **caps)]
    assert None not in held
    refused = _stream(running)
    assert refused.status_code == 503
    assert refused["Retry-After"] == str(live_views.BUSY_POLL_SECONDS)
    text = refused.content.decode()
    assert "2 live pages are already open from your network address" in text
    assert f"checks for new results every {live_views.BUSY_POLL_SECONDS} seconds" in text
    assert slots.counts() == (2, 1, 1)  # nothing taken; one reader turned away, counted

    other = Client(REMOTE_ADDR="192.0.2.7").get(f"/results/{running.pk}/stream")
    assert other.status_code == 200  # another address is under its own cap
    next(iter(other.streaming_content))
    other.close()
    for slot in held:
        assert slot is not None
        slots.give_back(slot)
    again = _stream(running)
    assert again.status_code == 200 and again["Content-Type"] == "text/event-stream"
    next(iter(again.streaming_content))
    again.close()


@override_settings(LIVE_STREAMS_THREADED=1, LIVE_STREAMS_PER_PROCESS=1000)
def test_a_threaded_server_follows_few_streams_so_the_tablets_keep_their_threads(
    running: Event, slots: live.StreamSlots
) -> None:
    """Under WSGI (the test client, `make run`) each stream holds a thread: the lower cap."""
    held = slots.take("198.51.100.1", per_process=1, per_address=50)
    assert held is not None
    refused = _stream(running)
    assert refused.status_code == 503
    assert "This server already follows 1 live pages" in refused.content.decode()
    slots.give_back(held)


def test_readers_arriving_together_past_the_cap_are_sent_busy(
    running: Event, slots: live.StreamSlots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look passed, but the slots filled before this stream started: one `busy` event
    (the page then polls), and the stream ends without taking a slot."""
    monkeypatch.setattr(slots, "take", lambda *a, **k: None)
    stream = _stream(running)
    assert stream.status_code == 200
    chunks = [c.decode() for c in stream.streaming_content]
    assert len(chunks) == 1 and chunks[0].startswith("event: busy\n")
    assert "every 15 seconds" in chunks[0]


def test_a_stream_holds_its_slot_while_open_and_gives_it_back_when_the_reader_leaves(
    running: Event, slots: live.StreamSlots
) -> None:
    stream = _stream(running)
    chunks = iter(stream.streaming_content)
    assert _opens_a_version(next(chunks).decode())
    assert slots.counts()[:2] == (1, 1)
    stream.close()  # the browser went away: the server closes the response
    assert slots.counts()[:2] == (0, 0)


def test_a_burst_of_versions_reaches_a_stream_as_one_part_the_newest(
    running: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_views, "PART_SPACING_LEAST", 1.0)
    stream = _stream(running)
    chunks = iter(stream.streaming_content)
    next(chunks)
    first = scored_version(running.pk) or 0
    announce_version(event_id=running.pk, version=first + 1)
    assert f"id: {first + 1}\n" in next(chunks).decode()  # the first change at once
    started = time.monotonic()
    for later in (first + 2, first + 3, first + 4):
        announce_version(event_id=running.pk, version=later)
    sent = next(chunks).decode()
    assert sent.startswith("event: part\n") and f"id: {first + 4}\n" in sent
    # Held for the spacing (less the moments this thread took to read the first part and
    # announce the others), then the newest.
    assert time.monotonic() - started >= 0.6
    stream.close()
    spent = live_views._RENDER_BUDGETS[f"part:{running.pk}:public:/results/{running.pk}/"]
    assert spent.left < live_views.PART_RENDER_BURST  # each render is paid for


def test_the_spacing_is_short_for_a_handful_of_readers_and_grows_with_the_room_and_render(
    slots: live.StreamSlots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A club's few readers see a result a tenth of a second after it is stored; a room of
    hundreds, or a page whose renders take more than a fifth of the process, is sent fewer
    parts (at most 5 s apart)."""
    monkeypatch.setattr(live_views, "_RENDER_BUDGETS", {})
    page = "part:1:public:/results/1/"

    def with_streams(count: int) -> float:
        held = [
            slots.take(f"10.0.{n // 250}.{n % 250}", per_process=2000, per_address=50)
            for n in range(count)
        ]
        try:
            return live_views.part_spacing(page)
        finally:
            for slot in held:
                assert slot is not None
                slots.give_back(slot)

    assert with_streams(3) == pytest.approx(0.1)
    assert with_streams(100) == pytest.approx(1.0)
    assert with_streams(500) == pytest.approx(5.0)
    assert with_streams(1500) == pytest.approx(5.0)  # never more than PART_SPACING
    budget = live_views._RENDER_BUDGETS[page] = live_views._RenderBudget()
    budget.spend(0.45)  # a slow first render: the burst in hand pays for it
    assert with_streams(3) == pytest.approx(0.1)
    budget.spend(0.1)  # overdrawn by about 0.05 s of rendering: 0.25 s at a fifth of the time
    assert 0.2 < with_streams(3) <= 0.25
    budget.spend(5.0)
    assert with_streams(3) == pytest.approx(5.0)  # never more than PART_SPACING
    assert live_views.part_spacing("part:1:public:/results/1/boards/2/") == pytest.approx(0.1)


def test_a_process_forgets_the_render_budgets_of_idle_pages_once_it_has_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live_views, "_RENDER_BUDGETS", {})
    monkeypatch.setattr(live_views, "_RENDER_BUDGETS_KEPT", 3)
    live_views._spend_rendering("busy", 5.0)  # overdrawn: kept, its readers must wait
    for page in ("a", "b"):
        live_views._spend_rendering(page, 0.0)  # back to full at once
    live_views._spend_rendering("new", 0.01)
    assert set(live_views._RENDER_BUDGETS) == {"busy", "new"}


def test_under_asgi_the_stream_is_a_coroutine_and_holds_no_thread(
    running: Event, slots: live.StreamSlots
) -> None:
    """The view gives an ASGI server an asynchronous iterator: forty streams waiting for the
    next version hold forty slots and no thread each (the tablets' requests have the
    threads), and all get the new part when it is stored."""
    many = 40

    def opened() -> AsyncIterator[bytes]:
        request = AsyncRequestFactory().get(
            f"/results/{running.pk}/stream", {"page": f"/results/{running.pk}/"}
        )
        request.user = _anonymous()
        response = live_views.results_stream(request, running.pk)
        assert response.is_async  # type: ignore[attr-defined]
        return aiter(response.streaming_content)  # type: ignore[attr-defined]

    streams = [opened() for _ in range(many)]
    first = scored_version(running.pk) or 0

    async def follow() -> tuple[list[str], list[str], int]:
        openings = [(await anext(s)).decode() for s in streams]
        before = threading.active_count()
        waiting = [asyncio.ensure_future(anext(s)) for s in streams]
        await asyncio.sleep(0.3)  # every stream is waiting for a version now
        assert not any(w.done() for w in waiting)
        assert slots.counts()[:2] == (many, 1)
        added = threading.active_count() - before
        await asyncio.to_thread(announce_version, event_id=running.pk, version=first + 1)
        parts = [(await asyncio.wait_for(w, 10)).decode() for w in waiting]
        for s in streams:
            await s.aclose()  # type: ignore[attr-defined]
        return openings, parts, added

    openings, parts, added = run_apart(follow)
    assert all(_opens_a_version(o) for o in openings)
    assert len({o.split("\n", 1)[0] for o in openings}) > 1  # their waits differ
    assert all(p.startswith("event: part\n") and f"id: {first + 1}\n" in p for p in parts)
    assert len(set(parts)) == 1  # one render shared by every stream
    assert added < 8, f"{many} waiting streams added {added} threads"


def test_a_process_renders_a_pages_part_at_most_once_a_spacing(
    running: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Versions stored faster than the spacing: the streams of a process all send the part
    the process last began sending until the spacing is up, then the newest; a version in
    between is never rendered, although a stream that opened meanwhile could have sent it."""
    monkeypatch.setattr(live_views, "PART_SPACING_LEAST", 1.0)
    rendered: list[int] = []
    real = live_views.render_to_string

    def counting(template: str, context: Any, request: Any = None) -> str:
        rendered.append(int(scored_version(running.pk) or 0))
        return real(template, context, request=request)

    monkeypatch.setattr(live_views, "render_to_string", counting)
    first = scored_version(running.pk) or 0

    def opened() -> AsyncIterator[bytes]:
        request = AsyncRequestFactory().get(
            f"/results/{running.pk}/stream", {"page": f"/results/{running.pk}/"}
        )
        request.user = _anonymous()
        response = live_views.results_stream(request, running.pk)
        return aiter(response.streaming_content)  # type: ignore[attr-defined]

    def announce(version: int) -> Coroutine[Any, Any, None]:
        return asyncio.to_thread(announce_version, event_id=running.pk, version=version)

    async def follow() -> tuple[list[str], list[str]]:
        a = opened()
        await anext(a)
        await announce(first + 1)
        a_parts = [(await asyncio.wait_for(anext(a), 10)).decode()]  # the process's part
        a_next = asyncio.ensure_future(anext(a))
        b = await asyncio.to_thread(opened)  # opens on version first + 1, free to send
        assert f"data: {first + 1}" in (await anext(b)).decode()
        b_next = asyncio.ensure_future(anext(b))
        await announce(first + 2)  # B would send this at once, were it not for the spacing
        await asyncio.sleep(0.2)
        assert not b_next.done()
        await announce(first + 3)
        a_parts.append((await asyncio.wait_for(a_next, 10)).decode())
        b_parts = [(await asyncio.wait_for(b_next, 10)).decode()]
        for stream in (a, b):
            await stream.aclose()  # type: ignore[attr-defined]
        return a_parts, b_parts

    a_parts, b_parts = run_apart(follow)
    assert [p.split("\n")[1] for p in a_parts] == [f"id: {first + 1}", f"id: {first + 3}"]
    assert [p.split("\n")[1] for p in b_parts] == [f"id: {first + 3}"]
    assert first + 2 not in rendered and rendered.count(first + 3) == 1


def test_a_stream_lives_about_stream_seconds_so_a_room_does_not_reconnect_together(
    running: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each stream draws its life, STREAM_SECONDS give or take STREAM_SPREAD, and lives it out:
    at least that long from its first line (the clock starts there, after the request's own
    work, which a loaded machine may stretch), then it ends by itself. Only the lower bound is
    a time the test relies on: load can only lengthen a life; the upper one is loose, there so
    that a stream living for ever fails instead of hanging."""
    monkeypatch.setattr(live_views, "STREAM_SECONDS", 0.4)
    monkeypatch.setattr(live_views, "STREAM_POLL", 0.02)
    spread = live_views.STREAM_SPREAD
    drawn: list[float] = []
    uniform = random.uniform

    def recorded(low: float, high: float) -> float:
        value = uniform(low, high)
        if (low, high) == (1 - spread, 1 + spread):
            drawn.append(value * 0.4)
        return value

    monkeypatch.setattr(live_views.random, "uniform", recorded)
    lived = []
    for _ in range(6):
        stream = iter(_stream(running).streaming_content)
        next(stream)  # its first line: the life is drawn right after it
        started = time.monotonic()
        for _chunk in stream:
            pass  # ends by itself
        lived.append(time.monotonic() - started)
    assert len(drawn) == 6
    assert all(0.4 * (1 - spread) <= d <= 0.4 * (1 + spread) for d in drawn), drawn
    assert len(set(drawn)) == 6  # not all the same length: a room does not reconnect together
    assert all(d - 0.02 <= t <= d + 2.0 for d, t in zip(drawn, lived, strict=True)), (drawn, lived)


def _anonymous() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


def test_the_listener_wakes_an_event_loop_without_a_thread_of_its_own() -> None:
    """A pub/sub message heard by the listener thread wakes the coroutines waiting on that
    event at once; other events' waiters sleep on."""
    listener = live._Listener()
    listener.connected = True

    async def wait_both() -> tuple[int | None, int | None, float]:
        ours = asyncio.ensure_future(listener.wait_async(7, None, 5.0))
        theirs = asyncio.ensure_future(listener.wait_async(8, None, 0.5))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        threading.Thread(
            target=listener._heard, args=({"channel": b"clubwhist:scored:0:7", "data": b"12"},)
        ).start()
        got = await ours
        return got, await theirs, time.monotonic() - started

    got, other, waited = run_apart(wait_both)
    assert got == 12 and other is None
    assert waited < 1.0


@override_settings(LIVE_STREAMS_PER_ADDRESS=0)
def test_a_reader_turned_away_is_not_an_error_in_the_log(
    running: Event, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="django.request"):
        assert _stream(running).status_code == 503
        assert Client().get("/results/999999/stream").status_code == 404
    assert not [r for r in caplog.records if "stream" in r.getMessage() and "503" in str(r.args)]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
