"""Double-dummy solver speed against DDS (via endplay), and par for whole board sets.

In one run on the same 50 random classic deals (fixed seed): our median single-solve time
(one trump and leader, random per deal) and DDS's, and their ratio; then full tables (5
strains x 4 declarers) on the first TABLE_DEALS of them, ours against DDS's calc_dd_table;
then par for 36 Open Whist boards and 36 Bid Whist boards, two boards at a time on the
machine's two cores. Targets: single-solve ratio ours/DDS <= 3; par for 36 boards under 60 s.
Every value is also checked against DDS: a disagreement stops the benchmark.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engine.boards import Board
from engine.dd import DDInputError, Position, solve_all_leads, solver_for
from engine.dd.analysis import par
from engine.games import rules_for
from tests.engine.dd.bridge import dds_table, dds_tricks, random_hands

DEALS = 50
TABLE_DEALS = 5
PAR_BOARDS = 36
PAR_WORKERS = 2  # the target is for 2 cores: one process per core, boards shared out


def _timed_par(variant: str, number: int) -> tuple[int, float, str]:
    """Par of one board in a worker process: (board, seconds, par or the error). Boards do not
    pickle, so each worker deals the set itself, once."""
    rules = rules_for(variant)
    board = _boards(variant)[number - 1]
    start = time.perf_counter()
    try:
        result = par(board, rules)
    except DDInputError as exc:
        return number, time.perf_counter() - start, f"not available: {exc}"
    return number, time.perf_counter() - start, ", ".join(result.contracts)


@functools.cache
def _boards(variant: str) -> list[Board]:
    rules = rules_for(variant)
    board_rng = random.Random(variant)
    return [rules.deal_board(n, board_rng) for n in range(1, PAR_BOARDS + 1)]


def par_run(variant: str) -> None:
    """Par for PAR_BOARDS boards of `variant`, PAR_WORKERS boards at a time (what the board
    analysis job does with a worker per core); prints the wall time and the slowest board."""
    start = time.perf_counter()
    with ProcessPoolExecutor(PAR_WORKERS) as pool:
        results = list(pool.map(_timed_par, [variant] * PAR_BOARDS, range(1, PAR_BOARDS + 1)))
    elapsed = time.perf_counter() - start
    failed = [r for r in results if r[2].startswith("not available")]
    if failed:
        print(f"par, {variant}: {failed[0][2]}")
        return
    slowest = max(results, key=lambda r: r[1])
    busy = sum(r[1] for r in results)
    print(
        f"par, {variant}: {PAR_BOARDS} boards in {elapsed:.1f} s on {PAR_WORKERS} processes "
        f"({busy:.1f} s of solving; slowest board {slowest[0]}: {slowest[1]:.1f} s) "
        "(target: under 60 s)"
    )


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

    for variant in ("openwhist", "bidwhist"):
        par_run(variant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
