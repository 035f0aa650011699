"""Checking a whole drive document without writing anything: every row, and the drive it makes.

As for an event (`events.services.backup_parse`), everything is checked before the first row is
written, so a restore refuses a bad document whole, naming the first problem: each value against
its model, the settings and each seating as the engine takes them, each result as the game
writes it and at a table its hand's seating has, the hands before the current one complete, and
the totals and prizes worked out from the rows exactly as the drive's pages will work them out.

What is not checked, on purpose: that a later hand's seating follows from the results before
it. A correction made after the players moved changes scores only, never where anyone sat
(`drives.services.drives.result_correct`), so a faithful drive may hold such seatings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser

from engine.drives import Drive as EngineDrive
from engine.drives import DriveSettings, Seating, card_lines, check_seating
from engine.drives.settings import MAX_PLAYERS
from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.drives.selectors.backup import DRIVE_CHILDREN, DRIVE_FORMAT
from tournaments.drives.selectors.drives import (
    FEWEST_PLAYERS,
    hand_records,
    score_cards,
    settings_for,
)
from tournaments.kernel.backup.checks import check_ids_once, check_links, check_names
from tournaments.kernel.backup.documents import ClubBlock, ParsedDocument, parse_club
from tournaments.kernel.backup.rows import (
    MemberRef,
    UserRef,
    check_marker,
    list_in,
    load_row,
    rows_in,
)
from tournaments.kernel.backup.schema import Model, RestoreRefused


@dataclass
class ParsedDrive(ParsedDocument):
    """A checked drive document: unsaved rows, and the users they name."""

    club: ClubBlock
    drive: Drive
    players: list[DrivePlayer]
    seatings: list[DriveSeating]
    results: list[DriveResult]
    table_access: list[DriveTableAccess]
    audit: list[DriveAudit]
    user_refs: list[UserRef]
    member_refs: list[MemberRef] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.drive.name

    @property
    def title(self) -> str:
        return f"the drive {self.drive.name!r} of {self.drive.date:%d %b %Y}"

    def rows(self) -> Iterator[tuple[Model, list[Any]]]:
        """Every row by model, the drive before its rows."""
        yield Drive, [self.drive]
        for key, model in DRIVE_CHILDREN:
            yield model, list(getattr(self, key))

    def owned_by(self, importer: AuthUser | None) -> None:
        self.drive.created_by = importer

    def counts(self) -> str:
        waiting = sum(r.status == DriveResult.Status.ENTERED for r in self.results)
        return (
            f"{len(self.players)} players, {len(self.seatings)} hands seated, "
            f"{len(self.results)} results ({waiting} waiting for confirmation), "
            f"{len(self.table_access)} tablet links, {len(self.audit)} audit entries"
        )


def _rows(
    document: Any,
    key: str,
    model: Model,
    label: str,
    refs: list[UserRef],
    members: list[MemberRef] | None = None,
) -> list[Any]:
    each, where = f"The drive's {label}", "The drive document"
    return rows_in(document, key, model, each, where, refs, DRIVE_FORMAT, members)


def _settings(drive: Drive, players: int) -> DriveSettings:
    """The engine's settings for the drive, with its players counted (as if four while a
    draft has fewer, as the drive's page does); its `game` is theirs."""
    if not isinstance(drive.settings, dict):
        raise RestoreRefused(f"The drive: settings should be an object, not {drive.settings!r}.")
    if "players" in drive.settings:
        raise RestoreRefused(
            "The drive: its settings hold a number of players; a drive counts its players "
            "from its players list."
        )
    try:
        settings = settings_for(drive.settings, max(players, FEWEST_PLAYERS))
    except (ValueError, TypeError) as exc:
        raise RestoreRefused(f"The drive: its settings are refused: {exc}") from None
    # The game column is a copy of the settings' game (the services write both): the
    # settings, checked above, decide, whatever the copy says.
    drive.game = settings.game
    return settings


