"""One hand of a 1,000-player progressive drive in the engine: the moves and the totals.

    python -m benchmarks.drives [--players 1000] [--evenings 5]

Plays whole evenings of 24 hands of classic whist on 250 tables with random results and times,
for every hand, what the app asks of the engine when the last table's result is in: score the
hand from the 250 tables' results (`record_hand`, each result read by the game's rules), add it
to the running totals, and work out every player's next seat (`next_seating`). Prints the
median and the 95th percentile against the target (issue #26: under 10 ms for 1,000 players).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from engine.drives import Drive, DriveSettings, Totals

TARGET_MS = 10.0


def evening(drive: Drive, rng: random.Random) -> list[float]:
    """Every hand's time in milliseconds over one evening."""
    seating = drive.first_seating(seed=rng.randrange(1 << 30))
    totals = Totals.start(drive.settings)
    tables = len(seating.tables)
    times = []
    for hand in range(1, drive.settings.hands + 1):
        results = {t: {"ns_tricks": rng.randint(2, 11)} for t in range(1, tables + 1)}
        start = time.perf_counter()
        record = drive.record_hand(seating, results)
        totals = totals.add(record)
        if hand < drive.settings.hands:
            seating = drive.next_seating(seating, record)
        times.append((time.perf_counter() - start) * 1000)
    assert totals.hands == drive.settings.hands
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--evenings", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(2026)
    for players in sorted({args.players, args.players + 1}):
        drive = Drive(DriveSettings(players=players))
        evening(drive, rng)  # warm up
        times = [ms for _ in range(args.evenings) for ms in evening(drive, rng)]
        median = statistics.median(times)
        p95 = statistics.quantiles(times, n=20)[18]
        bench = drive.settings.bench_size
        verdict = "met" if median < TARGET_MS else "NOT met"
        print(
            f"{players} players ({drive.settings.tables} tables, {bench} sitting out), "
            f"{len(times)} hands: median {median:.2f} ms, p95 {p95:.2f} ms a hand "
            f"(target: median under {TARGET_MS:.0f} ms: {verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
