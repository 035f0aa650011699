"""The whole print pack of a classic whist event; prints the median of repeated runs.

Two events, each a two-winner Mitchell with players' names, a QR link on every table card and
a results sheet from a standings document made by scoring simulated results:
- 15 tables, 15 rounds of 2 boards: 30 boards, every pair plays all 30;
- 30 tables cut to 12 rounds of 3 boards: every pair plays 36 boards, 90 boards are dealt (a
  30-table Mitchell has 30 sets), as `results_pipeline.py` reads "a 27-board Mitchell".
The pack holds curtain cards, hand records, board slips, the duplication sheet, travellers,
table and pair cards and the results sheet. Targets on the project's 2-core machine: under
2 s and under 4 s.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from io import BytesIO

from pypdf import PdfReader

from engine.dealing import deal_boards
from engine.games import rules_for
from engine.movements import mitchell
from engine.printing import print_pack
from engine.printing.toolkit import register_fonts
from engine.scoring import TravellerLine, pair_key, score_session
from engine.scoring.document import StandingsDocument, section_standings

REPEATS = 5


def _mark(marks: list[tuple[str, float]], done: int, total: int, label: str) -> None:
    """The print pack's progress callback: when each part was done."""
    marks.append((label, time.perf_counter()))


def event(tables: int, rounds: int, boards_per_round: int):
    movement = mitchell(tables, rounds=rounds, boards_per_round=boards_per_round)
    rules = rules_for("classic")
    boards = deal_boards("classic", range(1, movement.board_count() + 1), seed=tables)
    rng = random.Random(tables)
    lines = []
    for m in movement.meetings:
        for number in movement.boards_for_set(m.set):
            board = boards[number - 1]
            entry = rules.parse_entry(board, rules.plausible_entry(board, rng))
            lines.append(TravellerLine(number, m.ns, m.ew, rules.ns_score(board, entry)))
    names = {
        pair_key(slot.number, slot.direction): f"Zoë Ångström & Łukasz Nowak ({slot})"
        for slot in movement.pairs
    }
    section = section_standings(
        "A", score_session(lines, movement=movement), one_winner=False, names=names
    )
    document = StandingsDocument(1, 1, "mp", "ebu", "2026-11-23T22:00", (section,))
    links = {t: f"https://club.example/events/1/tables/{t}" for t in range(1, tables + 1)}
    return boards, rules, movement, document, names, links


def main() -> int:
    register_fonts()  # once per process, as in a worker; not part of any one pack
    print(f"median of {REPEATS} whole print packs (classic whist, A4)")
    all_met = True
    for tables, rounds, k, target in ((15, 15, 2, 2.0), (30, 12, 3, 4.0)):
        boards, rules, movement, document, names, links = event(tables, rounds, k)
        parts: dict[str, list[float]] = {}
        timings = []
        pdf = b""
        for _ in range(REPEATS):
            marks: list[tuple[str, float]] = []
            start = time.perf_counter()
            pdf = print_pack(
                boards,
                rules,
                movement,
                document=document,
                names=names,
                links=links,
                title="Club night",
                progress=functools.partial(_mark, marks),
            )
            timings.append(time.perf_counter() - start)
            previous = start
            for label, moment in marks:
                parts.setdefault(label, []).append(moment - previous)
                previous = moment
        seconds = statistics.median(timings)
        met = seconds < target
        all_met &= met
        pages = len(PdfReader(BytesIO(pdf)).pages)
        print(
            f"{tables:>3} tables, {rounds} rounds of {k}, {len(boards)} boards: {seconds:6.2f} s "
            f"for {pages} pages, {len(pdf) / 1e6:.1f} MB "
            f"(target {target:.0f} s: {'met' if met else 'NOT met'})"
        )
        print(
            "      "
            + ", ".join(f"{label} {statistics.median(t):.2f}" for label, t in parts.items())
        )
    print("all targets met" if all_met else "some targets NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
