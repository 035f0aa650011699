"""Running a progressive whist drive: set-up, players, start, each table's result, the moves.

Each function is one director's action (the pages, the API and the command call the same
ones, and a tablet API can call `result_enter` later as it is). The engine checks every
setting, seating and result; a refusal is a `DriveRefused` whose text says what is wrong and
what to do, raised before anything is written, so a refusal changes nothing. Each change
leaves a `DriveAudit` row in the same transaction.

Moves and corrections (docs/directors/drives.md): the next hand's seating is worked out when
the director moves the drive on, from the hand's results. A correction to the hand just
finished, while nobody has entered a result of the next hand, works the next seating out again
(the players are taken not to have moved yet); any later correction changes scores only, never
where anyone sat, and its audit entry says so.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.drives import Drive as EngineDrive
from engine.drives import DriveSettings, Seating
from engine.drives.settings import MAX_PLAYERS
from tournaments.drives.models import (
    Drive,
    DrivePlayer,
    DriveResult,
    DriveSeating,
)
from tournaments.drives.selectors.drives import (
    FEWEST_PLAYERS,
    drive_settings,
    hand_records,
    results_of,
    seatings_of,
    settings_for,
)
from tournaments.drives.services.base import (
    DriveRefused as DriveRefused,  # raised by every action here; callers catch it from here
)
from tournaments.drives.services.base import (
    audit,
    check_table,
    checked_entry,
    links_ensure,
    locked,
    player_name,
    player_of,
    settings_stored,
)
from tournaments.kernel import jobs
from tournaments.kernel.audit import User, actor
from tournaments.kernel.member_links import BY_NAME, NameLinker
from tournaments.kernel.models import Club
from tournaments.kernel.names import named_and_dated

#: Why a hand's result is refused once the totals came from the score cards.
CARDS_ENTERED = (
    "This drive's totals were typed from the players' score cards: it takes no hand's result. "
    "Correct a card on the score cards page instead."
)

#: A seed is stored in a signed 64-bit column.
SEED_LIMIT = 2**62

#: The refusal of a players list longer than the engine's MAX_PLAYERS (the one limit on a
#: drive's size, so on its tables: a quarter of it), for the service, the API and the page.
TOO_MANY_PLAYERS = (
    f"The list has more than {MAX_PLAYERS} players; a drive takes at most {MAX_PLAYERS} "
    f"({MAX_PLAYERS // 4} tables). Split the players into two drives. Nothing was changed."
)


def _checked_settings(data: Mapping[str, Any], players: int) -> DriveSettings:
    if "players" in data:
        raise DriveRefused(
            "players: a drive counts its players from its players list; leave players out of "
            "the settings and list the players instead"
        )
    try:
        return settings_for(data, max(players, FEWEST_PLAYERS))
    except ValueError as exc:
        raise DriveRefused(f"Setting {exc}") from None


@transaction.atomic
def drive_create(
    *,
    club: Club,
    name: str,
    settings: Mapping[str, Any],
    players: Sequence[str] = (),
    members: Sequence[Any] | None = None,
    date: dt.date | None = None,
    user: User = None,
) -> Drive:
    """A draft drive with its settings (every one checked by the engine) and its players, if
    they are known already (more can be added at the door until the start).

    Each player is linked to the club's member whose name they have (`kernel.member_links`),
    or to the member the API caller chose (`members`, one per player: an id, None for a
    visitor, `BY_NAME`)."""
    name, date = named_and_dated(name, date, model=Drive, noun="drive", refused=DriveRefused)
    if len(players) > MAX_PLAYERS:  # before any name is read
        raise DriveRefused(TOO_MANY_PLAYERS)
    names = [player_name(player, f"player {n}'s name") for n, player in enumerate(players, start=1)]
    _no_twins(names)
    if members is not None and len(members) != len(names):
        raise DriveRefused(
            f"The members list has {len(members)} entries for {len(names)} players: give one "
            "per player (null for a visitor), in the players' order, or leave it out."
        )
    linker = NameLinker(club, refused=DriveRefused)
    links = [
        linker.link(player, chosen=BY_NAME if members is None else members[n - 1],
                    what=f"player {n}")
        for n, player in enumerate(names, start=1)
    ]  # fmt: skip
    checked = _checked_settings(settings, len(names))
    drive = Drive.objects.create(
        club=club,
        name=name,
        date=date,
        game=checked.game,
        settings=settings_stored(checked),
        created_by=actor(user),
    )
    DrivePlayer.objects.bulk_create(
        DrivePlayer(drive=drive, number=n, name=player, member=member)
        for n, (player, member) in enumerate(zip(names, links, strict=True), start=1)
    )
    audit(drive, user, "create", "drive", after={"settings": drive.settings, "players": names})
    return drive


def _no_twins(names: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for name in names:
        first = seen.setdefault(name.casefold(), name)
        if first is not name:
            also = "" if first == name else f" ({name})"
            raise DriveRefused(
                f"Two players are called {first}{also}: add an initial or a surname so the "
                "cards and the prize list tell them apart."
            )


def _draft(drive: Drive, doing: str) -> Drive:
    drive = locked(drive)
    if drive.status != Drive.Status.DRAFT:
        raise DriveRefused(
            f"The drive has started: {doing} is only possible before the start. For a player "
            'who comes late use "A player arrives"; for one who goes home, "A player '
            'leaves".'
        )
    return drive


@transaction.atomic
def player_add(*, drive: Drive, name: str, member: Any = BY_NAME, user: User = None) -> DrivePlayer:
    """A player more before the start, linked to the club's member of that name (or the
    member the API caller chose; None: a visitor)."""
    drive = _draft(drive, "adding a player")
    name = player_name(name, "the player's name")
    names = list(DrivePlayer.objects.filter(drive=drive).values_list("name", flat=True))
    if len(names) >= MAX_PLAYERS:
        raise DriveRefused(
            f"The drive has {MAX_PLAYERS} players, the most one takes ({MAX_PLAYERS // 4} "
            "tables). Start a second drive for the others."
        )
    _no_twins([*names, name])
    linked = NameLinker(drive.club, refused=DriveRefused).link(
        name, chosen=member, what="the player"
    )
    player = DrivePlayer.objects.create(
        drive=drive, number=len(names) + 1, name=name, member=linked
    )
    audit(drive, user, "add player", f"player {player.number}", after=name)
    return player


@transaction.atomic
def player_rename(
    *, drive: Drive, number: int, name: str, member: Any = BY_NAME, user: User = None
) -> DrivePlayer:
    """A player's name may change at any time (a spelling put right); the number stays. A
    new name links to the club's member of that name (or the member chosen); the same name
    keeps its link."""
    drive = locked(drive)
    player = player_of(drive, number)
    name = player_name(name, f"player {number}'s name")
    others = DrivePlayer.objects.filter(drive=drive).exclude(pk=player.pk)
    _no_twins([*others.values_list("name", flat=True), name])
    player.member = NameLinker(drive.club, refused=DriveRefused).link(
        name, chosen=member, what=f"player {number}", before=(player.name, player.member)
    )
    before, player.name = player.name, name
    player.save(update_fields=["name", "member"])
    audit(drive, user, "rename player", f"player {number}", before=before, after=name)
    return player


@transaction.atomic
def player_remove(*, drive: Drive, number: int, user: User = None) -> None:
    """Take a player off before the start; those after them move up a number."""
    drive = _draft(drive, "taking a player off")
    player = player_of(drive, number)
    name = player.name
    player.delete()
    # One by one, lowest first: each number is free before the next player takes it.
    for later in DrivePlayer.objects.filter(drive=drive, number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])
    audit(drive, user, "remove player", f"player {number}", before=name)


@transaction.atomic
def drive_start(
    *,
    drive: Drive,
    seed: int | None = None,
    placed: Sequence[Sequence[int]] | None = None,
    bench: Sequence[Any] = (),
    user: User = None,
) -> Drive:
    """Start: the first hand's seating drawn at random (with `seed`, or a fresh one, stored
    so the draw can be repeated) or as the director placed it (`placed`: each table's player
    numbers N, E, S, W; `bench`: those sitting out)."""
    drive = _draft(drive, "starting")
    count = DrivePlayer.objects.filter(drive=drive).count()
    if count < FEWEST_PLAYERS:
        raise DriveRefused(
            f"The drive has {count} player{'s' if count != 1 else ''}: a drive needs at least "
            "four. Add the players first."
        )
    try:
        settings = settings_for(drive.settings, count)
    except ValueError as exc:
        raise DriveRefused(f"With {count} players the settings do not work: {exc}") from None
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise DriveRefused(f"seed: a whole number from 0 to {SEED_LIMIT - 1}, not {seed}")
    drive.seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    if placed is not None and len(placed) > settings.tables:  # before any table is read
        raise DriveRefused(
            f"The seating places {len(placed)} tables; {count} players fill {settings.tables}."
        )
    engine = EngineDrive(settings)
    try:
        seating = (
            engine.first_seating(drive.seed)
            if placed is None
            else engine.placed_seating(placed, bench)
        )
    except ValueError as exc:
        raise DriveRefused(f"The seating cannot be used: {exc}") from None
    DriveSeating.objects.create(drive=drive, hand=1, seating=seating.to_dict())
    links_ensure(drive, len(seating.tables))
    drive.status, drive.hand = Drive.Status.RUNNING, 1
    drive.save(update_fields=["status", "hand", "seed"])
    how = "drawn" if placed is None else "placed"
    audit(drive, user, "start", "drive", after={"seating": how, "seed": drive.seed}, moved=True)
    return drive


@transaction.atomic
def result_enter(
    *,
    drive: Drive,
    table: int,
    entry: Mapping[str, Any],
    hand: int | None = None,
    user: User = None,
) -> DriveResult:
    """A table's result for the hand being played, as the director enters it (it counts at
    once). The same result sent twice is taken once (a browser that repeats itself); a
    different one for a table that has a counted result is refused: that is a correction. A
    result the table's tablet entered and East-West have not confirmed yet gives way to the
    director's: it is confirmed if the same, replaced if not (the audit trail keeps both)."""
    drive = locked(drive)
    if drive.status != Drive.Status.RUNNING:
        raise DriveRefused(
            "Results are entered while the drive runs: start it first"
            if drive.status == Drive.Status.DRAFT
            else "The drive is over: put a mistake right with a correction."
        )
    if drive.cards:
        raise DriveRefused(CARDS_ENTERED)
    hand = drive.hand if hand is None else hand
    if hand != drive.hand:
        raise DriveRefused(
            f"The drive is at hand {drive.hand}, not {hand}: enter this hand's results, or "
            f"correct hand {hand}'s."
        )
    check_table(drive, hand, table)
    settings = drive_settings(drive)
    data = checked_entry(settings, hand, table, entry)
    stored = DriveResult.objects.filter(drive=drive, hand=hand, table=table).first()
    if stored is not None and stored.status == DriveResult.Status.ENTERED:
        before = stored.entry
        stored.entry, stored.entered_by = data, actor(user)
        stored.status, stored.confirmed_at = DriveResult.Status.CONFIRMED, timezone.now()
        stored.save(update_fields=["entry", "entered_by", "status", "confirmed_at"])
        said = "confirmed for the table" if before == data else "replaces the table's entry"
        audit(
            drive,
            user,
            "result",
            f"hand {hand} table {table}",
            before=before,
            after=data,
            reason=said,
        )
        _typed_last(drive, settings, hand, table, user)
        return stored
    if stored is not None:
        if stored.entry == data:
            return stored
        raise DriveRefused(
            f"Table {table} already has a result for hand {hand}; to change it, correct it "
            "(with a reason)."
        )
    result = DriveResult.objects.create(
        drive=drive,
        hand=hand,
        table=table,
        entry=data,
        entered_by=actor(user),
        confirmed_at=timezone.now(),
    )
    audit(drive, user, "result", f"hand {hand} table {table}", after=data)
    _typed_last(drive, settings, hand, table, user)
    return result


