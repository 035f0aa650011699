"""Boards on paper: suits, hands, Open Whist columns, the four-hand diagram and its analysis.

Every document that shows cards (curtain cards, hand records, board slips, the results
sheet, the duplication sheet) takes its text from here, so a suit reads the same everywhere:
the symbol, then the ranks high to low with the ten written "10", a void as a dash.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.boards import Board
from engine.cards import Card, Seat, Suit
from engine.dd.analysis import par_line
from engine.dd.bidwhist import CONTRACT_TYPES
from engine.games import GameRules
from engine.printing.common import table_block
from engine.printing.toolkit import (
    EMPTY,
    GREY,
    MM,
    Block,
    Column,
    Table,
    draw_text,
    hstack,
    paragraph,
    spacer,
    text_block,
    text_width,
    vstack,
)
from engine.shapes import DDTable

__all__ = [
    "SUIT_ORDER",
    "analysis_block",
    "board_diagram",
    "card_text",
    "columns_block",
    "facts_line",
    "hand_block",
    "joker_text",
    "rank_text",
    "suit_line",
    "suit_ranks",
]

#: Hand-record order: spades, hearts, diamonds, clubs (black and red alternate).
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
VOID = "—"


def rank_text(card: Card) -> str:
    """'A', 'K', 'Q', 'J', '10', '9' ... '2': the ten in full, as on the cards themselves."""
    return card.pretty()[1:]


def card_text(card: Card) -> str:
    """'♠A', '♥10', or 'Big Joker' / 'Little Joker'."""
    return card.pretty()


def suit_ranks(cards: Sequence[Card], suit: Suit) -> str:
    """The ranks a hand holds in `suit`, high first, space-separated; a dash for a void."""
    ranks = sorted((c for c in cards if c.suit is suit), key=lambda c: -c.rank)
    return " ".join(rank_text(c) for c in ranks) or VOID


def suit_line(cards: Sequence[Card], suit: Suit) -> str:
    return f"{suit.symbol} {suit_ranks(cards, suit)}"


def joker_text(cards: Sequence[Card]) -> str:
    """The jokers a hand holds, by name ('Big Joker, Little Joker'); '' for none."""
    jokers = sorted((c for c in cards if c.is_joker), key=lambda c: -c.rank)
    return ", ".join(card_text(c) for c in jokers)


def hand_block(
    cards: Sequence[Card], size: float, *, label: str = "", note: str = "", gap: float = 0
) -> Block:
    """A hand by suit under an optional label (bold) and note (grey, e.g. the HCP)."""
    lines: list[Block] = []
    if label:
        lines.append(text_block(label, size, bold=True))
    if note:
        lines.append(text_block(note, size * 0.85, color=GREY))
    jokers = joker_text(cards)
    if jokers:
        lines.append(text_block(jokers, size, bold=True))
    lines.extend(text_block(suit_line(cards, suit), size) for suit in SUIT_ORDER)
    return vstack(lines, gap)


def columns_block(columns: Sequence[Sequence[Card]], size: float) -> Block:
    """An Open Whist layout: columns left to right numbered above, each column's cards top to
    bottom in the order they are laid down, so the last card (boxed, bold) is the exposed one
    on top, as it lies on the table."""
    pad = size * 0.35
    col_w = max(text_width(card_text(c), size, True) for col in columns for c in col) + 2 * pad
    line = size * 1.35
    depth = max(len(col) for col in columns)
    width = col_w * len(columns)
    height = line * (depth + 1)

    def paint(c: Any, x: float, y_top: float) -> None:
        for i, column in enumerate(columns):
            cx = x + i * col_w + col_w / 2
            draw_text(
                c, cx, y_top - size * 0.9, str(i + 1), size * 0.75, color=GREY, align="center"
            )
            for j, card in enumerate(column):
                top_card = j == len(column) - 1
                y = y_top - line * (j + 1)
                baseline = y - size
                if top_card:
                    c.saveState()
                    c.setLineWidth(0.8)
                    c.roundRect(x + i * col_w + pad / 2, y - line + pad / 2, col_w - pad, line, 1.5)
                    c.restoreState()
                draw_text(c, cx, baseline, card_text(card), size, bold=top_card, align="center")

    return Block(width, height, paint)


def facts_line(board: Board, rules: GameRules) -> str:
    """'Board 3 · Dealer South · Trumps: hearts' (the trumps only where the board fixes them)."""
    parts = [f"Board {board.number}", f"Dealer {board.dealer.full_name}"]
    if not rules.has_auction:
        parts.append(f"Trumps: {rules.trumps_text(board)}")
    return " · ".join(parts)


def turned_card_text(board: Board) -> str:
    """The card that set trumps, and whose it is (three-player Open Whist: no one's)."""
    card = board.turned_card
    if card is None:
        return ""
    owner = board.deal.seat_of(card)
    if owner is None:
        return f"Turned trump card: {card_text(card)} (belongs to no player)"
    return f"Trump card: {card_text(card)} ({owner.full_name}'s)"


def _fixed(block: Block, width: float) -> Block:
    return Block(width, block.height, block.paint)


def _compass(board: Board, rules: GameRules, size: float, corner: Block = EMPTY) -> Block:
    """North on top, West and East either side of the compass rose, South below; `corner`
    (the kitty, the trump card) goes in the empty bottom-right corner."""
    hands = {
        seat: hand_block(
            board.deal.hand(seat), size, label=seat.full_name, note=rules.seat_note(board, seat)
        )
        for seat in Seat
    }
    side = max(hands[Seat.W].width, hands[Seat.E].width, 22 * MM)
    middle = max(hands[Seat.N].width, hands[Seat.S].width, 24 * MM)
    box = _compass_rose(board, size)
    gap = size * 0.8
    top = hstack([spacer(0, side + gap), hands[Seat.N]])
    centre = hstack(
        [_fixed(hands[Seat.W], side + gap), _fixed(box, middle + gap), hands[Seat.E]], middle=True
    )
    bottom = hstack([spacer(0, side + gap), _fixed(hands[Seat.S], middle + gap), corner])
    return vstack([top, centre, bottom], gap=gap * 0.5)


def _compass_rose(board: Board, size: float) -> Block:
    """A small square with N, E, S, W and the board number; the dealer's letter underlined."""
    side = size * 5.2

    def paint(c: Any, x: float, y_top: float) -> None:
        c.saveState()
        c.setLineWidth(0.6)
        c.rect(x, y_top - side, side, side)
        c.restoreState()
        cx, cy = x + side / 2, y_top - side / 2
        spots = {
            Seat.N: (cx, y_top - size * 1.05),
            Seat.S: (cx, y_top - side + size * 0.3),
            Seat.W: (x + size * 0.55, cy - size * 0.35),
            Seat.E: (x + side - size * 0.55, cy - size * 0.35),
        }
        for seat, (sx, sy) in spots.items():
            dealer = seat is board.dealer
            draw_text(c, sx, sy, seat.value, size * 0.85, bold=dealer, align="center")
            if dealer:
                w = text_width(seat.value, size * 0.85, True)
                c.line(sx - w / 2, sy - 1.2, sx + w / 2, sy - 1.2)
        draw_text(c, cx, cy - size * 0.45, str(board.number), size * 1.3, bold=True, align="center")

    return Block(side, side, paint)


def _column_rows(board: Board, size: float) -> Block:
    """Open Whist: one row per seat with its layout and, beside it, the same cards by suit."""
    layouts = board.columns
    labels = {
        seat: vstack(
            [text_block(seat.full_name, size, bold=True)]
            + ([text_block("dealer", size * 0.8, color=GREY)] if seat is board.dealer else [])
        )
        for seat in layouts
    }
    cols = {seat: columns_block(layouts[seat], size) for seat in layouts}
    suits = {seat: hand_block(board.deal.hand(seat), size * 0.9) for seat in layouts}
    label_w = max(b.width for b in labels.values()) + size
    cols_w = max(b.width for b in cols.values()) + 1.5 * size
    rows = [
        hstack([_fixed(labels[seat], label_w), _fixed(cols[seat], cols_w), suits[seat]])
        for seat in layouts
    ]
    caption = text_block(
        "Columns left to right; the boxed card of each column is on top (exposed).",
        size * 0.8,
        color=GREY,
    )
    return vstack([caption, *rows], gap=size * 0.6)


def board_diagram(board: Board, rules: GameRules, size: float = 9, *, facts: bool = True) -> Block:
    """The whole board: facts, the four hands (or the column layout), kitty, turned card."""
    parts: list[Block] = []
    if facts:
        parts.append(text_block(facts_line(board, rules), size * 1.1, bold=True))
    kitty = hand_block(board.kitty, size, label="Kitty") if board.kitty else EMPTY
    turned = turned_card_text(board)
    if board.shape.keeps_dealt_order:
        parts.append(_column_rows(board, size))
        parts.append(kitty)
        if turned:
            parts.append(text_block(turned, size))
    else:
        note = paragraph(turned, size * 0.85, 30 * MM) if turned else EMPTY
        parts.append(_compass(board, rules, size, vstack([kitty, note])))
    return vstack(parts, gap=size * 0.6)


# ---- analysis ----------------------------------------------------------------------------


_STRAINS = ("C", "D", "H", "S", "NT")
_STRAIN_HEADS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}


