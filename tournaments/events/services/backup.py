"""Writing checked documents back into the database: one event, a whole backup (drives, leagues
and team tournaments included).

Each restore is one transaction: the rows go in (with their own ids when the database holds
none of them yet, else with new ones), the event is scored again, and anything short of the
stored standings, or a row the database refuses, rolls everything back as a `RestoreRefused`.
The helpers events, drives and tournaments share are in `writing`, a drive's own restore in
`drive_restoring`, a tournament's and a league's in `team_restoring`.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.core.cache import cache
from django.db import models, transaction

from tournaments.events.models import (
    AuditEntry,
    Board,
    Event,
    Pair,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.selectors.tablet_cache import tables_changed
from tournaments.events.services.audit import User, actor, audit_record
from tournaments.events.services.scoring import version_key
from tournaments.files.backup.drive_parse import ParsedDrive, parse_drive
from tournaments.files.backup.drive_restoring import (
    drive_already_here,
    drive_restore,
    restore_parsed_drive,
)
from tournaments.files.backup.parse import ParsedEvent, parse_club, parse_event
from tournaments.files.backup.report import RestoredEvent, RestoreReport
from tournaments.files.backup.rows import check_marker, check_unique, list_in, load_row
from tournaments.files.backup.schema import (
    BACKUP_DRIVES_SINCE,
    BACKUP_FORMAT,
    DRIVE_FORMAT,
    EVENT_FORMAT,
    SECTION_CHILDREN,
    TOURNAMENT_FORMAT,
    RestoreRefused,
)
from tournaments.files.backup.team_restoring import (
    backup_tournaments,
    restore_backup_tournaments,
    tournament_already_here,
    tournament_restore,
)
from tournaments.files.backup.text import loads
from tournaments.files.backup.writing import (
    batches,
    club_create,
    club_for,
    club_listed,
    database_refusals,
    ensure_users,
    ids_free,
    in_backup,
    insert_rows,
    link_users,
    move_sequences_past,
)
from tournaments.kernel.models import Club

#: What to do when the event's club name is taken here under another web address.
CLUB_ADVICE = (
    "import the event into that club (the import page, or `manage.py import FILE --club SLUG`)"
)


def already_here(parsed: ParsedEvent) -> str | None:
    """Why the database cannot take this event, naming what is there; None when it can.

    The event is here when an event with its name, date and creation time is (an id proves
    nothing across databases); a copy of it shows by its tablet tokens or idempotency keys,
    which are unique in a database."""
    e = parsed.event
    same = (
        Event.objects.filter(name=e.name, date=e.date, created_at=e.created_at)
        .select_related("club")
        .first()
    )
    if same is not None:
        return (
            f"This database already holds {parsed.title} (event {same.pk}, club {same.club.name!r})"
        )
    tokens = [a.token for s in parsed.sections for a in s.table_access]
    for chunk in batches(tokens):
        clash = TableAccess.objects.filter(token__in=chunk).select_related("section__event").first()
        if clash is not None:
            return (
                f"Table {clash.table}'s tablet link of {parsed.title} is already used here by "
                f"event {clash.section.event_id} ({clash.section.event.name!r}): that event is "
                "this one or a copy of it"
            )
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


def _people_as_text(parsed: ParsedEvent, importer: AuthUser | None) -> list[str]:
    """A director's import: the people a document names are words in a file anybody can
    write, so no row is linked to an account by them (that would let a file say another
    club's director or the administrator did something, and put their accounts in this
    club's backups). The event is the importer's; a result keeps who entered it as text,
    beside the device it was entered on; an audit entry keeps the name as text
    (`user_name`). Returns the names, for the import's own audit entry."""
    for ref in parsed.user_refs:
        if isinstance(ref.obj, Result):
            device = ref.obj.entered_by_device
            said = f"{device} ({ref.username})" if device else ref.username
            ref.obj.entered_by_device = said[
                : Result._meta.get_field("entered_by_device").max_length
            ]
        elif isinstance(ref.obj, AuditEntry):
            ref.obj.user_name = ref.username
        setattr(ref.obj, ref.attname, None)
    parsed.event.created_by = importer
    return sorted(parsed.usernames())


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
    refusal = already_here(parsed)
    if refusal is not None:
        raise RestoreRefused(f"{refusal}. Delete it first, or restore into another database.")
    original_id = parsed.event.pk
    keep = ids_free(parsed.rows())
    if not keep:
        for _, rows in parsed.rows():
            for row in rows:
                row.pk = None
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
            after={
                "from": "clubwhist JSON",
                "event": original_id,
                **({"people named": ", ".join(named)} if named else {}),
            },
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
    settings and links nobody to an account (`_people_as_text`). Otherwise (`manage.py
    restore`, run by whoever runs the installation) into the club with the document's slug,
    made as the document has it when there is none, its users linked by username and made,
    inactive, when missing. `imported_by` is audited as having imported it. A dry run does
    everything, checks included, then rolls back.
    """
    parsed = parse_event(document)
    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        named = None
        if club is None:
            users = ensure_users(parsed.usernames() | set(parsed.club.directors), {}, report)
            target = club_for(parsed.club, users, report, advice=CLUB_ADVICE)
            link_users(parsed.user_refs, users)
        else:
            target = club
            named = _people_as_text(parsed, actor(imported_by))
        report.events.append(_restore_parsed(parsed, target, imported_by=imported_by, named=named))
        _note_queued_analysis(parsed, report)
        if dry_run:
            transaction.set_rollback(True)
    return report


def _note_queued_analysis(parsed: ParsedEvent, report: RestoreReport) -> None:
    waiting = [b.number for b in parsed.boards if b.par_status == Board.ParStatus.QUEUED]
    if waiting:
        report.notes.append(
            f"{len(waiting)} board(s) of {parsed.title} were waiting for analysis when it was "
            "written: ask for the analysis again on the event page."
        )


def backup_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore a backup (`backup_document`) into a database that has none of its clubs,
    events, drives and tournaments, all of it or nothing; refuses, naming them, when any is
    already here. A version 1 backup (written before drives were backed up) holds no drive,
    a version 1 or 2 backup no league and no tournament."""
    check_marker(document, BACKUP_FORMAT, "backup")
    carried: dict[str, AuthUser] = {}
    for i, raw in enumerate(list_in(document, "users", "The backup")):
        user: AuthUser = load_row(AuthUser, raw, f"User {i + 1} of the backup", fmt=BACKUP_FORMAT)
        if user.username in carried:
            raise RestoreRefused(f"The backup lists the user {user.username!r} twice.")
        carried[user.username] = user
    clubs = [
        parse_club(raw, f"Club {i + 1} of the backup")
        for i, raw in enumerate(list_in(document, "clubs", "The backup"))
    ]
    check_unique(
        ((b.club.slug, f"club {b.club.name!r}") for b in clubs), "web address (slug)", "The backup"
    )
    check_unique(((b.club.name, f"club {b.club.slug!r}") for b in clubs), "name", "The backup")
    slugs = {b.club.slug for b in clubs}
    events: list[ParsedEvent] = []
    for i, raw in enumerate(list_in(document, "events", "The backup")):
        parsed = in_backup(parse_event, raw, f"Event {i + 1}", "event")
        club_listed(parsed.club.club.slug, slugs, f"Event {i + 1}", parsed.event.name)
        events.append(parsed)
    drives: list[ParsedDrive] = []
    for i, raw in enumerate(_drive_documents(document)):
        drive = in_backup(parse_drive, raw, f"Drive {i + 1}", "drive")
        club_listed(drive.club.club.slug, slugs, f"Drive {i + 1}", drive.drive.name)
        drives.append(drive)
    leagues, tournaments = backup_tournaments(document, slugs)

    here = [
        f"{c.name!r} ({c.slug})"
        for c in Club.objects.filter(
            models.Q(slug__in=slugs) | models.Q(name__in=[b.club.name for b in clubs])
        )
    ]
    here += [found for found in (already_here(p) for p in events) if found]
    here += [found for found in (drive_already_here(d) for d in drives) if found]
    here += [found for found in (tournament_already_here(t) for t in tournaments) if found]
    if here:
        raise RestoreRefused(
            "This database already has what the backup would restore: "
            + "; ".join(here)
            + ". Restore into an empty database (a new SQLite file, or a new PostgreSQL "
            "database, migrated), or delete those first."
        )

    report = RestoreReport(dry_run=dry_run)
    with database_refusals(), transaction.atomic():
        names = set(carried)
        for block in clubs:
            names.update(block.directors)
        for parsed in events:
            names |= parsed.usernames()
        for drive in drives:
            names |= drive.usernames()
        for entry in leagues:
            names |= {ref.username for ref in entry.user_refs}
        for tournament in tournaments:
            names |= tournament.usernames()
        users = ensure_users(names, carried, report)
        made = {}
        for block in clubs:
            made[block.club.slug] = club_create(block, users)
            report.clubs.append(f"{block.club.name} ({block.club.slug})")
        for parsed in events:
            link_users(parsed.user_refs, users)
            report.events.append(_restore_parsed(parsed, made[parsed.club.club.slug]))
            _note_queued_analysis(parsed, report)
        for drive in drives:
            link_users(drive.user_refs, users)
            report.drives.append(restore_parsed_drive(drive, made[drive.club.club.slug]))
        restore_backup_tournaments(leagues, tournaments, made, users, report)
        if dry_run:
            transaction.set_rollback(True)
    return report


def _drive_documents(document: dict[str, Any]) -> list[Any]:
    """The backup's drives: a list since version 2; a version 1 backup has none, and one that
    says it has some was edited (they would be dropped without a word)."""
    if document["version"] >= BACKUP_DRIVES_SINCE:
        return list_in(document, "drives", "The backup")
    if "drives" in document:
        raise RestoreRefused(
            f"The backup is version {document['version']} of the format, which has no drives, "
            f"yet it lists some: drives are in backups from version {BACKUP_DRIVES_SINCE}."
        )
    return []


def restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """A backup, or a single event, drive or team tournament document, told apart by its
    format marker."""
    if isinstance(document, dict) and document.get("format") == EVENT_FORMAT:
        return event_restore(document, dry_run=dry_run)
    if isinstance(document, dict) and document.get("format") == DRIVE_FORMAT:
        return drive_restore(document, dry_run=dry_run)
    if isinstance(document, dict) and document.get("format") == TOURNAMENT_FORMAT:
        return tournament_restore(document, dry_run=dry_run)
    return backup_restore(document, dry_run=dry_run)


def event_import_text(*, text: str, club: Club, user: User = None) -> Event:
    """A director's import of an event's JSON into `club` (the import page and API, and
    `manage.py import`): every value checked, people kept as text (`event_restore`)."""
    report = event_restore(loads(text), club=club, imported_by=user)
    return report.events[0].event