def _typed_last(drive: Drive, settings: DriveSettings, hand: int, table: int, user: User) -> None:
    """On a hand played on the tablets, the director's typed result for the last table moves
    the drive on, as that table's confirmation would have (a tablet that died, a table that
    called the director). On a hand played on paper nothing moves: the director checks the
    tallies and rings the bell (`hand_next`)."""
    if DriveResult.objects.filter(drive=drive, hand=hand, source="tablet").exists():
        why = f"table {table}'s result, typed by the director, was the last"
        move_if_complete(drive, settings, hand, user, why)


def move_if_complete(
    drive: Drive, settings: DriveSettings, hand: int, user: User, why: str
) -> bool:
    """With `Drive.moves_on`, the hand's last counted result moves the drive on, whoever gave
    it: a tablet's confirmation or the director's typing (`docs/directors/drive-tablets.md`).
    Call under the drive's lock, after storing the result; True when the drive moved."""
    if not drive.moves_on or drive.status != Drive.Status.RUNNING or drive.hand != hand:
        return False
    if hand >= settings.hands:
        return False  # the last hand: the director finishes the drive
    rows = {
        row.table: row
        for row in DriveResult.objects.filter(
            drive=drive, hand=hand, status=DriveResult.Status.CONFIRMED
        )
    }
    if len(rows) < settings.tables_at(hand):
        return False
    seating = DriveSeating.objects.get(drive=drive, hand=hand).seating
    move_on(drive, settings, Seating.from_dict(seating), rows, user, why)
    return True


