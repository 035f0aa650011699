"""Search nodes of the double-dummy core on three fixed sets of 50 random classic deals.

Times vary from run to run by 10% or more on a shared machine; node counts do not, so this is
the measure to use when changing the search (a change that saves nodes without costing time
per node saves time). Each deal is solved once (random strain and leader, as in
`benchmarks.dd`, whose first set is the same), on a fresh solver.

    python -m benchmarks.dd_nodes [--check]
    python -m benchmarks.dd_nodes --openwhist

--check also compares every value with DDS (through endplay, a benchmark dependency only).
--openwhist counts the column-mode search instead: the 36 Open Whist boards of
`benchmarks.par`, one after another on fresh solvers, each value checked against the values
recorded before the column-mode speed work (tests/engine/dd/openwhist_values_before.json).
The figures in docs/development/double-dummy.md ("Checks and speed") come from this script.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from benchmarks.par import boards
from engine.dd import Position, solver_for
from engine.dd.analysis import position_for
from engine.games import rules_for
from tests.engine.dd.bridge import random_hands

SEEDS = (2026, 7, 11)
DEALS = 50
OPEN_VALUES = Path(__file__).parent.parent / "tests/engine/dd/openwhist_values_before.json"


def open_whist() -> int:
    """Nodes (and CPU seconds, for what they are worth) of the Open Whist par boards."""
    rules = rules_for("openwhist")
    before = json.loads(OPEN_VALUES.read_text())["four"]
    rows = []
    for board in boards("openwhist"):
        hands = {seat: board.deal.hand(seat) for seat in board.seats}
        position = position_for(rules, board, hands, rules.play_context(board))
        solver = solver_for(position)
        start = time.process_time()
        value = solver.solve(position.leader, position.leader)
        rows.append((solver.nodes, time.process_time() - start, board.number))
        if value != before[str(board.number)]:
            print(f"VALUE CHANGED: board {board.number}: {value}, was {before[str(board.number)]}")
            return 1
    nodes, cpu, number = max(rows)
    median = statistics.median(r[0] for r in rows)
    print(
        f"openwhist: {sum(r[0] for r in rows) / 1e6:.2f}M nodes over {len(rows)} boards, "
        f"{sum(r[1] for r in rows):.1f} s CPU (median {median / 1e6:.2f}M; "
        f"largest board {number}: {nodes / 1e6:.2f}M, {cpu:.1f} s); every value as recorded"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare every value with DDS")
    parser.add_argument(
        "--openwhist", action="store_true", help="the Open Whist par boards (column mode)"
    )
    args = parser.parse_args()
    if args.openwhist:
        return open_whist()
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
