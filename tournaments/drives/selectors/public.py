"""Reading a drive for its public pages: half-time leaders, totals by role, each player's card.

Everything comes from `drive_state` (the stored rows worked out again by the engine), so the
public page, the big screen and a player's card can never disagree with the director's totals:
they only choose and arrange what the engine already says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.drives import DUMMY, DriveSettings, HandRecord, PlayerTotal, Role, Seating
from engine.drives import Drive as EngineDrive
from engine.drives.model import SEAT_INDEX, side_of_index
from engine.drives.prizes import show
from engine.games.entry import Score
from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import (
    DriveState,
    HandView,
    TotalLine,
    drive_state,
    seatings_of,
    total_lines,
)

#: Places shown as the half-time leaders (more lines when players tie for them) ...
LEADERS = 5
#: ... but never more lines than this: a long tie is summed up instead of listed.
MOST_LEADER_LINES = 10
#: Lines of each table on the big screen: what a 1280x720 screen shows in large type.
SCREEN_LINES = 10
#: Seconds between two fetches of a running drive's live part (the page and the big screen).
REFRESH_SECONDS = 20

#: The labels a drive has when its club names no roles (the engine's default,
#: `DriveSettings.roles`): seats, not prizes, so no role tables.
NEUTRAL_ROLES: tuple[str, str] = ("A", "B")


@dataclass(frozen=True)
class LeaderLine:
    """One line of the half-time leaders: the place on the first half's total."""

    place: int
    player: int
    name: str
    role: str
    first_half: str


@dataclass(frozen=True)
class HalfTime:
    """The half-time leaders once every hand of the first half is complete; until then how
    many hands are still to come before they are known."""

    break_after: int
    played: int
    leaders: tuple[LeaderLine, ...]
    #: Players tied with the last place shown but left off (a long tie).
    more: int

    @property
    def complete(self) -> bool:
        return self.played >= self.break_after

    @property
    def to_go(self) -> int:
        return max(0, self.break_after - self.played)


@dataclass(frozen=True)
class RoleTable:
    """The totals of the players of one role, placed among themselves (a prize per role)."""

    role: str
    label: str
    lines: tuple[TotalLine, ...]


@dataclass(frozen=True)
class PublicDrive:
    """What the drive's public page and its big screen show."""

    state: DriveState
    half_time: HalfTime | None
    roles: tuple[RoleTable, ...]

    @property
    def drive(self) -> Drive:
        return self.state.drive

    @property
    def running(self) -> bool:
        return self.drive.status == Drive.Status.RUNNING

    @property
    def hands(self) -> int:
        return self.state.settings.hands if self.state.settings else 0

    @property
    def playing(self) -> HandView | None:
        """The hand at the tables now: seated while the drive runs and not yet complete."""
        current = self.state.current
        if not self.running or current is None or current.complete or self.state.on_paper:
            return None
        return current

    @property
    def has_bench(self) -> bool:
        """Whether anyone sits out at some hand (late arrivals and leavers can change it)."""
        return self.state.has_bench

    @property
    def refresh(self) -> int:
        return refresh_seconds(self.drive)

    @property
    def screen_totals(self) -> tuple[TotalLine, ...]:
        """The top of the totals for the big screen."""
        return self.state.lines[:SCREEN_LINES]

    @property
    def screen_roles(self) -> tuple[RoleTable, ...]:
        """The top of each role's totals for the big screen."""
        return tuple(replace(table, lines=table.lines[:SCREEN_LINES]) for table in self.roles)

    @property
    def screen_columns(self) -> int:
        """The big screen's columns: a role's totals each (or all the totals), and the
        half-time leaders."""
        return max(1, len(self.roles)) + (1 if self.half_time else 0)


def refresh_seconds(drive: Drive) -> int:
    """Seconds between fetches of a page's live part; 0 once nothing changes any more."""
    return REFRESH_SECONDS if drive.status == Drive.Status.RUNNING else 0


def has_roles(settings: DriveSettings) -> bool:
    """A drive has roles worth their own tables when the club named them (Lady and Gent, not
    the neutral A and B) or gives a prize to one role."""
    named = tuple(label.lower() for label in settings.roles) != tuple(
        label.lower() for label in NEUTRAL_ROLES
    )
    return named or any(prize.role is not None for prize in settings.prizes or ())


