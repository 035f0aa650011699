"""The drive tablets' actions: a table enters its result, the other side confirms or says it
is wrong, and the last confirmation moves the whole drive on.

A tablet's link (token) names its drive and table; a table may act only on its own result
of the hand being played. North-South enter, East-West confirm, as at the events' tables.
When a confirmation completes the hand and the drive moves on by itself (`Drive.moves_on`),
the next seating is worked out at once, under the drive's lock, so the room and every tablet
hear of the move the moment it commits (`tablet_confirm` says how the confirmations arriving
together settle who moves it). A result sent again (a tablet retrying after a lost
answer) is taken once; a confirmation of a result that has since changed is refused, so a
side never confirms what it did not see. Once the drive has finished (or is published) every
write here is refused before anything else (`table_gate`): the director puts it right.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.drives import DriveSettings
from tournaments.drives.models import Drive, DriveResult, DriveTableAccess
from tournaments.drives.selectors.drives import drive_settings, result_text
from tournaments.drives.selectors.tablets import link_key
from tournaments.drives.services.base import (
    DriveRefused,
    audit,
    check_table,
    checked_entry,
    locked,
)
from tournaments.drives.services.drives import CARDS_ENTERED, move_if_complete
from tournaments.kernel.audit import User
from tournaments.kernel.refusals import Kind
from tournaments.kernel.table_gate import table_writes_open
from tournaments.kernel.tokens import new_link_token


def forget_link(token: str) -> None:
    """A replaced link's cached drive and table go: its next request reads the database and
    is told the link was replaced."""
    cache.delete(link_key(token))


class DriveTableConflict(DriveRefused):
    """The table's stored result differs from what the tablet sent (HTTP 409)."""

    kind = Kind.CONFLICT

    def __init__(self, message: str, stored: DriveResult | None = None) -> None:
        super().__init__(message)
        self.stored = stored


def _running(drive: Drive, hand: int) -> None:
    if drive.cards:
        raise DriveRefused(CARDS_ENTERED)
    if drive.status == Drive.Status.DRAFT:
        raise DriveRefused("The drive has not started yet: wait for the director.")
    if drive.status != Drive.Status.RUNNING:
        raise DriveRefused("The drive is over: ask the director to put a mistake right.")
    if hand != drive.hand:
        raise DriveRefused(
            f"The drive is at hand {drive.hand}, not {hand}: this screen is out of date and "
            "shows the right hand in a moment."
        )


def _target(hand: int, table: int) -> str:
    return f"hand {hand} table {table}"


def _table_checked(settings: DriveSettings, hand: int, table: int) -> None:
    tables = settings.tables_at(hand)
    if not 1 <= table <= tables:
        raise DriveRefused(f"There is no table {table}: the tables are 1 to {tables}.")


def _conflict(settings: DriveSettings, stored: DriveResult, hand: int, table: int) -> None:
    said = (
        "East-West have not confirmed it yet: they can say it is wrong, then enter again"
        if stored.status == DriveResult.Status.ENTERED
        else "it is confirmed: only the director can change it now"
    )
    raise DriveTableConflict(
        f"Table {table} already has a result for hand {hand} "
        f"({result_text(settings.game_rules.score(stored.entry))}); {said}.",
        stored,
    )


def tablet_enter(
    *, drive_id: int, table: int, hand: int, entry: Mapping[str, Any]
) -> tuple[DriveResult, bool]:
    """North-South's result for the table, waiting for East-West. Returns the row and whether
    it is new (False: the same result again, already stored).

    No lock on the drive: 250 tables entering at once would queue behind it. None is needed:
    the drive cannot move on while this table has no confirmed result, and the one-result-
    per-table constraint settles two sends of one table at once (the second is a retry)."""
    drive = Drive.objects.get(pk=drive_id)
    table_writes_open(drive)
    settings = drive_settings(drive)
    if hand != drive.hand:
        stored = DriveResult.objects.filter(drive=drive, hand=hand, table=table).first()
        if stored is not None and stored.entry == checked_entry(settings, hand, table, entry):
            return stored, False  # a retry that arrives after the drive moved on
    _running(drive, hand)
    _table_checked(settings, hand, table)
    data = checked_entry(settings, hand, table, entry)
    try:
        with transaction.atomic():
            row = DriveResult.objects.create(
                drive=drive,
                hand=hand,
                table=table,
                entry=data,
                status=DriveResult.Status.ENTERED,
                source="tablet",
            )
            audit(drive, None, "entered at the table", _target(hand, table), after=data, bump=False)
    except IntegrityError:  # the table has a result: this one again (a retry), or another
        stored = DriveResult.objects.get(drive=drive, hand=hand, table=table)
        if stored.entry == data:
            return stored, False
        _conflict(settings, stored, hand, table)
        raise
    return row, True


