"""Table cards: one per table, read from the chairs, so the type is large and the lines few.

A card gives the table's number, the trumps hand by hand, where its winners and losers go
after each hand (table numbers worked out for this table, the ends of the room included) and
what the players left over do.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from engine.cards import Seat, Side
from engine.drives import DriveSettings, Outcome, Role
from engine.drives.moves import MoveRow, move_tables
from engine.printing.common import date_words, table_block
from engine.printing.drives.common import PAD, SEAT_WORDS, sit_out_words
from engine.printing.toolkit import (
    GREY,
    MM,
    Block,
    Column,
    PrintError,
    Sheet,
    Table,
    fill_grid,
    grid_for,
    hstack,
    paper_size,
    paragraph,
    spacer,
    text_block,
    text_width,
    vstack,
)

__all__ = ["drive_table_cards_pdf"]

# ---- table cards -----------------------------------------------------------------------------

TABLE_SIZE = 12
#: Hands on one line of the trump schedule.
LINE = 12


def _destinations(settings: DriveSettings) -> list[dict[tuple[Outcome, Role], tuple[int, Seat]]]:
    """Where each table's winning and losing A and B go after a hand: (table, seat).

    The tables are moved once by the engine itself (every table won by North-South), so the
    ends of the room behave on paper exactly as they do on screen. A player who would cross
    an end with ends=stay takes the seat of the other player of their role instead, which
    is the one case where the seat differs from the form's row."""
    count, form = settings.tables, settings.move
    tables = [(4 * t + 1, 4 * t + 2, 4 * t + 3, 4 * t + 4) for t in range(count)]
    moved = move_tables(tables, [Side.NS] * count, form, settings.ends)
    found = {player: t + 1 for t, table in enumerate(moved) for player in table}
    # With North-South winning: N is the winning A, S the winning B, E and W the losers.
    kinds = (
        (Outcome.WON, Role.A),
        (Outcome.LOST, Role.A),
        (Outcome.WON, Role.B),
        (Outcome.LOST, Role.B),
    )
    out = []
    for t in range(count):
        where = {}
        for index, (outcome, role) in enumerate(kinds):
            row = form.row(outcome, role)
            goes = found[tables[t][index]]
            ring = (t + row.offset) % count + 1
            other = Outcome.LOST if outcome is Outcome.WON else Outcome.WON
            seat = row.seat if goes == ring else form.row(other, role).seat
            where[(outcome, role)] = (goes, seat)
        out.append(where)
    return out


def _go_words(row: MoveRow, here: int, goes: int, seat: Seat) -> str:
    if goes == here:
        return f"stay, sit {SEAT_WORDS[seat]}"
    way = "up" if row.offset > 0 else "down"
    return f"{way} to table {goes}, sit {SEAT_WORDS[seat]}"


def _form_sentence(settings: DriveSettings) -> str:
    """The move form in one sentence: 'Winners stay; losers move, A up a table, B down one.'"""
    parts = []
    for outcome, who in ((Outcome.WON, "winners"), (Outcome.LOST, "losers")):
        rows = [settings.move.row(outcome, role) for role in Role]
        moves = [_step(row.offset) for row in rows]
        together = rows[0].offset == rows[1].offset and rows[0].side is rows[1].side
        if moves[0] == moves[1]:
            words = f"{who} {moves[0]}" + (" together" if together else ", changing partners")
        else:
            a, b = settings.roles
            words = f"{who}: {a} {moves[0]}, {b} {moves[1]}"
        parts.append(words)
    text = "; ".join(parts)
    text = text[0].upper() + text[1:] + "."
    if settings.ends == "wrap" and settings.tables > 1:
        text += f" Up from table {settings.tables} is table 1; down from table 1 is table "
        text += f"{settings.tables}."
    elif settings.tables > 1:
        text += " At the first and last tables, a player who would move past the end stays."
    return text


def _step(offset: int) -> str:
    if offset == 0:
        return "stay"
    way = "up" if offset > 0 else "down"
    return f"{way} {'a table' if abs(offset) == 1 else f'{abs(offset)} tables'}"


def _short_table_words(settings: DriveSettings) -> str:
    """What the players left over do, the same all evening."""
    words = []
    if settings.has_dummy and settings.pairs:
        words.append(
            "One player partners a dummy hand all evening and plays both hands; the dummy "
            "scores nothing."
        )
    elif settings.has_dummy:
        words.append(
            "Three players are left over, so one table plays with a dummy hand, which moves "
            "like a player: the player facing the dummy plays both hands and scores their "
            "side's points; the dummy scores nothing."
        )
    out = settings.bench_size
    if out and settings.pairs:
        words.append(
            f"One pair sits out each hand and each of them scores {sit_out_words(settings)}; "
            "the director calls which pair sits out next."
        )
    elif out:
        who = "One player sits out each hand and scores"
        if out > 1:
            who = f"{out} players sit out each hand and score"
        words.append(
            f"{who} {sit_out_words(settings)}; the director calls who sits out next, and a "
            "player coming back takes the seat of one leaving, of the same role."
        )
    return " ".join(words) or "Every table has four players: nobody sits out."


