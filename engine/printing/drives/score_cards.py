"""Score cards: one per player, a row per hand to fill in as the evening goes.

Each card carries the drive's name and date, the player's number and name (or a line to write
it on), the role, and a row per hand: its trumps printed, then table, partner, the side's
tricks, the score and the running total in pencil. A boxed half-time total follows the break,
a boxed final total the last hand. Where the seating of a hand is known (the first hand's,
drawn before the evening) its table, seat and partner are printed too; where its result is
known (`figures`: after play, a card to take home) its tricks, score and running total, and the
half-time and final totals.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from engine.drives import DUMMY, DriveSettings, Seating
from engine.printing.common import DASH, date_words, fitted_name, write_in
from engine.printing.drives.common import (
    PAD,
    Names,
    names_by_number,
    scores_tricks,
    sit_out_points,
    sit_out_words,
    trumps_words,
)
from engine.printing.toolkit import (
    GREY,
    MM,
    Block,
    Column,
    Grid,
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
    vstack,
)

__all__ = ["CardFigures", "score_cards_layout", "score_cards_pdf"]

#: The least room a hand's row leaves for a pencil; below it a card takes more paper.
ROW_MIN = 4.6 * MM
ROW_MAX = 6.5 * MM
CARD_HEAD = 27 * MM
#: Cards per page, each with its page turned sideways or not and its columns and rows.
_LAYOUTS = ((4, False, 2, 2), (2, True, 2, 1), (1, False, 1, 1))


@dataclass(frozen=True)
class CardFigures:
    """A player's figures as the card prints them, for the hands whose results are known:
    by hand, (the side's tricks, the score, the running total) as text ("" where the game
    counts none), then the half-time and final totals ("" while not known)."""

    hands: dict[int, tuple[str, str, str]]
    half_time: str = ""
    final: str = ""


# ---- score cards -----------------------------------------------------------------------------


def score_cards_layout(settings: DriveSettings, *, paper: str = "a4") -> Grid:
    """The grid the score cards are cut from: as many to a page as leave every hand's row
    room to write in (four, two, or one card that shrinks to its page for a very long drive)."""
    rows = settings.hands + (2 if settings.break_after else 1) + 1
    width, height = paper_size(paper)
    for count, sideways, columns, lines in _LAYOUTS:
        size = (height, width) if sideways else (width, height)
        grid = grid_for(size, min_width=MM, min_height=MM, max_columns=columns, max_rows=lines)
        if grid.cell_height - 2 * PAD >= CARD_HEAD + rows * ROW_MIN or count == 1:
            return grid
    raise AssertionError("unreachable: the last layout always fits")


def score_cards_pdf(
    settings: DriveSettings,
    names: Names = None,
    *,
    title: str = "",
    date: str | datetime.date | None = None,
    seatings: Sequence[Seating] = (),
    players: Iterable[int] | None = None,
    figures: Mapping[int, CardFigures] | None = None,
    paper: str = "a4",
) -> bytes:
    """Score cards as PDF bytes, one per player in number order (`players` picks some, for a
    card lost or spoilt). `names` pre-prints names; `seatings` (hand 1's, then hand 2's ...)
    pre-prints the table, seat and partner of the hands already seated; `figures` (by player)
    fills in the hands already played and the totals."""
    names_of = names_by_number(names)
    chosen = sorted(set(players)) if players is not None else range(1, settings.players + 1)
    for player in chosen:
        if not 1 <= player <= settings.players:
            raise PrintError(
                f"players: the drive's players are 1 to {settings.players}, not {player}"
            )
    for hand, seating in enumerate(seatings, 1):
        if seating.hand != hand:
            raise PrintError(
                f"seatings: give hand 1's seating first, then each hand in turn; "
                f"seating {hand} is hand {seating.hand}'s"
            )
    if len(seatings) > settings.hands:
        raise PrintError(f"seatings: the drive has {settings.hands} hands, not {len(seatings)}")
    grid = score_cards_layout(settings, paper=paper)
    sheet = Sheet(paper, title=title or "Score cards")
    sheet.begin_part("Score cards", landscape=grid.landscape)
    width, height = grid.cell_width - 2 * PAD, grid.cell_height - 2 * PAD
    card = _Card(settings, title.strip(), date_words(date), seatings, width, height, figures or {})
    fill_grid(sheet, grid, [card.block(p, names_of.get(p, "")) for p in chosen], pad=PAD)
    return sheet.finish()


@dataclass(frozen=True)
class _Card:
    """What every score card of one drive shares: its columns, rows and heading lines."""

    settings: DriveSettings
    title: str
    date: str
    seatings: Sequence[Seating]
    width: float
    height: float
    figures: Mapping[int, CardFigures]

    def block(self, player: int, name: str) -> Block:
        head = self.header(player, name)
        table = self.table(player, self.height - head.height - 2 * MM)
        boxes = [i for i, row in enumerate(table.rows) if row[0] == ""]

        def paint(c: Canvas, x: float, y_top: float) -> None:
            head.draw(c, x, y_top)
            top = y_top - head.height - 2 * MM
            table.draw(c, x, top, self.width)
            _, widths = table.layout(self.width)
            c.saveState()
            c.setLineWidth(1.6)
            for i in boxes:  # the half-time and final totals, boxed to stand out
                y = top - (i + 2) * table.row_height
                c.rect(x + sum(widths[:-1]), y, widths[-1], table.row_height)
            c.restoreState()

        return Block(self.width, head.height + 2 * MM + table.height(), paint)

    def header(self, player: int, name: str) -> Block:
        settings, width = self.settings, self.width
        top = [text_block(self.title or "Whist drive", 11, bold=True)]
        if self.date:
            top.append(text_block(self.date, 9, color=GREY))
        number = text_block(f"No. {player}", 16, bold=True)
        room = width - number.width - 4 * MM
        blank = Block(room, 16, write_in("Name", room))
        who = fitted_name(name, 12, room) if name else blank
        first = next((seating for seating in self.seatings if player in seating), None)
        role = (
            f"Role: {settings.role_label(first.role(player))}"
            if first
            else f"Role: {settings.roles[0]} / {settings.roles[1]} (ring one)"
        )
        facts = [role, f"{settings.hands} hands"]
        if settings.joined(player) > 1:
            facts.append(f"came at hand {settings.joined(player)}")
        if settings.left(player) is not None:
            facts.append(f"left after hand {settings.left(player)}")
        if settings.break_after:
            facts.append(f"break after hand {settings.break_after}")
        notes = [" · ".join(facts), self.scoring_note()]
        return vstack(
            [
                hstack(top, 4 * MM),
                spacer(1 * MM),
                hstack([number, spacer(0, 4 * MM), who], middle=True),
                spacer(1 * MM),
                *(paragraph(line, 7.5, width, color=GREY) for line in notes if line),
            ]
        )

    def scoring_note(self) -> str:
        settings = self.settings
        game = settings.game_rules
        if scores_tricks(settings):
            words = "Score: every trick your side takes."
        elif game.takes_tricks:
            words = "Score: your side's tricks above six (odd tricks)."
        else:
            words = f"Score: {game.title} points for your side, as the game scores them."
        if settings.bench_size:
            words += f" Sitting out scores {sit_out_words(settings)}."
        return words

    def table(self, player: int, room: float) -> Table:
        """The hands' rows, as tall as `room` allows between a pencil's least and a
        comfortable most."""
        settings = self.settings
        one_column = scores_tricks(settings)
        columns = [
            Column("Hand", "center", bold=True),
            Column("Trumps", "left", min_width=16 * MM if settings.game_rules.has_auction else 0),
            Column("Table", "center", min_width=9 * MM),
            Column("Partner", "center", min_width=11 * MM),
            Column("Tricks", "center", min_width=10 * MM),
        ]
        if not one_column:
            columns.append(Column("Score", "center", min_width=10 * MM))
        columns.append(Column("Total", "center", min_width=13 * MM, bold=True))
        rows: list[list[str]] = []
        shaded = set()
        known = self.figures.get(player, CardFigures({}))
        for hand in range(1, settings.hands + 1):
            rows.append(self.hand_row(player, hand, one_column))
            if hand == settings.break_after:
                shaded.add(len(rows))
                rows.append(["", "Half-time", *[""] * (len(columns) - 3), known.half_time])
        shaded.add(len(rows))
        rows.append(["", "Final", *[""] * (len(columns) - 3), known.final])
        row_height = max(ROW_MIN, min(ROW_MAX, room / (len(rows) + 1)))
        return Table(
            columns,
            rows,
            size=min(9.5, row_height * 0.5),
            row_height=row_height,
            shaded=frozenset(shaded),
            rules_after=frozenset(shaded),
        )

    def hand_row(self, player: int, hand: int, one_column: bool) -> list[str]:
        """A hand's row: its trumps, and where the player sits if the hand is seated."""
        table = partner = tricks = score = ""
        if hand <= len(self.seatings):
            seating = self.seatings[hand - 1]
            place = seating.place(player)
            if player not in seating:  # not come yet, or gone home: the card says so
                gone = hand > (self.settings.left(player) or hand)
                table, partner, tricks = ("left" if gone else "late"), DASH, DASH
            elif place is None:
                table, partner, tricks = "out", DASH, DASH
                score = sit_out_points(self.settings)
            else:
                mate = seating.partner(player)
                table = f"{place.table} {place.seat}"
                partner = "dummy" if mate == DUMMY else str(mate)
        total = ""
        played = self.figures.get(player, CardFigures({})).hands.get(hand)
        if played is not None:
            tricks, score, total = played
        cells = [table, partner, score or tricks] if one_column else [table, partner, tricks, score]
        return [str(hand), trumps_words(self.settings, hand), *cells, total]
