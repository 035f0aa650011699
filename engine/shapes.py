"""What a board of each game holds, declared once per game: the deck, the hands by number of
players, the kitty, the card turned for trumps, the Open Whist columns.

Each game's rules class carries its `BoardShape` (`GameRules.shape`, in `engine/games/<game>.py`)
and the game registry (`engine.games`) enters it here, so the board formats (`engine.boards`,
`engine.pbn`), the printing and the analysis read the shape and never ask which game a board
belongs to. This module imports no game: the games import it.

>>> from engine.cards import Seat
>>> shape = BoardShape("demo", "Demo Whist", (Hands(13, tuple(Seat)),))
>>> shape.hands_for(4).size, shape.hands_for(3), len(shape.deck())
(13, None, 52)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine import EngineError
from engine.cards import Card, Seat, Suit, bid_whist_deck, standard_deck
from engine.reading import quoted

__all__ = [
    "DEFAULT_ROTATION",
    "BoardShape",
    "DDTable",
    "Hands",
    "ShapeError",
    "Trumps",
    "TurnedCard",
    "forget_shape",
    "register_shape",
    "shape_names",
    "shape_of",
]


#: docs/games/classic.md: "for the first deal hearts are trumps, for the second deal diamonds,
#: then spades, then clubs, then hearts again, and so on" (the trumps a board fixes by default).
DEFAULT_ROTATION: tuple[Suit | None, ...] = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)


class ShapeError(EngineError):
    """A game name no shape is registered for, or a shape that cannot be dealt."""


class Trumps(enum.Enum):
    """Who settles trumps: the board (by rotation or a turned card), or the auction at the
    table (then the board carries neither trumps nor a turned card)."""

    BOARD = "board"
    AUCTION = "auction"


class TurnedCard(enum.Enum):
    """Where the card turned to set trumps lies, when a board has one.

    NONE: never turned. DEALERS: one of the dealer's own cards (classic whist's last card).
    FIRST_OF_LAYOUT: the first card of the dealer's column layout (Open Whist, four hands);
    the board's trumps are its suit. LOOSE: the card left over after the deal, which belongs
    to no player and must be on the board (three-player Open Whist); the rules, not the board,
    say whether it sets trumps.
    """

    NONE = "none"
    DEALERS = "dealers"
    FIRST_OF_LAYOUT = "first_of_layout"
    LOOSE = "loose"


class DDTable(enum.Enum):
    """How the double-dummy table of a board reads, for the hand records.

    BOARD_TRICKS: trumps are fixed by the board, so one row, the tricks of each side (or of
    each player) at those trumps. STRAINS: the declaring side's tricks for every declarer and
    strain. CONTRACT_TYPES: the declaring side's books for every seat and contract type,
    uptown and downtown side by side (the declarer takes a kitty and discards first).
    """

    BOARD_TRICKS = "board_tricks"
    STRAINS = "strains"
    CONTRACT_TYPES = "contract_types"


@dataclass(frozen=True)
class Hands:
    """One way a game is dealt: `size` cards to each of `seats` (clockwise from North).

    `columns` is the column layout of each hand, left to right (Open Whist), empty when the
    hand is held as usual; `turned` says where a turned trump card lies.
    """

    size: int
    seats: tuple[Seat, ...]
    turned: TurnedCard = TurnedCard.NONE
    columns: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.columns and sum(self.columns) != self.size:
            raise ShapeError(f"columns {self.columns} do not hold {self.size} cards")


@dataclass(frozen=True)
class BoardShape:
    """What a board of game `game` holds, and how its trumps are settled.

    `deals` lists the ways the game is dealt, one per number of hands (Open Whist: four hands
    of 13 or three of 17). The deck is the 52 cards, or 54 with the two jokers (`jokers`);
    `kitty` cards are left face down beside the hands. Hands are kept in dealt order when the
    game lays them out in columns (the order fixes the layout), sorted otherwise, so equal
    boards compare equal.
    """

    game: str
    title: str
    deals: tuple[Hands, ...]
    jokers: bool = False
    kitty: int = 0
    trumps: Trumps = Trumps.BOARD
    dd_table: DDTable = DDTable.BOARD_TRICKS

    def __post_init__(self) -> None:
        deck = 54 if self.jokers else 52
        for hands in self.deals:
            loose = 1 if hands.turned is TurnedCard.LOOSE else 0
            if hands.size * len(hands.seats) + self.kitty + loose != deck:
                raise ShapeError(
                    f"{self.title}: {len(hands.seats)} hands of {hands.size}, a kitty of "
                    f"{self.kitty} and {loose} loose card do not make a deck of {deck}"
                )
        if len({len(hands.seats) for hands in self.deals}) != len(self.deals):
            raise ShapeError(f"{self.title} lists one number of hands twice")

    def deck(self) -> tuple[Card, ...]:
        return bid_whist_deck() if self.jokers else standard_deck()

    def hands_for(self, players: int) -> Hands | None:
        """How the game is dealt to `players` hands, or None when it is not."""
        return next((hands for hands in self.deals if len(hands.seats) == players), None)

    @property
    def keeps_dealt_order(self) -> bool:
        """Hands laid out in columns keep the order they were dealt in."""
        return any(hands.columns for hands in self.deals)

    def column_sizes(self, hand_size: int) -> tuple[int, ...]:
        """The column layout of a hand of `hand_size` cards; ShapeError when there is none."""
        for hands in self.deals:
            if hands.columns and hands.size == hand_size:
                return hands.columns
        raise ShapeError(f"{self.title} has no column layout for {hand_size} cards")


_SHAPES: dict[str, BoardShape] = {}


def register_shape(shape: BoardShape) -> None:
    """Make boards of `shape.game` known (the game registry does this for every game)."""
    known = _SHAPES.get(shape.game)
    if known is not None and known != shape:
        raise ShapeError(f"another shape is registered for {quoted(shape.game)}")
    _SHAPES[shape.game] = shape


def forget_shape(game: str) -> None:
    """Undo `register_shape` (a game registered for a while, as in the tests)."""
    _SHAPES.pop(game, None)


def shape_names() -> tuple[str, ...]:
    """The games whose boards are known, in the order they were registered."""
    return tuple(_SHAPES)


def shape_of(game: str) -> BoardShape:
    """The shape of game `game`'s boards; ShapeError naming the known games."""
    found = _SHAPES.get(game)
    if found is None:
        raise ShapeError(
            f"unknown variant {quoted(game)} (known: {', '.join(_SHAPES) or 'none yet'})"
        )
    return found
