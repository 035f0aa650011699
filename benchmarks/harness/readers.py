"""Members following live results: many server-sent-events streams on loopback, from one
process of their own, doing what `static/js/live.js` does.

Each reader opens `/results/<id>/stream?page=/results/<id>/` from a loopback source address
of its own group (127.0.0.x: the whole 127/8 block reaches this machine, so a test can be
many clients without leaving it). A stream answered 200 is read to its end (the server closes
it after a minute; the reader opens it again, as EventSource does) or until time is up. A
reader turned away (a 503, or a `busy` event on a stream the server could not keep) asks
`/results/<id>/version.json` every `poll` seconds instead, as the page does. Anything else
(another status, a connection refused or cut without the stream's end) is an error.

The readers run in a separate process (`ReadersProcess`), each a coroutine of one event
loop, so a thousand of them neither need a thousand threads nor take the GIL from the test
process's tablets, whose latencies are being measured. Every reader stops by itself at its
deadline; the process is bounded in count (MAX_READERS) and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType

from benchmarks.harness.tablets import Tablet, finish, play

MAX_READERS = 2000  # bounded: each is a connection to a server on this machine
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ReaderTally:
    """What the readers saw, added up."""

    readers: int = 0
    streamed: int = 0  # readers whose every stream was answered 200 and sent events
    refused: int = 0  # readers turned away (503, or a busy event) who then polled
    streams_opened: int = 0  # 200 answers (a reader reconnects after each minute)
    answers_503: int = 0
    busy_events: int = 0
    parts: int = 0  # new live parts received
    versions: int = 0  # version events received
    part_bytes: int = 0
    polls: int = 0  # version checks by readers turned away
    polls_answered: int = 0  # of which answered 200 with a version
    cuts: int = 0  # streams cut mid-way and opened again (`reconnect`: a node went down)
    errors: list[str] = field(default_factory=list)
    refusal_text: str = ""  # what a 503 said, once

    def line(self) -> str:
        return (
            f"{self.readers} readers: {self.streamed} streaming, {self.refused} turned away "
            f"(503 x{self.answers_503}, busy x{self.busy_events}) polling "
            f"({self.polls_answered}/{self.polls} version checks answered); "
            f"{self.streams_opened} streams opened, {self.parts} parts "
            f"({self.part_bytes / 1e6:.1f} MB), {self.versions} version events; "
            f"{self.cuts} streams cut and opened again; {len(self.errors)} errors"
        )


async def _request(
    host: str, port: int, source: str, path: str
) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n".encode()
    )
    await writer.drain()
    status_line = await reader.readline()
    parts = status_line.split()
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return status, reader, writer


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    found: dict[str, str] = {}
    while True:
        line = (await reader.readline()).decode("latin-1")
        if line in ("\r\n", "\n", ""):
            return found
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()


async def _body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding", "").lower() == "chunked":
        return b"".join([chunk async for chunk in _chunks(reader)])
    return await reader.readexactly(int(headers.get("content-length", "0")))


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    while True:
        size_line = await reader.readline()
        if not size_line:
            raise ConnectionError("the stream was cut in the middle")
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            await reader.readline()
            return
        yield await reader.readexactly(size)
        await reader.readexactly(2)


class _Reader:
    def __init__(
        self,
        host: str,
        port: int,
        source: str,
        event_id: int,
        until: float,
        poll: float,
        reconnect: bool = False,
    ) -> None:
        self.host, self.port, self.source = host, port, source
        self.event_id, self.until, self.poll = event_id, until, poll
        self.reconnect = reconnect
        self.retry = 3.0  # seconds before a stream is opened again: the server's `retry:`
        self.turned_away = False
        self.streams = 0

    async def run(self, tally: ReaderTally) -> None:
        try:
            await self._read(tally)
        finally:  # time up, or told to stop (cancelled): the reader is counted either way
            if self.turned_away:
                tally.refused += 1
            elif self.streams:
                tally.streamed += 1

    async def _read(self, tally: ReaderTally) -> None:
        page = f"/results/{self.event_id}/"
        stream = f"/results/{self.event_id}/stream?page={page}"
        while time.monotonic() < self.until and not self.turned_away:
            try:
                await asyncio.wait_for(
                    self._follow(stream, tally), max(0.1, self.until - time.monotonic())
                )
            except TimeoutError:
                return  # time is up mid-stream: the reader closes the page
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as exc:
                if not self.reconnect:
                    tally.errors.append(f"stream from {self.source}: {type(exc).__name__}: {exc}")
                    return
                # Behind a balancer, the node serving this stream went down: EventSource
                # opens it again after the server's `retry:`, through a node that is up.
                tally.cuts += 1
            if not self.turned_away:
                await asyncio.sleep(min(self.retry, max(0.0, self.until - time.monotonic())))
        if self.turned_away:
            await self._poll(tally)

    async def _follow(self, path: str, tally: ReaderTally) -> None:
        status, reader, writer = await _request(self.host, self.port, self.source, path)
        try:
            headers = await _headers(reader)
            if status == 503:
                tally.answers_503 += 1
                body = (await _body(reader, headers)).decode()
                tally.refusal_text = tally.refusal_text or body
                if "every" not in body or "retry-after" not in headers:
                    tally.errors.append(f"a 503 without the reason and Retry-After: {body!r}")
                self.turned_away = True
                return
            if status != 200:
                tally.errors.append(f"stream: HTTP {status}")
                self.turned_away = True
                return
            tally.streams_opened += 1
            self.streams += 1
            # The server sends each event as one chunk: what it is, from its first line.
            async for chunk in _chunks(reader):
                if chunk.startswith(b"retry: "):  # EventSource keeps the server's wait
                    self.retry = int(chunk.split(b"\n", 1)[0][7:]) / 1000
                if chunk.startswith(b"event: part"):
                    tally.parts += 1
                    tally.part_bytes += len(chunk)
                elif b"event: version" in chunk[:40]:
                    tally.versions += 1
                elif chunk.startswith(b"event: busy"):
                    tally.busy_events += 1
                    self.turned_away = True
                    return
        finally:
            writer.close()

    async def _poll(self, tally: ReaderTally) -> None:
        rng = random.Random(self.source + str(id(self)))
        path = f"/results/{self.event_id}/version.json"
        while True:
            wait = self.poll + rng.uniform(0, 2.0)
            if time.monotonic() + wait >= self.until:
                return
            await asyncio.sleep(wait)
            try:
                status, reader, writer = await _request(self.host, self.port, self.source, path)
                try:
                    body = await _body(reader, await _headers(reader))
                finally:
                    writer.close()
            except (OSError, ConnectionError, asyncio.IncompleteReadError) as exc:
                tally.polls += 1
                tally.errors.append(f"version check: {type(exc).__name__}")
                continue
            # Counted once it has its answer: a check on its way when the readers close their
            # pages (`ReadersProcess.stop` cancels them) asked nothing anyone could answer.
            tally.polls += 1
            if status == 200 and "version" in json.loads(body):
                tally.polls_answered += 1
            else:
                tally.errors.append(f"version check: HTTP {status}")


async def follow(
    port: int,
    event_id: int,
    groups: list[tuple[str, int]],
    seconds: float,
    poll: float,
    reconnect: bool = False,
) -> ReaderTally:
    """Readers in `groups` of (source address, how many), all following `event_id` for
    `seconds`, opened over the first second or so (people do not all click at once). With
    `reconnect`, a stream cut mid-way is opened again, as EventSource does behind a balancer;
    without, it is an error."""
    tally = ReaderTally()
    until = time.monotonic() + seconds
    readers = [
        _Reader("127.0.0.1", port, source, event_id, until, poll, reconnect)
        for source, count in groups
        for _ in range(count)
    ]
    tally.readers = len(readers)
    if tally.readers > MAX_READERS:
        raise ValueError(f"{tally.readers} readers: at most {MAX_READERS}")
    random.Random(7).shuffle(readers)

    async def start(i: int, reader: _Reader) -> None:
        await asyncio.sleep(i * 0.002)
        await reader.run(tally)

    tasks = [asyncio.ensure_future(start(i, r)) for i, r in enumerate(readers)]
    # SIGTERM (`ReadersProcess.stop`): the readers close their pages now.
    asyncio.get_running_loop().add_signal_handler(
        signal.SIGTERM, lambda: [t.cancel() for t in tasks]
    )
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def groups_of(count: int, per_address: int, first: int = 10) -> list[tuple[str, int]]:
    """`count` readers, `per_address` from each of 127.0.0.<first>, <first+1>, ..."""
    groups, n = [], first
    while count > 0:
        groups.append((f"127.0.0.{n}", min(count, per_address)))
        count -= per_address
        n += 1
    return groups


def crowd(
    port: int,
    event_id: int,
    tokens: list[str],
    *,
    groups: list[tuple[str, int]],
    seconds: float,
    poll: float,
) -> tuple[list[Tablet], ReaderTally]:
    """A club night with a crowd following it: the readers open their streams first (the
    room display and the members at home are there before the first result), then the
    tablets play the event, paced like players, while the readers follow; both end by
    themselves, or the readers when the tablets are done. `seconds` bounds the whole.
    Returns the tablets (their latencies and answers) and the readers' tally."""
    with ReadersProcess(port, event_id, groups, seconds, poll) as readers:
        time.sleep(5.0)
        tablets = play(port, tokens, paced=True, time_limit=seconds - 10)
        finish(tablets, seconds)
        readers.stop()
        return tablets, readers.tally()


