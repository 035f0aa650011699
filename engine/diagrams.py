"""Text hand diagrams: the hand record a director reads, one board at a time.

>>> from engine.dealing import deal_boards
>>> print(diagram(deal_boards("classic", [1], seed=1)[0], ascii_only=True).splitlines()[0])
Board 1  Classic Whist  Dealer North  Trumps: hearts
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.boards import Board
from engine.cards import Card, Seat, Suit

__all__ = ["diagram"]

_TITLES = {
    "classic": "Classic Whist",
    "bidwhist": "Bid Whist",
    "candid": "Candid Whist",
    "openwhist": "Open Whist",
}
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}


def _rank(card: Card) -> str:
    return "10" if card.rank == 10 else str(card)[1:]


def _hand_rows(cards: Sequence[Card], ascii_only: bool) -> list[str]:
    rows = []
    jokers = [c for c in cards if c.is_joker]
    if jokers:
        rows.append("Jk " + " ".join("Big" if c == Card.BIG_JOKER else "Little" for c in jokers))
    for suit in _SUITS:
        ranks = sorted((c for c in cards if c.suit is suit), key=lambda c: -c.rank)
        mark = suit.letter if ascii_only else suit.symbol
        rows.append(f"{mark} " + (" ".join(_rank(c) for c in ranks) or "-"))
    return rows


def _trumps_text(board: Board) -> str:
    if board.variant in ("bidwhist", "candid"):
        return "Trumps: chosen in the auction"
    if board.trumps is None:
        return "Trumps: none (no-trumps)"
    return f"Trumps: {_NAMES[board.trumps]}"


def _pretty(card: Card, ascii_only: bool) -> str:
    return card.pretty(ascii_only=ascii_only)


def diagram(board: Board, *, ascii_only: bool = False) -> str:
    """The board as text: the four hands around the table, then the variant's extra parts."""
    title = _TITLES.get(board.variant, board.variant)
    lines = [
        f"Board {board.number}  {title}  Dealer {board.dealer.full_name}  {_trumps_text(board)}"
    ]
    if board.variant == "openwhist":
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
