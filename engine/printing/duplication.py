"""The duplication sheet: every board's hands, one line a seat, for making boards up by hand.

Compact on purpose (a dozen boards a page): the person sorting cards into wallets reads one
line per pocket. Each suit cell repeats its symbol so red and black stay apart at a glance.
Bid Whist adds the kitty line and a jokers column; Open Whist adds each hand in the order it
is dealt and laid out, column by column, since that order is part of the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.boards import Board
from engine.cards import Card
from engine.games import GameRules
from engine.printing.hands import SUIT_ORDER, card_text, joker_text, suit_line
from engine.printing.toolkit import MARGIN, MM, Column, Flow, Sheet, Table, text_block

__all__ = ["draw_duplication_sheet", "duplication_sheet", "duplication_table"]

SIZE = 8.5


def layout_text(columns: Sequence[Sequence[Card]]) -> str:
    """An Open Whist hand in dealt order, columns split by '/': '♦9 / ♠9 ♣8 / ...'."""
    return " / ".join(" ".join(card_text(c) for c in column) for column in columns)


def duplication_table(boards: Sequence[Board]) -> Table:
    """The whole sheet as one table; a page breaks only between boards."""
    jokers = any(c.is_joker for b in boards for c in (*b.deal.cards(), *b.kitty))
    layouts = any(b.columns for b in boards)
    columns = [Column("Board", "center", bold=True), Column("Hand")]
    columns += [Column(suit.symbol) for suit in SUIT_ORDER]
    if jokers:
        columns.append(Column("Jokers"))
    if layouts:
        columns.append(Column("Dealt order, column by column"))
    rows: list[list[str]] = []
    ends: set[int] = set()
    shaded: set[int] = set()
    for index, board in enumerate(boards):
        lines: list[tuple[str, tuple[Card, ...], str]] = []
        for seat in board.seats:
            layout = layout_text(board.columns[seat]) if board.columns else ""
            lines.append((seat.full_name, board.deal.hand(seat), layout))
        if board.kitty:
            lines.append(("Kitty", board.kitty, ""))
        if board.turned_card is not None and board.deal.seat_of(board.turned_card) is None:
            lines.append(("Turned card", (board.turned_card,), ""))
        for i, (label, cards, layout) in enumerate(lines):
            row = [str(board.number) if i == 0 else "", label]
            row += [suit_line(cards, suit) for suit in SUIT_ORDER]
            if jokers:
                row.append(joker_text(cards))
            if layouts:
                row.append(layout)
            if index % 2:
                shaded.add(len(rows))
            rows.append(row)
        ends.add(len(rows) - 1)
    return Table(
        columns,
        rows,
        size=SIZE,
        row_height=5.2 * MM,
        rules_after=frozenset(ends),
        shaded=frozenset(shaded),
    )


def draw_duplication_sheet(sheet: Sheet, boards: Sequence[Board], rules: GameRules) -> None:
    table = duplication_table(boards)
    _, widths = table.layout()
    portrait = sheet.portrait[0] - 2 * MARGIN
    sheet.begin_part("Duplication sheet", landscape=sum(widths) > portrait * 1.1)
    flow = Flow(sheet, gap=3 * MM)
    numbers = [b.number for b in boards]
    span = f"boards {min(numbers)}-{max(numbers)}" if numbers else "no boards"
    flow.block(text_block(f"Duplication sheet · {rules.title} · {span}", 13, bold=True))
    flow.table(table, breaks=table.rules_after)


def duplication_sheet(boards: Sequence[Board], rules: GameRules, *, paper: str = "a4") -> bytes:
    """The duplication sheet as PDF bytes: one line per board per hand."""
    sheet = Sheet(paper, title="Duplication sheet")
    draw_duplication_sheet(sheet, boards, rules)
    return sheet.finish()
