"""Full rescore of big sessions; prints the median of repeated runs against the targets.

Two readings of "a 27-board Mitchell" are timed:
- movement: a real Mitchell cut to 9 rounds of 3 boards (each pair plays 27 boards, every
  line checked against the movement, each board played 9 times);
- copies: 27 boards each played at every table (duplicated boards), the heavier case for
  matchpoint comparisons (30 or 100 results per board).
Targets on the project's 2-core machine: 30 tables under 100 ms, 100 tables under 1 s.
"""

from __future__ import annotations

import functools
import random

from benchmarks.harness import median_ms
from engine.movements import Movement, mitchell
from engine.scoring import TravellerLine, score_session

REPEATS = 7


def movement_case(tables: int, one_winner: bool) -> tuple[list[TravellerLine], Movement]:
    movement = mitchell(
        tables,
        rounds=9,
        boards_per_round=3,
        arrow_switch=[9] if one_winner else (),
    )
    rng = random.Random(tables)
    lines = [
        TravellerLine(board, m.ns, m.ew, rng.randrange(14))
        for m in movement.meetings
        for board in movement.boards_for_set(m.set)
    ]
    return lines, movement


def copies_case(tables: int) -> list[TravellerLine]:
    rng = random.Random(tables)
    return [
        TravellerLine(board, t, (t + board) % tables + 1, rng.randrange(14))
        for board in range(1, 28)
        for t in range(1, tables + 1)
    ]


def main() -> int:
    print(f"median of {REPEATS} full rescores (matchpoints, EBU scale)")
    all_met = True
    for tables, target in ((30, 100.0), (100, 1000.0)):
        for one in (False, True):
            lines, movement = movement_case(tables, one)
            ms = median_ms(functools.partial(score_session, lines, movement=movement), REPEATS)
            met = ms < target
            all_met &= met
            winners = "one-winner" if one else "two-winner"
            print(
                f"{tables:>3} tables, 9x3 boards, {winners} Mitchell, {len(lines)} lines: "
                f"{ms:8.1f} ms (target {target:.0f} ms: {'met' if met else 'NOT met'})"
            )
        lines = copies_case(tables)
        ms = median_ms(functools.partial(score_session, lines), REPEATS)
        met = ms < target
        all_met &= met
        print(
            f"{tables:>3} tables, 27 boards each played {tables} times, {len(lines)} lines: "
            f"{ms:8.1f} ms (target {target:.0f} ms: {'met' if met else 'NOT met'})"
        )
    print("all targets met" if all_met else "some targets NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
