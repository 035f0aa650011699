"""A whole event as one JSON document, a whole database as one backup, and restoring both.

An event's document holds everything the event is: its club, its own settings, its sections
with their movement rows, pairs, results (entries, statuses, idempotency keys, who entered
them), tablet links and director calls, the boards exactly as stored, the audit trail and the
newest standings. `FIELDS` names what is carried of every model; `IMPLIED` the relations a
row's place in the document says; `OMITTED` what is left out on purpose and why (a test checks
that these three account for every field of every model, so a new field cannot be forgotten).

Restoring checks the whole document before anything is written (format, version, every value
and every reference), writes it in one transaction, scores the event again and refuses,
rolling everything back, unless the standings come out exactly as stored. Each refusal is a
`RestoreRefused` whose message names what is wrong and where.

Rows keep their ids when the database holds none of them yet (a restore into an empty
database: the same pages, links and ids); otherwise the event is given new ids throughout and
keeps everything else, tablet tokens included. Users are named by username: a backup of the
whole database carries them (password hashes included); a user an event names who exists
neither here nor in the backup is created inactive, without a usable password.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone

from engine.movements import validate as validate_movement
from engine.movements.registry import check_params
from engine.scoring import pair_key
from engine.scoring.document import StandingsDocument
from tournaments.models import (
    AuditEntry,
    Board,
    Club,
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
from tournaments.services.audit import User, audit_record
from tournaments.services.engine_bridge import (
    as_int_score,
    board_from_record,
    movement_for,
    rules_named,
)

EVENT_FORMAT = "clubwhist-event"
BACKUP_FORMAT = "clubwhist-backup"
#: The version written; a reader refuses versions it does not know, by name.
VERSION = 1
READABLE_VERSIONS = frozenset({1})

Model = type[models.Model]

#: What a document carries of each model, by the model's own field names (a relation to a user
#: as the username, a result's pairs as their keys "NS3"/"EW2"/"3", the club's directors as
#: usernames).
FIELDS: dict[Model, tuple[str, ...]] = {
    AuthUser: (
        "username",
        "email",
        "password",
        "first_name",
        "last_name",
        "is_active",
        "is_staff",
        "is_superuser",
        "date_joined",
        "last_login",
    ),
    Club: ("id", "name", "slug", "created_at", "paper", "minutes_per_board", "directors"),
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
    Pair: ("id", "number", "direction", "player1", "player2", "is_phantom", "arrived_late"),
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
    AuditEntry: ("id", "user", "at", "action", "target", "before", "after", "reason"),
    Standings: ("id", "version", "computed_at", "data"),
    TableAccess: ("id", "table", "token", "created_at", "revoked_at"),
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
}

#: Fields added after documents were first written: an older document without them is read
#: with these values (what the field meant before it existed).
ADDED_LATER: dict[Model, dict[str, Any]] = {
    DirectorCall: {"reason": "other", "cancelled": False, "board_number": None},
}

#: Relations a row does not carry: where it sits in the document says them.
IMPLIED: dict[Model, dict[str, str]] = {
    Player: {"club": "listed under its club"},
    Event: {"club": "the document's club (or the club it is imported into)"},
    Section: {"event": "listed under its event"},
    Pair: {"section": "listed under its section"},
    Board: {"event": "listed under its event"},
    MovementRow: {"section": "listed under its section"},
    Result: {"section": "listed under its section"},
    AuditEntry: {"event": "listed under its event"},
    Standings: {"event": "listed under its event"},
    TableAccess: {"section": "listed under its section"},
    DirectorCall: {"section": "listed under its section"},
}

#: Fields left out on purpose, and why.
OMITTED: dict[Model, dict[str, str]] = {
    AuthUser: {
        "id": "users are matched by username; ids differ from one database to another",
        "groups": "clubwhist grants nothing through groups (directors are a club's directors)",
        "user_permissions": "clubwhist grants nothing through per-user permissions",
    },
    Event: {
        "rescore_queued_at": "a claim on the results-processing queue of the machine that "
        "wrote the backup; a restored event has nothing queued (its standings are current)",
    },
}

#: Models left out whole, and why.
OMITTED_MODELS: dict[Model, str] = {
    PrintJob: "print packs are PDFs made from the event on request; the print page makes "
    "them again from the restored event",
}

#: Under each section (and the event), the children by the models' related names.
SECTION_CHILDREN: tuple[tuple[str, Model], ...] = (
    ("pairs", Pair),
    ("movement_rows", MovementRow),
    ("results", Result),
    ("table_access", TableAccess),
    ("calls", DirectorCall),
)


class RestoreRefused(ValueError):
    """A document that cannot be restored. The message names what is wrong and where, and
    nothing has been changed."""


# -- writing --------------------------------------------------------------------------------


def _field(model: Model, name: str) -> models.Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field), f"{model.__name__}.{name} is not a field"
    return found


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
        f = _field(model, name)
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
    from tournaments.services.scoring import standings_compute

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
    """The whole event as a JSON-ready document (`EVENT_FORMAT`, `VERSION`); reads only.

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
        "version": VERSION,
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


def user_block(user: AuthUser) -> dict[str, Any]:
    return _row(user, AuthUser, users={})