@transaction.atomic
def hand_next(*, drive: Drive, hand: int | None = None, user: User = None) -> Seating:
    """Move on (the director rings the bell): every table of the hand has its result; any
    still waiting for East-West's confirmation at the tablet is taken as it stands (the
    audit trail says so). The next seating is worked out from them and stored. Returns the
    new seating. `hand`, when given, is the hand the bell is rung for: a drive already past
    it (moved on by itself on the hand's last result, or a bell rung twice) stays where it is
    and the seating it plays now is returned."""
    drive = locked(drive)
    if drive.status != Drive.Status.RUNNING:
        raise DriveRefused("Only a running drive moves on to its next hand.")
    if hand is not None and drive.hand > hand:
        return seatings_of(drive)[drive.hand]
    settings = drive_settings(drive)
    if drive.hand >= settings.hands:
        raise DriveRefused(
            f"Hand {drive.hand} is the last of {settings.hands}: finish the drive instead."
        )
    seatings = seatings_of(drive)
    results = results_of(drive)
    seating = seatings[drive.hand]
    rows = results.get(drive.hand, {})
    missing = [t for t in range(1, len(seating.tables) + 1) if t not in rows]
    if missing:
        tables = ", ".join(str(t) for t in missing)
        raise DriveRefused(
            f"Hand {drive.hand}: table{'s' if len(missing) > 1 else ''} {tables} "
            f"ha{'ve' if len(missing) > 1 else 's'} no result yet. Enter "
            f"{'them' if len(missing) > 1 else 'it'} first."
        )
    waiting = sorted(t for t, row in rows.items() if row.status == DriveResult.Status.ENTERED)
    if waiting:
        DriveResult.objects.filter(pk__in=[rows[t].pk for t in waiting]).update(
            status=DriveResult.Status.CONFIRMED, confirmed_at=timezone.now()
        )
        for t in waiting:
            rows[t].status = DriveResult.Status.CONFIRMED
        listed = ", ".join(str(t) for t in waiting)
        why = f"table{'s' if len(waiting) > 1 else ''} {listed} taken as entered, unconfirmed"
        return move_on(drive, settings, seating, rows, user, why)
    return move_on(drive, settings, seating, rows, user)


