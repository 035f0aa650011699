"""The events' part of the backup, reading (the events' models' tables, an event's document, the
events a backup takes): the kernel's framework (`tournaments.kernel.backup`) writes it out.

An event's document holds everything the event is: its club, its own settings, its sections
with their movement rows, pairs, results (entries, statuses, idempotency keys, who entered
them), tablet links and director calls, the boards exactly as stored, the audit trail and the
newest standings (`TABLES` says what is carried of every model and what is left out, and why).
A club's block carries the club's players (`club_players`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.scoring import pair_key
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    PrintJob,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors.standings import standings_compute
from tournaments.kernel.backup.dump import (
    documents_of,
    head,
    member_links_out,
    named_in,
    row,
    usernames,
)
from tournaments.kernel.backup.registry import Picked, Tables
from tournaments.kernel.backup.schema import (
    AUDIT_FIELDS,
    LINK_FIELDS,
    Model,
    listed_under,
)
from tournaments.kernel.models import Club

EVENT_FORMAT = "clubwhist-event"

#: What an event's document carries of each of the events' models (a result's pairs as their
#: keys "NS3"/"EW2"/"3"), and what it leaves out.
TABLES = Tables(
    fields={
        Player: ("id", "name"),
        Event: (
            "id",
            "name",
            "date",
            "game",
            "options",
            "method",
            "scale",
            "status",
            "advance",
            "live_public",
            "created_by",
            "created_at",
            "results_version",
            "scored_version",
        ),
        Section: (
            "id",
            "name",
            "movement_kind",
            "movement_params",
            "tables",
            "rounds",
            "boards_per_round",
            "one_winner",
            "relay_sets",
            "released_round",
            "clock_ends_at",
            "clock_minutes",
        ),
        Pair: (
            "id",
            "number",
            "direction",
            "player1",
            "player2",
            "member1",
            "member2",
            "is_phantom",
            "arrived_late",
            "presence",
        ),
        Board: ("id", "number", "record", "par", "par_status", "fouled"),
        MovementRow: ("id", "round", "table", "ns_pair", "ew_pair", "board_set"),
        Result: (
            "id",
            "board_number",
            "round",
            "table",
            "ns_pair",
            "ew_pair",
            "entry",
            "ns_score",
            "status",
            "artificial_code",
            "entered_by_device",
            "entered_by",
            "idempotency_key",
            "flag",
            "confirmed_at",
            "created_at",
            "updated_at",
        ),
        AuditEntry: AUDIT_FIELDS,
        Standings: ("id", "version", "computed_at", "data"),
        TableAccess: LINK_FIELDS,
        DirectorCall: (
            "id",
            "table",
            "round",
            "note",
            "reason",
            "cancelled",
            "board_number",
            "created_at",
            "handled_at",
        ),
    },
    added_later={
        DirectorCall: {"reason": "other", "cancelled": False, "board_number": None},
        # Arrivals and departures during play came with migration 0017: before it a pair was
        # there all evening or not at all (`is_phantom`).
        # The links to the member register came with migration 0019 and were carried from
        # version 2 of the document (version 5 of the backup): before, none.
        Pair: {"presence": [], "member1": None, "member2": None},
    },
    implied={
        Player: {"club": "listed under its club"},
        Event: {"club": "the document's club (or the club it is imported into)"},
        **listed_under("event", Section, Board, AuditEntry, Standings),
        **listed_under("section", Pair, MovementRow, Result, TableAccess, DirectorCall),
    },
    omitted={
        Event: {
            "rescore_queued_at": "a claim on the results-processing queue of the machine that "
            "wrote the backup; a restored event has nothing queued (its standings are current)",
        },
    },
    omitted_models={
        PrintJob: "print packs are PDFs made from the event on request; the print page makes "
        "them again from the restored event",
    },
)

#: Under each section (and the event), the children by the models' related names.
SECTION_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("pairs", Pair),
    ("movement_rows", MovementRow),
    ("results", Result),
    ("table_access", TableAccess),
    ("calls", DirectorCall),
)


def club_players(club: Club) -> list[dict[str, Any]]:
    """The club's players, as its block carries them."""
    return [row(p, Player, users={}) for p in club.players.order_by("pk")]


