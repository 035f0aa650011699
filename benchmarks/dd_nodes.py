"""Search nodes of the double-dummy core on three fixed sets of 50 random classic deals.

Times vary from run to run by 10% or more on a shared machine; node counts do not, so this is
the measure to use when changing the search (a change that saves nodes without costing time
per node saves time). Each deal is solved once (random strain and leader, as in
`benchmarks.dd`, whose first set is the same), on a fresh solver.

    python -m benchmarks.dd_nodes [--check]

--check also compares every value with DDS (through endplay, a benchmark dependency only).
The figures in docs/development/double-dummy.md ("Checks and speed") come from this script.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from engine.dd import Position, solver_for
from tests.engine.dd.bridge import random_hands

SEEDS = (2026, 7, 11)
DEALS = 50


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare every value with DDS")
    args = parser.parse_args()
    if args.check:
        from tests.engine.dd.bridge import dds_tricks
    totals = []
    for seed in SEEDS:
        rng = random.Random(seed)
        nodes = []
        for _ in range(DEALS):
            hands, trump, leader = (
                random_hands(rng),
                rng.choice((None, 0, 1, 2, 3)),
                rng.randrange(4),
            )
            solver = solver_for(Position(hands=hands, trump=trump, leader=leader))
            value = solver.solve(leader, leader)
            nodes.append(solver.nodes)
            if args.check and value != dds_tricks(hands, trump, leader, one_card=True):
                print(
                    f"DISAGREEMENT with DDS: seed {seed}, {hands}, trump {trump}, leader {leader}"
                )
                return 1
        totals.append(sum(nodes))
        print(
            f"seed {seed}: {sum(nodes) / 1e6:.2f}M nodes over {DEALS} deals "
            f"(median {statistics.median(nodes) / 1e3:.0f}k, max {max(nodes) / 1e3:.0f}k)"
        )
    print(f"total: {sum(totals) / 1e6:.2f}M nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