def first_half_ranking(lines: Sequence[PlayerTotal]) -> list[PlayerTotal]:
    """Every player by the first half's total, highest first (ties by number, as the totals:
    the prizes break ties, the tables only list)."""
    return sorted(lines, key=lambda line: (-line.first_half, line.player))


def half_time(
    settings: DriveSettings,
    standings: Sequence[PlayerTotal],
    played: int,
    names: Mapping[int, str],
) -> HalfTime | None:
    """The half-time leaders from the engine's `standings` after `played` complete hands
    (None: the drive has no break)."""
    if not settings.break_after:
        return None
    if played < settings.break_after:
        return HalfTime(settings.break_after, played, (), 0)
    ranking = first_half_ranking(standings)
    placed = _placed(ranking, lambda line: line.first_half)
    shown = [(place, line) for place, line in placed if place <= LEADERS]
    kept = shown[:MOST_LEADER_LINES]
    leaders = tuple(
        LeaderLine(
            place,
            line.player,
            names.get(line.player, str(line.player)),
            settings.role_label(line.role),
            show(line.first_half),
        )
        for place, line in kept
    )
    return HalfTime(settings.break_after, played, leaders, len(shown) - len(kept))


def _placed(
    lines: Sequence[PlayerTotal], measure: Callable[[PlayerTotal], Score]
) -> list[tuple[int, PlayerTotal]]:
    """Each line with its place on `measure` (equal figures share a place)."""
    out = []
    place, previous = 0, None
    for index, line in enumerate(lines, start=1):
        if measure(line) != previous:
            place, previous = index, measure(line)
        out.append((place, line))
    return out


def role_tables(
    settings: DriveSettings, lines: Sequence[PlayerTotal], names: Mapping[int, str]
) -> tuple[RoleTable, ...]:
    """A table of totals per role, each placed within the role; none where the drive has no
    roles worth telling apart (`has_roles`)."""
    if not has_roles(settings):
        return ()
    return tuple(
        RoleTable(
            role.value,
            settings.role_label(role),
            total_lines(settings, tuple(line for line in lines if line.role is role), names),
        )
        for role in Role
    )


def public_drive(drive: Drive) -> PublicDrive:
    """The drive's public page and big screen: its state, the half-time leaders and the role
    tables (the engine's standings worked out once for both). Players are named as the
    public reads them (a member by their chosen shown name)."""
    state = drive_state(drive, public=True)
    settings = state.settings
    if settings is None:
        return PublicDrive(state, None, ())
    standings = state.standings if (state.records or state.on_paper) else ()
    shown_half = half_time(settings, standings, state.hands_counted, state.names)
    if state.on_paper and not state.first_halves_known:
        shown_half = None  # the score cards were typed without their first halves
    return PublicDrive(
        state,
        shown_half,
        role_tables(settings, standings, state.names) if standings else (),
    )


# ---- a player's card ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    """One hand of a player's card, as the printed score card has it filled in."""

    hand: int
    trumps: str
    table: int | None  # None: sitting out
    seat: str
    role: str
    partner: str
    opponents: str
    tricks: str  # the player's side's tricks ("" where the game counts none)
    outcome: str  # won, lost, sat out; "" while the hand is being played
    points: str
    running: str
    playing: bool = False


@dataclass(frozen=True)
class PlayerCard:
    """A player's card: every hand so far, the half-time and final figures, and the place."""

    number: int
    name: str
    role: str
    rows: tuple[CardRow, ...]
    line: TotalLine | None  # the player's line of the totals (None before a hand is complete)
    break_after: int
    hands: int
    #: The game's adjustment to the total (Candid Whist's bag penalty), "" when there is none.
    adjustment: str

    @property
    def half_time(self) -> str:
        """The engine's first-half figure (the half prizes' measure), not a sum made here."""
        return self.line.first_half if self.line else ""


def _name(player: int, names: Mapping[int, str]) -> str:
    """A seat's occupant as a card names them: a three-handed table's dummy is "dummy"."""
    return "dummy" if player == DUMMY else names.get(player, str(player))


