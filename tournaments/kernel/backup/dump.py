"""Building the event, drive, tournament, club and whole-database documents (reads only).

Every row is written as `FIELDS` says, relations by name (users by username, a result's pairs
by their keys), so a document means the same in any database.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import connection, models, transaction
from django.utils import timezone

from engine.scoring import pair_key
from tournaments.drives.models import Drive, DriveAudit, DriveResult
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors.standings import standings_compute
from tournaments.files.backup.schema import (
    BACKUP_FORMAT,
    DRIVE_CHILDREN,
    DRIVE_FORMAT,
    EVENT_FORMAT,
    FIELDS,
    TOURNAMENT_CHILDREN,
    TOURNAMENT_FORMAT,
    VERSIONS,
    Model,
    model_field,
)
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament, TournamentAudit


def _out(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _row(
    obj: models.Model,
    model: Model,
    *,
    users: Mapping[int, str],
    pairs: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """One row as the document holds it: `FIELDS[model]`, relations by name."""
    out: dict[str, Any] = {}
    for name in FIELDS[model]:
        f = model_field(model, name)
        if f.many_to_many:
            continue  # the caller writes them (a club's directors)
        if f.is_relation:
            target = getattr(obj, f.attname)
            if f.related_model is Pair:
                assert pairs is not None
                out[name] = pairs[target]
            else:
                out[name] = None if target is None else users[target]
            continue
        out[name] = _out(f.value_from_object(obj))
    return out


def _usernames(ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    return dict(AuthUser.objects.filter(pk__in=wanted).values_list("pk", "username"))


def club_block(club: Club) -> dict[str, Any]:
    """The club as documents carry it: its settings, its directors and its players."""
    directors = sorted(club.directors.values_list("username", flat=True))
    block = _row(club, Club, users={})
    block["directors"] = directors
    block["players"] = [_row(p, Player, users={}) for p in club.players.order_by("pk")]
    return block


def _standings_block(event: Event) -> dict[str, Any] | None:
    """The newest stored standings when they are those of the results; otherwise (a result
    came in moments before the backup) the standings of these results, as the worker is about
    to store them, so a document is never behind its own results."""
    latest = Standings.objects.filter(event=event).order_by("-version").first()
    if latest is not None and latest.version == event.results_version:
        return _row(latest, Standings, users={})
    if latest is None and event.results_version == 0:
        return None
    data = json.loads(json.dumps(standings_compute(event=event)))
    return {
        "id": None,
        "version": event.results_version,
        "computed_at": data["computed_at"],
        "data": data,
    }


def event_document(event: Event) -> dict[str, Any]:
    """The whole event as a JSON-ready document (`EVENT_FORMAT`, its version); reads only.

    Call inside `consistent_read()` when tablets may be writing, so every part is of the same
    moment.
    """
    event = Event.objects.select_related("club").get(pk=event.pk)
    sections = list(Section.objects.filter(event=event).order_by("pk"))
    section_ids = [s.pk for s in sections]
    results = list(Result.objects.filter(section_id__in=section_ids).order_by("pk"))
    audit = list(AuditEntry.objects.filter(event=event).order_by("pk"))
    users = _usernames(
        [event.created_by_id] + [r.entered_by_id for r in results] + [a.user_id for a in audit]
    )
    pairs_of = {p.pk: p for p in Pair.objects.filter(section_id__in=section_ids).order_by("pk")}
    keys = {pk: pair_key(p.number, p.direction or None) for pk, p in pairs_of.items()}
    standings = _standings_block(event)
    event_row = _row(event, Event, users=users)
    if standings is not None:
        event_row["scored_version"] = standings["version"]
    section_blocks = []
    for section in sections:
        block = _row(section, Section, users=users)
        block["pairs"] = [
            _row(p, Pair, users=users) for p in pairs_of.values() if p.section_id == section.pk
        ]
        block["movement_rows"] = [
            _row(r, MovementRow, users=users)
            for r in MovementRow.objects.filter(section=section).order_by("pk")
        ]
        block["results"] = [
            _row(r, Result, users=users, pairs=keys) for r in results if r.section_id == section.pk
        ]
        block["table_access"] = [
            _row(a, TableAccess, users=users)
            for a in TableAccess.objects.filter(section=section).order_by("pk")
        ]
        block["calls"] = [
            _row(c, DirectorCall, users=users)
            for c in DirectorCall.objects.filter(section=section).order_by("pk")
        ]
        section_blocks.append(block)
    return {
        "format": EVENT_FORMAT,
        "version": VERSIONS[EVENT_FORMAT],
        "exported_at": timezone.now().isoformat(),
        "club": club_block(event.club),
        "event": event_row,
        "sections": section_blocks,
        "boards": [
            _row(b, Board, users=users) for b in Board.objects.filter(event=event).order_by("pk")
        ],
        "audit": [_row(a, AuditEntry, users=users) for a in audit],
        "standings": standings,
    }


def drive_document(drive: Drive) -> dict[str, Any]:
    """The whole drive as a JSON-ready document (`DRIVE_FORMAT`, its version): its club, its
    own settings and state, and every row under it (players, each hand's seating, each
    table's result as stored, whatever its status, the tablet links with their tokens, the
    audit trail). Totals and prizes are not in it: they are worked out from these rows, here
    and wherever the document is restored. Reads only; call inside `consistent_read()` when
    tablets may be writing."""
    drive = Drive.objects.select_related("club").get(pk=drive.pk)
    rows = {
        key: list(model._default_manager.filter(drive=drive).order_by("pk"))
        for key, model in DRIVE_CHILDREN
    }
    users = _usernames(
        [
            drive.created_by_id,
            *DriveResult.objects.filter(drive=drive).values_list("entered_by_id", flat=True),
            *DriveAudit.objects.filter(drive=drive).values_list("user_id", flat=True),
        ]
    )
    document: dict[str, Any] = {
        "format": DRIVE_FORMAT,
        "version": VERSIONS[DRIVE_FORMAT],
        "exported_at": timezone.now().isoformat(),
        "club": club_block(drive.club),
        "drive": _row(drive, Drive, users=users),
    }
    for key, model in DRIVE_CHILDREN:
        document[key] = [_row(row, model, users=users) for row in rows[key]]
    return document


def tournament_document(tournament: Tournament) -> dict[str, Any]:
    """The whole team tournament (or league week) as a JSON-ready document
    (`TOURNAMENT_FORMAT`, its version): its club, its league (by name; the week is the
    tournament's own column) or null, every column of the tournament (settings, status, the
    round being played, the seed, the bracket) and every row under it (teams, each round's
    tables as drawn, each game as entered and as counted, whatever its status, the tablet
    links with their tokens, the audit trail). The standings and the bracket's progress are
    not in it: they are worked out from these rows, here and wherever the document is
    restored. Reads only; call inside `consistent_read()` when tablets may be writing."""
    tournament = Tournament.objects.select_related("club", "league").get(pk=tournament.pk)
    rows = {
        key: list(model._default_manager.filter(tournament=tournament).order_by("pk"))
        for key, model in TOURNAMENT_CHILDREN
    }
    league = tournament.league
    users = _usernames(
        [
            tournament.created_by_id,
            None if league is None else league.created_by_id,
            *TournamentAudit.objects.filter(tournament=tournament).values_list(
                "user_id", flat=True
            ),
        ]
    )
    document: dict[str, Any] = {
        "format": TOURNAMENT_FORMAT,
        "version": VERSIONS[TOURNAMENT_FORMAT],
        "exported_at": timezone.now().isoformat(),
        "club": club_block(tournament.club),
        "league": None if league is None else _row(league, League, users=users),
        "tournament": _row(tournament, Tournament, users=users),
    }
    for key, model in TOURNAMENT_CHILDREN:
        document[key] = [_row(row, model, users=users) for row in rows[key]]
    return document


def _league_entries(leagues: Iterable[League]) -> list[dict[str, Any]]:
    """A backup's leagues, each with its club's slug: a league none of whose weeks exists
    yet is kept too."""
    chosen = sorted({league.pk: league for league in leagues}.items())
    users = _usernames(league.created_by_id for _, league in chosen)
    return [
        {"club": league.club.slug, "league": _row(league, League, users=users)}
        for _, league in chosen
    ]


def user_block(user: AuthUser) -> dict[str, Any]:
    return _row(user, AuthUser, users={})


def backup_document(
    *,
    clubs: Iterable[Club] | None = None,
    events: Iterable[Event] | None = None,
    drives: Iterable[Drive] | None = None,
    tournaments: Iterable[Tournament] | None = None,
) -> dict[str, Any]:
    """A backup (`BACKUP_FORMAT`): clubs, their events, drives, leagues and team tournaments
    (each event, drive or tournament a document of its own), users and directorships. With
    no argument, the whole database; otherwise the clubs given with all their events,
    drives, leagues and tournaments, the events, drives and tournaments given (each with its
    club, a tournament with its league), and only the users they name. Choosing events alone
    takes no drive and no tournament: neither is part of an evening's event."""
    whole = clubs is None and events is None and drives is None and tournaments is None
    chosen_events = list(events or [])
    chosen_drives = list(drives or [])
    chosen_tournaments = list(tournaments or [])
    chosen_clubs = {c.pk: c for c in clubs or []}
    chosen_leagues = list(League.objects.filter(club__in=list(chosen_clubs)).select_related("club"))
    for club in list(chosen_clubs.values()):
        chosen_events += list(club.events.all())
        chosen_drives += list(Drive.objects.filter(club=club).select_related("club"))
        chosen_tournaments += list(
            Tournament.objects.filter(club=club).select_related("club", "league")
        )
    if whole:
        chosen_clubs = {c.pk: c for c in Club.objects.all()}
        chosen_events = list(Event.objects.all())
        chosen_drives = list(Drive.objects.select_related("club"))
        chosen_tournaments = list(Tournament.objects.select_related("club", "league"))
        chosen_leagues = list(League.objects.select_related("club"))
    for event in chosen_events:
        chosen_clubs.setdefault(event.club_id, event.club)
    for drive in chosen_drives:
        chosen_clubs.setdefault(drive.club_id, drive.club)
    for tournament in chosen_tournaments:
        chosen_clubs.setdefault(tournament.club_id, tournament.club)
        if tournament.league is not None:
            chosen_leagues.append(tournament.league)
    unique_events = {e.pk: e for e in chosen_events}
    documents = [event_document(e) for _, e in sorted(unique_events.items())]
    unique_drives = {d.pk: d for d in chosen_drives}
    drive_documents = [drive_document(d) for _, d in sorted(unique_drives.items())]
    unique_tournaments = {t.pk: t for t in chosen_tournaments}
    tournament_documents = [tournament_document(t) for _, t in sorted(unique_tournaments.items())]
    league_entries = _league_entries(chosen_leagues)
    club_blocks = [club_block(c) for _, c in sorted(chosen_clubs.items())]
    if whole:
        users = list(AuthUser.objects.order_by("username"))
    else:
        named = set(_named_users_of_documents(documents))
        named.update(_named_users_of_drives(drive_documents))
        named.update(_named_users_of_tournaments(tournament_documents, league_entries))
        for block in club_blocks:
            named.update(block["directors"])
        users = list(AuthUser.objects.filter(username__in=named).order_by("username"))
    return {
        "format": BACKUP_FORMAT,
        "version": VERSIONS[BACKUP_FORMAT],
        "created_at": timezone.now().isoformat(),
        "users": [user_block(u) for u in users],
        "clubs": club_blocks,
        "events": documents,
        "drives": drive_documents,
        "leagues": league_entries,
        "tournaments": tournament_documents,
    }


