"""The tablet pages: what players see at the table, on any browser, with no login.

The page is one template with the table's state embedded (so it shows at once, and again from
the service worker's copy when a reload finds no network); `static/js/table.js` builds the
screens from that state and from the game's entry fields, and talks to the tablet API
(`tournaments/api/tablets.py`) through `static/js/tablet-core.js`, which every format's tablet
page shares. The token in the URL is the table's key.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.selectors import tablet_cache
from tournaments.services import tablets

#: What every tablet page loads before its format's script (requests, the one retry policy,
#: the offline queue, the banner, the service worker, the live wake-up) and its style.
CORE_FILES = ("js/tablet-core.js", "css/table.css")
TABLE_FILES = (*CORE_FILES, "js/table.js")


def cache_name() -> str:
    """The classic table page's service worker cache (`files_cache_name`)."""
    return files_cache_name(TABLE_FILES)


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


@never_cache
@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        access = tablets.table_access(token)
    except tablets.TableLinkReplaced as exc:
        return render(request, "tournaments/tablets/gone.html", {"message": str(exc)}, status=410)
    except tablets.TableLinkUnknown as exc:
        return render(request, "tournaments/tablets/gone.html", {"message": str(exc)}, status=404)
    return render(
        request,
        "tournaments/tablets/table.html",
        {
            "token": token,
            "state": tablet_cache.table_state_now(access),
            "api": f"/api/t/{token}/",
            "cache_name": cache_name(),
        },
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker lives under /t/ so that it may serve every table page from its copy
    when a tablet reloads without a network (browsers allow this on HTTPS and localhost)."""
    return worker_response(request, "/t/", TABLE_FILES, cache_name())


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
