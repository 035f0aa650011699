"""The drawing toolkit every printed document shares: paper, fonts, pages, text, blocks, grids.

Documents are drawn straight onto a reportlab canvas (no platypus story): cards and diagrams
need exact positions, and the canvas is several times faster for a 30-table print pack.

Two ideas carry most of the layout:
- a `Block` is something already measured (width and height at its natural size) that can
  draw itself with its top-left corner at a point; `place` scales a block down to fit its
  space, so a 13-card suit or a long name shrinks the diagram instead of being clipped;
- a `Grid` cuts the printable area into equal cells (cards, slips, guide cards) with cut
  marks on the lines the guillotine follows.

Every string goes through `draw_text`, which colours hearts and diamonds red wherever their
symbols appear, so no document has to remember to.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import Color
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from engine import EngineError

__all__ = [
    "BLACK",
    "BOLD",
    "FONT",
    "GREY",
    "MM",
    "PAPERS",
    "RED",
    "Block",
    "Column",
    "Flow",
    "Grid",
    "PrintError",
    "Sheet",
    "Table",
    "draw_text",
    "hstack",
    "paper_size",
    "paragraph",
    "place",
    "text_block",
    "text_width",
    "vstack",
]

MM: float = mm

#: Paper sizes by the names the API and the command line take.
PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}

FONT = "ClubwhistSans"
BOLD = "ClubwhistSans-Bold"
_FONT_FILES = {FONT: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
FONT_DIR = Path(__file__).resolve().parent / "fonts"

BLACK = Color(0, 0, 0)
#: Red suits: dark enough to read in poor light, clearly red beside black.
RED = Color(0.80, 0.0, 0.0)
GREY = Color(0.45, 0.45, 0.45)
LIGHT = Color(0.80, 0.80, 0.80)
SHADE = Color(0.93, 0.93, 0.93)

_RED_SYMBOLS = frozenset("♥♦♡♢")

Align = Literal["left", "center", "right"]


class PrintError(EngineError):
    """A document cannot be printed as asked (unknown paper, boards that do not fit)."""


def paper_size(paper: str) -> tuple[float, float]:
    """Width and height in points of 'a4' or 'letter' (any case); PrintError otherwise."""
    key = paper.strip().lower() if isinstance(paper, str) else paper
    try:
        return PAPERS[key]
    except (KeyError, TypeError):
        known = " or ".join(repr(name) for name in PAPERS)
        raise PrintError(f"unknown paper {paper!r}: use {known}") from None


@cache
def register_fonts() -> None:
    """Register the shipped DejaVu Sans once per process. System fonts are never looked at:
    the suit symbols and accented names must print the same on a fresh machine."""
    for name, filename in _FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))


def font_name(bold: bool) -> str:
    return BOLD if bold else FONT


def text_width(text: str, size: float, bold: bool = False) -> float:
    register_fonts()  # layouts may be measured before any sheet exists (cached: one lookup)
    width: float = pdfmetrics.stringWidth(text, font_name(bold), size)
    return width


def _runs(text: str) -> Iterator[tuple[str, bool]]:
    """The text cut into runs of (characters, red?)."""
    start = 0
    for i, char in enumerate(text):
        if char in _RED_SYMBOLS:
            if i > start:
                yield text[start:i], False
            yield char, True
            start = i + 1
    if start < len(text):
        yield text[start:], False


def draw_text(
    c: Canvas,
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    bold: bool = False,
    color: Color = BLACK,
    align: Align = "left",
    width: float | None = None,
) -> None:
    """Draw one line with its baseline at y; red suit symbols in red. `width`, when the
    caller has measured the text already, saves measuring it again to centre or align it.

    One text object per line, so a PDF reader (and the tests' text extraction) sees the line
    as one line, symbols included. The fill colour is black between drawing calls (whatever
    changes it restores it), so a black line sets no colour at all: most lines are black, and
    colour operators are a good share of a big pack's time.
    """
    if align != "left":
        if width is None:
            width = text_width(text, size, bold)
        x -= width / 2 if align == "center" else width
    obj = c.beginText(x, y)
    obj.setFont(font_name(bold), size)
    current = BLACK
    for run, red in _runs(text):
        wanted = RED if red else color
        if wanted is not current:
            obj.setFillColor(wanted)
            current = wanted
        obj.textOut(run)
    if current is not BLACK:
        obj.setFillColor(BLACK)
    c.drawText(obj)


# ---- blocks ------------------------------------------------------------------------------

Painter = Callable[[Canvas, float, float], None]


@dataclass(frozen=True)
class Block:
    """Something measured that draws itself with its top-left corner at (x, y_top)."""

    width: float
    height: float
    paint: Painter

    def draw(self, c: Canvas, x: float, y_top: float) -> None:
        self.paint(c, x, y_top)


EMPTY = Block(0, 0, lambda c, x, y: None)


def text_block(
    text: str, size: float, *, bold: bool = False, color: Color = BLACK, leading: float = 1.25
) -> Block:
    """One line of text; its height is the line's leading, its baseline a size below the top."""

    def paint(c: Canvas, x: float, y_top: float) -> None:
        draw_text(c, x, y_top - size, text, size, bold=bold, color=color)

    return Block(text_width(text, size, bold), size * leading, paint)


def paragraph(
    text: str, size: float, width: float, *, bold: bool = False, color: Color = BLACK
) -> Block:
    """Text wrapped at word breaks to lines no wider than `width`."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        # A word wider than the line (an address) is cut where it must be.
        while len(word) > 1 and text_width(word, size, bold) > width:
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return vstack(text_block(line, size, bold=bold, color=color) for line in lines)


def spacer(height: float, width: float = 0) -> Block:
    return Block(width, height, lambda c, x, y: None)


def vstack(blocks: Iterable[Block], gap: float = 0, align: Align = "left") -> Block:
    """Blocks one under the other."""
    items = [b for b in blocks if b is not EMPTY]
    width = max((b.width for b in items), default=0)
    height = sum(b.height for b in items) + gap * max(0, len(items) - 1)

    def paint(c: Canvas, x: float, y_top: float) -> None:
        y = y_top
        for b in items:
            dx = {"left": 0.0, "center": (width - b.width) / 2, "right": width - b.width}[align]
            b.draw(c, x + dx, y)
            y -= b.height + gap

    return Block(width, height, paint)


def hstack(blocks: Iterable[Block], gap: float = 0, *, middle: bool = False) -> Block:
    """Blocks side by side, tops aligned (or centred vertically with `middle`)."""
    items = [b for b in blocks if b is not EMPTY]
    width = sum(b.width for b in items) + gap * max(0, len(items) - 1)
    height = max((b.height for b in items), default=0)

    def paint(c: Canvas, x: float, y_top: float) -> None:
        for b in items:
            dy = (height - b.height) / 2 if middle else 0
            b.draw(c, x, y_top - dy)
            x += b.width + gap

    return Block(width, height, paint)


def place(
    c: Canvas,
    block: Block,
    x: float,
    y_top: float,
    width: float,
    height: float,
    *,
    align: Align = "center",
    valign: Literal["top", "middle"] = "top",
) -> float:
    """Draw the block inside the box, shrunk (never enlarged) to fit. Returns the scale used.

    Shrinking the whole block keeps a diagram's proportions when one suit is long, where
    clipping or wrapping would hide cards.
    """
    if block.width <= 0 or block.height <= 0:
        return 1.0
    scale = min(1.0, width / block.width, height / block.height)
    w, h = block.width * scale, block.height * scale
    dx = {"left": 0.0, "center": (width - w) / 2, "right": width - w}[align]
    dy = (height - h) / 2 if valign == "middle" else 0.0
    if scale == 1.0:
        block.draw(c, x + dx, y_top - dy)
        return scale
    c.saveState()
    c.translate(x + dx, y_top - dy)
    c.scale(scale, scale)
    block.draw(c, 0, 0)
    c.restoreState()
    return scale


# ---- pages -------------------------------------------------------------------------------

MARGIN = 12 * MM
FOOTER = 7 * MM


class Sheet:
    """One PDF being drawn: the canvas, the paper and the document part being drawn.

    Each part (curtain cards, travellers ...) starts on a fresh page, gets a bookmark, and
    numbers its pages in the footer, so a print pack can be found and sorted after printing.
    """

    def __init__(self, paper: str = "a4", *, title: str = "") -> None:
        self.paper = paper
        self.portrait = paper_size(paper)
        self.width, self.height = self.portrait
        register_fonts()
        self._buffer = io.BytesIO()
        self.canvas = Canvas(
            self._buffer,
            pagesize=(self.width, self.height),
            invariant=1,  # no timestamps or random ids: the same input gives the same bytes
            initialFontName=FONT,  # not reportlab's Helvetica, which the PDF would not embed
        )
        self.canvas.setTitle(title or "clubwhist")
        self.canvas.setAuthor("clubwhist")
        self.part = ""
        self.part_page = 0
        self.pages = 0
        self._open = False
        self._parts = 0
        self._size = self.portrait

    # The printable area inside the margins, bottom-up as reportlab measures.
    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.width - MARGIN

    @property
    def top(self) -> float:
        return self.height - MARGIN

    @property
    def bottom(self) -> float:
        return MARGIN

    def begin_part(self, name: str, *, landscape: bool = False) -> None:
        """Start a part on a fresh page, turned sideways for a wide table when asked."""
        self.part = name
        self.part_page = 0
        w, h = self.portrait
        self._size = (h, w) if landscape else (w, h)
        self.new_page()
        key = f"part{self._parts}"
        self._parts += 1
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(name, key, level=0)

    def new_page(self) -> None:
        if self._open:
            self.canvas.showPage()
        self._open = True
        if self._size != (self.width, self.height):
            self.width, self.height = self._size
        self.canvas.setPageSize((self.width, self.height))
        self.pages += 1
        self.part_page += 1
        if self.part:
            label = f"{self.part} · page {self.part_page}"
            draw_text(self.canvas, self.width / 2, FOOTER - 3, label, 7, color=GREY, align="center")

    def finish(self) -> bytes:
        if not self._open:
            self.new_page()
        self.canvas.showPage()
        self.canvas.save()
        return self._buffer.getvalue()


# ---- grids of cards ----------------------------------------------------------------------

CUT_MARK = 4 * MM
CUT_GAP = 1.5 * MM


@dataclass(frozen=True)
class Grid:
    """Equal cells filling the printable area: cards, slips, guide cards to cut apart."""

    columns: int
    rows: int
    cell_width: float
    cell_height: float
    left: float
    top: float
    cut_marks: bool = True
    landscape: bool = False

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def cell(self, index: int) -> tuple[float, float]:
        """Top-left corner of cell `index` on its page (row by row)."""
        i = index % self.per_page
        row, col = divmod(i, self.columns)
        return self.left + col * self.cell_width, self.top - row * self.cell_height

    def draw_guides(self, c: Canvas) -> None:
        """Cut marks on a sheet to cut apart; light rules between cells on one to keep whole."""
        if self.cut_marks:
            self.draw_cut_marks(c)
            return
        c.saveState()
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.5)
        bottom = self.top - self.rows * self.cell_height
        right = self.left + self.columns * self.cell_width
        for i in range(1, self.columns):
            x = self.left + i * self.cell_width
            c.line(x, self.top, x, bottom)
        for j in range(1, self.rows):
            y = self.top - j * self.cell_height
            c.line(self.left, y, right, y)
        c.restoreState()

    def draw_cut_marks(self, c: Canvas) -> None:
        """Ticks in the margins on every cut line and small crosses where inner lines meet:
        the lines themselves are not printed, so a slightly wandering cut leaves no edge."""
        xs = [self.left + i * self.cell_width for i in range(self.columns + 1)]
        ys = [self.top - j * self.cell_height for j in range(self.rows + 1)]
        c.saveState()
        c.setStrokeColor(BLACK)
        c.setLineWidth(0.4)
        bottom, right = ys[-1], xs[-1]
        for x in xs:
            c.line(x, self.top + CUT_GAP, x, self.top + CUT_GAP + CUT_MARK)
            c.line(x, bottom - CUT_GAP, x, bottom - CUT_GAP - CUT_MARK)
        for y in ys:
            c.line(self.left - CUT_GAP, y, self.left - CUT_GAP - CUT_MARK, y)
            c.line(right + CUT_GAP, y, right + CUT_GAP + CUT_MARK, y)
        arm = 2 * MM
        for x in xs[1:-1]:
            for y in ys:
                c.line(x, y - arm, x, y + arm)
        for y in ys[1:-1]:
            for x in xs:
                c.line(x - arm, y, x + arm, y)
        c.restoreState()


def grid_for(
    sheet_size: tuple[float, float],
    *,
    min_width: float,
    min_height: float,
    max_columns: int = 4,
    max_rows: int = 6,
    cut_marks: bool = True,
) -> Grid:
    """As many cells of at least min_width x min_height as the printable area holds (at
    least one), the spare room shared out among them."""
    width, height = sheet_size
    inset = CUT_GAP + CUT_MARK if cut_marks else 0
    area_w = width - 2 * max(MARGIN, inset + 3 * MM)
    area_h = height - 2 * max(MARGIN, inset + 3 * MM) - (FOOTER if not cut_marks else 0)
    columns = max(1, min(max_columns, int(area_w // min_width)))
    rows = max(1, min(max_rows, int(area_h // min_height)))
    cell_w, cell_h = area_w / columns, area_h / rows
    return Grid(
        columns,
        rows,
        cell_w,
        cell_h,
        (width - area_w) / 2,
        height - (height - area_h) / 2 + (FOOTER / 2 if not cut_marks else 0),
        cut_marks,
        landscape=width > height,
    )


def fill_grid(sheet: Sheet, grid: Grid, items: Sequence[Block], *, pad: float = 4 * MM) -> None:
    """Place each block in its own cell, page after page, shrunk to the cell if need be."""
    c = sheet.canvas
    for index, block in enumerate(items):
        if index % grid.per_page == 0:
            if index:
                sheet.new_page()
            grid.draw_guides(c)
        x, y = grid.cell(index)
        place(c, block, x + pad, y - pad, grid.cell_width - 2 * pad, grid.cell_height - 2 * pad)


# ---- tables ------------------------------------------------------------------------------


FLEX_FLOOR = 15 * MM
WRITE_IN_SHARE = 0.7


@dataclass(frozen=True)
class Column:
    """A table column: its heading, its alignment, a width floor (room to write in), and
    whether it gives way first when the table is too wide (`flex`: names, whose text then
    shrinks and, at worst, is cut short with an ellipsis)."""

    heading: str
    align: Align = "left"
    min_width: float = 0
    bold: bool = False
    flex: bool = False


@dataclass
class Table:
    """Rows of text under headings, ruled, with widths from the content.

    Column widths are the widest cell (or the floor); spare width is shared among the
    columns with a floor (the ones people write in). When the natural width is too wide the
    font shrinks, down to `least`.
    """

    columns: Sequence[Column]
    rows: Sequence[Sequence[str]]
    size: float = 9
    row_height: float = 0
    least: float = 6
    rules_after: frozenset[int] = field(default_factory=frozenset)
    shaded: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not self.row_height:
            self.row_height = self.size * 1.6
        self._layouts: dict[float | None, tuple[float, list[float]]] = {}

    def _natural(self, size: float) -> list[float]:
        pad = size * 0.8
        widths = []
        for i, column in enumerate(self.columns):
            cells = [text_width(column.heading, size, True)]
            cells += [text_width(row[i], size, column.bold) for row in self.rows if i < len(row)]
            widths.append(max(max(cells) + pad, column.min_width))
        return widths

    def layout(self, width: float | None = None) -> tuple[float, list[float]]:
        """The font size and the column widths for a table `width` wide (None: natural)."""
        if width not in self._layouts:
            self._layouts[width] = self._layout(width)
        size, widths = self._layouts[width]
        return size, list(widths)

    def _layout(self, width: float | None) -> tuple[float, list[float]]:
        """See `layout`.

        Too wide: the write-in columns (down to WRITE_IN_SHARE of their floor) and the flexible
        ones (down to FLEX_FLOOR) give way in proportion to their room; then the font shrinks.
        """
        size = self.size
        widths = self._natural(size)
        if width is None:
            return size, widths
        over = sum(widths) - width
        if over > 0:
            floors = [self._floor(i, size) for i in range(len(widths))]
            give = [max(0.0, w - f) for w, f in zip(widths, floors, strict=True)]
            share = min(1.0, over / sum(give)) if sum(give) else 0.0
            widths = [w - g * share for w, g in zip(widths, give, strict=True)]
            over = sum(widths) - width
        if over > 0:
            factor = max(self.least / size, width / sum(widths))
            size *= factor
            widths = [w * factor for w in widths]
        spare = width - sum(widths)
        stretch = [i for i, c in enumerate(self.columns) if c.min_width] or list(
            range(len(self.columns))
        )
        if spare > 0:
            for i in stretch:
                widths[i] += spare / len(stretch)
        return size, widths

    def _floor(self, i: int, size: float) -> float:
        """How narrow a column may become before the font has to shrink."""
        column = self.columns[i]
        heading = text_width(column.heading, size, True) + size * 0.8
        if column.flex:
            return max(FLEX_FLOOR, heading)
        if column.min_width:
            return max(column.min_width * WRITE_IN_SHARE, heading)
        return float("inf")

    def height(self, rows: int | None = None) -> float:
        count = len(self.rows) if rows is None else rows
        return self.row_height * (count + 1)

    def draw(
        self, c: Canvas, x: float, y_top: float, width: float, rows: range | None = None
    ) -> float:
        """Draw the heading and `rows` (all by default); returns the height used."""
        rows = range(len(self.rows)) if rows is None else rows
        size, widths = self.layout(width)
        h = self.row_height
        total = sum(widths)
        c.saveState()
        c.setFillColor(SHADE)
        c.rect(x, y_top - h, total, h, stroke=0, fill=1)
        for j, i in enumerate(rows):
            if i in self.shaded:
                c.rect(x, y_top - (j + 2) * h, total, h, stroke=0, fill=1)
        c.restoreState()
        base = (h - size * 0.72) / 2
        xs = [x]
        for w in widths:
            xs.append(xs[-1] + w)
        for k, column in enumerate(self.columns):
            self._cell(c, xs[k], widths[k], y_top - h + base, column.heading, size, True, column)
        for j, i in enumerate(rows):
            y = y_top - (j + 2) * h + base
            for k, column in enumerate(self.columns):
                text = self.rows[i][k] if k < len(self.rows[i]) else ""
                if text:
                    self._cell(c, xs[k], widths[k], y, text, size, column.bold, column)
        bottom = y_top - (len(rows) + 1) * h
        c.saveState()
        c.setStrokeColor(GREY)
        c.setLineWidth(0.5)
        for j in range(len(rows) + 2):
            heavy = j in (0, 1, len(rows) + 1) or (j >= 2 and rows[j - 2] in self.rules_after)
            c.setLineWidth(0.9 if heavy else 0.4)
            c.line(x, y_top - j * h, x + total, y_top - j * h)
        c.setLineWidth(0.4)
        for xv in xs:
            c.line(xv, y_top, xv, bottom)
        c.restoreState()
        return y_top - bottom

    @staticmethod
    def _cell(
        c: Canvas, x: float, width: float, y: float, text: str, size: float, bold: bool, col: Column
    ) -> None:
        """One cell: shrunk to fit (to 70 % at most). A name (a `flex` column) that still does
        not fit goes on two lines, split between the players ("Ann Smith &" / "Bob Jones"),
        or shrinks further: names are never cut short. Anything else is then cut short
        with '…'."""
        pad = size * 0.4
        room = width - 2 * pad
        measured = text_width(text, size, bold)
        if measured > room and col.flex:
            if text_width(text, size * 0.7, bold) > room and " & " in text:
                first, second = text.split(" & ", 1)
                lines = [f"{first} &", second]
                widest = max(text_width(line, size, bold) for line in lines)
                small = min(size * 0.62, size * room / widest)
                x += pad
                for k, line in enumerate(lines):
                    shift = small * 0.55 * (1 if k == 0 else -1)
                    draw_text(c, x, y + shift, line, small, bold=bold, align="left")
                return
            size = max(size * 0.45, size * room / measured)
            measured = text_width(text, size, bold)
        if measured > room:
            size = max(size * 0.7, size * room / measured)
            measured = text_width(text, size, bold)
            while len(text) > 1 and measured > room:
                text = text[:-2].rstrip() + "…"
                measured = text_width(text, size, bold)
        align: Align = col.align
        if align == "center":
            x += width / 2
        elif align == "right":
            x += width - pad
        else:
            x += pad
        draw_text(c, x, y, text, size, bold=bold, align=align, width=measured)


class Flow:
    """Blocks and tables down the page, a new page when the next one does not fit."""

    def __init__(self, sheet: Sheet, gap: float = 5 * MM) -> None:
        self.sheet = sheet
        self.gap = gap
        self.y = sheet.top

    @property
    def width(self) -> float:
        return self.sheet.right - self.sheet.left

    @property
    def room(self) -> float:
        return self.y - self.sheet.bottom

    def page(self) -> None:
        self.sheet.new_page()
        self.y = self.sheet.top

    def block(self, block: Block, *, gap: float | None = None) -> None:
        """Place a block; a block taller than a page is shrunk to the page."""
        if block.height > self.room and self.y < self.sheet.top:
            self.page()
        height = min(block.height, self.room)
        scale = place(
            self.sheet.canvas, block, self.sheet.left, self.y, self.width, height, align="left"
        )
        self.y -= block.height * scale + (self.gap if gap is None else gap)

    def rule(self) -> None:
        """A light line across, halfway into the gap above the cursor."""
        y = self.y + self.gap / 2
        if y >= self.sheet.top:
            return
        c = self.sheet.canvas
        c.saveState()
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.5)
        c.line(self.sheet.left, y, self.sheet.right, y)
        c.restoreState()

    def need(self, height: float) -> None:
        """Start a new page unless `height` still fits on this one."""
        if height > self.room and self.y < self.sheet.top:
            self.page()

    def table(self, table: Table, *, breaks: frozenset[int] | None = None) -> None:
        """A table, split across pages with its heading repeated. With `breaks`, a page may
        end only after those rows (a board's lines stay together)."""
        start = 0
        total = len(table.rows)
        while start < total:
            fit = int(self.room // table.row_height) - 1
            end = min(total, start + max(fit, 0))
            if breaks is not None and end < total:
                allowed = [i + 1 for i in breaks if start < i + 1 <= end]
                end = max(allowed, default=start)
            if end <= start:
                if self.y < self.sheet.top:
                    self.page()
                    continue
                end = min(total, start + max(fit, 1))  # one group taller than a page
            used = table.draw(
                self.sheet.canvas, self.sheet.left, self.y, self.width, range(start, end)
            )
            self.y -= used + self.gap
            start = end
            if start < total:
                self.page()
