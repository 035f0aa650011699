"""A generic double-dummy position: who holds what, what wins a trick, who leads.

The solver knows no game. Every clubwhist game is translated into these plain terms:

- four seats 0=N, 1=E, 2=S, 3=W played clockwise (or three seats 0, 1, 2 for 3-player Open
  Whist), all holding the same number of cards;
- a card is ``(suit, rank)``: suit index 0..3, rank index 0..15 where a higher index is a
  stronger card *in this position's own order* (so Bid Whist downtown simply numbers the
  ranks the other way, and a Bid Whist trump suit holds the Big and Little Jokers as ranks
  13 and 14 above its ace: up to 15 cards in one suit);
- suit index 4 (:data:`NO_SUIT`) holds cards that belong to no suit and can never win a trick
  (the jokers at Bid Whist no-trump). A player may play one when void in the led suit, or at
  any time when ``jokers_follow`` is true. When one is led, the next card played that is not
  one of them sets the suit to follow (docs/games/bidwhist.md: "the second player to the
  trick can play any card, and the suit of that card becomes the suit led");
- ``trump`` is a suit index or None;
- ``columns`` (Open Whist, docs/games/openwhist.md) gives each seat's cards as ordered stacks,
  bottom card first: only the last remaining card of each stack may be played, and a player must
  follow suit only with a playable card of the led suit;
- ``tricks`` (optional) stops play after that many tricks; then hands may hold more cards than
  that, up to 18, and the cards left over are never played. A hand holding more cards than the
  tricks left may also put all its cards of the suit led aside, for good, and play off-suit,
  as long as it can spare that many. No game deals such hands: they are a relaxation for the
  Bid Whist discard search, where the declarer holding all 18 cards of hand and kitty for 12
  tricks does at least as well as with any 12 of them (it chooses its six discards as the play
  goes, becoming void when that pays).

The value of a position (see :func:`engine.dd.solve`) is the number of tricks, of those still
to play, won by one side under best play by everyone. With four seats the sides are the
partnerships N-S and E-W. With three seats (Open Whist for three) a player has no partner:
the value for a player is the *paranoid* value, the tricks that player can make against the
other two combined, who play together to hold the player down.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import EngineError

NO_SUIT = 4
"""Suit index of the cards that belong to no suit (jokers at no-trump)."""

MAX_RANKS = 16
MAX_HAND = 17
SEAT_NAMES = "NESW"

Card = tuple[int, int]
"""``(suit index 0..4, rank index 0..15)``; higher rank index = stronger."""


class DDInputError(EngineError):
    """A position given to the double-dummy solver is not a legal position."""


def card_code(card: Card) -> int:
    """The integer the C core uses for a card: ``suit * 16 + rank``."""
    return card[0] * MAX_RANKS + card[1]


def code_card(code: int) -> Card:
    return (code // MAX_RANKS, code % MAX_RANKS)


def _check_card(card: object, where: str) -> Card:
    if (
        not isinstance(card, tuple)
        or len(card) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in card)
    ):
        raise DDInputError(f"{where}: {card!r} is not a card (suit index, rank index)")
    suit, rank = card
    if not 0 <= suit <= NO_SUIT:
        raise DDInputError(f"{where}: suit index {suit} is not 0..3 (or 4 for no-suit cards)")
    if not 0 <= rank < MAX_RANKS:
        raise DDInputError(f"{where}: rank index {rank} is not 0..15")
    return (suit, rank)


@dataclass(frozen=True)
class Position:
    """Hands, trumps, leader and play rules at the start of a trick.

    >>> p = Position(hands=(((3, 12),), ((3, 11),), ((3, 0),), ((2, 5),)), trump=None, leader=0)
    >>> p.hand_size, p.seats
    (1, 4)
    """

    hands: tuple[tuple[Card, ...], ...]
    trump: int | None
    leader: int
    jokers_follow: bool = False
    columns: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    tricks: int | None = None

    def __post_init__(self) -> None:
        hands = self.hands
        if not isinstance(hands, tuple) or len(hands) not in (3, 4):
            raise DDInputError("a position needs 3 or 4 hands")
        seen: set[Card] = set()
        sizes = set()
        for seat, hand in enumerate(hands):
            where = f"seat {self.seat_name(seat, len(hands))}"
            if not isinstance(hand, tuple):
                raise DDInputError(f"{where}: the hand must be a tuple of cards")
            for card in hand:
                checked = _check_card(card, where)
                if checked in seen:
                    raise DDInputError(f"{where}: card {checked} is held twice")
                seen.add(checked)
            sizes.add(len(hand))
        if self.tricks is not None:
            self._check_spare(sizes)
        elif len(sizes) != 1:
            raise DDInputError(
                "hands of unequal size: "
                + ", ".join(
                    f"{self.seat_name(s, len(hands))} {len(h)}" for s, h in enumerate(hands)
                )
            )
        else:
            size = sizes.pop()
            if not 1 <= size <= MAX_HAND:
                raise DDInputError(f"hands must hold 1 to {MAX_HAND} cards, not {size}")
        if self.trump is not None and (
            not isinstance(self.trump, int)
            or isinstance(self.trump, bool)
            or not 0 <= self.trump <= 3
        ):
            raise DDInputError(f"unknown trump {self.trump!r}: give a suit index 0..3 or None")
        if (
            not isinstance(self.leader, int)
            or isinstance(self.leader, bool)
            or not 0 <= self.leader < len(hands)
        ):
            raise DDInputError(f"leader {self.leader!r} is not a seat index 0..{len(hands) - 1}")
        if self.columns is not None:
            self._check_columns()

    def _check_spare(self, sizes: set[int]) -> None:
        tricks = self.tricks
        if not isinstance(tricks, int) or isinstance(tricks, bool) or not 1 <= tricks < MAX_HAND:
            raise DDInputError(f"tricks {tricks!r} is not a number of tricks 1..{MAX_HAND - 1}")
        if min(sizes) < tricks or max(sizes) > MAX_HAND + 1:
            raise DDInputError(
                f"to play {tricks} tricks every hand needs {tricks} to {MAX_HAND + 1} cards, "
                f"not {min(sizes) if min(sizes) < tricks else max(sizes)}"
            )
        if self.columns is not None:
            raise DDInputError("spare cards (tricks=...) and columns do not go together")

    def _check_columns(self) -> None:
        columns = self.columns
        assert columns is not None
        if not isinstance(columns, tuple) or len(columns) != len(self.hands):
            raise DDInputError("columns must give one layout per seat")
        for seat, (layout, hand) in enumerate(zip(columns, self.hands, strict=True)):
            where = f"seat {self.seat_name(seat, len(self.hands))} columns"
            if not isinstance(layout, tuple) or not all(isinstance(st, tuple) for st in layout):
                raise DDInputError(f"{where}: give a tuple of stacks, each a tuple of cards")
            if len(layout) > MAX_HAND:
                raise DDInputError(f"{where}: at most {MAX_HAND} stacks")
            cards = [_check_card(c, where) for st in layout for c in st]
            if sorted(cards) != sorted(hand) or len(set(cards)) != len(cards):
                raise DDInputError(f"{where}: the stacks do not hold exactly the seat's hand")

    @staticmethod
    def seat_name(seat: int, seats: int = 4) -> str:
        return SEAT_NAMES[seat] if seats == 4 else str(seat)

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def hand_size(self) -> int:
        """The number of tricks to play (every hand's size unless ``tricks`` is set)."""
        return len(self.hands[0]) if self.tricks is None else self.tricks

    def side_of(self, seat: int) -> frozenset[int]:
        """The seats whose tricks count together with ``seat``'s."""
        if self.seats == 4:
            return frozenset({seat, (seat + 2) % 4})
        return frozenset({seat})

    def core_args(
        self,
    ) -> tuple[list[list[int]], int, bool, list[list[list[int]]] | None, int]:
        """The arguments of ``engine.dd._core.Solver``: card codes, trump, flags, columns and
        the tricks to play (0: the hand size)."""
        hands = [[card_code(c) for c in hand] for hand in self.hands]
        cols = (
            None
            if self.columns is None
            else [[[card_code(c) for c in st] for st in layout] for layout in self.columns]
        )
        trump = -1 if self.trump is None else self.trump
        return hands, trump, self.jokers_follow, cols, self.tricks or 0
