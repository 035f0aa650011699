"""Double-dummy solver speed against DDS (via endplay), and par for whole board sets.

In one run on the same 50 random classic deals (fixed seed): our median single-solve time
(one trump and leader, random per deal) and DDS's, and their ratio; then full tables (5
strains x 4 declarers) on the first TABLE_DEALS of them, ours against DDS's calc_dd_table;
then par for 36 Open Whist boards and 36 Bid Whist boards (`bidwhist_par`, two processes).
Targets: single-solve ratio ours/DDS <= 3; par for 36 boards under 60 s. Every value is also
checked against DDS: a disagreement stops the benchmark.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.boards import Board
from engine.dd import Position, solve_all_leads, solver_for
from engine.dd.analysis import DDInputError, par
from engine.games import rules_for
from tests.engine.dd.bridge import dds_table, dds_tricks, random_hands

DEALS = 50
TABLE_DEALS = 5
PAR_BOARDS = 36
PAR_BUDGET_S = 120.0  # stop a par run after this long and report how far it got


def main() -> int:
    try:
        import endplay  # noqa: F401
    except ImportError:
        print("endplay is not installed: no DDS to compare with (see requirements/dev.txt)")
        return 0
    rng = random.Random(2026)
    deals = [
        (random_hands(rng), rng.choice((None, 0, 1, 2, 3)), rng.randrange(4)) for _ in range(DEALS)
    ]
    ours, theirs, theirs_all = [], [], []
    for hands, trump, leader in deals:
        start = time.perf_counter()
        value = solver_for(Position(hands=hands, trump=trump, leader=leader)).solve(leader, leader)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        expected = dds_tricks(hands, trump, leader, one_card=True)
        theirs.append(time.perf_counter() - start)
        start = time.perf_counter()
        dds_tricks(hands, trump, leader)
        theirs_all.append(time.perf_counter() - start)
        if value != expected:
            print(
                f"DISAGREEMENT with DDS: {hands} trump {trump} leader {leader}: "
                f"{value} vs {expected}"
            )
            return 1
    o, t = statistics.median(ours), statistics.median(theirs)
    print(
        f"single solve, {DEALS} deals: ours median {o * 1000:.1f} ms "
        f"(mean {statistics.mean(ours) * 1000:.1f}, max {max(ours) * 1000:.0f}); "
        f"DDS (one optimal card) median {t * 1000:.1f} ms; ratio {o / t:.2f} (target <= 3)"
    )
    a = statistics.median(theirs_all)
    print(
        f"  for reference, DDS valuing every card (solve_board's default): median "
        f"{a * 1000:.1f} ms; ratio {o / a:.2f}"
    )

    ours_t, theirs_t = [], []
    for hands, _, _ in deals[:TABLE_DEALS]:
        start = time.perf_counter()
        got = {}
        for trump in (None, 0, 1, 2, 3):
            leads = solve_all_leads(Position(hands=hands, trump=trump, leader=0))
            for declarer in range(4):
                got[(declarer, trump)] = 13 - leads[(declarer + 1) % 4]
        ours_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        expected_t = dds_table(hands)
        theirs_t.append(time.perf_counter() - start)
        if got != expected_t:
            print(f"DISAGREEMENT with DDS on a table: {hands}")
            return 1
    o, t = statistics.median(ours_t), statistics.median(theirs_t)
    print(
        f"full table, {TABLE_DEALS} deals: ours median {o * 1000:.0f} ms; "
        f"DDS median {t * 1000:.1f} ms; ratio {o / t:.1f}"
    )

    for variant in ("openwhist",):
        rules = rules_for(variant)
        board_rng = random.Random(variant)
        boards = [rules.deal_board(n, board_rng) for n in range(1, PAR_BOARDS + 1)]
        start = time.perf_counter()
        done = 0
        try:
            for board in boards:
                par(board, rules)
                done += 1
                if time.perf_counter() - start > PAR_BUDGET_S:
                    break
        except DDInputError as exc:
            print(f"par, {variant}: not available: {exc}")
            continue
        elapsed = time.perf_counter() - start
        note = (
            ""
            if done == PAR_BOARDS
            else f" (stopped after {done} boards at the {PAR_BUDGET_S:.0f} s budget)"
        )
        print(
            f"par, {variant}: {done} boards in {elapsed:.1f} s on one core{note} "
            "(target: 36 under 60 s)"
        )
    bidwhist_par()
    return 0


def _bidwhist_boards() -> list[Board]:
    rules = rules_for("bidwhist")
    board_rng = random.Random("bidwhist")
    return [rules.deal_board(n, board_rng) for n in range(1, PAR_BOARDS + 1)]


def _bidwhist_par_one(number: int) -> tuple[int, float, bool]:
    # boards do not pickle: each worker deals the same set again and takes its own
    board = _bidwhist_boards()[number - 1]
    start = time.perf_counter()
    result = par(board, rules_for("bidwhist"))
    return number, time.perf_counter() - start, result.approximate


def bidwhist_par(workers: int = 2) -> None:
    """Par for 36 Bid Whist boards in `workers` processes (one board per task), with the sum
    of the boards' own times (what one process would take) and the slowest board."""
    numbers = [board.number for board in _bidwhist_boards()]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_bidwhist_par_one, numbers))
    wall = time.perf_counter() - start
    times = [r[1] for r in results]
    rough = [r[0] for r in results if r[2]]
    slowest = max(results, key=lambda r: r[1])
    print(
        f"par, bidwhist: {len(numbers)} boards in {wall:.1f} s with {workers} worker processes "
        f"(target: 36 under 60 s); boards' own times sum to {sum(times):.1f} s (one process), "
        f"median {statistics.median(times):.2f} s, slowest board {slowest[0]} "
        f"{slowest[1]:.1f} s; approximate (node budget reached): "
        f"{', '.join(map(str, rough)) if rough else 'none'}"
    )


if __name__ == "__main__":
    sys.exit(main())