def _trick_rows(tricks: Mapping[str, Any]) -> tuple[list[Column], list[list[str]]]:
    """Fixed-trump games: the tricks each side (three players: each player) takes at the
    board's trumps, one row."""
    trumps = str(tricks.get("trumps", ""))
    label = f"Tricks at {_STRAIN_HEADS.get(trumps, trumps)}"
    if "ns" in tricks:
        counts = {"NS": tricks["ns"], "EW": tricks["ew"]}
    else:
        counts = dict(tricks.get("tricks") or {})
    columns = [Column("")] + [Column(side, "center", min_width=8 * MM) for side in counts]
    return columns, [[label, *(str(n) for n in counts.values())]]


def _strain_rows(table: Mapping[str, Any]) -> tuple[list[Column], list[list[str]]]:
    """Auction games (Candid Whist): the declaring side's tricks per declarer and strain
    (LHO leads)."""
    columns = [Column("")] + [Column(_STRAIN_HEADS[s], "center") for s in _STRAINS]
    rows = [
        [seat, *(str(row.get(s, "")) for s in _STRAINS)]
        for seat, row in table.items()
        if isinstance(row, Mapping)
    ]
    return columns, rows


def _contract_type_rows(table: Mapping[str, Any]) -> tuple[list[Column], list[list[str]]]:
    """Bid Whist: the declaring side's best books per seat and contract type, a row per trump
    suit (and no-trump), uptown and downtown side by side for each seat, so the table fits a
    half-page cell; '~' marks a cell the search budget left approximate."""
    rough = set(table.get("approximate") or ())
    seats = [seat for seat, row in table.items() if isinstance(row, Mapping)]
    columns = [Column("")] + [
        Column(f"{seat} {way}", "center") for seat in seats for way in ("up", "dn")
    ]
    names: dict[str, dict[str, str]] = {}  # strain -> ranking -> the table's key
    for kind in CONTRACT_TYPES:
        strain = kind.trumps.symbol if kind.trumps is not None else "NT"
        ranking = kind.kind if kind.trumps is not None else kind.ranking
        names.setdefault(strain, {})[str(ranking)] = kind.name
    rows = []
    for strain, keys in names.items():
        cells = []
        for seat in seats:
            for way in ("uptown", "downtown"):
                key = keys[way]
                mark = "~" if f"{seat} {key}" in rough else ""
                cells.append(f"{table[seat].get(key, '')}{mark}")
        rows.append([strain, *cells])
    return columns, rows


