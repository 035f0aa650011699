"""What a drive table's tablet shows: its link, and the table's state for the drive's version.

A drive's tablets stay on their tables all evening while the players move. Each shows the
hand being played there (trumps, who sits where), the table's result (to enter, waiting for
East-West, confirmed), how many tables are done and, once the drive has moved on, where the
four players who were just here go next.

The states of every table are worked out together, once per version of the drive (one read
of its seatings, this hand's results and its players), and kept in the shared cache by
version: a tablet's poll reads its own table's state from there without the database, and
when the drive moves on every tablet's stream sends the new state of its table from the one
computation its process made (views/drive_tablets.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from engine.drives import DUMMY, DriveSettings
from engine.drives import Drive as EngineDrive
from engine.drives.model import Role, role_of_index, seat_of_index
from tournaments.drives.models import (
    Drive,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.drives.selectors.drives import (
    drive_settings,
    player_names,
    public_names,
    result_text,
    settings_for,
)
from tournaments.kernel import live
from tournaments.kernel.documents import Document, EntryFieldView, entry_field_document
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.kernel.tokens import token_digest

SEATS = [str(seat_of_index(i)) for i in range(4)]  # N, E, S, W: a table's seats in order
#: How long a table's state stays in the shared cache: a version of the drive lives for a
#: hand at most (a table's own result is not a new version: `drive_base.audit`; the state's
#: result and counts are read afresh each time, `table_state`).
STATE_SECONDS = 3600
#: How long a link's drive and table stay cached (a replaced link is forgotten at once).
LINK_SECONDS = 3600


class DriveLinkUnknown(LinkUnknown):
    """No drive table has this link."""


class DriveLinkReplaced(LinkReplaced):
    """The link was replaced by the director: its holder is told to scan the new one."""


@dataclass(frozen=True)
class DriveSeatOut(Document):
    seat: str  # N, E, S, W
    role: str  # the drive's label for the seat's role ("Lady", "Gent", or neutral)
    name: str
    player: int  # 0 for the dummy of a short table


@dataclass(frozen=True)
class DriveMoveOut(Document):
    """Where a player goes for the hand now being played: a table and seat, or sitting out."""

    name: str
    player: int
    table: int  # 0: sitting this hand out
    seat: str
    role: str


@dataclass(frozen=True)
class DriveTableResult(Document):
    state: str  # "to enter", "waiting" (for East-West to confirm), "confirmed"
    entry: dict[str, Any] | None
    text: str


@dataclass(frozen=True)
class DriveTabletState(Document):
    """Everything a drive table's tablet shows (static/js/drive-table.js reads it)."""

    drive: int
    name: str
    game: str
    status: str  # the drive's: draft, running, finished, published
    version: int
    table: int
    tables: int
    hand: int
    hands: int
    trumps: str
    break_after: int
    seats: tuple[DriveSeatOut, ...]
    result: DriveTableResult
    fields: tuple[EntryFieldView, ...]
    done: int  # tables of this hand whose result counts (confirmed)
    waiting: tuple[int, ...]  # the tables still without a confirmed result
    moved: tuple[DriveMoveOut, ...]  # this table's players of the hand before: where they went
    message: str


def drive_epoch(drive: Drive) -> int:
    """The drive's creation time in microseconds: with its id, it names this drive for ever
    (a drive restored under a deleted one's id is another drive, whatever its version)."""
    return _epoch(drive.created_at)


def _epoch(created_at: dt.datetime) -> int:
    return int(created_at.timestamp() * 1_000_000)


def link_key(token: str) -> str:
    return f"drive-link:{token_digest(token)}"


def drive_link(token: str) -> tuple[int, int]:
    """The drive and table of a live link (cached); DriveLinkUnknown / DriveLinkReplaced."""
    key = link_key(token)
    found = cache.get(key)
    if found is None:
        row = DriveTableAccess.objects.filter(token=token).values_list(
            "drive_id", "table", "revoked_at"
        )
        first = row.first()
        if first is None:
            raise DriveLinkUnknown(
                "This table link is not known here: scan the table's QR code again, or ask "
                "the director for the link."
            )
        if first[2] is not None:
            raise DriveLinkReplaced(
                f"The director replaced table {first[1]}'s link: scan the new QR code on the "
                "table card or the director's screen."
            )
        found = (first[0], first[1])
        cache.set(key, found, timeout=LINK_SECONDS)
    return int(found[0]), int(found[1])


