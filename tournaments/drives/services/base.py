"""What every drive service shares: the refusal, the audit row and version, the lock, the
tablet links, a result checked by the game's rules.

Kept apart from `drives.py` (the director's actions) and `drive_tablets.py` (the tablets'),
which both build on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from django.db import transaction

from engine.drives import DriveSettings
from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.drives.selectors.tablets import drive_epoch
from tournaments.kernel import live
from tournaments.kernel.audit import Change, User, audit_write, version_next
from tournaments.kernel.names import RuleRefused, name_checked
from tournaments.kernel.refusals import Refused
from tournaments.kernel.tokens import new_link_token


class DriveRefused(Refused):
    """A director's request the drive cannot take; the message says why and what to do."""


def audit(
    drive: Drive,
    user: User,
    action: str,
    target: str,
    *,
    moved: bool = False,
    bump: bool = True,
    **change: Unpack[Change],
) -> None:
    """Every change leaves its audit row and, unless `bump` is False, is a new version of the
    drive (the tablets' own results are not: each tablet has its answer, and a version for
    each of 500 results a hand would make every table's state be worked out again for each).
    `moved`: the change moves people (a start, a move, a seating worked out again, the end):
    every tablet's stream is woken to show it, once the transaction commits."""
    if bump:
        new_version(drive, moved=moved)
    audit_write(DriveAudit, drive=drive, user=user, action=action, target=target, **change)


def new_version(drive: Drive, *, moved: bool = False) -> None:
    version = version_next(drive)
    pk, epoch = drive.pk, drive_epoch(drive)
    transaction.on_commit(lambda: live.announce_drive(pk, version, epoch=epoch, moved=moved))


def links_ensure(drive: Drive, tables: int) -> None:
    """Each table has a live tablet link (made at the start; the director may replace one)."""
    have = set(
        DriveTableAccess.objects.filter(drive=drive, revoked_at__isnull=True).values_list(
            "table", flat=True
        )
    )
    DriveTableAccess.objects.bulk_create(
        DriveTableAccess(drive=drive, table=t, token=new_link_token())
        for t in range(1, tables + 1)
        if t not in have
    )


def locked(drive: Drive) -> Drive:
    """The drive's row again, locked for this transaction: two browsers (or tablets) acting
    at once take turns, and each sees what the other did."""
    return Drive.objects.select_for_update().get(pk=drive.pk)


def checked_entry(settings: DriveSettings, hand: int, table: int, entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise DriveRefused(
            f"Hand {hand}, table {table}: a result is the game's fields, such as "
            '{"ns_tricks": 9}.'
        )
    try:
        score = settings.game_rules.score(entry)
    except ValueError as exc:
        raise DriveRefused(f"Hand {hand}, table {table}: {exc}") from None
    assert score.entry is not None
    return settings.game_rules.rules.entry_to_dict(score.entry)


def table_count(drive: Drive, hand: int) -> int:
    row = DriveSeating.objects.filter(drive=drive, hand=hand).first()
    if row is None:
        raise DriveRefused(
            f"Hand {hand} has not been played yet: the drive is at hand {drive.hand}."
        )
    return len(row.seating["tables"])  # as stored (`Seating.to_dict()`), not parsed: cheaper


def check_table(drive: Drive, hand: int, table: int) -> None:
    tables = table_count(drive, hand)
    if not 1 <= table <= tables:
        raise DriveRefused(f"There is no table {table}: the tables are 1 to {tables}.")


def player_name(value: str, what: str) -> str:
    """A player's name under the one rule for names, refused in the drive's words."""
    try:
        return name_checked(value, model=DrivePlayer, column="name", what=what, required=True)
    except RuleRefused as exc:
        raise DriveRefused(str(exc)) from None


def settings_stored(settings: DriveSettings) -> dict[str, object]:
    """The settings as a drive row keeps them: without the number of players, which comes
    from its players list."""
    data = settings.to_dict()
    del data["players"]
    return data


def player_of(drive: Drive, number: int) -> DrivePlayer:
    """The drive's player of that number, or a refusal that says which numbers there are."""
    player = DrivePlayer.objects.filter(drive=drive, number=number).first()
    if player is None:
        count = DrivePlayer.objects.filter(drive=drive).count()
        raise DriveRefused(f"There is no player {number}: the players are numbered 1 to {count}.")
    return player
