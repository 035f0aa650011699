"""Traveller sheets: one per board, a line for every table that plays it.

The lines are filled in from the movement (round, table, the pair holding the NS cards, the
pair holding EW; on an arrow-switched round that is the pair that usually sits EW, printed as
the movement gives it). The result columns come from the game's `entry_fields()`, headed by
each field's short name and explained in a legend under the table; nothing here knows which
game it prints. A game whose whole result is NS's tricks gets a derived EW column (the
field's maximum less NS), so the two sides can check each other's count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.pdfgen.canvas import Canvas

from engine.boards import Board
from engine.games import GameRules
from engine.games.entry import EntryField
from engine.movements import Movement
from engine.printing.hands import facts_line
from engine.printing.movement import check_boards_fit, pair_label, plays_of_board
from engine.printing.toolkit import (
    GREY,
    MARGIN,
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

__all__ = [
    "draw_travellers",
    "traveller_columns",
    "traveller_table",
    "travellers",
    "travellers_layout",
]

PAD = 4 * MM
ROW = 6.5 * MM
SIZE = 10
#: Header (board facts) and legend around the table.
FRAME = 24 * MM
WRITE_IN = 13 * MM


def _derived(fields: Sequence[EntryField]) -> EntryField | None:
    """The one case where a further column follows from the entry: NS's tricks alone."""
    if len(fields) == 1 and fields[0].kind == "int" and fields[0].key == "ns_tricks":
        return fields[0]
    return None


def traveller_columns(rules: GameRules, named: bool = False) -> list[Column]:
    """The traveller's columns: the meeting, the game's result fields, the scores."""
    fields = rules.entry_fields()
    columns = [
        Column("Round", "center"),
        Column("Table", "center"),
        Column("NS pair", "left" if named else "center", bold=True, flex=named),
        Column("EW pair", "left" if named else "center", bold=True, flex=named),
    ]
    columns += [Column(f.short, "center", min_width=WRITE_IN) for f in fields]
    if _derived(fields) is not None:
        columns.append(Column("EW", "center", min_width=WRITE_IN))
    columns += [
        Column(heading, "center", min_width=15 * MM)
        for heading in ("NS score", "EW score", "NS MP", "EW MP")
    ]
    return columns


def legend(rules: GameRules) -> str:
    """What each result column means, from the fields' own labels and choices."""
    fields = rules.entry_fields()
    parts = []
    for f in fields:
        text = f.short if f.label == f.short else f"{f.short}: {f.label}"
        if f.kind == "choice":
            text += " (" + " ".join(c.mark for c in f.choices) + ")"
        elif f.kind == "flag":
            text += " (tick)"
        elif f.minimum is not None and f.maximum is not None:
            text += f" ({f.minimum}-{f.maximum})"
        parts.append(text)
    derived = _derived(fields)
    if derived is not None:
        parts.append(f"EW: {derived.maximum} less {derived.short}")
    return "; ".join(parts) + "."


def traveller_table(
    board: Board, rules: GameRules, movement: Movement, names: Mapping[str, str] | None
) -> Table:
    """The board's lines: the meeting filled in, the result and score cells left blank."""
    plays = plays_of_board(movement, board.number)
    columns = traveller_columns(rules, named=bool(names))
    blanks = [""] * (len(columns) - 4)
    rows = [
        [
            str(m.round),
            str(m.table),
            pair_label(movement, m.ns, "NS", names),
            pair_label(movement, m.ew, "EW", names),
            *blanks,
        ]
        for m in plays
    ]
    return Table(columns, rows, size=SIZE, row_height=ROW)


def traveller_block(
    board: Board,
    rules: GameRules,
    movement: Movement,
    names: Mapping[str, str] | None,
    width: float,
) -> Block:
    table = traveller_table(board, rules, movement, names)
    plays = plays_of_board(movement, board.number)
    switched = {m.round for m in plays} & movement.arrow_switch_rounds

    def paint(c: Canvas, x: float, y_top: float) -> None:
        table.draw(c, x, y_top, width)

    title = text_block(f"Board {board.number}", 20, bold=True)
    facts = facts_line(board, rules).split(" · ", 1)[-1]
    side = vstack([text_block(rules.title, 10, bold=True), text_block(facts, 10)], align="right")
    header = hstack([title, spacer(0, max(0.0, width - title.width - side.width)), side])
    notes = legend(rules)
    if switched:
        rounds = ", ".join(str(r) for r in sorted(switched))
        notes += (
            f" Round {rounds}: arrow switch, the pairs shown hold those cards "
            "(the usual EW pair plays NS)."
        )
    return vstack(
        [
            header,
            spacer(2 * MM),
            Block(width, table.height(), paint),
            spacer(1.5 * MM),
            paragraph(notes, 7.5, width, color=GREY),
        ]
    )


def travellers_layout(
    boards: Sequence[Board],
    rules: GameRules,
    movement: Movement,
    *,
    names: Mapping[str, str] | None = None,
    paper: str = "a4",
) -> Grid:
    """The grid of travellers on the page: one under another, as many a page as fit with the
    busiest board's lines; sideways when players' names make the lines too wide to read."""
    width, height = paper_size(paper)
    if names and boards:
        natural = max(sum(traveller_table(b, rules, movement, names).layout()[1]) for b in boards)
        if natural > (width - 2 * MARGIN) * 1.1:
            width, height = height, width
    plays = max(len(plays_of_board(movement, b.number)) for b in boards) if boards else 1
    return grid_for(
        (width, height),
        min_width=width / 2,
        min_height=FRAME + ROW * (plays + 1) + 2 * PAD,
        max_columns=1,
        max_rows=3,
    )


def draw_travellers(
    sheet: Sheet,
    boards: Sequence[Board],
    rules: GameRules,
    movement: Movement,
    names: Mapping[str, str] | None,
) -> None:
    check_boards_fit(boards, movement)
    grid = travellers_layout(boards, rules, movement, names=names, paper=sheet.paper)
    sheet.begin_part("Travellers", landscape=grid.landscape)
    width = grid.cell_width - 2 * PAD
    ordered = sorted(boards, key=lambda b: b.number)
    blocks = [traveller_block(b, rules, movement, names, width) for b in ordered]
    fill_grid(sheet, grid, blocks, pad=PAD)


def travellers(
    boards: Sequence[Board],
    rules: GameRules,
    movement: Movement,
    *,
    names: Mapping[str, str] | None = None,
    paper: str = "a4",
) -> bytes:
    """Traveller sheets as PDF bytes, one per board, its lines filled in from the movement.

    `names` maps a pair key ('3', or 'NS3'/'EW3' in a two-winner movement) to its players.
    PrintError when the boards are not the ones the movement plays.
    """
    sheet = Sheet(paper, title="Travellers")
    draw_travellers(sheet, boards, rules, movement, names)
    return sheet.finish()