def drive_stamp(drive_id: int) -> tuple[int, int]:
    """The drive's (epoch, version): from the cache, else the database once, then cached.
    With the epoch (`drive_epoch`) in the states' keys, a drive restored under a deleted
    one's id never reads the deleted one's states."""
    key = live.drive_version_key(drive_id)
    found = cache.get(key)
    if found is None:
        row = Drive.objects.filter(pk=drive_id).values_list("created_at", "version").first()
        if row is None:
            raise DriveLinkUnknown("This drive is no longer here: ask the director.")
        found = (_epoch(row[0]), row[1])
        cache.add(key, found, timeout=12 * 3600)
    epoch, version = found
    return int(epoch), int(version)


def _state_key(drive_id: int, stamp: tuple[int, int], table: int) -> str:
    return f"drive-tablet:{drive_id}:{stamp[0]}:{stamp[1]}:{table}"


def table_state(drive_id: int, table: int, *, row: DriveResult | None = None) -> dict[str, Any]:
    """A table's state as JSON data: the part that changes only with a new version of the
    drive (the hand, its trumps and seats, where the players of the hand before went) from
    the shared cache, and the part each table's result changes (its own result, the tables
    confirmed) read now, two small queries (`row`: this table's result, when the caller has
    it). Worked out whole, and kept, when the cache does not have it."""
    stamp = drive_stamp(drive_id)
    key = _state_key(drive_id, stamp, table)
    found = cache.get(key)
    if found is None:
        drive = Drive.objects.filter(pk=drive_id).first()
        built = build_states(drive, only=table) if drive is not None else []
        if drive is None or not built:
            raise DriveLinkUnknown(f"The drive has no table {table} now: ask the director.")
        state = built[0].to_dict()
        cached = (state, drive.settings, drive_settings(drive).players)
        own = (drive_epoch(drive), drive.version)
        cache.set(_state_key(drive_id, own, table), cached, timeout=STATE_SECONDS)
        return state
    state, stored_settings, players = found
    settings = settings_for(stored_settings, players)
    hand = state["hand"]
    if row is None or row.hand != hand:
        row = DriveResult.objects.filter(drive_id=drive_id, hand=hand, table=table).first()
    counted = set(
        DriveResult.objects.filter(
            drive_id=drive_id, hand=hand, status=DriveResult.Status.CONFIRMED
        ).values_list("table", flat=True)
    )
    return {
        **state,
        "result": _result(settings, row).to_dict(),
        "done": len(counted),
        "waiting": [t for t in range(1, state["tables"] + 1) if t not in counted],
    }


def drive_states(drive_id: int) -> dict[int, dict[str, Any]]:
    """Every table's state for the drive as it is now (`to_dict()` of each
    `DriveTabletState`), kept in the shared cache under the version read with it."""
    drive = Drive.objects.get(pk=drive_id)
    states = {s.table: s.to_dict() for s in build_states(drive)}
    players = drive_settings(drive).players
    stamp = (drive_epoch(drive), drive.version)
    cache.set_many(
        {
            _state_key(drive.pk, stamp, t): (state, drive.settings, players)
            for t, state in states.items()
        },
        timeout=STATE_SECONDS,
    )
    return states


def _places(
    settings: DriveSettings, seating: Mapping[str, Any], wanted: Collection[int] | None = None
) -> dict[int, tuple[int, str, str]]:
    """Players' (table, seat, role label) in a stored seating (`Seating.to_dict()`, read as
    it is: parsing a 1,000-player seating into the engine's checked form costs milliseconds
    a request); table 0 for those sitting out. `wanted`: only these players."""
    places: dict[int, tuple[int, str, str]] = {}
    for number, players in enumerate(seating["tables"], start=1):
        for index, player in enumerate(players):
            if player != DUMMY and (wanted is None or player in wanted):
                places[player] = (number, SEATS[index], settings.role_label(role_of_index(index)))
    for player, role in seating.get("bench", ()):
        if player != DUMMY and (wanted is None or player in wanted):
            places[player] = (0, "out", settings.role_label(Role(role)))
    return places


