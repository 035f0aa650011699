"""Reading a drive: its settings as the engine's, the seatings and results, totals and prizes.

Every figure is worked out again from the stored rows by the engine (`engine.drives`), never
kept: the totals after a correction are simply the totals of the rows as they now are.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from engine.drives import (
    DUMMY,
    Award,
    CardTotal,
    DriveSettings,
    HandRecord,
    PlayerTotal,
    Seating,
    TableScore,
)
from engine.drives import (
    Drive as EngineDrive,
)
from engine.drives.model import role_of_index, seat_of_index
from engine.drives.prizes import award_prizes, show
from engine.drives.totals import card_lines
from engine.games.entry import Score
from tournaments.drives.access import directs_drive, drives_for
from tournaments.drives.models import Drive, DriveAudit, DrivePlayer, DriveResult, DriveSeating
from tournaments.kernel.member_links import shown_player

#: Before four players are listed, a new drive's other settings are checked as if for four.
FEWEST_PLAYERS = 4


def settings_for(data: Mapping[str, Any], players: int) -> DriveSettings:
    """The engine's settings from the stored ones and a number of players (DriveError if the
    engine refuses them, naming the setting). Kept per process: every tablet request asks for
    them, and checking them (the game's rules set up for the drive) takes milliseconds; they
    are frozen, so sharing them is safe."""
    return _settings(json.dumps(data, sort_keys=True), players)


@functools.lru_cache(maxsize=256)
def _settings(data: str, players: int) -> DriveSettings:
    return DriveSettings.from_dict({**json.loads(data), "players": players})


def drive_settings(drive: Drive) -> DriveSettings:
    """The drive's settings for its players. Once it has started its players are fixed, so
    their number is kept per process (every tablet request asks), keyed by the drive's id and
    creation time (a database restored afresh numbers its drives from 1 again)."""
    # A late arrival adds a player to a running drive, and one to the stored arrivals: the
    # number of arrivals in the key makes every process count the players again.
    key = (drive.pk, drive.created_at, len(drive.settings.get("arrivals") or ()))
    count = _PLAYER_COUNTS.get(key) if drive.status != Drive.Status.DRAFT else None
    if count is None:
        count = drive.players.count()
        if drive.status != Drive.Status.DRAFT:
            _PLAYER_COUNTS[key] = count
    return settings_for(drive.settings, count)


_PLAYER_COUNTS: dict[tuple[int, Any, int], int] = {}


def drives_visible(user: Any) -> QuerySet[Drive]:
    """The drives on the home page: the account's clubs' drives, else the public ones."""
    if getattr(user, "is_authenticated", False):
        return drives_for(user).select_related("club")[:100]
    return public_drives()[:100]


def public_drives() -> QuerySet[Drive]:
    return Drive.objects.filter(status=Drive.Status.PUBLISHED).select_related("club")


def player_names(drive: Drive, *, public: bool = False) -> dict[int, str]:
    """The drive's players by number, as typed; `public`: as a member of the public (or a
    player at a table) reads them, a linked member by their chosen shown name."""
    players = DrivePlayer.objects.filter(drive=drive)
    if not public:
        return dict(players.values_list("number", "name"))
    return public_names(players)


def public_names(players: QuerySet[DrivePlayer]) -> dict[int, str]:
    """`players` by number under the names a public page shows (`shown_player`)."""
    return {p.number: shown_player(p.name, p.member) for p in players.select_related("member")}


def seatings_of(drive: Drive) -> dict[int, Seating]:
    return {
        row.hand: Seating.from_dict(row.seating)
        for row in DriveSeating.objects.filter(drive=drive).order_by("hand")
    }


def results_of(drive: Drive) -> dict[int, dict[int, DriveResult]]:
    """Each hand's results by table."""
    hands: dict[int, dict[int, DriveResult]] = {}
    for row in DriveResult.objects.filter(drive=drive).order_by("hand", "table"):
        hands.setdefault(row.hand, {})[row.table] = row
    return hands


def hand_records(
    settings: DriveSettings,
    seatings: Mapping[int, Seating],
    results: Mapping[int, Mapping[int, DriveResult]],
) -> list[HandRecord]:
    """The hands played in full, in order, scored by the engine (a hand still missing a table's
    confirmed result ends the list: totals count complete hands only, and a result entered at
    a tablet counts once the other side has confirmed it)."""
    engine = EngineDrive(settings)
    records = []
    for hand in sorted(seatings):
        seating = seatings[hand]
        entries = {
            table: row.entry
            for table, row in results.get(hand, {}).items()
            if row.status == DriveResult.Status.CONFIRMED
        }
        if len(entries) < len(seating.tables):
            break
        records.append(engine.record_hand(seating, entries))
    return records


@dataclass(frozen=True)
class SeatView:
    seat: str
    role: str
    player: int
    name: str