class ReadersProcess:
    """`follow` in a child process for the length of a `with` block (or until its seconds
    run out); `tally()` waits for it and returns what it counted."""

    def __init__(
        self,
        port: int,
        event_id: int,
        groups: list[tuple[str, int]],
        seconds: float,
        poll: float,
        reconnect: bool = False,
    ) -> None:
        spec = ",".join(f"{source}={count}" for source, count in groups)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from benchmarks.harness.readers import main; sys.exit(main())",
                str(port),
                str(event_id),
                spec,
                str(seconds),
                str(poll),
                *(["--reconnect"] if reconnect else []),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.seconds = seconds

    def stop(self) -> None:
        """The readers close their pages now (they are counted as they stand)."""
        if self.process.poll() is None:
            self.process.terminate()

    def tally(self) -> ReaderTally:
        out, _ = self.process.communicate(timeout=self.seconds + 60)
        if self.process.returncode != 0:
            raise RuntimeError(f"the readers' process failed (exit {self.process.returncode})")
        return ReaderTally(**json.loads(out.strip().splitlines()[-1]))

    def __enter__(self) -> ReadersProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.process.poll() is None and kind is not None:
            self.process.kill()
            self.process.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="live-results readers on loopback")
    parser.add_argument("port", type=int)
    parser.add_argument("event_id", type=int)
    parser.add_argument("groups", help="127.0.0.10=25,127.0.0.11=25,...")
    parser.add_argument("seconds", type=float)
    parser.add_argument("poll", type=float)
    parser.add_argument("--reconnect", action="store_true", help="open a cut stream again")
    args = parser.parse_args(argv)
    groups = [(s, int(n)) for s, _, n in (g.partition("=") for g in args.groups.split(","))]
    tally = asyncio.run(
        follow(args.port, args.event_id, groups, args.seconds, args.poll, args.reconnect)
    )
    print(json.dumps(asdict(tally)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
