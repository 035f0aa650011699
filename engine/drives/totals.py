"""Each player's score card: a hand's points for everyone, and the running totals.

A player scores their side's points at the table (the game's rules say what they are); a player
sitting out scores the drive's sit-out score: a fixed number of tricks scored as the game scores
them (seven by default), or the average of what the players who played that hand scored, kept as
an exact fraction. The dummy scores nothing. The totals keep every hand's points, so a tie can be
broken by count-back, and the half-time figures, and the hands on which a player's side took 10
or more tricks.

>>> from engine.drives.seating import placed_seating
>>> from engine.drives.settings import DriveSettings
>>> settings = DriveSettings(players=5, hands=2, sit_out_score="average", scoring="tricks")
>>> seating = placed_seating(settings, [(1, 2, 3, 4)], [5])
>>> record = record_hand(settings, seating, {1: {"ns_tricks": 10}})
>>> record.points[1:], sorted(record.big)
((10, 3, 10, 3, Fraction(13, 2)), [1, 3])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine import EngineError
from engine.cards import Side
from engine.drives.game import TableScore
from engine.drives.model import DUMMY, DriveError, Role, side_of_index
from engine.drives.seating import Seating
from engine.drives.settings import DriveSettings
from engine.games import Entry
from engine.games.entry import Score
from engine.reading import quoted

__all__ = ["BIG_HAND", "HandRecord", "PlayerTotal", "Totals", "record_hand", "standings"]

#: A hand on which a player's side took this many tricks or more counts for the prize for
#: "most hands with 10 or more tricks".
BIG_HAND = 10

Result = Mapping[str, object] | Entry | TableScore


@dataclass(frozen=True)
class HandRecord:
    """One hand as played: the seating, each table's score, each player's points (indexed by
    player number; index 0 unused) and who took 10 or more tricks."""

    hand: int
    seating: Seating
    scores: tuple[TableScore, ...]
    points: tuple[Score, ...]
    big: frozenset[int]
    sit_out_points: Score

    @property
    def winners(self) -> tuple[Side, ...]:
        return tuple(score.winners for score in self.scores)


def record_hand(
    settings: DriveSettings, seating: Seating, results: Mapping[int, Result]
) -> HandRecord:
    """Score a hand from each table's result (by table number, from 1), as the game takes it:
    `{1: {"ns_tricks": 8}, 2: {"ns_tricks": 5}}`."""
    game = settings.game_rules
    count = len(seating.tables)
    extra = sorted(set(results) - set(range(1, count + 1)), key=str)
    if extra:
        raise DriveError(f"hand {seating.hand}: there is no table {quoted(extra[0])}")
    points: list[Score] = [0] * (settings.players + 1)
    big: set[int] = set()
    scores = []
    played: Score = 0
    players = 0
    for t, table in enumerate(seating.tables, start=1):
        if t not in results:
            raise DriveError(f"hand {seating.hand}: table {t} has no result yet")
        try:
            score = game.score(results[t])
        except EngineError as exc:
            raise DriveError(f"hand {seating.hand}, table {t}: {exc}") from None
        scores.append(score)
        for i, player in enumerate(table):
            if player == DUMMY:
                continue
            side = side_of_index(i)
            points[player] = score.points(side)
            played += points[player]
            players += 1
            tricks = score.side_tricks(side)
            if tricks is not None and tricks >= BIG_HAND:
                big.add(player)
    if settings.sit_out_score == "fixed":
        sit_out = game.points_for_tricks(settings.sit_out_tricks)
    else:
        sit_out = _exact(Fraction(played) / players)
    for player in seating.sitting_out:
        points[player] = sit_out
    if not settings.whole_evening:
        late = _late_points(settings, seating, points, Fraction(played) / players)
        for player in range(1, settings.players + 1):
            if settings.joined(player) > seating.hand:
                points[player] = late
    points[DUMMY] = 0
    return HandRecord(seating.hand, seating, tuple(scores), tuple(points), frozenset(big), sit_out)


def _late_points(
    settings: DriveSettings, seating: Seating, points: Sequence[Score], average: Fraction
) -> Score:
    """What a player who came later scores for this hand (`late_score`): nothing, the lowest
    score of a player at a table, or the average of those at the tables. A player who left
    scores nothing for the hands after they went: their card is closed."""
    if settings.late_score == "lowest":
        return min(points[p] for table in seating.tables for p in table if p != DUMMY)
    if settings.late_score == "average":
        return _exact(average)
    return 0


def _exact(value: Fraction) -> Score:
    return value.numerator if value.denominator == 1 else value


@dataclass(frozen=True)
class Totals:
    """The running totals after `hands` hands, each indexed by player number.

    `history` holds every hand's points and `big_history` its 10-trick players, for
    count-back; `played` and `sat_out` count hands at a table and on the bench.
    """

    players: int
    break_after: int
    hands: int
    total: tuple[Score, ...]
    first_half: tuple[Score, ...]
    ten_plus: tuple[int, ...]
    played: tuple[int, ...]
    history: tuple[tuple[Score, ...], ...] = ()
    big_history: tuple[frozenset[int], ...] = ()

    @classmethod
    def start(cls, settings: DriveSettings) -> Totals:
        zeros: tuple[int, ...] = (0,) * (settings.players + 1)
        return cls(settings.players, settings.break_after, 0, zeros, zeros, zeros, zeros)

    def add(self, record: HandRecord) -> Totals:
        """The totals with the next hand added (hands come in order, each once)."""
        if record.hand != self.hands + 1:
            raise DriveError(
                f"hand {record.hand} comes after hand {record.hand - 1}, "
                f"but the totals stop at hand {self.hands}"
            )
        points = record.points
        total = tuple(a + b for a, b in zip(self.total, points, strict=True))
        first = total if record.hand <= self.break_after else self.first_half
        ten = self.ten_plus
        if record.big:
            ten = tuple(n + (p in record.big) for p, n in enumerate(ten))
        seating = record.seating
        played = tuple(
            n + (p in seating and seating.place(p) is not None) for p, n in enumerate(self.played)
        )
        return Totals(
            self.players,
            self.break_after,
            record.hand,
            total,
            first,
            ten,
            played,
            (*self.history, points),
            (*self.big_history, record.big),
        )


@dataclass(frozen=True)
class PlayerTotal:
    """One player's line of the final table: the total (the game's session adjustment, such as
    Candid Whist's bag penalty, included), the halves, hands with 10+ tricks, and every hand's
    points for count-back."""

    player: int
    role: Role
    total: Score
    first_half: Score
    second_half: Score
    ten_plus: int
    played: int
    sat_out: int
    adjustment: Score
    hand_points: tuple[Score, ...]
    big_hands: tuple[bool, ...]
    #: The fixed partner in a partner drive (0: the dummy); None where partners change.
    partner: int | None = None
    #: The first hand the player played (a late arrival's is after 1), and the last one if
    #: they went home early (their card closed then); None: they stayed to the end.
    joined: int = 1
    left: int | None = None

    @property
    def whole_evening(self) -> bool:
        return self.joined == 1 and self.left is None


def _role(seatings: Sequence[Seating], player: int) -> Role:
    """The role a player keeps all evening: their first hand's (a late arrival's, the first
    hand they came to); A before they are seated at all."""
    for seating in seatings:
        if player in seating:
            return seating.role(player)
    return Role.A


def _fixed_partner(seating: Seating | None, player: int) -> int | None:
    """A partner drive's partner: at a table, or beside the player on the bench."""
    if seating is None or player not in seating:
        return None
    partner = seating.partner(player)
    if partner is not None:
        return partner
    index = seating.bench.index(player)
    return seating.bench[index ^ 1]


