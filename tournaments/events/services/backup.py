"""The events' part of the backup, writing: an event's document restored, imported into a club,
and carried in a whole backup; the part the events register with the kernel (`PART`).

Each restore is one transaction: the rows go in (with their own ids when the database holds
none of them yet, else with new ones), the event is scored again, and anything short of the
stored standings, or a row the database refuses, rolls everything back as a `RestoreRefused`.
A director's import (`event_import_text`, and the import page through the kernel's driver)
links nobody and creates nobody: a file's names are anybody's words, so they are kept as text
(`ParsedEvent.people_as_text`). The club's players are the events' rows in a club's block
(`PLAYERS`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tournaments.events.models import (
    AuditEntry,
    Board,
    Event,
    Pair,
    Player,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors.backup import (
    EVENT_FORMAT,
    SECTION_CHILDREN,
    TABLES,
    club_players,
    events_picked,
)
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.selectors.tablet_cache import tables_changed
from tournaments.events.services.audit import audit_record
from tournaments.events.services.backup_parse import (
    ParsedEvent,
    check_club,
    parse_event,
    parse_players,
)
from tournaments.events.services.scoring import version_key
from tournaments.kernel.audit import User
from tournaments.kernel.backup.documents import (
    DocumentsInBackup,
    document_import,
    document_restore,
    import_note,
    read_backup,
)
from tournaments.kernel.backup.registry import BackupPart
from tournaments.kernel.backup.report import Imported, RestoreReport, moved
from tournaments.kernel.backup.rows import list_in
from tournaments.kernel.backup.schema import Model, RestoreRefused
from tournaments.kernel.backup.text import loads
from tournaments.kernel.backup.writing import (
    batches,
    ids_kept,
    insert_rows,
    links_here,
    move_sequences_past,
    refuse_if_here,
    same_here,
)
from tournaments.kernel.models import Club

#: What to do when the event's club name is taken here under another web address.
CLUB_ADVICE = (
    "import the event into that club (the import page, or `manage.py import FILE --club SLUG`)"
)


@dataclass
class RestoredEvent:
    event: Event
    original_id: int | None
    counts: str
    checked: bool  # standings stored, scored again and found identical

    def describe(self) -> str:
        checked = (
            "scored again here: the standings are identical"
            if self.checked
            else "nothing scored yet"
        )
        return (
            f"event {self.event.pk}{moved(self.original_id, self.event.pk)}: "
            f"{self.event.name!r} of {self.event.date:%d %b %Y}, {self.event.game}, "
            f"{self.event.get_status_display().lower()}; {self.counts}; {checked}"
        )


def already_here(parsed: ParsedEvent) -> str | None:
    """Why the database cannot take this event, naming what is there; None when it can.

    The event is here when an event with its name, date and creation time is (an id proves
    nothing across databases); a copy of it shows by its tablet tokens or idempotency keys,
    which are unique in a database."""
    here = same_here(Event, parsed.event, parsed.title, "event") or links_here(
        TableAccess,
        [a.token for s in parsed.sections for a in s.table_access],
        parsed.title,
        "event",
        "section__event",
    )
    if here is not None:
        return here
    keys = [r.idempotency_key for s in parsed.sections for r in s.results]
    for chunk in batches(keys):
        taken = (
            Result.objects.filter(idempotency_key__in=chunk)
            .select_related("section__event")
            .first()
        )
        if taken is not None:
            return (
                f"A result of {parsed.title} (board {taken.board_number}, table {taken.table}) "
                f"is already here in event {taken.section.event_id} "
                f"({taken.section.event.name!r}): that event is this one or a copy of it"
            )
    return None


def _comparable(data: Any) -> Any:
    """A standings document without what differs between two scorings of the same results
    (when, and under which event id)."""
    return {k: v for k, v in data.items() if k not in ("computed_at", "event")}


def _first_difference(stored: Any, fresh: Any) -> str:
    stack: list[tuple[str, Any, Any]] = [("", stored, fresh)]
    while stack:
        path, a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str, reverse=True):
                stack.append((f"{path}.{key}" if path else str(key), a.get(key), b.get(key)))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i in reversed(range(len(a))):
                stack.append((f"{path}[{i}]", a[i], b[i]))
        elif a != b:
            return f"{path}: stored {a!r}, scored here {b!r}"
    return "no difference found"


def _restore_parsed(
    parsed: ParsedEvent,
    club: Club,
    *,
    imported_by: User = None,
    named: list[str] | None = None,
) -> RestoredEvent:
    """Write a checked event under `club` (its people already linked to accounts, or kept as
    text), score it again and compare; call inside a transaction, which a refusal rolls
    back."""
    refuse_if_here(already_here(parsed))
    original_id = parsed.event.pk
    keep = ids_kept(parsed.rows)
    event = parsed.event
    event.club = club
    event.rescore_queued_at = None
    insert_rows(Event, [event])
    for part in parsed.sections:
        part.section.event = event
    insert_rows(Section, [s.section for s in parsed.sections])
    for part in parsed.sections:
        for key, _ in SECTION_CHILDREN:
            for child in getattr(part, key):
                child.section = part.section
    insert_rows(Pair, [p for s in parsed.sections for p in s.pairs])
    for result in (r for s in parsed.sections for r in s.results):
        result.ns_pair = result.ns_pair  # takes the pair's id, now that it is saved
        result.ew_pair = result.ew_pair
    for key, model in SECTION_CHILDREN:
        if model is not Pair:
            insert_rows(model, [c for s in parsed.sections for c in getattr(s, key)])
    for board in parsed.boards:
        board.event = event
    insert_rows(Board, parsed.boards)
    for entry in parsed.audit:
        entry.event = event
    insert_rows(AuditEntry, parsed.audit)

    if parsed.standings is not None:
        fresh = json.loads(json.dumps(standings_compute(event=Event.objects.get(pk=event.pk))))
        stored = parsed.standings.data
        if _comparable(stored) != _comparable(fresh):
            raise RestoreRefused(
                f"Scored again here, {parsed.title} does not come out as its stored standings "
                f"({_first_difference(_comparable(stored), _comparable(fresh))}); nothing was "
                "restored. The document was changed by hand, or this clubwhist scores "
                "differently from the one that wrote it."
            )
        parsed.standings.data = {**stored, "event": event.pk}
        parsed.standings.event = event
        insert_rows(Standings, [parsed.standings])
    if keep:
        move_sequences_past(parsed.rows())
    # A scored version cached under this id (an event that had it before) must not stand.
    transaction.on_commit(lambda: cache.delete(version_key(event.pk)), robust=True)
    if imported_by is not None:
        audit_record(
            event=event,
            user=imported_by,
            action="event imported",
            target=f"event {event.pk}",
            after=import_note("event", original_id, named or []),
        )
    tables_changed([s.section.pk for s in parsed.sections])
    return RestoredEvent(event, original_id, parsed.counts(), parsed.standings is not None)


def event_restore(
    document: Any,
    *,
    club: Club | None = None,
    imported_by: User = None,
    dry_run: bool = False,
) -> RestoreReport:
    """Restore one event document (`event_document`), all of it or nothing.

    Into `club` when given: a director's import, which applies none of the document's club
    settings and links nobody to an account (`ParsedEvent.people_as_text`). Otherwise
    (`manage.py restore`, run by whoever runs the installation) into the club with the
    document's slug, made as the document has it when there is none, its users linked by
    username and made, inactive, when missing. `imported_by` is audited as having imported
    it. A dry run does everything, checks included, then rolls back.
    """
    parsed = parse_event(document)

    def write(target: Club, report: RestoreReport, named: list[str] | None = None) -> RestoredEvent:
        restored = _restore_parsed(parsed, target, imported_by=imported_by, named=named)
        report.of("events").append(restored)
        _note_queued_analysis(parsed, report)
        return restored

    if club is None:
        return document_restore(parsed, write, advice=CLUB_ADVICE, dry_run=dry_run)
    return document_import(parsed, write, club=club, imported_by=imported_by, dry_run=dry_run)[1]


def _note_queued_analysis(parsed: ParsedEvent, report: RestoreReport) -> None:
    waiting = [b.number for b in parsed.boards if b.par_status == Board.ParStatus.QUEUED]
    if waiting:
        report.notes.append(
            f"{len(waiting)} board(s) of {parsed.title} were waiting for analysis when it was "
            "written: ask for the analysis again on the event page."
        )


def event_import_text(*, text: str, club: Club, user: User = None) -> Event:
    """A director's import of an event's JSON into `club` (the import page and API, and
    `manage.py import`): every value checked, people kept as text (`event_restore`)."""
    report = event_restore(loads(text), club=club, imported_by=user)
    restored: RestoredEvent = report.of("events")[0]
    return restored.event


def event_import_document(document: Any, *, club: Club, imported_by: User = None) -> Imported:
    """An event's JSON into `club` (`event_restore`: scored again and compared)."""
    restored: RestoredEvent = event_restore(document, club=club, imported_by=imported_by).of(
        "events"
    )[0]
    said = (
        f"Restored whole: {restored.event.name}. Scored again here, its standings are exactly "
        "those stored in the file."
    )
    return Imported("event", restored.event, said)


