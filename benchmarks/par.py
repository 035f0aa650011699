"""Par for whole board sets, as the event's par job computes it: 36 Bid Whist boards and 36
Open Whist boards, two boards at a time in two worker processes (one per core of the club's
machine), handed out hardest first (`engine.dd.analysis.hardest_first`).

    python -m benchmarks.par [--runs N] [--game bidwhist|openwhist]

For each game: the boards, the wall time (the median of N runs, each on fresh processes, so
nothing is cached), the CPU time of solving, how many boards came back approximate, the search
nodes (the same on every machine and every run, unlike the times), the slowest board, and the
target. Targets (issue #25): Bid Whist under 10 s with every board exact, Open Whist under 8 s.
The exit status is 1 if any board is approximate or fails: the budget is ten times what the
hardest board of the set needs, so a cut par here is a bug, not bad luck. Times depend on the
machine and on what else runs on it; a missed time target is reported, not failed.
docs/development/double-dummy.md ("Checks and speed") has the figures.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.boards import Board
from engine.dd import DDInputError, solver_for
from engine.dd.analysis import hardest_first, par, position_for
from engine.dd.bidwhist import board_solver
from engine.games import rules_for

BOARDS = 36
WORKERS = 2
"""One process per core: the target is for the club's 2-core machine."""
TARGETS = {"bidwhist": 10.0, "openwhist": 8.0}
"""Wall seconds for the whole set (issue #25)."""


@dataclass(frozen=True)
class BoardRun:
    number: int
    cpu: float
    nodes: int
    approximate: bool
    error: str | None


@functools.cache
def boards(variant: str) -> list[Board]:
    """The set: the same boards on every run and in every process (seeded by the game's name,
    as `benchmarks.dd` dealt them before)."""
    rules = rules_for(variant)
    rng = random.Random(variant)
    return [rules.deal_board(n, rng) for n in range(1, BOARDS + 1)]


def _one(variant: str, number: int) -> BoardRun:
    """One board's par in a worker process, with its CPU time and search nodes. Boards do not
    pickle, so each worker deals the set itself, once."""
    rules = rules_for(variant)
    board = boards(variant)[number - 1]
    start = time.process_time()
    try:
        if variant == "bidwhist":
            result = par(board, rules)
            nodes = board_solver(board, rules).budget.used_nodes
            approximate = result.approximate
        else:
            # par of a game whose board fixes trumps is one solve: the board's own tricks
            hands = {seat: board.deal.hand(seat) for seat in board.seats}
            position = position_for(rules, board, hands, rules.play_context(board))
            solver = solver_for(position)
            solver.solve(position.leader, position.leader)
            nodes, approximate = solver.nodes, False
    except DDInputError as exc:
        return BoardRun(number, time.process_time() - start, 0, False, str(exc))
    return BoardRun(number, time.process_time() - start, nodes, approximate, None)


def run_once(variant: str) -> tuple[float, list[BoardRun]]:
    """The whole set on fresh worker processes: wall seconds and each board's run."""
    order = [b.number for b in hardest_first(boards(variant), rules_for(variant))]
    start = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        runs = list(pool.map(_one, [variant] * len(order), order))
    return time.perf_counter() - start, runs


def report(variant: str, repeat: int) -> bool:
    """Print the game's figures; False if a board was approximate or failed."""
    walls: list[float] = []
    runs: list[BoardRun] = []
    for _ in range(repeat):
        wall, runs = run_once(variant)
        walls.append(wall)
    failed = [r for r in runs if r.error]
    rough = [r.number for r in runs if r.approximate]
    slowest = max(runs, key=lambda r: r.cpu)
    target = TARGETS[variant]
    wall = statistics.median(walls)
    met = wall < target and not rough and not failed
    exact = ", every board exact" if variant == "bidwhist" else ""
    print(
        f"par, {variant}: {len(runs)} boards in {wall:.1f} s on {WORKERS} processes"
        + (f" (median of {repeat}: {', '.join(f'{w:.1f}' for w in walls)})" if repeat > 1 else "")
        + f"; {sum(r.cpu for r in runs):.1f} s CPU solving; {len(rough)} approximate"
        + (f" (boards {rough})" if rough else "")
        + f"; {sum(r.nodes for r in runs) / 1e6:.1f}M nodes; slowest board {slowest.number}: "
        f"{slowest.cpu:.1f} s, {slowest.nodes / 1e6:.1f}M nodes; target under {target:.0f} s"
        f"{exact}: {'met' if met else 'MISSED'}"
    )
    for r in failed:
        print(f"  board {r.number} failed: {r.error}")
    if rough:
        print(f"  FAIL: approximate par on boards {rough}: the search ran out of its budget")
    return not rough and not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per game (the median is shown)")
    parser.add_argument("--game", choices=sorted(TARGETS), action="append", help="default: both")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    ok = True
    for variant in args.game or ["bidwhist", "openwhist"]:
        ok = report(variant, args.runs) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