@dataclass(frozen=True)
class TableView:
    """One table of one hand: its four seats, and its result if entered (`done` once it counts:
    confirmed by the other side, or entered by the director)."""

    number: int
    seats: tuple[SeatView, ...]
    result: DriveResult | None
    text: str

    @property
    def entered(self) -> bool:
        return self.result is not None

    @property
    def done(self) -> bool:
        return self.result is not None and self.result.status == DriveResult.Status.CONFIRMED

    @property
    def waiting(self) -> bool:
        """Entered at the tablet, not yet confirmed by East-West."""
        return self.entered and not self.done


@dataclass(frozen=True)
class HandView:
    hand: int
    trumps: str
    tables: tuple[TableView, ...]
    sitting_out: tuple[SeatView, ...]

    @property
    def done(self) -> int:
        return sum(table.done for table in self.tables)

    @property
    def entered(self) -> int:
        return sum(table.entered for table in self.tables)

    @property
    def complete(self) -> bool:
        return self.done == len(self.tables)

    @property
    def all_entered(self) -> bool:
        """Every table has a result, confirmed or not: the director may move on (ring the
        bell), which confirms those still waiting."""
        return self.entered == len(self.tables)


@dataclass(frozen=True)
class TotalLine:
    place: int
    player: int
    name: str
    role: str
    total: str
    first_half: str
    second_half: str
    ten_plus: int
    sat_out: int
    #: "came for hand 5", "left after hand 12": a card that does not cover the whole evening.
    note: str = ""


def result_text(score: TableScore) -> str:
    """A table's result in words: "NS 9 tricks, EW 4 (NS 3, EW 0)"."""
    points = f"NS {show(score.ns)}, EW {show(score.ew)}"
    if score.ns_tricks is None:
        return points
    return f"NS {score.ns_tricks} tricks, EW {score.ew_tricks} ({points})"


def hand_view(
    settings: DriveSettings,
    seating: Seating,
    results: Mapping[int, DriveResult],
    names: Mapping[int, str],
) -> HandView:
    game = settings.game_rules

    def seat(player: int, index: int) -> SeatView:
        label = settings.role_label(role_of_index(index))
        name = "dummy" if player == DUMMY else names.get(player, str(player))
        return SeatView(str(seat_of_index(index)), label, player, name)

    tables = []
    for number, table in enumerate(seating.tables, start=1):
        row = results.get(number)
        text = result_text(game.score(row.entry)) if row is not None else ""
        seats = tuple(seat(player, i) for i, player in enumerate(table))
        tables.append(TableView(number, seats, row, text))
    bench = tuple(
        SeatView("out", settings.role_label(role), player, names.get(player, str(player)))
        for player, role in zip(seating.bench, seating.bench_roles, strict=True)
        if player != DUMMY
    )
    return HandView(
        seating.hand, EngineDrive(settings).trumps_text(seating.hand), tuple(tables), bench
    )


@dataclass(frozen=True)
class DriveState:
    """Everything the drive's pages and API show: settings, players, the hand being played,
    the hands before it, the totals and the prizes as they stand."""

    drive: Drive
    settings: DriveSettings | None
    problem: str
    names: dict[int, str]
    current: HandView | None
    earlier: tuple[HandView, ...]
    records: tuple[HandRecord, ...]
    lines: tuple[TotalLine, ...]
    awards: tuple[Award, ...]
    #: The engine's totals the lines were made from (from the hands, or the score cards).
    standings: tuple[PlayerTotal, ...] = ()

    @property
    def hands_played(self) -> int:
        return len(self.records)

    @property
    def on_paper(self) -> bool:
        """Scored from the players' own score cards: no hand was entered, every hand counts."""
        return bool(self.drive.cards)

    @property
    def hands_counted(self) -> int:
        """The hands the totals cover: every hand on paper, else the complete ones."""
        if self.on_paper and self.settings is not None:
            return self.settings.hands
        return self.hands_played

    @property
    def shows_ten_plus(self) -> bool:
        """Whether the totals show the hands of 10 or more tricks: only for a prize that
        counts them (a column of noughts, or of figures never typed from a card, says
        nothing)."""
        prizes = self.settings.prizes if self.settings is not None else None
        return any(prize.kind == "ten_plus" for prize in prizes or ())

    @property
    def first_halves_known(self) -> bool:
        """Whether the first half's figures are known: from the hands once the first half is
        complete, or typed from every score card."""
        if self.settings is None or not self.settings.break_after:
            return False
        if self.on_paper:
            return all(card.get("first_half") is not None for card in self.drive.cards.values())
        return self.hands_played >= self.settings.break_after

    @property
    def has_bench(self) -> bool:
        """Whether anyone sits out at some hand (late arrivals and leavers can change it)."""
        settings = self.settings
        if settings is None:
            return False
        if settings.whole_evening:
            return bool(settings.bench_size)
        return any(settings.bench_at(hand) for hand in range(1, settings.hands + 1))

    @property
    def staying(self) -> tuple[tuple[int, str], ...]:
        """The players who have not gone home (number, name), for the "leaves" form."""
        if self.settings is None:
            return ()
        settings = self.settings
        return tuple(
            (number, name)
            for number, name in sorted(self.names.items())
            if settings.left(number) is None
        )

    @property
    def comings(self) -> tuple[str, ...]:
        """Who came late and who went home early, in words, for the director's page."""
        if self.settings is None or self.settings.whole_evening:
            return ()
        settings = self.settings
        words = [
            f"{self.names.get(p, p)} came for hand {hand}" for p, hand in settings.arrivals
        ] + [
            f"{self.names.get(p, p)} left after hand {hand}"
            if hand
            else f"{self.names.get(p, p)} left before hand 1"
            for p, hand in settings.departures
        ]
        return tuple(words)

    @property
    def can_advance(self) -> bool:
        assert self.settings is not None or self.current is None
        return (
            self.drive.status == Drive.Status.RUNNING
            and self.current is not None
            and self.current.all_entered
            and self.settings is not None
            and self.current.hand < self.settings.hands
        )

    @property
    def can_finish(self) -> bool:
        return (
            self.drive.status == Drive.Status.RUNNING
            and self.settings is not None
            and (self.hands_played == self.settings.hands or bool(self.drive.cards))
        )


