"""A drive as one object: its settings, and the evening hand by hand.

`Drive` holds no state of its own beyond the settings: the caller keeps the seatings and hand
records (the app stores them), so a correction re-scores a hand without moving anyone, and the
moves after a hand are recomputed only if the caller asks for them again.

>>> drive = Drive(DriveSettings(players=8, hands=2))
>>> seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
>>> record = drive.record_hand(seating, {1: {"ns_tricks": 9}, 2: {"ns_tricks": 4}})
>>> drive.next_seating(seating, record).tables
((1, 5, 7, 3), (6, 2, 4, 8))
>>> [(line.player, line.total) for line in drive.standings([record])][:2]
[(1, 3), (3, 3)]
>>> drive.trumps_text(2)
'diamonds'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Side, Suit
from engine.drives.model import DriveError, Role
from engine.drives.prizes import Award, award_prizes
from engine.drives.seating import Seating, first_seating, next_seating, placed_seating
from engine.drives.settings import DriveSettings
from engine.drives.totals import HandRecord, PlayerTotal, Result, Totals, record_hand, standings

__all__ = ["Drive"]

_SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


class Drive:
    """The evening's rules from one set of settings."""

    def __init__(self, settings: DriveSettings) -> None:
        self.settings = settings

    def __repr__(self) -> str:
        return f"Drive({self.settings!r})"

    def first_seating(self, seed: int | None = None) -> Seating:
        return first_seating(self.settings, seed)

    def placed_seating(
        self,
        tables: Sequence[Sequence[int]],
        bench: Sequence[int | Sequence[int | Role | str]] = (),
    ) -> Seating:
        return placed_seating(self.settings, tables, bench)

    def record_hand(self, seating: Seating, results: Mapping[int, Result]) -> HandRecord:
        return record_hand(self.settings, seating, results)

    def next_seating(
        self, seating: Seating, results: HandRecord | Mapping[int, Result] | Sequence[Side]
    ) -> Seating:
        """The next hand's seating from this hand's results (a scored hand, each table's
        result, or just each table's winning side)."""
        if isinstance(results, HandRecord):
            if results.seating != seating:
                raise DriveError(f"hand {results.hand}'s record was scored on another seating")
            winners: Sequence[Side] = results.winners
        elif isinstance(results, Mapping):
            winners = self.record_hand(seating, results).winners
        else:
            winners = results
        return next_seating(self.settings, seating, winners)

    def totals(self, records: Sequence[HandRecord]) -> Totals:
        totals = Totals.start(self.settings)
        for record in records:
            totals = totals.add(record)
        return totals

    def standings(
        self, records: Sequence[HandRecord], *, first: Seating | None = None
    ) -> tuple[PlayerTotal, ...]:
        """The lines after `records`; `first` (hand 1's seating) gives the roles before any
        hand is complete."""
        return standings(self.settings, records, first=first)

    def prizes(
        self,
        records: Sequence[HandRecord],
        *,
        seed: int | None = None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[Award, ...]:
        return award_prizes(self.settings, self.standings(records), seed=seed, names=names)

    def trumps(self, hand: int) -> Suit | None:
        """The trump suit of `hand` at every table (None: no-trumps or an auction game)."""
        if self.settings.game_rules.has_auction:
            return None
        return self.settings.trump(hand)

    def trumps_text(self, hand: int) -> str:
        if self.settings.game_rules.has_auction:
            return "chosen in the auction"
        suit = self.settings.trump(hand)
        return "no trumps" if suit is None else _SUIT_NAMES[suit]
