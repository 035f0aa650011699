"""Two web nodes behind HAProxy, one killed mid-round: a county's installation through a whole
club night (issue "Hosted for a county").

What runs, on loopback (`benchmarks.harness.two_nodes`, the same evening the test
tests/web/load/test_two_web_nodes.py plays shorter): a PostgreSQL database of its own
(dropped at the end), Redis, HAProxy in front of two gunicorn nodes (one ASGI worker each, on
ports of their own, as two machines would be), two Celery workers on one queue; 300 tablets
of three clubs' events (100 tables each) play a whole Mitchell evening (9 rounds of 2 boards,
paced as `benchmarks.tablets_load` paces them) while 1,000 readers follow the first club's
live results; when 40 % of the results are stored, node "a" is killed (SIGKILL) and started
again 3 s later.

It prints the tablets' latencies (p50/p95/p99, by kind and in all), errors, results lost and
stored twice, the failover gap (the longest a tablet waited for an answer to a request sent
while node "a" was going down or down: its retries through the balancer included), which
node answered before, during and after, the readers' tally, and whether the standings caught
up and equal a rescore. Targets: p95 under 50 ms over the whole evening, 0 errors, 0 lost, 0
duplicated, failover gap under 10 s. `--rounds 3` for a quicker look; `--tables`/`--readers`
for other sizes. A service that cannot be reached is reported loudly and the script exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys

from benchmarks.harness import MAX_READERS, MAX_TABLETS, percentile
from benchmarks.harness.balancer import haproxy_path
from benchmarks.harness.two_nodes import TwoNodeRun, two_node_evening
from benchmarks.results_pipeline import loud, scratch_database

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
TABLETS = 300
READERS = 1000
ROUNDS = 9
SECONDS_A_ROUND = 50.0  # the time limit: a round takes about 20 s at this load model
P95_TARGET_MS = 50.0
GAP_TARGET_S = 10.0


def report(run: TwoNodeRun, rounds: int) -> None:
    counted = run.counted
    print(
        f"\n{len(run.tablets)} tablets ({rounds} rounds of 2 boards), {run.readers.readers} "
        f"readers; two nodes behind HAProxy, node a killed when "
        f"{run.results_expected * 2 // 5} results were stored and started again"
    )
    everything: list[float] = []
    for kind in ("state", "submit", "retry", "confirm"):
        values = [v for t in run.tablets for v in t.times[kind]]
        everything += values
        if values:
            p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
            print(
                f"  {kind:<8} {len(values):>6} requests  p50 {p50:6.1f} ms"
                f"  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms"
            )
    p95 = percentile(everything, 0.95) * 1000
    print(
        f"  all      {len(everything):>6} requests  p95 {p95:.1f} ms "
        f"(target under {P95_TARGET_MS:.0f} ms: {'met' if p95 < P95_TARGET_MS else 'NOT met'})"
    )
    errors = run.errors
    print(f"  errors: {len(errors)}{' ' + repr(errors[:3]) if errors else ''}")
    print(
        f"  {counted.line()} (of {run.results_expected}); "
        f"{run.finished} of {len(run.tablets)} tablets finished their evening"
    )
    gap = run.failover_gap()
    down = run.back_at - run.killed_at if run.killed_at else 0.0
    window = [
        waited
        for t in run.tablets
        for at, waited, _ in t.calls
        if run.killed_at - 2.0 <= at <= run.back_at
    ]
    print(
        f"  failover gap (longest wait for an answer while node a went down or was down, "
        f"{down:.1f} s from the kill until it answered again): {gap:.2f} s "
        f"(target under {GAP_TARGET_S:.0f} s: {'met' if gap < GAP_TARGET_S else 'NOT met'}); "
        f"p95 of those {len(window)} calls {percentile(window, 0.95) * 1000:.0f} ms"
    )
    before = run.served(0.0, run.killed_at - 1.0)
    during = run.served(run.killed_at + 0.5, run.back_at)
    after = run.served(run.back_at + 2.0, float("inf"))
    print(
        f"  answered by node: before {dict(before)}, while a was down {dict(during)}, "
        f"after {dict(after)}; {run.tablets_through_both()} tablets answered by both"
    )
    across = "never" if run.across_nodes is None else f"{run.across_nodes * 1000:.0f} ms"
    print(f"  a result confirmed through node a reached a reader on node b: {across}")
    print(f"  readers: {run.readers.line()}")
    print(f"  Celery tasks by worker: {run.worker_tasks}")
    if run.converged_after is None:
        print("  standings did not catch up within 60 s of the last tablet")
    else:
        same = f"no: {run.mismatches[0]}" if run.mismatches else "yes"
        print(
            f"  standings caught up {run.converged_after * 1000:.0f} ms after the last tablet; "
            f"equal to a from-scratch rescore: {same}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=TABLETS, help=f"default {TABLETS}")
    parser.add_argument("--readers", type=int, default=READERS, help=f"default {READERS}")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"default {ROUNDS}")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= MAX_TABLETS:
        parser.error(f"--tables {args.tables}: give 1 to {MAX_TABLETS}. Nothing was run.")
    if not 0 <= args.readers <= MAX_READERS:
        parser.error(f"--readers {args.readers}: give 0 to {MAX_READERS}. Nothing was run.")
    if not 1 <= args.rounds <= 12:
        parser.error(f"--rounds {args.rounds}: give 1 to 12 rounds. Nothing was run.")
    if haproxy_path() is None:
        loud("needs HAProxy (apt-get install haproxy)")
        return 0
    with scratch_database(REDIS_URL) as database_url:
        if database_url is None:
            return 0
        run = two_node_evening(
            database_url=database_url,
            redis_url=REDIS_URL,
            tablets=args.tables,
            readers=args.readers,
            rounds=args.rounds,
            boards_per_round=2,
            seconds=SECONDS_A_ROUND * args.rounds,
        )
        report(run, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