def standings(
    settings: DriveSettings, records: Sequence[HandRecord], *, first: Seating | None = None
) -> tuple[PlayerTotal, ...]:
    """Every player's line after the hands in `records` (in order), highest total first (ties
    by player number: prizes break ties, the table only lists). Each player's role is the one
    the first hand's seating gives them: `first`, where no hand is complete yet, else A."""
    totals = Totals.start(settings)
    for record in records:
        totals = totals.add(record)
    game = settings.game_rules
    first_seating = records[0].seating if records else first
    lines = []
    seatings = [record.seating for record in records] or ([first] if first else [])
    for player in range(1, settings.players + 1):
        played: list[tuple[Entry, Side]] = []
        first_played: list[tuple[Entry, Side]] = []
        for record in records:
            place = record.seating.place(player)
            entry = record.scores[place.table - 1].entry if place else None
            if place and entry is not None:
                played.append((entry, place.seat.side))
                if record.hand <= settings.break_after:
                    first_played.append((entry, place.seat.side))
        adjustment = game.adjustment(played) if played else 0
        first_adjustment = game.adjustment(first_played) if first_played else 0
        total = totals.total[player] + adjustment
        half = totals.first_half[player] + first_adjustment
        lines.append(
            PlayerTotal(
                player,
                _role(seatings, player),
                total,
                half,
                total - half if settings.break_after else total,
                totals.ten_plus[player],
                totals.played[player],
                sum(player in r.seating for r in records) - totals.played[player],
                adjustment,
                tuple(hand[player] for hand in totals.history),
                tuple(player in big for big in totals.big_history),
                _fixed_partner(first_seating, player) if settings.pairs else None,
                settings.joined(player),
                settings.left(player),
            )
        )
    return tuple(sorted(lines, key=lambda line: (-line.total, line.player)))


@dataclass(frozen=True)
class CardTotal:
    """One player's figures as added up on their own score card (a drive played on paper,
    whose hands were never entered): the total, and the first half's total and the hands of
    10 or more tricks where the prize list needs them (None: not entered)."""

    total: Score
    first_half: Score | None = None
    ten_plus: int | None = None


def card_lines(
    settings: DriveSettings, first: Seating, cards: Mapping[int, CardTotal]
) -> tuple[PlayerTotal, ...]:
    """The final table from every player's score card, highest total first (as `standings`).
    No hand's points are known, so a tie cannot be broken by count-back: the prizes say so
    and the tied players share (`prizes._countback`). A figure not entered counts as 0."""
    missing = [p for p in range(1, settings.players + 1) if p not in cards]
    if missing:
        raise DriveError(f"score cards: no total for player {missing[0]}")
    lines = []
    for player in range(1, settings.players + 1):
        card = cards[player]
        first_half = card.first_half if card.first_half is not None else 0
        lines.append(
            PlayerTotal(
                player,
                _role([first], player),
                card.total,
                first_half,
                card.total - first_half if settings.break_after else card.total,
                card.ten_plus or 0,
                0,
                0,
                0,
                (),
                (),
                _fixed_partner(first, player) if settings.pairs else None,
                settings.joined(player),
                settings.left(player),
            )
        )
    return tuple(sorted(lines, key=lambda line: (-line.total, line.player)))