def _standings_block(event: Event) -> dict[str, Any] | None:
    """The newest stored standings when they are those of the results; otherwise (a result
    came in moments before the backup) the standings of these results, as the worker is about
    to store them, so a document is never behind its own results."""
    latest = Standings.objects.filter(event=event).order_by("-version").first()
    if latest is not None and latest.version == event.results_version:
        return row(latest, Standings, users={})
    if latest is None and event.results_version == 0:
        return None
    data = json.loads(json.dumps(standings_compute(event=event)))
    return {
        "id": None,
        "version": event.results_version,
        "computed_at": data["computed_at"],
        "data": data,
    }


def event_document(event: Event, *, backup: bool = False) -> dict[str, Any]:
    """The whole event as a JSON-ready document (`EVENT_FORMAT`, its version); reads only.
    Its pairs' links to the club's members are the members' ids in a whole backup
    (`backup`), which carries the register, and their names in a document on its own
    (`kernel.backup.dump.member_links_out`).

    Call inside `consistent_read()` when tablets may be writing, so every part is of the same
    moment.
    """
    event = Event.objects.select_related("club").get(pk=event.pk)
    sections = list(Section.objects.filter(event=event).order_by("pk"))
    section_ids = [s.pk for s in sections]
    results = list(Result.objects.filter(section_id__in=section_ids).order_by("pk"))
    audit = list(AuditEntry.objects.filter(event=event).order_by("pk"))
    users = usernames(
        [event.created_by_id] + [r.entered_by_id for r in results] + [a.user_id for a in audit]
    )
    pairs_of = {p.pk: p for p in Pair.objects.filter(section_id__in=section_ids).order_by("pk")}
    keys = {pk: pair_key(p.number, p.direction or None) for pk, p in pairs_of.items()}
    members = member_links_out(
        [m for p in pairs_of.values() for m in (p.member1_id, p.member2_id)], backup=backup
    )
    standings = _standings_block(event)
    event_row = row(event, Event, users=users)
    if standings is not None:
        event_row["scored_version"] = standings["version"]
    section_blocks = []
    for section in sections:
        block = row(section, Section, users=users)
        block["pairs"] = [
            row(p, Pair, users=users, members=members)
            for p in pairs_of.values()
            if p.section_id == section.pk
        ]
        block["movement_rows"] = [
            row(r, MovementRow, users=users)
            for r in MovementRow.objects.filter(section=section).order_by("pk")
        ]
        block["results"] = [
            row(r, Result, users=users, keys={Pair: keys})
            for r in results
            if r.section_id == section.pk
        ]
        block["table_access"] = [
            row(a, TableAccess, users=users)
            for a in TableAccess.objects.filter(section=section).order_by("pk")
        ]
        block["calls"] = [
            row(c, DirectorCall, users=users)
            for c in DirectorCall.objects.filter(section=section).order_by("pk")
        ]
        section_blocks.append(block)
    return {
        **head(EVENT_FORMAT, event.club),
        "event": event_row,
        "sections": section_blocks,
        "boards": [
            row(b, Board, users=users) for b in Board.objects.filter(event=event).order_by("pk")
        ],
        "audit": [row(a, AuditEntry, users=users) for a in audit],
        "standings": standings,
    }


def _named_users_of_documents(documents: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for doc in documents:
        yield from named_in(doc, "event")
        for section in doc["sections"]:
            yield from (r["entered_by"] for r in section["results"] if r["entered_by"])


def events_picked(clubs: list[Club], chosen: Iterable[Event] | None, whole: bool) -> Picked:
    """A backup's "events": the events given and those of the clubs given (with `whole`,
    every event), each a document of its own, with their clubs and the people they name."""
    events, documents = documents_of(
        chosen,
        clubs,
        lambda club: club.events.all(),
        Event.objects.all,
        whole,
        lambda event: event_document(event, backup=True),
    )
    return Picked(
        blocks={"events": documents},
        clubs=[e.club for e in events],
        usernames=set(_named_users_of_documents(documents)),
    )
