"""Text hand diagrams: the hand record a director reads, one board at a time.

>>> from engine.dealing import deal_boards
>>> print(diagram(deal_boards("classic", [1], seed=1)[0], ascii_only=True).splitlines()[0])
Board 1  Classic Whist  Dealer North  Trumps: hearts
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.boards import Board
from engine.cards import Card, Seat, Suit
from engine.games import find_variant

__all__ = ["SuitRow", "board_facts", "diagram", "jokers_of", "suit_rows"]

_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _rank(card: Card) -> str:
    return "10" if card.rank == 10 else str(card)[1:]


@dataclass(frozen=True)
class SuitRow:
    """One suit of a hand as people write it: spades first, ranks high to low ('A K 10 4')."""

    suit: Suit
    ranks: str  # "-" for a void

    @property
    def red(self) -> bool:
        return self.suit in (Suit.HEARTS, Suit.DIAMONDS)


def suit_rows(cards: Sequence[Card]) -> list[SuitRow]:
    """A hand by suit, spades to clubs (jokers are left to `jokers_of`)."""
    rows = []
    for suit in _SUITS:
        ranks = sorted((c for c in cards if c.suit is suit), key=lambda c: -c.rank)
        rows.append(SuitRow(suit, " ".join(_rank(c) for c in ranks) or "-"))
    return rows


def jokers_of(cards: Sequence[Card]) -> list[str]:
    """The jokers among `cards`, by name ('Big Joker' first)."""
    return [c.pretty() for c in sorted((c for c in cards if c.is_joker), key=lambda c: -c.rank)]


def _hand_rows(cards: Sequence[Card], ascii_only: bool) -> list[str]:
    rows = []
    jokers = jokers_of(cards)
    if jokers:
        rows.append("Jk " + " ".join(name.split()[0] for name in jokers))
    for row in suit_rows(cards):
        mark = row.suit.letter if ascii_only else row.suit.symbol
        rows.append(f"{mark} {row.ranks}")
    return rows


def _pretty(card: Card, ascii_only: bool) -> str:
    return card.pretty(ascii_only=ascii_only)


def board_facts(board: Board) -> tuple[str, ...]:
    """The facts a table is told before the play: number, game, dealer, trumps.

    >>> from engine.dealing import deal_boards
    >>> board_facts(deal_boards("candid", [2], seed=1)[0])
    ('Board 2', 'Candid Whist', 'Dealer East', 'Trumps: chosen in the auction')
    """
    rules = find_variant(board.variant)()
    return (
        f"Board {board.number}",
        rules.title,
        f"Dealer {board.dealer.full_name}",
        f"Trumps: {rules.trumps_text(board)}",
    )


def diagram(board: Board, *, ascii_only: bool = False, heading: bool = True) -> str:
    """The board as text: the four hands around the table (or the column layout, where the
    board has one), then the variant's extra parts; `heading` puts `board_facts` on top."""
    lines = ["  ".join(board_facts(board))] if heading else []
    if board.columns:
        lines.append("Columns left to right; the last card of each column is exposed.")
        for seat, columns in board.columns.items():
            cols = "  ".join(
                "[" + " ".join(_pretty(c, ascii_only) for c in column) + "]" for column in columns
            )
            lines.append(f"{seat.full_name:<6} {cols}")
    else:
        width = 22
        blocks = {
            seat: [seat.full_name, *_hand_rows(board.deal.hand(seat), ascii_only)] for seat in Seat
        }
        pad = " " * width
        lines.append("")
        lines.extend(pad + row for row in blocks[Seat.N])
        west, east = blocks[Seat.W], blocks[Seat.E]
        for i in range(max(len(west), len(east))):
            left = west[i] if i < len(west) else ""
            right = east[i] if i < len(east) else ""
            lines.append(f"{left:<{2 * width}}{right}".rstrip())
        lines.extend(pad + row for row in blocks[Seat.S])
        lines.append("")
    if board.kitty:
        lines.append("Kitty: " + " ".join(_pretty(c, ascii_only) for c in board.kitty))
    if board.turned_card is not None:
        owner = board.deal.seat_of(board.turned_card)
        whose = f"{owner.full_name}'s" if owner is not None else "no one's"
        lines.append(f"Turned trump card: {_pretty(board.turned_card, ascii_only)} ({whose})")
    return "\n".join(lines)