def backup_document(
    *, clubs: Iterable[Club] | None = None, events: Iterable[Event] | None = None
) -> dict[str, Any]:
    """A backup (`BACKUP_FORMAT`): clubs, their events (each an event document), users and
    directorships. With neither argument, the whole database; otherwise the clubs given and
    the events given (with their clubs), and only the users they name."""
    whole = clubs is None and events is None
    chosen_events = list(events or [])
    chosen_clubs = {c.pk: c for c in clubs or []}
    for club in list(chosen_clubs.values()):
        chosen_events += list(club.events.all())
    if whole:
        chosen_clubs = {c.pk: c for c in Club.objects.all()}
        chosen_events = list(Event.objects.all())
    for event in chosen_events:
        chosen_clubs.setdefault(event.club_id, event.club)
    unique_events = {e.pk: e for e in chosen_events}
    documents = [event_document(e) for _, e in sorted(unique_events.items())]
    club_blocks = [club_block(c) for _, c in sorted(chosen_clubs.items())]
    if whole:
        users = list(AuthUser.objects.order_by("username"))
    else:
        named = set(_named_users_of_documents(documents))
        for block in club_blocks:
            named.update(block["directors"])
        users = list(AuthUser.objects.filter(username__in=named).order_by("username"))
    return {
        "format": BACKUP_FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(),
        "users": [user_block(u) for u in users],
        "clubs": club_blocks,
        "events": documents,
    }


def _named_users_of_documents(documents: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for doc in documents:
        yield from doc["club"]["directors"]
        if doc["event"]["created_by"]:
            yield doc["event"]["created_by"]
        for section in doc["sections"]:
            yield from (r["entered_by"] for r in section["results"] if r["entered_by"])
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


def dumps(document: Mapping[str, Any]) -> str:
    """The document as text: compact (a 30-table evening is about half a megabyte), with
    names as typed rather than as \\u escapes."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


# -- reading --------------------------------------------------------------------------------


def loads(text: str) -> Any:
    """The JSON of a document, or a refusal saying where the text stops being JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if _cut_short(text):
            raise RestoreRefused(
                "The file ends in the middle of the JSON (objects or text still open at its "
                "end): it was cut short. Use a complete copy of the backup."
            ) from None
        raise RestoreRefused(
            f"The file is not valid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg}): it is not a clubwhist backup, or it was edited or damaged."
        ) from None
    except RecursionError:
        raise RestoreRefused("The file's JSON is nested far too deeply to be a backup.") from None


def _cut_short(text: str) -> bool:
    """Whether JSON text ends with an object, a list or a string still open: the mark of a
    copy that stopped part-way, as opposed to text that is wrong where it stands."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return in_string or depth > 0


def looks_like_json(text: str) -> bool:
    return text.removeprefix("\ufeff").lstrip().startswith("{")


def _check_marker(data: Any, expected: str, what: str) -> None:
    """The format marker and version first: everything else depends on them."""
    if not isinstance(data, dict) or "format" not in data:
        raise RestoreRefused(
            f'This is not a clubwhist {what}: it has no "format" marker (expected {expected!r}).'
        )
    if data["format"] == BACKUP_FORMAT and expected == EVENT_FORMAT:
        raise RestoreRefused(
            "This is a backup of a whole database, not one event's JSON: restore it with "
            "`python manage.py restore FILE`."
        )
    if data["format"] != expected:
        raise RestoreRefused(
            f"This is a {data['format']!r} document, not a clubwhist {what} ({expected!r})."
        )
    version = data.get("version")
    if version not in READABLE_VERSIONS:
        readable = ", ".join(str(v) for v in sorted(READABLE_VERSIONS))
        raise RestoreRefused(
            f"This {what} is version {version!r} of the format; this clubwhist reads version "
            f"{readable} only. Restore it with the clubwhist that wrote it, or a newer one."
        )


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, int | float) else "null"
    )


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RestoreRefused(f"{where} should be an object, not {_type_name(value)}.")
    return value


def _list(parent: Mapping[str, Any], key: str, where: str) -> list[Any]:
    if key not in parent:
        raise RestoreRefused(f"{where} has no {key!r}.")
    value = parent[key]
    if not isinstance(value, list):
        raise RestoreRefused(f"{where}: {key!r} should be a list, not {_type_name(value)}.")
    return value


def _field_in(f: models.Field[Any, Any], raw: Any, where: str) -> Any:
    """A document value as the model field takes it, or a refusal naming the field."""
    if raw is None:
        if f.null or f.primary_key:
            return None
        raise RestoreRefused(f"{where}: {f.name} is missing (null).")
    if isinstance(f, models.DateTimeField):
        try:
            when = dt.datetime.fromisoformat(str(raw))
        except ValueError:
            raise RestoreRefused(f"{where}: {f.name} {raw!r} is not a date and time.") from None
        if timezone.is_naive(when):
            raise RestoreRefused(f"{where}: {f.name} {raw!r} has no time zone offset.")
        return when
    if isinstance(f, models.DateField):
        try:
            return dt.date.fromisoformat(str(raw))
        except ValueError:
            raise RestoreRefused(f"{where}: {f.name} {raw!r} is not a date (YYYY-MM-DD).") from None
    if isinstance(f, models.BooleanField):
        if not isinstance(raw, bool):
            raise RestoreRefused(f"{where}: {f.name} should be true or false, not {raw!r}.")
        return raw
    if isinstance(f, models.IntegerField):  # the id fields included
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise RestoreRefused(f"{where}: {f.name} should be a whole number, not {raw!r}.")
        if f.primary_key and not 1 <= raw < 2**63:
            raise RestoreRefused(f"{where}: id {raw} is not a database id.")
        return raw
    if isinstance(f, models.CharField | models.TextField):
        if not isinstance(raw, str):
            raise RestoreRefused(f"{where}: {f.name} should be text, not {_type_name(raw)}.")
        return raw
    return raw  # JSON fields hold any JSON


@dataclass
class _UserRef:
    """A row's relation to a user, named in the document; filled in once the users exist."""

    obj: models.Model
    attname: str
    username: str


def _load(
    model: Model,
    data: Any,
    where: str,
    *,
    users: list[_UserRef] | None = None,
    pairs: Mapping[str, Pair] | None = None,
    children: Iterable[str] = (),
) -> Any:
    """An unsaved row from the document: every field of `FIELDS[model]` present, of the right
    type and valid for the model (choices, lengths, ranges). A relation to a user is recorded
    in `users` by username; a result's pairs are found in `pairs` by key. Keys the format does
    not have are refused: they would otherwise be dropped without a word."""
    data = _object(data, where)
    names = FIELDS[model]
    data = {**ADDED_LATER.get(model, {}), **data}
    for name in names:
        if name not in data:
            raise RestoreRefused(f"{where} has no {name!r}.")
    extra = sorted(set(data) - set(names) - set(children))
    if extra:
        raise RestoreRefused(
            f"{where} has {extra[0]!r}, which version {VERSION} of the format does not have."
        )
    values: dict[str, Any] = {}
    skip: list[str] = []
    refs: list[tuple[str, str]] = []
    for name in names:
        f = _field(model, name)
        raw = data[name]
        if f.many_to_many:
            skip.append(name)
        elif f.is_relation and f.related_model is Pair:
            skip.append(name)
            if pairs is None or not isinstance(raw, str) or raw not in pairs:
                label = name.replace("_", " ").replace("ns", "NS").replace("ew", "EW")
                raise RestoreRefused(f"{where}: the {label} {raw!r} is not a pair of the section.")
            values[name] = pairs[raw]
        elif f.is_relation:
            skip.append(name)
            username = _username(raw, where, name.replace("_", " "))
            if username is not None:
                refs.append((f.attname, username))
        else:
            values[name] = _field_in(f, raw, where)
            if f.primary_key:
                skip.append(name)
    obj = model(**values)
    # Only the values read here are checked: relations are the restore's to set.
    skip += [f.name for f in model._meta.fields if f.name not in names]
    try:
        obj.clean_fields(exclude=skip)
    except ValidationError as exc:
        problems = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items()
        )
        raise RestoreRefused(f"{where}: {problems}") from None
    if refs:
        assert users is not None, f"{model.__name__} names users but nobody collects them"
        users.extend(_UserRef(obj, attname, username) for attname, username in refs)
    return obj


