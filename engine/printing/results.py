"""The results sheet: the standings of every field, then each board with its hand record
(par and the double-dummy table when an analysis is given) beside its scored results.

It reads the standings document only (`engine.scoring.document`), never a live session, so
what is printed is what was published. Board results need nothing from the game's rules:
the document already holds each line's NS score and the points each side earned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from engine.boards import Board
from engine.games import GameRules
from engine.printing.common import table_block
from engine.printing.hands import with_analysis
from engine.printing.toolkit import (
    GREY,
    MM,
    Block,
    Column,
    Flow,
    Sheet,
    Table,
    hstack,
    place,
    spacer,
    text_block,
    vstack,
)
from engine.scoring.document import (
    BoardLine,
    FieldStandings,
    SectionStandings,
    StandingsDocument,
)

__all__ = ["draw_results_sheet", "results_sheet", "standings_table"]

SIZE = 9.5
FIELD_TITLES = {"NS": "North-South", "EW": "East-West", "ALL": "Standings"}
METHODS = {
    "mp": "matchpoints",
    "cross-imps": "cross-IMPs",
    "butler": "Butler IMPs",
    "total": "total points",
}


def standings_table(field: FieldStandings, session_columns: Sequence[tuple[str, str]]) -> Table:
    """A field's ranking: rank ('2=' for a tie), pair, names, score, percentage, and the
    game's session figures (Candid Whist's bags) where the section has them."""
    rows = field.rows
    with_pct = any(row.percentage is not None for row in rows)
    columns = [
        Column("Rank", "right", bold=True),
        Column("Pair", "center", bold=True),
        Column("Names", flex=True),
        Column("Score", "right", bold=True),
    ]
    if with_pct:
        columns.append(Column("%", "right", bold=True))
    columns += [Column(heading, "right") for _key, heading in session_columns]
    columns.append(Column("Boards", "right"))
    body = []
    for row in rows:
        line = [
            row.rank,
            str(row.pair),
            row.names,
            row.total.display if row.total is not None else "",
        ]
        if with_pct:
            line.append(row.percentage.display if row.percentage is not None else "")
        line += [str(row.session.get(key, "")) for key, _heading in session_columns]
        line.append(str(row.boards))
        body.append(line)
    return Table(columns, body, size=SIZE, row_height=SIZE * 1.7)


Contracts = Mapping[tuple[int, int], str]
"""(board number, NS pair number) -> the result as the players entered it, in short
("4♠ N 10", "NS 8"), from the game's own `describe_short`."""


def board_table(lines: Sequence[BoardLine], contracts: Mapping[int, str] | None = None) -> Table:
    """A board's results: the pairs, the result played (when `contracts`, NS pair number ->
    its short text, is given), NS's score (or the artificial score) and the points."""
    columns = [
        Column("NS", "center", bold=True),
        Column("EW", "center", bold=True),
    ]
    if contracts:
        columns.append(Column("Result", "left"))
    columns += [
        Column("NS score", "right"),
        Column("NS pts", "right", bold=True),
        Column("EW pts", "right", bold=True),
    ]
    body = [
        [
            str(line.ns),
            str(line.ew),
            *([contracts.get(line.ns, "") if line.artificial == "" else ""] if contracts else []),
            line.artificial or ("" if line.ns_score is None else str(line.ns_score)),
            line.ns_points.display if line.ns_points is not None else "",
            line.ew_points.display if line.ew_points is not None else "",
        ]
        for line in sorted(lines, key=lambda line: (line.ns, line.ew))
    ]
    return Table(columns, body, size=SIZE * 0.9, row_height=SIZE * 1.5)