def total_lines(
    settings: DriveSettings, lines: tuple[PlayerTotal, ...], names: Mapping[int, str]
) -> tuple[TotalLine, ...]:
    """The standings with names and places (equal totals share a place)."""
    out = []
    place = 0
    previous: object = None
    for index, line in enumerate(lines, start=1):
        if line.total != previous:
            place, previous = index, line.total
        out.append(
            TotalLine(
                place,
                line.player,
                names.get(line.player, str(line.player)),
                settings.role_label(line.role),
                show(line.total),
                show(line.first_half),
                show(line.second_half),
                line.ten_plus,
                line.sat_out,
                _note(line),
            )
        )
    return tuple(out)


def _note(line: PlayerTotal) -> str:
    words = []
    if line.joined > 1:
        words.append(f"came for hand {line.joined}")
    if line.left is not None:
        words.append(f"left after hand {line.left}")
    return ", ".join(words)


def drive_state(drive: Drive, *, public: bool = False) -> DriveState:
    """The drive as its pages show it. A draft whose settings the engine refuses for the
    players listed (fewer than four, say) has no settings and a `problem` saying why.
    `public`: the players named as the public reads them (`player_names`)."""
    names = player_names(drive, public=public)
    try:
        settings = settings_for(drive.settings, max(len(names), FEWEST_PLAYERS))
        if len(names) >= FEWEST_PLAYERS:
            settings = settings_for(drive.settings, len(names))
        problem = "" if len(names) >= FEWEST_PLAYERS else "A drive needs at least four players."
    except ValueError as exc:
        return DriveState(drive, None, str(exc), names, None, (), (), (), ())
    seatings = seatings_of(drive)
    results = results_of(drive)
    if not seatings:
        return DriveState(drive, settings, problem, names, None, (), (), (), ())
    records = tuple(hand_records(settings, seatings, results))
    views = [hand_view(settings, seatings[h], results.get(h, {}), names) for h in sorted(seatings)]
    current = views[-1]
    engine = EngineDrive(settings)
    if drive.cards:
        # Played on paper, totals typed from the players' score cards: no hand is known.
        standings = card_lines(settings, seatings[min(seatings)], score_cards(drive.cards))
        awards = award_prizes(settings, standings, seed=drive.seed, names=names)
        lines = total_lines(settings, standings, names)
        return DriveState(
            drive, settings, problem, names, current, tuple(views[:-1]), (), lines, awards,
            standings,
        )  # fmt: skip
    standings = engine.standings(records, first=seatings[min(seatings)])
    # Provisional prizes from half-time on: before it a first-half prize has no ranking yet
    # (and the engine's count-back expects every first-half hand to be played).
    ready = records and len(records) >= settings.break_after
    awards = engine.prizes(records, seed=drive.seed, names=names) if ready else ()
    lines = total_lines(settings, standings, names)
    return DriveState(
        drive, settings, problem, names, current, tuple(views[:-1]), records, lines, awards,
        tuple(standings),
    )  # fmt: skip


def score_cards(data: Mapping[str, Any]) -> dict[int, CardTotal]:
    """The stored score-card figures (`Drive.cards`, checked when entered) as the engine's."""
    return {
        int(player): CardTotal(
            _score(card["total"]),
            None if card.get("first_half") is None else _score(card["first_half"]),
            None if card.get("ten_plus") is None else int(card["ten_plus"]),
        )
        for player, card in data.items()
    }


def _score(text: Any) -> Score:
    value = Fraction(str(text))
    return int(value) if value.denominator == 1 else value


def readable_drive(user: Any, pk: int) -> Drive:
    """The drive `pk` for its public page: public ones for everyone, the club's own for its
    directors (to check before publishing); 404 otherwise."""
    drive = Drive.objects.select_related("club").filter(pk=pk).first()
    if drive is None or not (drive.is_public or directs_drive(user, drive)):
        raise Http404("No published drive here.")
    return drive


def audit_of(drive: Drive) -> QuerySet[DriveAudit]:
    return DriveAudit.objects.filter(drive=drive).select_related("user")