def _restore_in_backup(parsed: ParsedEvent, club: Club, report: RestoreReport) -> RestoredEvent:
    restored = _restore_parsed(parsed, club)
    _note_queued_analysis(parsed, report)
    return restored


def events_read(document: dict[str, Any], slugs: set[str]) -> DocumentsInBackup:
    """A backup's "events" (every version has them), each of a club the backup lists."""
    listed = list_in(document, "events", "The backup")
    events = read_backup(listed, parse_event, "Event", "event", slugs)
    return DocumentsInBackup("events", events, already_here, _restore_in_backup)


class ClubPlayers:
    """The club's players, carried in its block (`registry.ClubPart`)."""

    key = "players"

    def check(self, club: Club, where: str) -> None:
        check_club(club, where)

    def dump(self, club: Club) -> list[Any]:
        return club_players(club)

    def parse(self, data: dict[str, Any], where: str) -> list[Any]:
        return parse_players(data, where)

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        for player in rows:
            player.club = club
            if player.pk is not None and Player.objects.filter(pk=player.pk).exists():
                player.pk = None
        insert_rows(Player, rows)
        return [(Player, rows)]


PLAYERS = ClubPlayers()

PART = BackupPart(
    marker=EVENT_FORMAT,
    version=2,
    readable=frozenset({1, 2}),
    kind="event",
    whose="an event's",
    importable="an event",
    tables=TABLES,
    report_kinds=(("events", None),),
    pick=events_picked,
    chosen_by="events",
    read=events_read,
    restore=event_restore,
    import_document=event_import_document,
    club_part=PLAYERS,
)
