"""The documents an event prints, and which are too big to draw while the director waits.

reportlab draws a document in one go, in whatever thread asks for it: the travellers of the
largest event the limits allow (120 tables, 60 rounds of 10 boards: 72,000 lines) take 12 to
15 seconds on the project's two-core server, in a web thread the tablets need too. A document
past the size below is therefore drawn by a print job (tournaments/events/services/printing.py),
like the print pack, and the print page shows its progress and then the link.

Each document's drawing time grows with one measure of the event: its boards (curtain cards,
hand records, board slips, the duplication sheet), its table-rounds (guide cards: a line per
table or pair a round) or its lines (tables x rounds x boards a round: the travellers' lines,
and the results sheet's). Each limit is where that document took about two seconds, reading
the event and drawing it, on that server while it was busy with other work (measured at 30,
60, 90 and 120 tables): what a club plays on a club night (up to 30 tables, 36 boards) is
far below them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.events.models import Board, Event


@dataclass(frozen=True)
class DocumentKind:
    kind: str
    title: str
    purpose: str
    needs_results: bool = False


#: The documents, in the order a director uses them (the print pack's order too).
DOCUMENTS: tuple[DocumentKind, ...] = (
    DocumentKind(
        "curtain-cards", "Curtain cards", "One card per hand, to make up the boards; cut marks."
    ),
    DocumentKind(
        "hand-records", "Hand records", "Four-hand diagrams with par where it is computed."
    ),
    DocumentKind("board-slips", "Board slips", "A diagram per board to put in the board."),
    DocumentKind(
        "duplication-sheet", "Duplication sheet", "One line per board per seat, to deal by hand."
    ),
    DocumentKind(
        "travellers",
        "Traveller sheets",
        "One per board, rows filled in from the movement: the backup when a tablet fails.",
    ),
    DocumentKind(
        "table-cards",
        "Table guide cards",
        "Per table: who sits there each round, the boards, where they go next; the tablet QR code.",
    ),
    DocumentKind(
        "pair-cards", "Pair guide cards", "Per moving pair: table, direction and boards each round."
    ),
    DocumentKind(
        "results-sheet",
        "Results sheet",
        "Standings, every board's results with points, and the hand records: for the notice board.",
        needs_results=True,
    ),
)
KINDS = {d.kind: d for d in DOCUMENTS}


@dataclass(frozen=True)
class EventSize:
    """The measures the documents' drawing times grow with."""

    boards: int
    table_rounds: int  # tables x rounds: a table card's or a pair card's lines, all together
    lines: int  # tables x rounds x boards a round: every traveller line (sit-outs included)

    def measure(self, name: str) -> int:
        return {"boards": self.boards, "table_rounds": self.table_rounds, "lines": self.lines}[name]


#: Past this measure (kind: measure, limit) a document is drawn by a job, not in the request.
DRAWN_IN_JOB_OVER: dict[str, tuple[str, int]] = {
    "curtain-cards": ("boards", 800),
    "hand-records": ("boards", 800),
    "board-slips": ("boards", 800),
    "duplication-sheet": ("boards", 800),
    "travellers": ("lines", 4000),
    "table-cards": ("table_rounds", 1500),
    "pair-cards": ("table_rounds", 2500),
    "results-sheet": ("lines", 2000),
}


def event_size(event: Event) -> EventSize:
    """The event's size, from its section and a count of its boards (no board is read)."""
    section = event.section
    table_rounds = section.tables * section.rounds
    return EventSize(
        boards=Board.objects.filter(event=event).count(),
        table_rounds=table_rounds,
        lines=table_rounds * section.boards_per_round,
    )


def drawn_in_job(kind: str, size: EventSize) -> bool:
    """Whether the document `kind` of an event this big is drawn by a job."""
    measure, limit = DRAWN_IN_JOB_OVER[kind]
    return size.measure(measure) > limit