def card_row(
    settings: DriveSettings,
    seating: Seating,
    player: int,
    names: Mapping[int, str],
    record: HandRecord | None,
    running: Score,
) -> CardRow:
    """A hand's row: where the player sat and with whom, and, once the hand is complete, what
    their side made of it and the running total after it."""
    trumps = EngineDrive(settings).trumps_text(seating.hand)
    place = seating.place(player)
    total = show(running) if record else ""
    points = show(record.points[player]) if record else ""
    if player not in seating:
        # Not there for this hand: not come yet (the drive's rule scores the hand), or gone
        # home (the card is closed: nothing more).
        gone = settings.left(player) is not None and seating.hand > (settings.left(player) or 0)
        return CardRow(
            hand=seating.hand,
            trumps=trumps,
            table=None,
            seat="–",
            role="",
            partner="–",
            opponents="–",
            tricks="–",
            outcome="left: card closed" if gone else "not come yet",
            points=points,
            running=total,
            playing=False,
        )
    role = settings.role_label(seating.role(player))
    if place is None:
        outcome = "sat out" if record else "sitting out"
        return CardRow(
            hand=seating.hand,
            trumps=trumps,
            table=None,
            seat="out",
            role=role,
            partner="–",
            opponents="–",
            tricks="–",
            outcome=outcome,
            points=points,
            running=total,
            playing=record is None,
        )
    table = seating.tables[place.table - 1]
    index = SEAT_INDEX[place.seat]
    partner = _name(table[index ^ 2], names)
    opponents = " and ".join(_name(table[i], names) for i in (index ^ 1, index ^ 3))
    tricks = outcome = ""
    if record is not None:
        score = record.scores[place.table - 1]
        side = side_of_index(index)
        taken = score.side_tricks(side)
        tricks = "" if taken is None else str(taken)
        outcome = "won" if score.winners is side else "lost"
    return CardRow(
        hand=seating.hand,
        trumps=trumps,
        table=place.table,
        seat=str(place.seat),
        role=role,
        partner=partner,
        opponents=opponents,
        tricks=tricks,
        outcome=outcome,
        points=points,
        running=total,
        playing=record is None,
    )


def player_card(state: DriveState, number: int) -> PlayerCard | None:
    """Player `number`'s card (None: the drive has no such player)."""
    if number not in state.names:
        return None
    name = state.names[number]
    line = next((line for line in state.lines if line.player == number), None)
    settings = state.settings
    if settings is None or state.current is None or state.on_paper:
        # Not started: nothing yet. On paper the card is the player's own: their figures as
        # typed from it, and no hand (none was entered).
        hands = settings.hands if settings else 0
        break_after = settings.break_after if settings else 0
        role = line.role if line and state.on_paper else ""
        return PlayerCard(
            number, name, role, (), line if state.on_paper else None, break_after, hands, ""
        )
    seatings = seatings_of(state.drive)
    rows = []
    running: Score = 0
    for hand in sorted(seatings):
        record = state.records[hand - 1] if hand <= len(state.records) else None
        if record is None and state.drive.status != Drive.Status.RUNNING:
            break
        if record is not None:
            running += record.points[number]
        rows.append(card_row(settings, seatings[hand], number, state.names, record, running))
    adjustment = ""
    if state.records:  # the standings the state worked out once
        totals = {total.player: total for total in state.standings}
        if totals[number].adjustment:
            adjustment = show(totals[number].adjustment)
    first = next((seatings[h] for h in sorted(seatings) if number in seatings[h]), None)
    role = line.role if line else (settings.role_label(first.role(number)) if first else "")
    return PlayerCard(
        number, name, role, tuple(rows), line, settings.break_after, settings.hands, adjustment
    )


def drive_card(drive: Drive, number: int) -> tuple[DriveState, PlayerCard | None]:
    """The drive as it stands and player `number`'s card: the page shows both (the place is
    out of how many, the status line), so the state is read once for the two. Players are
    named as the public reads them."""
    state = drive_state(drive, public=True)
    return state, player_card(state, number)