def move_on(
    drive: Drive,
    settings: DriveSettings,
    seating: Seating,
    rows: Mapping[int, DriveResult],
    user: User,
    reason: str = "",
) -> Seating:
    """Work out and store the next hand's seating from the hand just completed: its seating
    and its results, every table's confirmed (the caller holds the drive's lock and has
    checked it is not the last hand). Only this hand is read and scored: the move depends on
    nothing earlier, and at hand 24 of a 1,000-player drive the earlier ones are 5,750 rows."""
    entries = {table: row.entry for table, row in rows.items()}
    assert len(entries) == len(seating.tables), "move_on needs every table's result"
    record = EngineDrive(settings).record_hand(seating, entries)
    after = EngineDrive(settings).next_seating(seating, record)
    DriveSeating.objects.create(drive=drive, hand=after.hand, seating=after.to_dict())
    if len(after.tables) > len(seating.tables):  # a late arrival opened a table
        links_ensure(drive, len(after.tables))
    drive.hand = after.hand
    drive.save(update_fields=["hand"])
    target = f"hand {after.hand}"
    audit(drive, user, "moved on to", target, after=after.to_dict(), reason=reason, moved=True)
    return after


@transaction.atomic
def result_correct(
    *,
    drive: Drive,
    hand: int,
    table: int,
    entry: Mapping[str, Any],
    reason: str = "",
    user: User = None,
) -> str:
    """Change a table's result of any hand already entered. Returns what happened, in words,
    as the audit entry says it: whether the next hand's seating was worked out again."""
    drive = locked(drive)
    if drive.status == Drive.Status.DRAFT:
        raise DriveRefused("The drive has not started: there is nothing to correct.")
    check_table(drive, hand, table)
    stored = DriveResult.objects.filter(drive=drive, hand=hand, table=table).first()
    if stored is None:
        raise DriveRefused(
            f"Table {table} has no result for hand {hand} yet: enter it instead of correcting it."
        )
    settings = drive_settings(drive)
    data = checked_entry(settings, hand, table, entry)
    if data == stored.entry:
        raise DriveRefused(
            f"Hand {hand}, table {table} already has that result: nothing to change."
        )
    before = stored.entry
    stored.entry, stored.entered_by = data, actor(user)
    stored.status, stored.confirmed_at = DriveResult.Status.CONFIRMED, timezone.now()
    stored.save(update_fields=["entry", "entered_by", "status", "confirmed_at"])
    moved = (
        hand + 1 == drive.hand
        and not DriveResult.objects.filter(drive=drive, hand=drive.hand).exists()
    )
    changed = False
    if moved:
        seatings = seatings_of(drive)
        record = hand_records(settings, seatings, results_of(drive))[hand - 1]
        after = EngineDrive(settings).next_seating(seatings[hand], record)
        changed = after != seatings[drive.hand]
        DriveSeating.objects.filter(drive=drive, hand=drive.hand).update(seating=after.to_dict())
        said = f"scores changed; hand {drive.hand}'s seating worked out again" + (
            " and it changed: tell the room" if changed else " (it is the same)"
        )
    elif hand == drive.hand:
        said = "scores changed; the players have not moved yet"
    else:
        said = "scores changed only; nobody's seat changed (the players had moved on)"
    audit(
        drive,
        user,
        "correct",
        f"hand {hand} table {table}",
        before=before,
        after=data,
        reason=f"{reason} ({said})" if reason else said,
        moved=changed,
    )
    return said


