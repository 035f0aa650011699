"""Classic whist as played at whist drives (docs/games/classic.md).

Play: the player at the dealer's left leads; follow suit if you can; the highest trump wins,
else the highest card of the suit led. Cards rank A K Q ... 2.

Trumps (option `trumps`):
- ``rotation`` (default): fixed per board, "for the first deal hearts are trumps, for the
  second deal diamonds, then spades, then clubs" (option `rotation`, default ``HDSC``; a letter
  ``N`` in it stands for a no-trump board), optionally no-trumps every k-th board
  (`no_trump_every`, docs/games/classic.md: "every fifth hand is played without trumps").
- ``turned``: the dealer's last card is turned face up and sets trumps; on a pre-dealt board
  that card is part of the board record (`Board.turned_card`).

Scoring (option `scoring`):
- ``odd_tricks`` (default): the rules' tournament rule, "Each player's score is the total
  number of odd tricks (tricks above six) that their side has taken over the deals played",
  and its rubber rule, "the side which won more tricks scores 1 point for each trick they won
  in excess of 6": NS taking 8 score 2 and EW 0.
- ``tricks``: every trick counts, as many whist drives score it: NS taking 8 score 8 (EW 5).
  Events created before ``odd_tricks`` became the default keep ``tricks`` in their stored
  options (migration 0002).

Honours (option `honours`, default off – "nowadays many players do not count them"): a side
that held all four of A K Q J of trumps scores 4, three of them 2. There are no honours at
no-trumps. The rule that a side at 4 points of a 5-point game cannot score honours concerns
rubber play, not duplicate, and is not applied.

`ns_score` is the number matchpoints compare: with ``tricks`` NS's own points (tricks plus
NS's honours; honours are the same at every table, so they never change a comparison); with
``odd_tricks`` NS's points minus EW's, so that EW's score is its negation and 6 against 7
tricks still differ. `side_points` gives each side's own points as a whist drive card shows them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.boards import Board, BoardError, Deal, dealer_for, trump_rotation
from engine.cards import Card, CardError, Seat, Side, Suit
from engine.games.base import GameRules
from engine.games.entry import (
    Entry,
    EntryError,
    EntryField,
    Score,
    check_fields,
    clip,
    expect_entry,
    high_card_points,
    int_field,
    tricks_field,
)
from engine.games.options import OptionsError, OptionSpec
from engine.games.play import PlayContext
from engine.reading import quoted
from engine.shapes import BoardShape, Hands, TurnedCard

__all__ = [
    "ClassicEntry",
    "ClassicRules",
    "honours_held",
    "ns_tricks_fields",
    "parse_rotation",
    "plausible_ns_tricks",
    "trick_entry",
]


def parse_rotation(text: str) -> tuple[Suit | None, ...]:
    """A rotation written as suit letters, 'N' for a no-trump board: 'HDSC', 'SHDCN'."""
    order: list[Suit | None] = []
    for char in text.replace(",", "").replace(" ", "").upper():
        if char == "N":
            order.append(None)
            continue
        try:
            order.append(Suit.from_str(char))
        except CardError:
            raise OptionsError(
                "option rotation lists suits as letters C, D, H, S (N for no-trumps), "
                f"not {quoted(text)}"
            ) from None
    if not order:
        raise OptionsError("option rotation needs at least one suit")
    return tuple(order)


def honours_held(board: Board, trumps: Suit | None) -> dict[Side, int]:
    """Points for honours (A K Q J of trumps): 4 for all four in one side's hands, 2 for three."""
    points = {Side.NS: 0, Side.EW: 0}
    if trumps is None:
        return points
    for side in Side:
        held = sum(
            1
            for seat in side.seats
            for card in board.deal.hand(seat)
            if card.suit is trumps and card.rank >= 11
        )
        points[side] = 4 if held == 4 else 2 if held == 3 else 0
    return points


@dataclass(frozen=True)
class ClassicEntry(Entry):
    """A classic whist result: the tricks NS won (EW won the rest of the 13)."""

    ns_tricks: int

    @property
    def ew_tricks(self) -> int:
        return 13 - self.ns_tricks


def trick_entry(title: str, data: Mapping[str, object], total: int) -> int:
    """Read {"ns_tricks": n} (optionally with "ew_tricks" as a cross-check) for `total` tricks."""
    check_fields(title, data, ["ns_tricks"], ["ew_tricks"])
    ns = int_field(data, "ns_tricks", "NS tricks")
    if not 0 <= ns <= total:
        raise EntryError(f"NS tricks must be between 0 and {total}, not {ns}")
    if data.get("ew_tricks") is not None:
        ew = int_field(data, "ew_tricks", "EW tricks")
        if ns + ew != total:
            raise EntryError(f"NS and EW tricks must add up to {total} (got {ns} + {ew})")
    return ns