def _named_users_of_documents(documents: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for doc in documents:
        yield from doc["club"]["directors"]
        if doc["event"]["created_by"]:
            yield doc["event"]["created_by"]
        for section in doc["sections"]:
            yield from (r["entered_by"] for r in section["results"] if r["entered_by"])
        yield from (a["user"] for a in doc["audit"] if a["user"])


def _named_users_of_drives(documents: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for doc in documents:
        yield from doc["club"]["directors"]
        if doc["drive"]["created_by"]:
            yield doc["drive"]["created_by"]
        yield from (r["entered_by"] for r in doc["results"] if r["entered_by"])
        yield from (a["user"] for a in doc["audit"] if a["user"])


def _named_users_of_tournaments(
    documents: Iterable[Mapping[str, Any]], leagues: Iterable[Mapping[str, Any]]
) -> Iterator[str]:
    yield from (entry["league"]["created_by"] for entry in leagues if entry["league"]["created_by"])
    for doc in documents:
        yield from doc["club"]["directors"]
        if doc["league"] is not None and doc["league"]["created_by"]:
            yield doc["league"]["created_by"]
        if doc["tournament"]["created_by"]:
            yield doc["tournament"]["created_by"]
        yield from (a["user"] for a in doc["audit"] if a["user"])


@contextmanager
def consistent_read() -> Iterator[None]:
    """One moment's view of the database for a backup while tablets write.

    PostgreSQL: a REPEATABLE READ, READ ONLY transaction (when this is the outermost one;
    inside another, that one decides), so writers carry on. SQLite: a transaction, which the
    settings begin IMMEDIATE, so results sent meanwhile wait for the backup to finish (a
    third of a second for a 30-table evening; they wait up to 20 s before failing)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
