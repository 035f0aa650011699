"""The tablet pages: what players see at the table, on any browser, with no login.

The page is one template with the table's state embedded (so it shows at once, and again from
the service worker's copy when a reload finds no network); `static/js/table.js` builds the
screens from that state and from the game's entry fields, and talks to the tablet API
(`tournaments/events/api/tablets.py`) through `static/js/tablet-core.js`, which every format's
tablet page shares. The token in the URL is the table's key.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.events.selectors import tablet_cache
from tournaments.events.services import tablets
from tournaments.kernel.tablet_pages import (
    CORE_FILES,
    files_cache_name,
    tablet_page,
    worker_response,
)

TABLE_FILES = (*CORE_FILES, "js/table.js")


def cache_name() -> str:
    """The classic table page's service worker cache (`files_cache_name`)."""
    return files_cache_name(TABLE_FILES)


@never_cache
@require_GET
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    def context() -> dict[str, object]:
        return {"state": tablet_cache.table_state_now(tablets.table_access(token))}

    return tablet_page(
        request,
        "tournaments/tablets/table.html",
        context,
        token=token,
        api=f"/api/t/{token}/",
        scope="/t/",
        cache_name=cache_name(),
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker lives under /t/ so that it may serve every table page from its copy
    when a tablet reloads without a network (browsers allow this on HTTPS and localhost)."""
    return worker_response(request, "/t/", TABLE_FILES, cache_name())
