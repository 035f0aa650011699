"""The tablet pages: what players see at the table, on any browser, with no login.

The page is one template with the table's state embedded (so it shows at once, and again from
the service worker's copy when a reload finds no network); `static/js/table.js` builds the
screens from that state and from the game's entry fields, and talks to the tablet API
(`tournaments/events/api/tablets.py`) through `static/js/tablet-core.js`, which every format's
tablet page shares. The token in the URL is the table's key.
"""

from __future__ import annotations

from tournaments.events.selectors import tablet_cache
from tournaments.events.services import tablets
from tournaments.kernel.tablet_pages import TabletSite

SITE = TabletSite("/t/", "tournaments/tablets/table.html", "js/table.js")


#: The page and its service worker (under /t/, so that it may serve every table page from its
#: copy when a tablet reloads without a network: browsers allow this on HTTPS and localhost).
table_page, service_worker = SITE.views(
    lambda token: tablet_cache.table_state_now(tablets.table_access(token))
)