def tablet_confirm(
    *, drive_id: int, table: int, hand: int, entry: Mapping[str, Any]
) -> tuple[DriveResult, bool]:
    """East-West agree with the result they were shown (`entry`). Returns the row and whether
    the drive moved on to its next hand with this confirmation.

    Two steps, each its own transaction: the confirmation (no lock on the drive), then, under
    the drive's lock, "is every table of the hand confirmed now?" and the move if so. Each
    confirmation asks after its own has committed, and the asks take turns, so the last one
    sees every table confirmed, however many arrive together; a confirmation sent again asks
    again, so a move lost to a crash between the two steps is made by the retry."""
    drive = Drive.objects.get(pk=drive_id)
    table_writes_open(drive)
    settings = drive_settings(drive)
    data = checked_entry(settings, hand, table, entry)
    with transaction.atomic():
        stored = (
            DriveResult.objects.select_for_update()
            .filter(drive=drive, hand=hand, table=table)
            .first()
        )
        if stored is None:
            _running(drive, hand)
            raise DriveTableConflict(
                f"Table {table} has no result for hand {hand} to confirm: North-South enter it "
                "first."
            )
        if stored.entry != data:
            raise DriveTableConflict(
                f"Table {table}'s result for hand {hand} has changed since this screen showed "
                "it: look again before confirming.",
                stored,
            )
        if stored.status != DriveResult.Status.CONFIRMED:
            _running(drive, hand)
            stored.status, stored.confirmed_at = DriveResult.Status.CONFIRMED, timezone.now()
            stored.save(update_fields=["status", "confirmed_at"])
            target = _target(hand, table)
            audit(drive, None, "confirmed at the table", target, after=data, bump=False)
    return stored, _move_if_complete(drive_id, hand, table, settings.tables_at(hand))


def _move_if_complete(drive_id: int, hand: int, table: int, tables: int) -> bool:
    """After a confirmation has committed: a count without any lock, and only when every
    table looks confirmed, the drive's lock, the count again and the move (at most one of
    the confirmations arriving together moves the drive; the others find it moved)."""
    confirmed = DriveResult.objects.filter(
        drive_id=drive_id, hand=hand, status=DriveResult.Status.CONFIRMED
    ).count()
    if confirmed < tables:
        return False
    return _move_locked(drive_id, hand, table)


@transaction.atomic
def _move_locked(drive_id: int, hand: int, table: int) -> bool:
    drive = locked(Drive(pk=drive_id))
    why = f"table {table}'s confirmation was the last"
    return move_if_complete(drive, drive_settings(drive), hand, None, why)


@transaction.atomic
def tablet_reject(*, drive_id: int, table: int, hand: int) -> None:
    """East-West say the result entered is wrong: it is taken off, and North-South enter it
    again (the audit trail keeps what it was). Under the drive's lock, so the director's bell
    never moves on with a result being taken off."""
    drive = locked(Drive(pk=drive_id))
    table_writes_open(drive)
    _running(drive, hand)
    stored = DriveResult.objects.filter(drive=drive, hand=hand, table=table).first()
    if stored is None:
        return  # taken off already (a retry)
    if stored.status == DriveResult.Status.CONFIRMED:
        raise DriveTableConflict(
            f"Table {table}'s result for hand {hand} is confirmed: call the director to change it.",
            stored,
        )
    before = stored.entry
    stored.delete()
    audit(drive, None, "said wrong at the table", _target(hand, table), before=before, bump=False)


@transaction.atomic
def link_replace(*, drive: Drive, table: int, user: User = None) -> DriveTableAccess:
    """A new link for a table (a tablet lost, or a link seen by the wrong people): the old
    one says it was replaced."""
    drive = locked(drive)
    if drive.status == Drive.Status.DRAFT:
        raise DriveRefused("The tables' links are made when the drive starts.")
    check_table(drive, drive.hand, table)
    old = list(DriveTableAccess.objects.filter(drive=drive, table=table, revoked_at__isnull=True))
    for link in old:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    fresh = DriveTableAccess.objects.create(drive=drive, table=table, token=new_link_token())
    for link in old:
        transaction.on_commit(functools.partial(forget_link, link.token))
    audit(drive, user, "replaced link", f"table {table}")
    return fresh


@transaction.atomic
def moves_on_set(*, drive: Drive, on: bool, user: User = None) -> Drive:
    """Whether the last table's confirmation moves the drive on by itself."""
    drive = locked(drive)
    if drive.moves_on != on:
        drive.moves_on = on
        drive.save(update_fields=["moves_on"])
        audit(drive, user, "moves on by itself" if on else "moves on when told", "drive")
    return drive