def _schedule(settings: DriveSettings, size: float, width: float) -> list[Block]:
    """The trumps, a half (or twelve hands) to a line: hand numbers over suit symbols, every
    line with the same column widths so the hands line up down the card."""
    if settings.game_rules.has_auction:
        return [text_block("Trumps are bid for at the table each hand.", size)]
    last, brk = settings.hands, settings.break_after
    if brk and max(brk, last - brk) <= LINE:
        spans = [(1, brk), (brk + 1, last)]
    else:
        spans = [(start, min(start + LINE - 1, last)) for start in range(1, last + 1, LINE)]
    label = text_width("Trumps", size, True) + size
    cell = (width - label) / LINE
    blocks = []
    for first, end in spans:
        hands = range(first, end + 1)
        columns = [Column("Hand", bold=True, min_width=label)]
        columns += [Column(str(h), "center", min_width=cell) for h in hands]
        symbols = []
        for hand in hands:
            suit = settings.trump(hand)
            symbols.append("NT" if suit is None else suit.symbol)
        table = Table(columns, [["Trumps", *symbols]], size=size, row_height=size * 1.9)
        blocks.append(table_block(table, label + cell * len(hands)))
    legend = "♥ hearts   ♦ diamonds   ♠ spades   ♣ clubs"
    if any(settings.trump(h) is None for h in range(1, last + 1)):
        legend += "   NT no trumps"
    blocks.append(text_block(legend, size * 0.8, color=GREY))
    return blocks


def drive_table_cards_pdf(
    settings: DriveSettings,
    tables: Iterable[int] | None = None,
    *,
    title: str = "",
    date: str | datetime.date | None = None,
    paper: str = "a4",
) -> bytes:
    """Table cards as PDF bytes, two to a page: the table's number, the trumps hand by hand,
    where its players go after each hand, and what the players left over do. `tables`
    picks some (all by default)."""
    numbers = sorted(set(tables)) if tables is not None else range(1, settings.tables + 1)
    for number in numbers:
        if not 1 <= number <= settings.tables:
            raise PrintError(f"tables: the drive has tables 1 to {settings.tables}, not {number}")
    grid = grid_for(paper_size(paper), min_width=MM, min_height=MM, max_columns=1, max_rows=2)
    sheet = Sheet(paper, title=title or "Table cards")
    sheet.begin_part("Table cards")
    width = grid.cell_width - 2 * PAD
    goes = _destinations(settings)
    schedule = vstack(_schedule(settings, TABLE_SIZE + 1, width), 2 * MM)
    form = paragraph(_form_sentence(settings), TABLE_SIZE, width)
    short = paragraph(_short_table_words(settings), TABLE_SIZE * 0.85, width, color=GREY)
    heading = " · ".join(part for part in (title.strip(), date_words(date)) if part)
    kind = "house-rule" if settings.move.form == "custom" else settings.move.form
    facts = f"{settings.tables} tables · {settings.hands} hands · {kind} drive"
    if settings.break_after:
        facts += f" · break after hand {settings.break_after}"
    blocks = []
    for number in numbers:
        where = goes[number - 1]
        rows = []
        for outcome, label in ((Outcome.WON, "Winners"), (Outcome.LOST, "Losers")):
            line = [label]
            for role in Role:
                table, seat = where[(outcome, role)]
                line.append(_go_words(settings.move.row(outcome, role), number, table, seat))
            rows.append(line)
        a, b = settings.roles
        moves = Table(
            [Column("After each hand", bold=True), Column(a), Column(b)],
            rows,
            size=TABLE_SIZE,
            row_height=TABLE_SIZE * 1.8,
        )
        big = text_block(f"Table {number}", 44, bold=True)
        top = vstack(
            [*([text_block(heading, 11, bold=True)] if heading else []), text_block(facts, 10)]
        )
        blocks.append(
            vstack(
                [
                    hstack([big, spacer(0, 6 * MM), top], middle=True),
                    spacer(2 * MM),
                    text_block("Trumps", 12, bold=True),
                    schedule,
                    spacer(2 * MM),
                    text_block("Moves", 12, bold=True),
                    form,
                    spacer(1 * MM),
                    table_block(moves, width),
                    spacer(2 * MM),
                    short,
                ],
                1 * MM,
            )
        )
    fill_grid(sheet, grid, blocks, pad=PAD)
    return sheet.finish()
