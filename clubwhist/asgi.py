"""ASGI entry point, served by gunicorn's uvicorn worker (clubwhist/server.py).

Two ways in, chosen by path:
- the live-results streams (`/results/<id>/stream`) and the drive and team tablets' streams
  (`/d/<token>/stream/`, `/tt/<token>/stream/`) go to Django's ASGI handler, where a stream is
  a coroutine of the event loop and holds no thread while it waits
  (tournaments/events/views/live.py, tournaments/drives/views/tablets.py,
  tournaments/teams/views/tablets.py);
- everything else, the tablets' requests first of all, goes to Django's WSGI handler in a pool
  of threads of its own (a2wsgi), exactly as a threaded WSGI server runs it: the whole
  middleware chain and the view in one thread, one hand-over from the event loop and back.
  Under Django's ASGI handler every synchronous middleware method costs a hand-over of its
  own, a dozen a request, each one a wait for a core on a busy server.
So readers, however many, never take a thread the tablets need, and the tablets pay nothing
for the streams' event loop. WEB_THREADS sets the pool's size (`THREADS`, 8 a process).
"""

from __future__ import annotations

import os
import re
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from clubwhist import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubwhist.settings")

#: The WSGI pool's threads a process, unless WEB_THREADS says. Eight, not more: the threads
#: share one interpreter lock, and past a handful a busy server spends its cores handing it
#: round. 300 tablets through a nine-round evening on the 2-core machine (`benchmarks.
#: tablets_load`, 2 workers, 2026-12-07): p95 81 and 115 ms with 8 threads, 158 ms with 4, 254
#: with 16, 441 to 925 ms with 32 (the old default), the web workers' CPU 65-70 s each against
#: 82-103; at 100 tablets both well under 50 ms (19.6 and 15.3 ms).
THREADS = 8

#: The paths served as coroutines: the live-results streams and the tablets' streams.
STREAMS = re.compile(r"^(/results/\d+/stream|/(?:d|tt)/[^/]+/stream/)$")

_asgi = get_asgi_application()
_wsgi = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]
    workers=int(os.environ.get("WEB_THREADS", str(THREADS))),
)
heap.settle()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and STREAMS.match(scope.get("path", "")):
        await _asgi(scope, receive, send)
    else:
        await _wsgi(scope, receive, send)  # type: ignore[arg-type]