def build_states(drive: Drive, only: int | None = None) -> list[DriveTabletState]:
    """Every table's state now, or table `only`'s: the seatings of this hand and the one
    before, this hand's results and the names of the players shown."""
    settings = drive_settings(drive)
    rows = dict(
        DriveSeating.objects.filter(drive=drive, hand__in=[drive.hand, drive.hand - 1]).values_list(
            "hand", "seating"
        )
    )
    seating = rows.get(drive.hand)
    if seating is None:
        return []
    tables: list[list[int]] = seating["tables"]
    if only is not None and not 1 <= only <= len(tables):
        return []
    before = rows.get(drive.hand - 1)
    shown = range(1, len(tables) + 1) if only is None else [only]
    hand_rows = DriveResult.objects.filter(drive=drive, hand=drive.hand)
    if only is None:
        results = {r.table: r for r in hand_rows}
        confirmed = [t for t, r in results.items() if r.status == DriveResult.Status.CONFIRMED]
        names = player_names(drive, public=True)  # the players are the public
        now = _places(settings, seating)
    else:
        results = {r.table: r for r in hand_rows.filter(table=only)}
        confirmed = list(
            hand_rows.filter(status=DriveResult.Status.CONFIRMED).values_list("table", flat=True)
        )
        earlier = before["tables"][only - 1] if before and only <= len(before["tables"]) else []
        wanted = {p for p in (*tables[only - 1], *earlier) if p != DUMMY}
        names = public_names(DrivePlayer.objects.filter(drive=drive, number__in=wanted))
        now = _places(settings, seating, wanted)
    counted = set(confirmed)
    waiting = tuple(t for t in range(1, len(tables) + 1) if t not in counted)
    trumps = EngineDrive(settings).trumps_text(drive.hand)
    fields = tuple(entry_field_document(f) for f in settings.game_rules.rules.entry_fields())
    message = _message(drive, settings)
    labels = [settings.role_label(role_of_index(i)) for i in range(4)]
    states = []
    for number in shown:
        seats = tuple(
            DriveSeatOut(
                seat=SEATS[i],
                role=labels[i],
                name="dummy" if p == DUMMY else names.get(p, str(p)),
                player=p,
            )
            for i, p in enumerate(tables[number - 1])
        )
        moved: tuple[DriveMoveOut, ...] = ()
        if before is not None and number <= len(before["tables"]):
            moved = tuple(
                DriveMoveOut(names.get(p, str(p)), p, *now[p])
                for p in before["tables"][number - 1]
                if p != DUMMY and p in now
            )
        states.append(
            DriveTabletState(
                drive=drive.pk,
                name=drive.name,
                game=settings.game_rules.title,
                status=drive.status,
                version=drive.version,
                table=number,
                tables=len(tables),
                hand=drive.hand,
                hands=settings.hands,
                trumps=trumps,
                break_after=settings.break_after,
                seats=seats,
                result=_result(settings, results.get(number)),
                fields=fields,
                done=len(confirmed),
                waiting=waiting,
                moved=moved,
                message=message,
            )
        )
    return states


def _result(settings: DriveSettings, row: DriveResult | None) -> DriveTableResult:
    if row is None:
        return DriveTableResult("to enter", None, "")
    text = result_text(settings.game_rules.score(row.entry))
    state = "confirmed" if row.status == DriveResult.Status.CONFIRMED else "waiting"
    return DriveTableResult(state, dict(row.entry), text)


def _message(drive: Drive, settings: DriveSettings) -> str:
    if drive.status in (Drive.Status.FINISHED, Drive.Status.PUBLISHED):
        return "The drive is over: thank you for playing. The prizes are on the director's screen."
    if drive.status == Drive.Status.DRAFT:
        return "The drive has not started yet."
    if drive.hand == settings.hands:
        return "Last hand of the evening."
    if settings.break_after and drive.hand == settings.break_after:
        return "Last hand before the break."
    return ""
