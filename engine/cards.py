"""Cards, suits, ranks, seats and sides: the vocabulary every game shares.

Every type round-trips through text (`from_str` and `str`), and its `repr` shows how to
rebuild it:

>>> Card.from_str("sa")
Card.from_str('SA')
>>> str(Card.from_str("H10"))
'HT'
>>> Seat.N.next(), Seat.N.partner, Seat.E.side
(Seat.E, Seat.S, Side.EW)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from engine import EngineError
from engine.reading import quoted

__all__ = [
    "BIG_JOKER_RANK",
    "LITTLE_JOKER_RANK",
    "Card",
    "CardError",
    "Rank",
    "Seat",
    "Side",
    "Suit",
    "bid_whist_deck",
    "sort_cards",
    "standard_deck",
]


class CardError(EngineError):
    """A card, suit, rank, seat or side written in a way the engine cannot read."""


class Suit(enum.Enum):
    """The four suits, in the bidding order of Candid Whist (clubs lowest, docs/games/candid.md)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 for clubs up to 3 for spades: the bidding rank of the suit."""
        return _SUIT_ORDER.index(self)

    @classmethod
    def from_str(cls, text: str) -> Suit:
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, suit.name, suit.name[:-1], suit.symbol) or text.strip() in (
                _OUTLINE_SYMBOLS[suit],
            ):
                return suit
        raise CardError(f"{quoted(text)} is not a suit (use C, D, H or S)")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_OUTLINE_SYMBOLS = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}

#: Ranks of the two jokers, above the ace so that a plain integer order still works.
LITTLE_JOKER_RANK = 15
BIG_JOKER_RANK = 16


class Rank(enum.IntEnum):
    """A card's rank as an integer, 2 up to 14 for the ace (its natural, uptown order)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The one-character PBN form: 'A', 'K', 'Q', 'J', 'T', '9' ... '2'."""
        return _RANK_CHARS[self.value]

    @classmethod
    def from_str(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        for value, char in _RANK_CHARS.items():
            if key == char:
                return cls(value)
        raise CardError(f"{quoted(text)} is not a rank (use A K Q J T 9 ... 2)")

    def __str__(self) -> str:
        return self.char

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_CHARS = {
    14: "A",
    13: "K",
    12: "Q",
    11: "J",
    10: "T",
    9: "9",
    8: "8",
    7: "7",
    6: "6",
    5: "5",
    4: "4",
    3: "3",
    2: "2",
}


@dataclass(frozen=True)
class Card:
    """One card: a suit and a rank 2..14, or one of the two Bid Whist jokers (suit None).

    The text form is the suit letter and the PBN rank character ('SA', 'HT', 'C2');
    the jokers are 'BJ' (big) and 'LJ' (little).
    """

    suit: Suit | None
    rank: int

    BIG_JOKER: ClassVar[Card]
    LITTLE_JOKER: ClassVar[Card]

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank not in (BIG_JOKER_RANK, LITTLE_JOKER_RANK):
                raise CardError(f"a card without a suit must be a joker, not rank {self.rank}")
        elif not isinstance(self.rank, int) or not 2 <= self.rank <= 14:
            raise CardError(f"rank {quoted(self.rank)} is not between 2 and 14 (ace)")

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Read 'SA', 'sa', 'S10', 'AS', '♠A', 'BJ' or 'LJ'."""
        key = text.strip().upper()
        if key in ("BJ", "BIG JOKER", "BIG"):
            return cls.BIG_JOKER
        if key in ("LJ", "LITTLE JOKER", "LITTLE"):
            return cls.LITTLE_JOKER
        if len(key) < 2:
            raise CardError(
                f"{quoted(text)} is not a card (write it like SA, HT or C2; jokers BJ, LJ)"
            )
        for suit_part, rank_part in ((key[0], key[1:]), (key[-1], key[:-1])):
            try:
                return cls(Suit.from_str(suit_part), int(Rank.from_str(rank_part)))
            except CardError:
                continue
        raise CardError(f"{quoted(text)} is not a card (write it like SA, HT or C2; jokers BJ, LJ)")

    def __str__(self) -> str:
        if self.suit is None:
            return "BJ" if self.rank == BIG_JOKER_RANK else "LJ"
        return f"{self.suit.letter}{_RANK_CHARS[self.rank]}"

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    def pretty(self, *, ascii_only: bool = False) -> str:
        """The form for printouts: '♠A' (or 'SA' with ascii_only), 'Big Joker'."""
        if self.suit is None:
            return "Big Joker" if self.rank == BIG_JOKER_RANK else "Little Joker"
        suit = self.suit.letter if ascii_only else self.suit.symbol
        rank = "10" if self.rank == 10 else _RANK_CHARS[self.rank]
        return f"{suit}{rank}"


Card.BIG_JOKER = Card(None, BIG_JOKER_RANK)
Card.LITTLE_JOKER = Card(None, LITTLE_JOKER_RANK)


_PBN_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in hand-record order: jokers, then spades, hearts, diamonds, clubs, each high first."""

    def key(card: Card) -> tuple[int, int]:
        if card.suit is None:
            return (-1, -card.rank)
        return (_PBN_SUIT_ORDER.index(card.suit), -card.rank)

    return tuple(sorted(cards, key=key))


class Side(enum.Enum):
    """A partnership: North-South or East-West."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @classmethod
    def from_str(cls, text: str) -> Side:
        key = text.strip().upper().replace("/", "").replace("-", "")
        if key in ("NS", "SN"):
            return cls.NS
        if key in ("EW", "WE"):
            return cls.EW
        raise CardError(f"{quoted(text)} is not a side (use NS or EW)")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Side.{self.name}"


class Seat(enum.Enum):
    """A compass seat; clockwise order is N, E, S, W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    def next(self, steps: int = 1) -> Seat:
        """The seat `steps` places clockwise (to the left of) this one."""
        order = list(Seat)
        return order[(order.index(self) + steps) % 4]

    @property
    def partner(self) -> Seat:
        return self.next(2)

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @property
    def full_name(self) -> str:
        return {"N": "North", "E": "East", "S": "South", "W": "West"}[self.value]

    @classmethod
    def from_str(cls, text: str) -> Seat:
        key = text.strip().upper()
        for seat in cls:
            if key in (seat.value, seat.full_name.upper()):
                return seat
        raise CardError(f"{quoted(text)} is not a seat (use N, E, S or W)")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards, clubs 2 first and spades ace last."""
    return tuple(Card(suit, rank) for suit in _SUIT_ORDER for rank in range(2, 15))


def bid_whist_deck() -> tuple[Card, ...]:
    """The 54 cards of Bid Whist: the standard deck plus the Big and Little Joker
    (docs/games/bidwhist.md)."""
    return (*standard_deck(), Card.BIG_JOKER, Card.LITTLE_JOKER)