def _board_block(
    board: Board | None,
    number: str,
    rules: GameRules,
    lines: Sequence[BoardLine],
    analysis: Mapping[str, Any] | None,
    width: float,
    contracts: Mapping[int, str] | None = None,
) -> Block:
    """The hand record on the left, the board's results on the right."""
    results = table_block(board_table(lines, contracts))
    top = next((line.top.display for line in lines if line.top is not None), "")
    label = "Results" if board is not None else f"Board {number}"
    heading = text_block(label + (f" · top {top}" if top else ""), 10, bold=True)
    right = vstack([heading, spacer(1 * MM), results])
    if board is None:
        return right
    diagram = with_analysis(board, rules, analysis, 8.5)
    room = width - right.width - 6 * MM
    scale = min(1.0, room / diagram.width) if diagram.width else 1.0

    def paint(c: Canvas, x: float, y_top: float) -> None:
        place(c, diagram, x, y_top, room, diagram.height * scale, align="left")

    left = Block(room, diagram.height * scale, paint)
    return hstack([left, spacer(0, 6 * MM), right])


def _section(
    flow: Flow,
    section: SectionStandings,
    boards: Mapping[int, Board],
    rules: GameRules,
    analyses: Mapping[int, Mapping[str, Any]],
    several: bool,
    contracts: Contracts,
) -> None:
    if several:
        flow.need(30 * MM)
        flow.block(text_block(f"Section {section.name}", 14, bold=True))
    for field in section.fields:
        table = standings_table(field, section.session_columns)
        title = FIELD_TITLES.get(field.name, field.name)
        flow.need(12 * MM + table.row_height * min(len(table.rows) + 1, 5))
        flow.block(text_block(title, 12, bold=True), gap=2 * MM)
        flow.table(table)
    numbers = sorted(section.boards, key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else 0))
    if numbers:
        flow.need(60 * MM)
        flow.block(text_block("Board by board", 12, bold=True), gap=2 * MM)
    for number in numbers:
        board = boards.get(int(number)) if number.isdigit() else None
        analysis = analyses.get(int(number)) if number.isdigit() else None
        played = (
            {ns: text for (n, ns), text in contracts.items() if str(n) == number}
            if contracts
            else None
        )
        block = _board_block(
            board, number, rules, section.boards[number], analysis, flow.width, played
        )
        flow.block(block)
        flow.rule()


def draw_results_sheet(
    sheet: Sheet,
    document: StandingsDocument,
    boards: Sequence[Board],
    rules: GameRules,
    analyses: Mapping[int, Mapping[str, Any]] | None,
    title: str,
    *,
    contracts: Contracts | None = None,
    printed: str = "",
) -> None:
    """`printed`: when the standings were scored, in words for people ("24 November 2026,
    21:43"); without it the document's time is shown the same way, in UTC."""
    sheet.begin_part("Results")
    flow = Flow(sheet, gap=4 * MM)
    method = METHODS.get(document.method, document.method)
    facts = f"{rules.title} · {method}"
    if document.method == "mp":
        facts += f", {document.scale.upper()} scale"
    facts += f" · results version {document.version} · {printed or _when(document.computed_at)}"
    flow.block(
        vstack([text_block(title or "Results", 18, bold=True), text_block(facts, 9, color=GREY)])
    )
    by_number = {b.number: b for b in boards}
    for section in document.sections:
        _section(
            flow,
            section,
            by_number,
            rules,
            analyses or {},
            len(document.sections) > 1,
            contracts or {},
        )


def _when(stamp: str) -> str:
    """An ISO time stamp as people write it: "24 November 2026, 21:43 UTC"."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    zone = " UTC" if moment.utcoffset() == timedelta(0) else ""
    return f"{moment.day} {moment:%B %Y, %H:%M}{zone}"


def results_sheet(
    document: StandingsDocument,
    boards: Sequence[Board],
    rules: GameRules,
    *,
    analyses: Mapping[int, Mapping[str, Any]] | None = None,
    title: str = "",
    paper: str = "a4",
    contracts: Contracts | None = None,
    printed: str = "",
) -> bytes:
    """The results sheet as PDF bytes: standings per field, then every board's hand record
    and results; `analyses` (board number -> `BoardAnalysis.to_dict()`) adds par,
    `contracts` the result each table played, `printed` the time in the club's words."""
    sheet = Sheet(paper, title=title or "Results")
    draw_results_sheet(
        sheet, document, boards, rules, analyses, title, contracts=contracts, printed=printed
    )
    return sheet.finish()