def _check_players(players: list[DrivePlayer]) -> None:
    numbers = sorted(p.number for p in players)
    if numbers != list(range(1, len(players) + 1)):
        raise RestoreRefused(
            f"The drive's players are numbered {numbers}: a drive numbers them from 1 without "
            "a gap or a repeat."
        )
    seen: dict[str, int] = {}
    for player in players:
        check_names(player, ("name",), f"The drive's player {player.number}")
        first = seen.setdefault(player.name.casefold(), player.number)
        if first != player.number:
            raise RestoreRefused(
                f"The drive's players {first} and {player.number} are both called "
                f"{player.name!r}: the cards and the prize list could not tell them apart."
            )


def _check_seatings(
    drive: Drive, settings: DriveSettings, rows: list[DriveSeating]
) -> dict[int, Seating]:
    """Hands 1 to the current one seated, once each, every seating as the engine checks one."""
    seatings: dict[int, Seating] = {}
    for row in rows:
        where = f"The seating of hand {row.hand}"
        if row.hand in seatings:
            raise RestoreRefused(f"{where} is in the document twice.")
        try:
            if not isinstance(row.seating, dict):
                raise ValueError(f"a seating is an object, not {row.seating!r}")
            seating = Seating.from_dict(row.seating)
            check_seating(settings, seating)
        except (ValueError, TypeError) as exc:
            raise RestoreRefused(f"{where} is not one the drive can have: {exc}") from None
        if seating.hand != row.hand:
            raise RestoreRefused(f"{where} says it is hand {seating.hand}'s.")
        seatings[row.hand] = seating
    wanted = list(range(1, drive.hand + 1))
    if sorted(seatings) != wanted:
        raise RestoreRefused(
            f"The drive is at hand {drive.hand}, so hands 1-{drive.hand} are seated; the "
            f"document seats hands {sorted(seatings) or 'none'}."
        )
    return seatings


def _check_results(
    settings: DriveSettings, seatings: dict[int, Seating], rows: list[DriveResult]
) -> dict[int, dict[int, DriveResult]]:
    """Each result at a table of a seated hand, once, its entry as the game writes it."""
    hands: dict[int, dict[int, DriveResult]] = {}
    rules = settings.game_rules
    for row in rows:
        where = f"The result of hand {row.hand} at table {row.table}"
        seating = seatings.get(row.hand)
        if seating is None:
            raise RestoreRefused(f"{where}: hand {row.hand} has no seating in the document.")
        if not 1 <= row.table <= len(seating.tables):
            raise RestoreRefused(f"{where}: that hand's tables are 1 to {len(seating.tables)}.")
        if row.table in hands.get(row.hand, {}):
            raise RestoreRefused(f"{where} is in the document twice.")
        try:
            if not isinstance(row.entry, dict):
                raise TypeError(f"a result is the game's fields, not {row.entry!r}")
            score = rules.score(row.entry)
            assert score.entry is not None
            written = rules.rules.entry_to_dict(score.entry)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise RestoreRefused(f"{where}: the game refuses it: {exc}") from None
        if written != row.entry:
            raise RestoreRefused(
                f"{where}: {row.entry!r} is not as the game writes it ({written!r})."
            )
        hands.setdefault(row.hand, {})[row.table] = row
    return hands


