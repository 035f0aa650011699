"""Read-side queries for pages, the API and the jobs: they never write to the database.

One module per subject: `events` (standings, travellers, lists, links), `room` (the director's
room and the card-secrecy rule), `tablets` (a table's state), `tablet_cache` (that state kept in
the shared cache until something it shows changes), `audit` (the audit trail as read),
`standings` (the standings computed from the results: whole, as stored, or over the finished
boards only, as the public sees a running event) and `public` (the published results). The
names most pages use are here too.
"""

from tournaments.events.selectors.audit import AuditLine, audit_lines
from tournaments.events.selectors.events import (
    TabletLink,
    TravellerRow,
    events_visible,
    flagged_results,
    latest_standings,
    tablet_links,
    traveller,
    traveller_counts,
)
from tournaments.events.selectors.room import TableStatus, boards_finished, room_view, sit_outs
from tournaments.events.selectors.tablets import (
    entry_field_view,
    table_round,
    table_round_boards,
    table_state,
    tables_holding,
)

__all__ = [
    "AuditLine",
    "TableStatus",
    "TabletLink",
    "TravellerRow",
    "audit_lines",
    "boards_finished",
    "entry_field_view",
    "events_visible",
    "flagged_results",
    "latest_standings",
    "room_view",
    "sit_outs",
    "table_round",
    "table_round_boards",
    "table_state",
    "tables_holding",
    "tablet_links",
    "traveller",
    "traveller_counts",
]
