"""Par for whole board sets, as the event's par job computes it: 36 Bid Whist boards and 36
Open Whist boards, two boards at a time in two worker processes (one per core of the club's
machine), handed out hardest first (`engine.dd.analysis.hardest_first`).

    python -m benchmarks.par [--sets N] [--runs N] [--game bidwhist|openwhist]

One set of boards is not a measure: Bid Whist sets dealt with other seeds took up to twice the
first set's time. So each game is timed on SETS sets dealt with different seeds (the first is
the set earlier figures used, seeded by the game's name; then "<game>-2" and on), and judged
on the median set. For each set: the wall time (the median of `--runs` runs, each on fresh
processes, so nothing is cached); for the game: every set's time, their median, the CPU time
of solving, how many boards came back approximate, the search nodes (the same on every
machine and every run, unlike the times), the slowest board, and the target. Targets (issue
#45): both games under 6 s on two processes, the median over the sets, every board exact.
The exit status is 1 if any board is approximate or fails: the budget is ten times what the
hardest board needs, so a cut par here is a bug, not bad luck. Times depend on the machine and
on what else runs on it; a missed time target is reported, not failed.
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
SETS = 5
TARGETS = {"bidwhist": 6.0, "openwhist": 6.0}
"""Wall seconds for a whole set, the median over the sets (issue #45; #25 asked 10 and 8)."""


@dataclass(frozen=True)
class BoardRun:
    number: int
    cpu: float
    nodes: int
    approximate: bool
    error: str | None


def seed_of(variant: str, which: int) -> str:
    """Set 1 is seeded by the game's name, as `benchmarks.dd` dealt it before; the others by
    the name and their number."""
    return variant if which == 1 else f"{variant}-{which}"


@functools.cache
def boards(variant: str, which: int = 1) -> list[Board]:
    """Set `which`: the same boards on every run and in every process."""
    rules = rules_for(variant)
    rng = random.Random(seed_of(variant, which))
    return [rules.deal_board(n, rng) for n in range(1, BOARDS + 1)]


def _one(variant: str, which: int, number: int) -> BoardRun:
    """One board's par in a worker process, with its CPU time and search nodes. Boards do not
    pickle, so each worker deals the set itself, once."""
    rules = rules_for(variant)
    board = boards(variant, which)[number - 1]
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


def run_once(variant: str, which: int) -> tuple[float, list[BoardRun]]:
    """A whole set on fresh worker processes: wall seconds and each board's run."""
    order = [b.number for b in hardest_first(boards(variant, which), rules_for(variant))]
    start = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        runs = list(pool.map(_one, [variant] * len(order), [which] * len(order), order))
    return time.perf_counter() - start, runs


def report(variant: str, sets: int, repeat: int) -> bool:
    """Print the game's figures; False if a board was approximate or failed."""
    times: list[float] = []  # each set's wall time (the median of its runs)
    runs: list[BoardRun] = []
    failed: list[tuple[int, BoardRun]] = []
    rough: list[str] = []
    for which in range(1, sets + 1):
        walls = []
        for _ in range(repeat):
            wall, set_runs = run_once(variant, which)
            walls.append(wall)
        times.append(statistics.median(walls))
        runs += set_runs
        failed += [(which, r) for r in set_runs if r.error]
        rough += [f"{which}:{r.number}" for r in set_runs if r.approximate]
    slowest = max(runs, key=lambda r: r.cpu)
    target = TARGETS[variant]
    wall = statistics.median(times)
    met = wall < target and not rough and not failed
    exact = ", every board exact" if variant == "bidwhist" else ""
    print(
        f"par, {variant}: {sets} sets of {BOARDS} boards on {WORKERS} processes, each set "
        f"{', '.join(f'{t:.1f}' for t in times)} s"
        + (f" (each the median of {repeat} runs)" if repeat > 1 else "")
        + f"; median {wall:.1f} s (min {min(times):.1f}, max {max(times):.1f}); "
        f"{sum(r.cpu for r in runs) / sets:.1f} s CPU solving a set; {len(rough)} approximate"
        + (f" (set:board {rough})" if rough else "")
        + f"; {sum(r.nodes for r in runs) / sets / 1e6:.1f}M nodes a set; slowest board "
        f"{slowest.cpu:.1f} s, {slowest.nodes / 1e6:.1f}M nodes; target under {target:.0f} s"
        f"{exact}: {'met' if met else 'MISSED'}"
    )
    for which, r in failed:
        print(f"  set {which}, board {r.number} failed: {r.error}")
    if rough:
        print(f"  FAIL: approximate par on {rough}: the search ran out of its budget")
    return not rough and not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=SETS, help=f"board sets (default {SETS})")
    parser.add_argument("--runs", type=int, default=1, help="runs per set (the median is shown)")
    parser.add_argument("--game", choices=sorted(TARGETS), action="append", help="default: both")
    args = parser.parse_args()
    if args.runs < 1 or args.sets < 1:
        parser.error("--runs and --sets must be at least 1")
    ok = True
    for variant in args.game or ["bidwhist", "openwhist"]:
        ok = report(variant, args.sets, args.runs) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