def _check_play(
    drive: Drive,
    settings: DriveSettings,
    seatings: dict[int, Seating],
    results: dict[int, dict[int, DriveResult]],
    names: dict[int, str],
) -> None:
    """The hands the status says are played, played: every hand before the current one
    complete (the drive moved on from it), all of them once it is finished; and the totals
    and prizes worked out as the drive's pages work them out (`drives.selectors.drives`)."""
    try:
        records = hand_records(settings, seatings, results)
        engine = EngineDrive(settings)
        engine.standings(records)
        if records and len(records) >= settings.break_after:
            engine.prizes(records, seed=drive.seed, names=names)
    except (ValueError, TypeError, KeyError) as exc:
        raise RestoreRefused(
            f"The drive's totals cannot be worked out from its rows: {exc}"
        ) from None
    if drive.cards:  # scored from the players' score cards: no hand was entered
        if results:
            raise RestoreRefused(
                "The drive has both hands' results and score cards: it is scored one way."
            )
        try:
            card_lines(settings, seatings[min(seatings)], score_cards(drive.cards))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise RestoreRefused(f"The drive's score cards cannot be read: {exc}") from None
        return
    wanted = settings.hands if drive.status != Drive.Status.RUNNING else drive.hand - 1
    if len(records) < wanted:
        raise RestoreRefused(
            f"The drive is {drive.status} at hand {drive.hand}, but only {len(records)} "
            f"hand(s) have every table's result: it needs {wanted}."
        )


def parse_drive(document: Any) -> ParsedDrive:
    """Check a whole drive document without writing anything; the first problem found is a
    `RestoreRefused` naming it."""
    check_marker(document, DRIVE_FORMAT, "drive document")
    for key in ("club", "drive", *(key for key, _ in DRIVE_CHILDREN)):
        if key not in document:
            raise RestoreRefused(f"The drive document has no {key!r}: it is not complete.")
    refs: list[UserRef] = []
    linked: list[MemberRef] = []
    club = parse_club(document["club"], DRIVE_FORMAT)
    drive: Drive = load_row(Drive, document["drive"], "The drive", users=refs, fmt=DRIVE_FORMAT)
    check_names(drive, ("name",), "The drive")
    listed = len(list_in(document, "players", "The drive document"))
    if listed > MAX_PLAYERS:  # before any player is read or a seating checked
        raise RestoreRefused(
            f"The drive has {listed} players; a drive takes at most {MAX_PLAYERS}. It was not "
            "written by clubwhist: export the drive again."
        )
    players: list[DrivePlayer] = _rows(document, "players", DrivePlayer, "player", refs, linked)
    _check_players(players)
    settings = _settings(drive, len(players))
    seating_rows: list[DriveSeating] = _rows(document, "seatings", DriveSeating, "seating", refs)
    result_rows: list[DriveResult] = _rows(document, "results", DriveResult, "result", refs)
    if drive.status == Drive.Status.DRAFT:
        if drive.hand or seating_rows or result_rows:
            raise RestoreRefused(
                "The drive is a draft, yet it has a hand under way, seatings or results: a "
                "draft is at hand 0 with none."
            )
        seatings: dict[int, Seating] = {}
        results: dict[int, dict[int, DriveResult]] = {}
    else:
        if len(players) < FEWEST_PLAYERS:
            raise RestoreRefused(
                f"The drive has started with {len(players)} players: a drive needs at least "
                f"{FEWEST_PLAYERS}."
            )
        if not 1 <= drive.hand <= settings.hands:
            raise RestoreRefused(
                f"The drive is at hand {drive.hand}; its hands are 1 to {settings.hands}."
            )
        seatings = _check_seatings(drive, settings, seating_rows)
        results = _check_results(settings, seatings, result_rows)
        names = {p.number: p.name for p in players}
        _check_play(drive, settings, seatings, results, names)
    links: list[DriveTableAccess] = _rows(
        document, "table_access", DriveTableAccess, "tablet link", refs
    )
    # Late arrivals can open a table after the first hand: the most tables of any hand.
    tables = max(settings.tables_at(hand) for hand in range(1, settings.hands + 1))
    check_links(links, "The drive", tables, f"the drive has tables 1-{tables}")
    audit: list[DriveAudit] = _rows(document, "audit", DriveAudit, "audit entry", refs)
    parsed = ParsedDrive(
        club, drive, players, seating_rows, result_rows, links, audit, refs, linked
    )
    check_ids_once(parsed.rows(), "the drive document")
    return parsed
