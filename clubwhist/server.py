"""gunicorn's worker for clubwhist: uvicorn serving the ASGI application.

Why ASGI: a member following live results keeps a stream open for a minute at a time. Served
by threads (WSGI), each open stream holds a thread, and a few hundred readers took every
thread the tablets needed. Under ASGI a stream is a coroutine of the event loop
(`tournaments/events/views/live.py`) and holds nothing while it waits, while every other request,
the tablets' included, runs as plain WSGI Django in a pool of threads of its own
(`clubwhist/asgi.py` says which path goes where, and why).

Run it as gunicorn's worker class (production, `manage.py club`, the test harness):

    gunicorn clubwhist.asgi:application --worker-class clubwhist.server.Worker

The settings differ from uvicorn's defaults on purpose:
- proxy headers are not read here: clubwhist takes the client's address from X-Forwarded-For
  itself, behind exactly TRUSTED_PROXY_COUNT proxies (clubwhist/settings.py), in one place
  for the login lockout, the API's throttles and the live streams' caps. uvicorn's own reading
  trusts 127.0.0.1 by default, which would let anything on the server choose its address.
- no lifespan protocol: Django has none, and uvicorn would log that at every start.
- uvloop and httptools, the fast event loop and HTTP parser (both pinned in requirements).
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "uvloop",
        "http": "httptools",
        "lifespan": "off",
        "proxy_headers": False,
        "server_header": False,
    }
