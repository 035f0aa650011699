"""Double-dummy solver speed against DDS (via endplay): single solves and full tables.

In one run on the same 50 random classic deals (fixed seed): our median single-solve time
(one trump and leader, random per deal) and DDS's, and their ratio; then full tables (5
strains x 4 declarers) on the first TABLE_DEALS of them, ours against DDS's calc_dd_table.
Target: single-solve ratio ours/DDS <= 3. Every value is also checked against DDS: a
disagreement stops the benchmark. Par for whole board sets is `benchmarks.par`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine.dd import Position, solve_all_leads, solver_for
from tests.engine.dd.bridge import dds_table, dds_tricks, random_hands

DEALS = 50
TABLE_DEALS = 5


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
    return 0


if __name__ == "__main__":
    sys.exit(main())
