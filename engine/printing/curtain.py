"""Curtain cards: one card per hand per board, cut apart and put in the board's wallet, so a
table can rebuild any hand (and the players can check theirs) without a hand record.

Each card shows the board, the seat, the dealer, the trumps where the board fixes them, and
the hand by suit in large type. Bid Whist's kitty has a card of its own; the jokers are named.
Open Whist cards show the column layout as it is laid out (and the hand by suit below it);
three-player Open Whist's turned card, which belongs to no one, has its own card. Candid
Whist cards print the hand's HCP, which the player announces.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.boards import Board
from engine.cards import Seat
from engine.games import GameRules
from engine.printing.hands import (
    card_text,
    columns_block,
    hand_block,
    turned_card_text,
)
from engine.printing.toolkit import (
    GREY,
    MM,
    Block,
    Grid,
    Sheet,
    fill_grid,
    grid_for,
    hstack,
    paragraph,
    spacer,
    text_block,
    vstack,
)

__all__ = ["curtain_card_blocks", "curtain_cards", "curtain_grid", "draw_curtain_cards"]

PAD = 4 * MM
#: Smallest card: two across, four down on A4 and Letter for the hand-by-suit games.
CARD_WIDTH = 85 * MM
CARD_HEIGHT = 60 * MM
#: Open Whist cards also hold the column layout: three down.
COLUMN_CARD_HEIGHT = 84 * MM


def curtain_grid(paper_size: tuple[float, float], boards: Sequence[Board]) -> Grid:
    """The card grid for these boards on this paper (taller cards for Open Whist layouts)."""
    tall = any(board.columns for board in boards)
    return grid_for(
        paper_size,
        min_width=CARD_WIDTH,
        min_height=COLUMN_CARD_HEIGHT if tall else CARD_HEIGHT,
    )


def _header(left: str, right: str, sub: str, width: float, size: float) -> Block:
    title = text_block(left, size, bold=True)
    seat = text_block(right, size, bold=True)
    top = hstack([title, spacer(0, max(size, width - title.width - seat.width)), seat])
    return vstack([top, text_block(sub, size * 0.62, color=GREY)])


def _subline(board: Board, rules: GameRules) -> str:
    parts = [f"Dealer {board.dealer.full_name}"]
    if not rules.has_auction:
        parts.append(f"Trumps: {rules.trumps_text(board)}")
    return " · ".join(parts)


def hand_card(board: Board, rules: GameRules, seat: Seat, width: float) -> Block:
    """The card for one seat of one board, `width` wide."""
    size = 12 if board.columns else 15
    header = _header(f"Board {board.number}", seat.full_name, _subline(board, rules), width, 16)
    parts = [header, spacer(2 * MM)]
    note = rules.seat_note(board, seat)
    if note:
        parts.append(text_block(f"Announce {note}", 12, bold=True))
    cards = board.deal.hand(seat)
    if board.columns:
        parts.append(
            paragraph(
                "Lay the columns out left to right, each from its first card down to the "
                "boxed card, which lies on top.",
                7.5,
                width,
                color=GREY,
            )
        )
        parts.append(columns_block(board.columns[seat], size))
        parts.append(spacer(1.5 * MM))
        parts.append(hand_block(cards, 10))
    else:
        parts.append(hand_block(cards, size, gap=2))
    return vstack(parts, gap=1)


def kitty_card(board: Board, width: float) -> Block:
    """Bid Whist: the six kitty cards, on a card of their own."""
    header = _header(
        f"Board {board.number}", "Kitty", "the six cards the declarer takes", width, 16
    )
    return vstack([header, spacer(2 * MM), hand_block(board.kitty, 15, gap=2)], gap=1)


def turned_card(board: Board, rules: GameRules, width: float) -> Block:
    """Three-player Open Whist: the face-up card that sets trumps and belongs to no one."""
    assert board.turned_card is not None
    header = _header(f"Board {board.number}", "Trump card", _subline(board, rules), width, 16)
    return vstack(
        [
            header,
            spacer(3 * MM),
            text_block(card_text(board.turned_card), 30, bold=True),
            text_block(turned_card_text(board), 10),
            text_block("Place it face up beside the layouts.", 9, color=GREY),
        ],
        gap=2,
    )


def curtain_card_blocks(boards: Sequence[Board], rules: GameRules, width: float) -> list[Block]:
    """Every card, board by board: the hands clockwise from North, then the extras."""
    blocks: list[Block] = []
    for board in boards:
        blocks.extend(hand_card(board, rules, seat, width) for seat in board.seats)
        if board.kitty:
            blocks.append(kitty_card(board, width))
        if board.turned_card is not None and board.deal.seat_of(board.turned_card) is None:
            blocks.append(turned_card(board, rules, width))
    return blocks


def draw_curtain_cards(sheet: Sheet, boards: Sequence[Board], rules: GameRules) -> None:
    sheet.begin_part("Curtain cards")
    grid = curtain_grid((sheet.width, sheet.height), boards)
    blocks = curtain_card_blocks(boards, rules, grid.cell_width - 2 * PAD)
    fill_grid(sheet, grid, blocks, pad=PAD)


def curtain_cards(boards: Sequence[Board], rules: GameRules, *, paper: str = "a4") -> bytes:
    """Curtain cards for `boards` as PDF bytes: several cards a page with cut marks."""
    sheet = Sheet(paper, title="Curtain cards")
    draw_curtain_cards(sheet, boards, rules)
    return sheet.finish()