@transaction.atomic
def drive_finish(*, drive: Drive, user: User = None) -> Drive:
    drive = locked(drive)
    if drive.status != Drive.Status.RUNNING:
        raise DriveRefused("Only a running drive can be finished.")
    settings = drive_settings(drive)
    played = len(hand_records(settings, seatings_of(drive), results_of(drive)))
    if played < settings.hands and not drive.cards:
        raise DriveRefused(
            f"{played} of {settings.hands} hands have every table's result: play and enter "
            "the rest, then finish."
        )
    drive.status = Drive.Status.FINISHED
    drive.save(update_fields=["status"])
    audit(drive, user, "finish", "drive", moved=True)
    return drive


@transaction.atomic
def drive_publish(*, drive: Drive, user: User = None) -> Drive:
    drive = locked(drive)
    if drive.status != Drive.Status.FINISHED:
        raise DriveRefused("Finish the drive first: only the final totals are published.")
    drive.status = Drive.Status.PUBLISHED
    drive.save(update_fields=["status"])
    audit(drive, user, "publish", "drive")
    jobs.season_play_changed("drive", drive.pk)
    return drive


@transaction.atomic
def drive_live(*, drive: Drive, live: bool, user: User = None) -> Drive:
    """Let everyone follow the totals while the drive runs (or stop it)."""
    drive = locked(drive)
    if drive.live_public != live:
        drive.live_public = live
        drive.save(update_fields=["live_public"])
        audit(drive, user, "live", "drive", after=live)
    return drive