def analysis_block(data: Mapping[str, Any], rules: GameRules, size: float = 8) -> Block:
    """The double-dummy table and the par line of one board's stored analysis
    (`BoardAnalysis.to_dict()`); a failed analysis prints its error instead."""
    if data.get("error"):
        return text_block(f"Analysis: {data['error']}", size, color=GREY)
    parts: list[Block] = []
    table = data.get("table")
    tricks = data.get("tricks")
    heading = "Double dummy"
    layout = rules.shape.dd_table
    if layout is DDTable.BOARD_TRICKS and isinstance(tricks, Mapping):
        columns, rows = _trick_rows(tricks)
        lead = tricks.get("leader")
        if lead:
            heading += f" ({lead} leads)"
    elif layout is DDTable.CONTRACT_TYPES and isinstance(table, Mapping):
        columns, rows = _contract_type_rows(table)
        heading += " (books, declarer's side; ~ approximate)"
    elif isinstance(table, Mapping):
        columns, rows = _strain_rows(table)
        heading += " (tricks, declarer's side)"
    else:
        columns, rows = [], []
    if rows:
        parts.append(text_block(heading, size, bold=True))
        parts.append(table_block(Table(columns, rows, size=size, row_height=size * 1.5)))
    parts.append(text_block(f"Par: {par_line(dict(data))}", size, bold=True))
    return vstack(parts, gap=size * 0.4)


def with_analysis(
    board: Board, rules: GameRules, data: Mapping[str, Any] | None, size: float = 9
) -> Block:
    """The board's diagram with its analysis under it, when there is one."""
    diagram = board_diagram(board, rules, size)
    if data is None:
        return diagram
    return vstack([diagram, analysis_block(data, rules, size * 0.9)], gap=size * 0.8)