def _username(raw: Any, where: str, what: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 150:
        raise RestoreRefused(f"{where}: the {what} should be a username, not {raw!r}.")
    return raw


@dataclass
class _SectionRows:
    section: Section
    pairs: list[Pair]
    movement_rows: list[MovementRow]
    results: list[Result]
    table_access: list[TableAccess]
    calls: list[DirectorCall]


@dataclass
class ClubBlock:
    """A checked club block: the club (unsaved), its directors' usernames, its players."""

    club: Club
    directors: list[str]
    players: list[Player]


@dataclass
class ParsedEvent:
    """A checked event document: unsaved rows, and the users they name."""

    club: ClubBlock
    event: Event
    sections: list[_SectionRows]
    boards: list[Board]
    audit: list[AuditEntry]
    standings: Standings | None
    user_refs: list[_UserRef]

    @property
    def title(self) -> str:
        return f"the event {self.event.name!r} of {self.event.date:%d %b %Y}"

    def rows(self) -> Iterator[tuple[Model, list[Any]]]:
        """Every row by model, parents before children."""
        yield Event, [self.event]
        yield Section, [s.section for s in self.sections]
        for key, model in SECTION_CHILDREN:
            yield model, [row for s in self.sections for row in getattr(s, key)]
        yield Board, list(self.boards)
        yield AuditEntry, list(self.audit)
        yield Standings, [self.standings] if self.standings is not None else []

    def usernames(self) -> set[str]:
        return {ref.username for ref in self.user_refs}

    def counts(self) -> str:
        results = sum(len(s.results) for s in self.sections)
        return (
            f"{sum(len(s.pairs) for s in self.sections)} pairs, {len(self.boards)} boards, "
            f"{results} results, {len(self.audit)} audit entries, "
            f"{sum(len(s.calls) for s in self.sections)} director calls, "
            f"{sum(len(s.table_access) for s in self.sections)} tablet links"
        )


def parse_club(data: Any, where: str = "The club") -> ClubBlock:
    data = _object(data, where)
    club = _load(Club, data, where, children=("players",))
    if not isinstance(data["directors"], list):
        raise RestoreRefused(f"{where}: 'directors' should be a list of usernames.")
    directors = [_username(d, where, "director") or "" for d in data["directors"]]
    players = [
        _load(Player, p, f"{where}, player {i + 1}")
        for i, p in enumerate(_list(data, "players", where))
    ]
    _check_unique([(p.name, f"player {i + 1}") for i, p in enumerate(players)], "name", where)
    return ClubBlock(club, [d for d in directors if d], players)


def _check_unique(items: Iterable[tuple[Any, str]], what: str, where: str = "The document") -> None:
    seen: dict[Any, str] = {}
    for value, label in items:
        if value in seen:
            raise RestoreRefused(f"{where}: the {what} of {label} is also that of {seen[value]}.")
        seen[value] = label


def parse_event(document: Any) -> ParsedEvent:
    """Check a whole event document without writing anything; the first problem found is a
    `RestoreRefused` naming it."""
    _check_marker(document, EVENT_FORMAT, "event document")
    for key in ("club", "event", "sections", "boards", "audit", "standings"):
        if key not in document:
            raise RestoreRefused(f"The event document has no {key!r}: it is not complete.")
    refs: list[_UserRef] = []
    club = parse_club(document["club"])
    event = _load(Event, document["event"], "The event", users=refs)
    try:
        rules = rules_named(event.game, event.options)
    except ValueError as exc:
        raise RestoreRefused(f"The event: its game and options are refused: {exc}") from None
    if event.scored_version > event.results_version:
        raise RestoreRefused(
            f"The event says version {event.scored_version} of its results is scored, but "
            f"its results are at version {event.results_version}."
        )

    boards: list[Board] = []
    deals: dict[int, Any] = {}
    for i, raw in enumerate(_list(document, "boards", "The document")):
        board = _load(Board, raw, f"Board {i + 1} of the list of boards")
        where = f"Board {board.number}"
        if board.number in deals:
            raise RestoreRefused(f"{where} is in the document twice.")
        try:
            deals[board.number] = board_from_record(board.record)
        except ValueError as exc:
            raise RestoreRefused(f"{where}: its deal cannot be read: {exc}") from None
        if deals[board.number].number != board.number:
            raise RestoreRefused(f"{where}: its deal is board {deals[board.number].number}'s.")
        boards.append(board)

    sections = [
        _parse_section(raw, i, rules, deals, refs)
        for i, raw in enumerate(_list(document, "sections", "The document"))
    ]
    if not sections:
        raise RestoreRefused("The document has no section: an event has at least one.")
    _check_unique([(s.section.name, "a section") for s in sections], "name")
    _check_unique(
        (
            (link.token, f"section {s.section.name}'s table {link.table}")
            for s in sections
            for link in s.table_access
        ),
        "tablet link",
    )
    _check_unique(
        (
            (r.idempotency_key, f"board {r.board_number} at table {r.table} in round {r.round}")
            for s in sections
            for r in s.results
        ),
        "idempotency key",
    )
    audit = [
        _load(AuditEntry, raw, f"Audit entry {i + 1}", users=refs)
        for i, raw in enumerate(_list(document, "audit", "The document"))
    ]
    standings = _parse_standings(document["standings"], event)
    parsed = ParsedEvent(club, event, sections, boards, audit, standings, refs)
    for model, rows in parsed.rows():
        ids = [r.pk for r in rows if r.pk is not None]
        if len(set(ids)) != len(ids):
            twice = next(pk for pk in ids if ids.count(pk) > 1)
            raise RestoreRefused(
                f"Two {model._meta.verbose_name_plural} of the document have the id {twice}."
            )
    return parsed


def _parse_standings(raw: Any, event: Event) -> Standings | None:
    if raw is None:
        if event.results_version:
            raise RestoreRefused(
                f"The document has no standings, but the event's results changed "
                f"{event.results_version} times: it was not written whole. Export the event "
                "again."
            )
        return None
    standings: Standings = _load(Standings, raw, "The standings")
    if not standings.version == event.scored_version == event.results_version:
        raise RestoreRefused(
            f"The standings are those of version {standings.version} of the results, the "
            f"event's results are at version {event.results_version} (scored: "
            f"{event.scored_version}): the document was not written whole. Export the event "
            "again."
        )
    try:
        StandingsDocument.from_dict(standings.data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RestoreRefused(f"The standings are not a standings document ({exc!r}).") from None
    return standings


def _parse_section(
    raw: Any, index: int, rules: Any, deals: Mapping[int, Any], refs: list[_UserRef]
) -> _SectionRows:
    section: Section = _load(
        Section, raw, f"Section {index + 1}", children=[key for key, _ in SECTION_CHILDREN]
    )
    where = f"Section {section.name}"
    try:
        check_params(section.movement_kind, dict(section.movement_params))
        movement = movement_for(section)
    except (ValueError, TypeError) as exc:
        raise RestoreRefused(f"{where}: its movement cannot be made: {exc}") from None
    report = validate_movement(movement)
    if not report.ok:
        raise RestoreRefused(f"{where}: its movement is not valid: {'; '.join(report.problems)}")
    made = (movement.tables, movement.rounds, movement.boards_per_round, movement.one_winner)
    stored = (section.tables, section.rounds, section.boards_per_round, section.one_winner)
    if made != stored:
        raise RestoreRefused(
            f"{where}: its movement makes {made[0]} tables, {made[1]} rounds, {made[2]} boards "
            f"a round (one winner: {made[3]}), the document says {stored[0]}, {stored[1]}, "
            f"{stored[2]} ({stored[3]})."
        )
    for number in range(1, movement.board_count() + 1):
        if number not in deals:
            raise RestoreRefused(
                f"Board {number} is missing: section {section.name}'s movement plays boards "
                f"1-{movement.board_count()}, and the document has no deal for it."
            )

    pairs: dict[str, Pair] = {}
    for i, data in enumerate(_list(raw, "pairs", where)):
        pair: Pair = _load(Pair, data, f"{where}, pair {i + 1}")
        if section.one_winner != (pair.direction == ""):
            kind = "one field (pairs without a direction)" if section.one_winner else "NS and EW"
            raise RestoreRefused(
                f"{where}, pair {pair.label}: the section's pairs are {kind}, as its movement is."
            )
        key = pair_key(pair.number, pair.direction or None)
        if key in pairs:
            raise RestoreRefused(f"{where}: pair {key} is listed twice.")
        pairs[key] = pair

    meetings = {(m.round, m.table): (m.ns or 0, m.ew or 0, m.set) for m in movement.meetings}
    rows: dict[tuple[int, int], MovementRow] = {}
    for i, data in enumerate(_list(raw, "movement_rows", where)):
        row: MovementRow = _load(MovementRow, data, f"{where}, movement row {i + 1}")
        spot = f"{where}, round {row.round}, table {row.table}"
        if (row.round, row.table) in rows:
            raise RestoreRefused(f"{spot} is in the movement twice.")
        expected = meetings.get((row.round, row.table))
        if expected is None:
            raise RestoreRefused(f"{spot} is not in the movement its settings make.")
        if (row.ns_pair, row.ew_pair, row.board_set) != expected:
            raise RestoreRefused(
                f"{spot}: the document seats NS {row.ns_pair} v EW {row.ew_pair} on board set "
                f"{row.board_set}, the movement NS {expected[0]} v EW {expected[1]} on set "
                f"{expected[2]}."
            )
        for number, seat in ((row.ns_pair, "NS"), (row.ew_pair, "EW")):
            key = section.pair_key(number, seat)
            if number and key not in pairs:
                raise RestoreRefused(f"{spot} seats pair {key}, which {where} does not list.")
        rows[(row.round, row.table)] = row
    missing = sorted(set(meetings) - set(rows))
    if missing:
        raise RestoreRefused(
            f"{where}: round {missing[0][0]}, table {missing[0][1]} of the movement is missing."
        )

    results: list[Result] = []
    played: set[tuple[int, str]] = set()
    for i, data in enumerate(_list(raw, "results", where)):
        spot = f"{where}, result {i + 1}"
        if isinstance(data, dict):
            spot = (
                f"{where}, the result of board {data.get('board_number')} at table "
                f"{data.get('table')} in round {data.get('round')}"
            )
        result: Result = _load(Result, data, spot, users=refs, pairs=pairs)
        _check_result(result, section, rows, deals, rules, played, spot)
        results.append(result)

    live: set[int] = set()
    links: list[TableAccess] = []
    for i, data in enumerate(_list(raw, "table_access", where)):
        link: TableAccess = _load(TableAccess, data, f"{where}, tablet link {i + 1}")
        _check_table(section, link.table, f"{where}: a tablet link is for")
        if link.revoked_at is None:
            if link.table in live:
                raise RestoreRefused(f"{where}: table {link.table} has two live tablet links.")
            live.add(link.table)
        links.append(link)
    calls: list[DirectorCall] = []
    for i, data in enumerate(_list(raw, "calls", where)):
        call: DirectorCall = _load(DirectorCall, data, f"{where}, director call {i + 1}")
        _check_table(section, call.table, f"{where}: a director call is from")
        calls.append(call)
    return _SectionRows(section, list(pairs.values()), list(rows.values()), results, links, calls)


def _check_table(section: Section, table: int, what: str) -> None:
    if not 1 <= table <= section.tables:
        raise RestoreRefused(f"{what} table {table}; the section has tables 1-{section.tables}.")


def _check_result(
    result: Result,
    section: Section,
    rows: Mapping[tuple[int, int], MovementRow],
    deals: Mapping[int, Any],
    rules: Any,
    played: set[tuple[int, str]],
    spot: str,
) -> None:
    """A result where the movement puts it, between the pairs it seats there, scored as its
    entry scores under the game's rules, at most one per pair and board."""
    from engine.scoring import parse_artificial
    from tournaments.services.results import boards_of_set

    row = rows.get((result.round, result.table))
    if row is None:
        raise RestoreRefused(f"{spot}: the movement has no table {result.table} in that round.")
    if result.board_number not in boards_of_set(section, row.board_set):
        sets = boards_of_set(section, row.board_set)
        raise RestoreRefused(
            f"{spot}: that table plays boards {sets.start}-{sets.stop - 1} in that round."
        )
    for pair, number, seat in (
        (result.ns_pair, row.ns_pair, "NS"),
        (result.ew_pair, row.ew_pair, "EW"),
    ):
        seated = section.pair_key(number, seat)
        key = pair_key(pair.number, pair.direction or None)
        if key != seated:
            raise RestoreRefused(f"{spot}: {seat} is pair {key}, the movement seats {seated}.")
        if (result.board_number, key) in played:
            raise RestoreRefused(f"{spot}: pair {key} has another result on that board.")
        played.add((result.board_number, key))
    artificial = result.status == Result.Status.ARTIFICIAL
    if artificial != (result.ns_score is None) or artificial == (result.artificial_code == ""):
        raise RestoreRefused(
            f"{spot}: an artificial result has a code and no score, any other result a score "
            f"and no code (status {result.status}, score {result.ns_score}, code "
            f"{result.artificial_code!r})."
        )
    if artificial:
        try:
            parse_artificial(result.artificial_code)
        except ValueError as exc:
            raise RestoreRefused(f"{spot}: {exc}") from None
    if result.entry is not None:
        deal = deals[result.board_number]
        try:
            score = as_int_score(rules.ns_score(deal, rules.parse_entry(deal, dict(result.entry))))
        except (ValueError, TypeError) as exc:
            raise RestoreRefused(f"{spot}: the game refuses its entry: {exc}") from None
        if not artificial and score != result.ns_score:
            raise RestoreRefused(
                f"{spot}: its entry scores {score} for NS under the game's rules, the document "
                f"says {result.ns_score}."
            )


# -- restoring ------------------------------------------------------------------------------


@dataclass
class RestoredEvent:
    event: Event
    original_id: int | None
    counts: str
    checked: bool  # standings stored, scored again and found identical

    def describe(self) -> str:
        moved = ""
        if self.original_id is not None and self.original_id != self.event.pk:
            moved = f" (its id {self.original_id} is taken here)"
        checked = (
            "scored again here: the standings are identical"
            if self.checked
            else "nothing scored yet"
        )
        return (
            f"event {self.event.pk}{moved}: {self.event.name!r} of {self.event.date:%d %b %Y}, "
            f"{self.event.game}, {self.event.get_status_display().lower()}; {self.counts}; "
            f"{checked}"
        )


@dataclass
class RestoreReport:
    """What a restore did (or, in a dry run, would do), for people."""

    dry_run: bool = False
    events: list[RestoredEvent] = field(default_factory=list)
    clubs: list[str] = field(default_factory=list)
    users_from_backup: list[str] = field(default_factory=list)
    users_inactive: list[str] = field(default_factory=list)
    users_kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        done = "Would restore" if self.dry_run else "Restored"
        out = []
        if self.clubs:
            out.append(f"{done} {len(self.clubs)} club(s): {', '.join(self.clubs)}.")
        out += [f"{done} {e.describe()}." for e in self.events]
        if self.users_from_backup:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} "
                f"{len(self.users_from_backup)} user(s) from the backup, with their passwords: "
                f"{', '.join(self.users_from_backup)}."
            )
        if self.users_inactive:
            out.append(
                f"{'Would create' if self.dry_run else 'Created'} {len(self.users_inactive)} "
                f"user(s) the document names, inactive and without a password (an "
                f"administrator can give them one): {', '.join(self.users_inactive)}."
            )
        if self.users_kept:
            out.append(
                f"Kept {len(self.users_kept)} user(s) already here as they are: "
                f"{', '.join(self.users_kept)}."
            )
        out += self.notes
        if self.dry_run:
            out.append(
                "Dry run: everything was checked and restored, then rolled back; nothing changed."
            )
        return out


