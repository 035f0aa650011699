"""What every format's tablet page shares: the page itself (its state embedded, or the page for a
link no table has or the director replaced), the files each page loads first (the script core
and the style), the service worker that keeps the pages and those files for a reload without
the network, and its cache name, drawn from the files' contents so an upgrade replaces it."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.kernel import live
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.streams import table_stream

#: What every tablet page loads before its format's script (requests, the one retry policy,
#: the offline queue, the banner, the service worker, the live wake-up) and its style.
CORE_FILES = ("js/tablet-core.js", "css/table.css")


@lru_cache(maxsize=4)
def files_cache_name(files: tuple[str, ...], prefix: str = "clubwhist-table") -> str:
    """A service worker's cache, named after what is in the page's files: an upgraded
    clubwhist changes the name, so every tablet's worker is replaced and drops its old copies
    (it serves those files from its cache first, and `make run` serves them unhashed)."""
    digest = hashlib.sha256()
    for name in files:
        found = finders.find(name)
        path = found[0] if isinstance(found, list) else found
        if path:
            with open(path, "rb") as handle:
                digest.update(handle.read())
    return f"{prefix}-{digest.hexdigest()[:12]}"


def worker_response(
    request: HttpRequest, scope: str, files: tuple[str, ...], cache: str
) -> HttpResponse:
    """One tablet page's service worker: it keeps the pages under `scope` and their `files`
    (the same worker serves the drives' tablets at /d/ and the team tablets' at /tt/)."""
    response = render(
        request,
        "tournaments/tablets/sw.js",
        {"cache_name": cache, "files": [static(name) for name in files], "scope": scope},
        content_type="application/javascript",
    )
    response["Service-Worker-Allowed"] = scope
    response["Cache-Control"] = "no-cache"
    return response


def link_gone(request: HttpRequest, exc: LookupError) -> HttpResponse:
    """The page for a link no table has (404) or one the director replaced (410), saying so."""
    status = 410 if isinstance(exc, LinkReplaced) else 404
    return render(request, "tournaments/tablets/gone.html", {"message": str(exc)}, status=status)


def tablet_page(
    request: HttpRequest,
    template: str,
    context: Callable[[], dict[str, Any]],
    *,
    token: str,
    api: str,
    scope: str,
    cache_name: str,
) -> HttpResponse:
    """A format's tablet page: its state embedded (`context()`, which looks the link up and
    raises `LinkUnknown` or `LinkReplaced`), its API, its live stream and its service worker
    under `scope` (`/t/`, `/d/`, `/tt/`), and the worker's cache name."""
    try:
        values = context()
    except (LinkUnknown, LinkReplaced) as exc:
        return link_gone(request, exc)
    return render(
        request,
        template,
        {
            "token": token,
            "api": api,
            "stream": f"{scope}{token}/stream/",
            "sw": f"{scope}sw.js",
            "cache_name": cache_name,
            **values,
        },
    )


@dataclass(frozen=True)
class TabletSite:
    """One format's tablet pages under one `scope` (`/t/`, `/d/`, `/tt/`): the page template,
    the format's screens script loaded after the core, and the service worker's cache name
    (the script's name and the files' contents). Its API sits at `/api` + scope + token. Its
    tablets' live streams are counted in `slots` of their own (`kernel.streams` says how long
    each lives and how many one link may hold)."""

    scope: str
    template: str
    script: str
    slots: live.StreamSlots = field(
        default_factory=lambda: live.StreamSlots("tablets"), compare=False, repr=False
    )

    @property
    def files(self) -> tuple[str, ...]:
        """What the page needs to show itself again from the service worker's copy."""
        return (*CORE_FILES, self.script)

    def cache_name(self) -> str:
        """`clubwhist-table-…`, `clubwhist-drive-table-…`: the script's name, then the digest."""
        return files_cache_name(self.files, f"clubwhist-{self.script.rsplit('/', 1)[-1][:-3]}")

    def page(
        self, request: HttpRequest, token: str, context: Callable[[], dict[str, Any]]
    ) -> HttpResponse:
        """The table's page for `token` (`tablet_page`)."""
        return tablet_page(
            request,
            self.template,
            context,
            token=token,
            api=f"/api{self.scope}{token}/",
            scope=self.scope,
            cache_name=self.cache_name(),
        )

    def views(
        self, state: Callable[[str], dict[str, Any]]
    ) -> tuple[Callable[[HttpRequest, str], HttpResponse], Callable[[HttpRequest], HttpResponse]]:
        """The page's view and the service worker's, for the URL maps; `state(token)` is the
        table's state (it raises `LinkUnknown` or `LinkReplaced`)."""

        @never_cache
        @require_GET
        def page(request: HttpRequest, token: str) -> HttpResponse:
            return self.page(request, token, lambda: {"state": state(token)})

        @require_GET
        def worker(request: HttpRequest) -> HttpResponse:
            return self.worker(request)

        return page, worker

    def stream(
        self,
        request: HttpRequest,
        token: str,
        opening: dict[str, Any],
        last: int,
        newer: Callable[[int], Awaitable[int]],
        state_at: Callable[[int], Awaitable[dict[str, Any] | None]],
    ) -> HttpResponseBase:
        """A tablet's live stream in this site's slots (`streams.table_stream`)."""
        return table_stream(request, token, self.slots, opening, last, newer, state_at)

    def worker(self, request: HttpRequest) -> HttpResponse:
        """The service worker, under the scope: a tablet that reloads without a network still
        shows its table (and what it has not sent yet)."""
        return worker_response(request, self.scope, self.files, self.cache_name())