def ns_tricks_fields(total: int) -> tuple[EntryField, ...]:
    """NS's tricks, the whole result of a game without an auction (EW took the rest)."""
    return (
        tricks_field(
            "ns_tricks", "NS tricks", "NS", total, f"tricks won by North-South (EW: {total} - NS)"
        ),
    )


def dd_board_ns_tricks(analysis: Mapping[str, Any]) -> int | None:
    """NS's double-dummy tricks on a board whose trumps and leader are fixed by the board."""
    tricks = analysis.get("tricks") or {}
    value = tricks.get("ns")
    return value if isinstance(value, int) else None


def plausible_ns_tricks(board: Board, rng: random.Random) -> dict[str, object]:
    """NS's tricks around half, moved a trick for every three high-card points over 20."""
    total = board.hand_size
    ns = sum(high_card_points(board.deal.hand(seat)) for seat in (Seat.N, Seat.S))
    return {"ns_tricks": clip(rng.gauss(total / 2 + (ns - 20) / 3, 1.3), 0, total)}


class ClassicRules(GameRules):
    """Classic whist: no bidding, fixed or turned trumps, 13 tricks."""

    shape = BoardShape(
        "classic",
        "Classic Whist",
        (Hands(13, tuple(Seat), turned=TurnedCard.DEALERS),),
    )
    aliases = ("whist", "classicwhist")
    option_specs = (
        OptionSpec(
            "trumps",
            "choice",
            "rotation",
            ("rotation", "turned"),
            "trumps fixed by board number, or set by the dealer's turned last card",
            ("Fixed by the board number", "The dealer's turned last card"),
        ),
        OptionSpec("rotation", "text", "HDSC", (), "trump order for the rotation (N = no-trumps)"),
        OptionSpec("no_trump_every", "int", 0, (), "no-trumps every k-th board (0 = never)"),
        OptionSpec(
            "scoring",
            "choice",
            "odd_tricks",
            ("odd_tricks", "tricks"),
            "score only odd tricks, those over six (as a whist drive scores), or every trick",
            ("Odd tricks (over six)", "Every trick"),
        ),
        OptionSpec("honours", "bool", False, (), "score honours: 4 for A K Q J of trumps, 2 for 3"),
    )

    def _check_options(self) -> None:
        self.rotation = parse_rotation(str(self.option("rotation")))
        every = int(self.option("no_trump_every"))
        if every < 0 or every == 1:
            raise OptionsError("option no_trump_every is 0 (never) or at least 2")

    def fixed_trumps(self, number: int) -> Suit | None:
        every = int(self.option("no_trump_every"))
        try:
            return trump_rotation(number, self.rotation, every or None)
        except BoardError as exc:
            raise OptionsError(str(exc)) from None

    def deal_board(self, number: int, rng: random.Random) -> Board:
        dealer = dealer_for(number)
        hands, _ = self.deal_round(self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng)
        if self.option("trumps") == "turned":
            # docs/games/classic.md: "The final card, which will belong to the dealer, is
            # turned face up."
            turned: Card = hands[dealer][-1]
            return Board(number, self.name, dealer, Deal(hands), turned.suit, (), turned)
        return Board(number, self.name, dealer, Deal(hands), self.fixed_trumps(number))

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        return PlayContext(trumps=board.trumps, leader=board.dealer.next(), seats=tuple(Seat))

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> ClassicEntry:
        self.check_board(board)
        return ClassicEntry(trick_entry(self.title, data, 13))

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        entry = expect_entry(entry, ClassicEntry, self.title)
        honours = (
            honours_held(board, board.trumps) if self.option("honours") else dict.fromkeys(Side, 0)
        )
        tricks = {Side.NS: entry.ns_tricks, Side.EW: entry.ew_tricks}
        if self.option("scoring") == "odd_tricks":
            tricks = {side: max(count - 6, 0) for side, count in tricks.items()}
        return {side: tricks[side] + honours[side] for side in Side}

    def ns_score(self, board: Board, entry: Entry) -> Score:
        points = self.side_points(board, entry)
        if self.option("scoring") == "odd_tricks":
            return points[Side.NS] - points[Side.EW]
        return points[Side.NS]

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        entry = expect_entry(entry, ClassicEntry, self.title)
        return {"ns_tricks": entry.ns_tricks}

    def entry_fields(self) -> tuple[EntryField, ...]:
        return ns_tricks_fields(13)

    def describe(self, entry: Entry) -> str:
        entry = expect_entry(entry, ClassicEntry, self.title)
        return f"NS {entry.ns_tricks}, EW {entry.ew_tricks} tricks"

    def describe_short(self, entry: Entry) -> str:
        entry = expect_entry(entry, ClassicEntry, self.title)
        return f"{entry.ns_tricks}-{entry.ew_tricks}"

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        return plausible_ns_tricks(board, rng)

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        return expect_entry(entry, ClassicEntry, self.title).ns_tricks

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        return dd_board_ns_tricks(analysis)