def _batches(values: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


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
    for chunk in _batches(tokens):
        clash = TableAccess.objects.filter(token__in=chunk).select_related("section__event").first()
        if clash is not None:
            return (
                f"Table {clash.table}'s tablet link of {parsed.title} is already used here by "
                f"event {clash.section.event_id} ({clash.section.event.name!r}): that event is "
                "this one or a copy of it"
            )
    keys = [r.idempotency_key for s in parsed.sections for r in s.results]
    for chunk in _batches(keys):
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


def _ids_free(parsed: ParsedEvent) -> bool:
    for model, rows in parsed.rows():
        ids = [r.pk for r in rows if r.pk is not None]
        for chunk in _batches(ids):
            if model._default_manager.filter(pk__in=chunk).exists():
                return False
    return True


def _insert(model: Model, rows: list[Any]) -> None:
    """Insert rows as they are: bulk_create stamps auto_now fields with the time now, so the
    stored moments are put back afterwards."""
    if not rows:
        return
    stamped = [f for f in model._meta.concrete_fields if getattr(f, "auto_now", False)]
    kept = [[getattr(r, f.attname) for f in stamped] for r in rows]
    model._default_manager.bulk_create(rows, batch_size=500)
    if stamped:
        for row, values in zip(rows, kept, strict=True):
            for f, value in zip(stamped, values, strict=True):
                setattr(row, f.attname, value)
        model._default_manager.bulk_update(rows, [f.name for f in stamped], batch_size=500)


def _move_sequences_past(rows: Iterable[tuple[Model, list[Any]]]) -> None:
    """After rows went in with their own ids, PostgreSQL's id sequences must move past them,
    and only forward: an id once used is never handed out again (caches and links key on
    ids). SQLite's AUTOINCREMENT does both by itself."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model, saved in rows:
            highest = max((r.pk for r in saved if r.pk is not None), default=None)
            if highest is None:
                continue
            cursor.execute(
                "SELECT setval(seq::regclass, %s) "
                "FROM (SELECT pg_get_serial_sequence(%s, %s) AS seq) AS found "
                "WHERE seq IS NOT NULL "
                "AND coalesce(pg_sequence_last_value(seq::regclass), 0) < %s",
                [highest, model._meta.db_table, model._meta.pk.column, highest],
            )


def _ensure_users(
    names: Iterable[str], carried: Mapping[str, AuthUser], report: RestoreReport
) -> dict[str, AuthUser]:
    """The users by username: those here are kept as they are; the others come from the
    backup (`carried`) or, when it does not carry them, are made inactive and without a
    usable password, so nobody can sign in as them until an administrator says so."""
    wanted = set(names)
    found = {u.username: u for u in AuthUser.objects.filter(username__in=wanted)}
    report.users_kept += sorted(set(carried) & set(found))
    for name in sorted(wanted - set(found)):
        if name in carried:
            user = carried[name]
            user.pk = None
            user.save()
            report.users_from_backup.append(name)
        else:
            user = AuthUser(username=name, is_active=False)
            user.set_unusable_password()
            user.save()
            report.users_inactive.append(name)
        found[name] = user
    return found


def _club_create(block: ClubBlock, users: Mapping[str, AuthUser]) -> Club:
    club = block.club
    if club.pk is not None and Club.objects.filter(pk=club.pk).exists():
        club.pk = None
    _insert(Club, [club])
    club.directors.set([users[name] for name in block.directors])
    for player in block.players:
        player.club = club
        if player.pk is not None and Player.objects.filter(pk=player.pk).exists():
            player.pk = None
    _insert(Player, block.players)
    _move_sequences_past([(Club, [club]), (Player, block.players)])
    return club


def _club_for(block: ClubBlock, users: Mapping[str, AuthUser], report: RestoreReport) -> Club:
    """The document's club: the one here with its slug, else a new one as the document has it."""
    existing = Club.objects.filter(slug=block.club.slug).first()
    if existing is not None:
        return existing
    if Club.objects.filter(name=block.club.name).exists():
        raise RestoreRefused(
            f"A club named {block.club.name!r} is already here under another web address than "
            f"the document's ({block.club.slug!r}): import the event into that club (the "
            "import page, or `manage.py import FILE --club SLUG`)."
        )
    report.clubs.append(f"{block.club.name} ({block.club.slug})")
    return _club_create(block, users)


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
    users: Mapping[str, AuthUser],
    *,
    imported_by: User = None,
) -> RestoredEvent:
    """Write a checked event under `club`, score it again and compare; call inside a
    transaction, which a refusal rolls back."""
    from tournaments.services.scoring import standings_compute, version_key
    from tournaments.services.table_cache import tables_changed

    refusal = already_here(parsed)
    if refusal is not None:
        raise RestoreRefused(f"{refusal}. Delete it first, or restore into another database.")
    original_id = parsed.event.pk
    keep = _ids_free(parsed)
    if not keep:
        for _, rows in parsed.rows():
            for row in rows:
                row.pk = None
    for ref in parsed.user_refs:
        setattr(ref.obj, ref.attname, users[ref.username].pk)

    event = parsed.event
    event.club = club
    event.rescore_queued_at = None
    _insert(Event, [event])
    for part in parsed.sections:
        part.section.event = event
    _insert(Section, [s.section for s in parsed.sections])
    for part in parsed.sections:
        for key, _ in SECTION_CHILDREN:
            for child in getattr(part, key):
                child.section = part.section
    _insert(Pair, [p for s in parsed.sections for p in s.pairs])
    for result in (r for s in parsed.sections for r in s.results):
        result.ns_pair = result.ns_pair  # takes the pair's id, now that it is saved
        result.ew_pair = result.ew_pair
    for key, model in SECTION_CHILDREN:
        if model is not Pair:
            _insert(model, [c for s in parsed.sections for c in getattr(s, key)])
    for board in parsed.boards:
        board.event = event
    _insert(Board, parsed.boards)
    for entry in parsed.audit:
        entry.event = event
    _insert(AuditEntry, parsed.audit)

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
        _insert(Standings, [parsed.standings])
    if keep:
        _move_sequences_past(parsed.rows())
    # A scored version cached under this id (an event that had it before) must not stand.
    transaction.on_commit(lambda: cache.delete(version_key(event.pk)), robust=True)
    if imported_by is not None:
        audit_record(
            event=event,
            user=imported_by,
            action="event imported",
            target=f"event {event.pk}",
            after={"from": "clubwhist JSON", "event": original_id},
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

    Into `club` when given (a director's import: the document's club settings are not
    applied), else into the club with the document's slug, made as the document has it when
    there is none. `imported_by` is audited as having imported it. A dry run does everything,
    checks included, then rolls back.
    """
    parsed = parse_event(document)
    report = RestoreReport(dry_run=dry_run)
    with _database_refusals(), transaction.atomic():
        names = parsed.usernames() | (set(parsed.club.directors) if club is None else set())
        users = _ensure_users(names, {}, report)
        target = club if club is not None else _club_for(parsed.club, users, report)
        report.events.append(_restore_parsed(parsed, target, users, imported_by=imported_by))
        _note_queued_analysis(parsed, report)
        if dry_run:
            transaction.set_rollback(True)
    return report


@contextmanager
def _database_refusals() -> Iterator[None]:
    """What the checks cannot see coming (another restore of the same event committing at
    the same moment) the database's constraints refuse; said as a refusal, not a crash."""
    try:
        yield
    except (IntegrityError, DataError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RestoreRefused(
            f"The database refused a row of the document ({first}); nothing was restored. "
            "If another restore of it ran at the same time, it is already here."
        ) from None


def _note_queued_analysis(parsed: ParsedEvent, report: RestoreReport) -> None:
    waiting = [b.number for b in parsed.boards if b.par_status == Board.ParStatus.QUEUED]
    if waiting:
        report.notes.append(
            f"{len(waiting)} board(s) of {parsed.title} were waiting for analysis when it was "
            "written: ask for the analysis again on the event page."
        )


def backup_restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """Restore a backup (`backup_document`) into a database that has none of its clubs and
    events, all of it or nothing; refuses, naming them, when any is already here."""
    _check_marker(document, BACKUP_FORMAT, "backup")
    carried: dict[str, AuthUser] = {}
    for i, raw in enumerate(_list(document, "users", "The backup")):
        user: AuthUser = _load(AuthUser, raw, f"User {i + 1} of the backup")
        if user.username in carried:
            raise RestoreRefused(f"The backup lists the user {user.username!r} twice.")
        carried[user.username] = user
    clubs = [
        parse_club(raw, f"Club {i + 1} of the backup")
        for i, raw in enumerate(_list(document, "clubs", "The backup"))
    ]
    _check_unique(
        ((b.club.slug, f"club {b.club.name!r}") for b in clubs), "web address (slug)", "The backup"
    )
    _check_unique(((b.club.name, f"club {b.club.slug!r}") for b in clubs), "name", "The backup")
    slugs = {b.club.slug for b in clubs}
    events: list[ParsedEvent] = []
    for i, raw in enumerate(_list(document, "events", "The backup")):
        try:
            parsed = parse_event(raw)
        except RestoreRefused as exc:
            name = raw.get("event", {}).get("name") if isinstance(raw, dict) else None
            label = f" ({name!r})" if isinstance(name, str) else ""
            raise RestoreRefused(f"Event {i + 1} of the backup{label}: {exc}") from None
        if parsed.club.club.slug not in slugs:
            raise RestoreRefused(
                f"Event {i + 1} of the backup ({parsed.event.name!r}) belongs to the club "
                f"{parsed.club.club.slug!r}, which the backup does not list."
            )
        events.append(parsed)

    here = [
        f"{c.name!r} ({c.slug})"
        for c in Club.objects.filter(
            models.Q(slug__in=slugs) | models.Q(name__in=[b.club.name for b in clubs])
        )
    ]
    here += [found for found in (already_here(p) for p in events) if found]
    if here:
        raise RestoreRefused(
            "This database already has what the backup would restore: "
            + "; ".join(here)
            + ". Restore into an empty database (a new SQLite file, or a new PostgreSQL "
            "database, migrated), or delete those first."
        )

    report = RestoreReport(dry_run=dry_run)
    with _database_refusals(), transaction.atomic():
        names = set(carried)
        for block in clubs:
            names.update(block.directors)
        for parsed in events:
            names |= parsed.usernames()
        users = _ensure_users(names, carried, report)
        made = {}
        for block in clubs:
            made[block.club.slug] = _club_create(block, users)
            report.clubs.append(f"{block.club.name} ({block.club.slug})")
        for parsed in events:
            report.events.append(_restore_parsed(parsed, made[parsed.club.club.slug], users))
            _note_queued_analysis(parsed, report)
        if dry_run:
            transaction.set_rollback(True)
    return report


def restore(document: Any, *, dry_run: bool = False) -> RestoreReport:
    """A backup or a single event document, told apart by its format marker."""
    if isinstance(document, dict) and document.get("format") == EVENT_FORMAT:
        return event_restore(document, dry_run=dry_run)
    return backup_restore(document, dry_run=dry_run)


def event_import_text(*, text: str, club: Club, user: User = None) -> Event:
    """A director's import of an event's JSON into `club` (the import page and API)."""
    report = event_restore(loads(text), club=club, imported_by=user)
    return report.events[0].event


# -- files ----------------------------------------------------------------------------------


def read_file(path: Any) -> Any:
    """A backup or event document from a file, gzip-compressed or not (told by its first
    bytes, whatever its name)."""
    import gzip
    from pathlib import Path

    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError) as exc:
            raise RestoreRefused(
                f"{path} is a damaged or cut-short gzip file ({exc}): use a complete copy."
            ) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RestoreRefused(f"{path} is not UTF-8 text: it is not a clubwhist backup.") from None
    return loads(text)


def write_file(path: Any, document: Mapping[str, Any]) -> int:
    """Write a document whole or not at all (beside the target, then renamed over it), gzip
    compressed when the name ends in .gz; returns the bytes written."""
    import gzip
    import os
    import tempfile
    from pathlib import Path

    target = Path(path)
    data = dumps(document).encode()
    if target.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    try:
        with os.fdopen(handle, "wb") as fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(data)
