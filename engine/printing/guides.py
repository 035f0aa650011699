"""Guide cards: one left on each table (who sits there each round, which boards, where the
boards and the pairs go next) and one carried by each pair (where to sit, against whom, with
which boards). Read at arm's length, so the type is large and the lines few.

Everything comes from the movement: its meetings, the pairs' guide rows (`guide_for_pair`,
which say where each pair goes next), the relay (bye) stand's sets, arrow-switched rounds and
shared tables, so Mitchells, Howells and imported movements print the same way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from engine.movements import PHANTOM, Meeting, Movement
from engine.printing.common import DASH
from engine.printing.movement import number_ranges
from engine.printing.toolkit import (
    GREY,
    MM,
    Block,
    Column,
    Grid,
    Sheet,
    Table,
    fill_grid,
    grid_for,
    hstack,
    paper_size,
    paragraph,
    spacer,
    text_block,
    vstack,
)
from engine.scoring.model import pair_key

__all__ = [
    "draw_pair_cards",
    "draw_table_cards",
    "pair_cards",
    "pair_cards_layout",
    "table_cards",
    "table_cards_layout",
]

PAD = 4 * MM
TABLE_SIZE = 12
TABLE_ROW = 6.5 * MM
TABLE_HEAD = 30 * MM
PAIR_SIZE = 10.5
PAIR_ROW = 5.8 * MM
PAIR_HEAD = 24 * MM
QR_SIZE = 32 * MM


def _boards(movement: Movement, board_set: int) -> str:
    return number_ranges(movement.boards_for_set(board_set))


def _pair(number: int) -> str:
    return "sit out" if number == PHANTOM else str(number)


def _set_tables(movement: Movement) -> dict[tuple[int, int], list[int]]:
    """(round, set) -> the tables playing that set; the relay stand's sets are in
    `movement.relay_sets`."""
    places: dict[tuple[int, int], list[int]] = defaultdict(list)
    for m in sorted(movement.meetings):
        places[(m.round, m.set)].append(m.table)
    return places


def _boards_go(movement: Movement, places: dict[tuple[int, int], list[int]], r: int, s: int) -> str:
    """Where set `s` goes after round `r`: a table, the relay stand, a rest until a later
    round (Howells), or nowhere more (collect it)."""
    if r >= movement.rounds:
        return DASH
    tables = places.get((r + 1, s))
    if tables:
        return " & ".join(f"table {t}" for t in tables)
    if (r + 1, s) in movement.relay_sets:
        return "relay stand"
    for later in range(r + 2, movement.rounds + 1):
        tables = places.get((later, s))
        if tables:
            return f"rest, round {later}: table {tables[0]}"
    return "done"


def _next_tables(movement: Movement) -> dict[tuple[int, int, str], int | None]:
    """(round, table, seat) -> the table the pair in that seat goes to next round."""
    found: dict[tuple[int, int, str], int | None] = {}
    for slot in movement.pairs:
        direction = None if movement.one_winner else slot.direction
        for row in movement.guide_for_pair(slot.number, direction):
            assert row.seat is not None
            found[(row.round, row.table, row.seat)] = row.next_table
    return found


def _goes(target: int | None, here: int, last: bool) -> str:
    if last or target is None:
        return DASH
    return "stay" if target == here else f"table {target}"


def _qr(url: str, size: float) -> Block:
    """The link as a QR code (reportlab's own encoder) with the address under it in small
    type for anyone without a camera. reportlab's barcode package is imported only when a card
    has a link: it loads every kind of barcode, a tenth of a second. The flowable draws
    straight onto the canvas, several times faster than the widget's shapes."""
    from reportlab.graphics.barcode.qr import QrCode

    code = QrCode(url, width=size, height=size, qrLevel="M")
    caption = paragraph(url, 6, size, color=GREY)

    def paint(c: Canvas, x: float, y_top: float) -> None:
        code.drawOn(c, x, y_top - size)
        caption.draw(c, x, y_top - size - 1 * MM)

    return Block(size, size + 1 * MM + caption.height, paint)


def _header(title: str, lines: list[str], size: float, width: float) -> Block:
    return vstack(
        [text_block(title, size * 2, bold=True), spacer(2 * MM)]
        + [paragraph(line, size * 0.8, width, color=GREY) for line in lines if line]
    )


def _card(header: Block, table: Table, width: float, corner: Block | None = None) -> Block:
    """A guide card: the header and the table, with the QR code (if any) on the right."""
    side = corner.width + 4 * MM if corner is not None else 0.0
    table_width = width - side

    def paint_table(c: Canvas, x: float, y_top: float) -> None:
        table.draw(c, x, y_top, table_width)

    body = vstack([header, spacer(2 * MM), Block(table_width, table.height(), paint_table)])
    if corner is None:
        return body
    return hstack([body, spacer(0, 4 * MM), corner])


# ---- table cards -------------------------------------------------------------------------


@dataclass(frozen=True)
class Travel:
    """Where every set and every pair is each round, worked out once for all the cards."""

    places: dict[tuple[int, int], list[int]]
    nexts: dict[tuple[int, int, str], int | None]
    at_table: dict[int, list[Meeting]]

    @classmethod
    def of(cls, movement: Movement) -> Travel:
        at_table: dict[int, list[Meeting]] = defaultdict(list)
        for m in sorted(movement.meetings):
            at_table[m.table].append(m)
        return cls(_set_tables(movement), _next_tables(movement), at_table)


def table_card_table(movement: Movement, table: int, travel: Travel | None = None) -> Table:
    """The rounds at `table`: pairs, boards, and where boards and pairs go next."""
    travel = travel or Travel.of(movement)
    places, nexts = travel.places, travel.nexts
    rows = travel.at_table[table]
    ns_moves = any(
        nexts.get((g.round, table, "NS")) not in (None, table) and g.round < movement.rounds
        for g in rows
    )
    columns = [
        Column("Round", "center", bold=True),
        Column("NS", "center", bold=True),
        Column("EW", "center", bold=True),
        Column("Boards", "center"),
        Column("Boards go to", "center", flex=True),  # "rest, round 3: table 2": never cut
    ]
    if ns_moves:
        columns.append(Column("NS go to", "center"))
    columns.append(Column("EW go to", "center"))
    body = []
    for g in rows:
        last = g.round >= movement.rounds
        line = [
            f"{g.round}{'*' if g.round in movement.arrow_switch_rounds else ''}",
            _pair(g.ns),
            _pair(g.ew),
            _boards(movement, g.set),
            _boards_go(movement, places, g.round, g.set),
        ]
        if ns_moves:
            line.append(_goes(nexts.get((g.round, table, "NS")), table, last))
        line.append(_goes(nexts.get((g.round, table, "EW")), table, last))
        body.append(line)
    return Table(columns, body, size=TABLE_SIZE, row_height=TABLE_ROW)


def _table_notes(movement: Movement, table: int, travel: Travel) -> list[str]:
    notes = [movement.description]
    for group in movement.shared_tables:
        if table in group:
            others = ", ".join(str(t) for t in group if t != table)
            notes.append(f"Shares its boards with table {others}.")
    if movement.arrow_switch_rounds & {m.round for m in travel.at_table[table]}:
        notes.append("* Arrow switch: the pair listed NS plays the North-South cards.")
    return notes


def relay_card_table(movement: Movement) -> Table:
    """The relay (bye) stand: the set resting there each round, where it came from and goes."""
    places = _set_tables(movement)
    body = []
    for r, s in sorted(movement.relay_sets):
        before = places.get((r - 1, s))
        body.append(
            [
                str(r),
                _boards(movement, s),
                " & ".join(f"table {t}" for t in before) if before else DASH,
                _boards_go(movement, places, r, s),
            ]
        )
    columns = [
        Column("Round", "center", bold=True),
        Column("Boards resting", "center"),
        Column("From", "center"),
        Column("Go to", "center"),
    ]
    return Table(columns, body, size=TABLE_SIZE, row_height=TABLE_ROW)


def _table_blocks(movement: Movement, links: Mapping[int, str] | None, width: float) -> list[Block]:
    blocks = []
    travel = Travel.of(movement)
    # The sit-out table of a Howell for an odd number of pairs is not set up: no card.
    for table in movement.tables_in_play:
        url = (links or {}).get(table)
        corner = _qr(url, QR_SIZE) if url else None
        text_width = width - (QR_SIZE + 4 * MM if corner else 0)
        notes = _table_notes(movement, table, travel)
        header = _header(f"Table {table}", notes, TABLE_SIZE, text_width)
        blocks.append(_card(header, table_card_table(movement, table, travel), width, corner))
    if movement.relay_sets:
        notes = ["The boards resting this round (the bye stand)."]
        header = _header("Relay stand", notes, TABLE_SIZE, width)
        blocks.append(_card(header, relay_card_table(movement), width))
    return blocks


def _grid(size: tuple[float, float], rows: int, *, head: float, row: float, columns: int) -> Grid:
    return grid_for(
        size,
        min_width=size[0] / (columns + 1),
        min_height=head + row * (rows + 1) + 2 * PAD,
        max_columns=columns,
    )


def table_cards_layout(movement: Movement, *, paper: str = "a4") -> Grid:
    """One card per table (and one for the relay stand), one under another."""
    return _grid(paper_size(paper), movement.rounds, head=TABLE_HEAD, row=TABLE_ROW, columns=1)


def draw_table_cards(sheet: Sheet, movement: Movement, links: Mapping[int, str] | None) -> None:
    sheet.begin_part("Table cards")
    grid = table_cards_layout(movement, paper=sheet.paper)
    fill_grid(sheet, grid, _table_blocks(movement, links, grid.cell_width - 2 * PAD), pad=PAD)


def table_cards(
    movement: Movement, *, links: Mapping[int, str] | None = None, paper: str = "a4"
) -> bytes:
    """Table guide cards as PDF bytes; `links` (table number -> URL) adds each table's QR
    code, for instance the page where that table enters its results."""
    sheet = Sheet(paper, title="Table cards")
    draw_table_cards(sheet, movement, links)
    return sheet.finish()


# ---- pair cards --------------------------------------------------------------------------


def pair_card_table(movement: Movement, pair: int, direction: str | None) -> Table:
    """A pair's rounds: table, the seat it takes, its opponents, the boards."""
    rows = movement.guide_for_pair(pair, direction)
    body = []
    for g in rows:
        switched = g.round in movement.arrow_switch_rounds
        sitting_out = g.opponents == PHANTOM
        body.append(
            [
                str(g.round),
                # The sit-out table is not set up: the pair simply sits out that round.
                DASH if sitting_out and g.table in movement.idle_tables else str(g.table),
                DASH if sitting_out else f"{g.seat}{'*' if switched else ''}",
                "sit out" if sitting_out else str(g.opponents),
                DASH if sitting_out else _boards(movement, g.set),
            ]
        )
    columns = [
        Column("Round", "center", bold=True),
        Column("Table", "center", bold=True),
        Column("Sit", "center", bold=True),
        Column("Against", "center"),
        Column("Boards", "center"),
    ]
    return Table(columns, body, size=PAIR_SIZE, row_height=PAIR_ROW)


def _pair_slots(movement: Movement) -> list[tuple[int, str | None]]:
    """Every pair with a card: NS then EW in a two-winner movement, in number order."""
    if movement.one_winner:
        return [(n, None) for n in sorted(set(movement.pair_numbers()))]
    return [
        (slot.number, slot.direction)
        for direction in ("NS", "EW")
        for slot in sorted(movement.pairs, key=lambda p: p.number)
        if slot.direction == direction
    ]


def _pair_blocks(movement: Movement, names: Mapping[str, str] | None, width: float) -> list[Block]:
    blocks = []
    for number, direction in _pair_slots(movement):
        title = f"{direction} pair {number}" if direction else f"Pair {number}"
        table = pair_card_table(movement, number, direction)
        rounds = movement.guide_for_pair(number, direction)
        lines = [(names or {}).get(pair_key(number, direction), "")]
        if rounds and len({g.table for g in rounds}) == 1:
            lines.append(f"Stay at table {rounds[0].table} all session.")
        elif rounds:
            lines.append(f"Start at table {rounds[0].table}.")
        if movement.arrow_switch_rounds & {g.round for g in rounds}:
            lines.append("* Arrow switch: that round you take the other direction's cards.")
        blocks.append(_card(_header(title, lines, PAIR_SIZE, width), table, width))
    return blocks


def pair_cards_layout(movement: Movement, *, paper: str = "a4") -> Grid:
    """Pair cards two across, as many down as their rounds allow."""
    return _grid(paper_size(paper), movement.rounds, head=PAIR_HEAD, row=PAIR_ROW, columns=2)


def draw_pair_cards(sheet: Sheet, movement: Movement, names: Mapping[str, str] | None) -> None:
    sheet.begin_part("Pair cards")
    grid = pair_cards_layout(movement, paper=sheet.paper)
    fill_grid(sheet, grid, _pair_blocks(movement, names, grid.cell_width - 2 * PAD), pad=PAD)


def pair_cards(
    movement: Movement, *, names: Mapping[str, str] | None = None, paper: str = "a4"
) -> bytes:
    """Pair guide cards as PDF bytes: one per pair (two-winner movements: the moving EW
    pairs and the stationary NS pairs), with the players' names when `names` has them."""
    sheet = Sheet(paper, title="Pair cards")
    draw_pair_cards(sheet, movement, names)
    return sheet.finish()
