"""The double-dummy C core against DDS (through endplay) on the same random classic deals.

Single solve: hearts trumps, East on lead, tricks for the side on lead, one thread each (DDS's
``solve_board`` runs in the calling thread). Ours is a fresh ``engine.dd._core.Solver`` plus one
``solve`` (its table starts empty); DDS is ``solve_board`` in its "one optimal card" mode (the
call closest to "tricks for the side on lead") and, for reference, in its default mode that
values every card, each right after ``dds_reset`` (tests/engine/dd/bridge.py: DDS keeps its
table for a deal solved again, which would make the second call nearly free).
Full table: 20 of our solves (5 strains x 4 leaders, one solver per strain so each strain's
table serves its four leaders) through ``engine.dd.solve_table`` on --threads threads (default
two, or one on a one-core machine) against DDS's ``calc_dd_table`` with
``SetMaxThreads`` of the same number, reset before each deal. Times are wall-clock medians.

    python -m benchmarks.dd_core [--deals N] [--seed S] [--no-tables] [--check]
                                 [--threads T] [--baseline PATH/_core.so]

--baseline times another build of the core (e.g. an older commit's, compiled by hand) on the
same deals, interleaved with ours so that the machine's load falls on both alike.

endplay is a benchmark dependency only; the engine never imports it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time

from endplay.dds import calc_dd_table, solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from engine.dd import Position, _core, solve_table
from tests.engine.dd.bridge import dds_reset, dds_set_threads

RANKS = "23456789TJQKA"
HEARTS, EAST = 2, 1
DENOMS = {0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades, -1: Denom.nt}


def random_hands(rng: random.Random) -> tuple[tuple[tuple[int, int], ...], ...]:
    deck = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(deck)
    return tuple(tuple(sorted(deck[i * 13 : (i + 1) * 13])) for i in range(4))


def to_pbn(hands: tuple[tuple[tuple[int, int], ...], ...]) -> str:
    out = []
    for hand in hands:
        parts = []
        for suit in (3, 2, 1, 0):  # PBN order S H D C; our indices C=0 D=1 H=2 S=3
            parts.append("".join(RANKS[r] for s, r in sorted(hand, reverse=True) if s == suit))
        out.append(".".join(parts))
    return "N:" + " ".join(out)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-tables", action="store_true", help="single solves only")
    ap.add_argument("--check", action="store_true", help="compare every result with DDS")
    ap.add_argument("--baseline", help="path of another compiled _core module to time too")
    ap.add_argument(
        "--threads", type=int, default=min(2, os.cpu_count() or 1), help="for both tables"
    )
    args = ap.parse_args()
    dds_set_threads(args.threads)
    base = None
    if args.baseline:
        spec = importlib.util.spec_from_file_location("_core", args.baseline)
        assert spec is not None and spec.loader is not None
        base = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(base)
    base_times: list[float] = []

    rng = random.Random(args.seed)
    deals = [random_hands(rng) for _ in range(args.deals)]
    ours, dds_one, dds_all, nodes = [], [], [], []
    ours_tab, dds_tab = [], []
    wrong = 0
    for k, hands in enumerate(deals):
        core_hands = Position(hands=hands, trump=HEARTS, leader=EAST).core_args()[0]
        t0 = time.perf_counter()
        solver = _core.Solver(core_hands, HEARTS)
        value = solver.solve(EAST, EAST)
        ours.append(time.perf_counter() - t0)
        nodes.append(solver.nodes)
        if base is not None:
            t0 = time.perf_counter()
            base_value = base.Solver(core_hands, HEARTS).solve(EAST, EAST)
            base_times.append(time.perf_counter() - t0)
            if base_value != value:
                print(f"deal {k}: baseline {base_value}, ours {value}", file=sys.stderr)

        deal = Deal(to_pbn(hands), first=Player(EAST), trump=Denom.hearts)
        dds_reset()
        t0 = time.perf_counter()
        best = solve_board(deal, SolveMode.OptimalOne)
        dds_one.append(time.perf_counter() - t0)
        dds_reset()
        t0 = time.perf_counter()
        solve_board(deal)
        dds_all.append(time.perf_counter() - t0)
        dds_value = max(t for _, t in best)
        if value != dds_value:
            wrong += 1
            print(f"deal {k}: ours {value}, DDS {dds_value}", file=sys.stderr)

        if not args.no_tables:
            t0 = time.perf_counter()
            leads = solve_table(Position(hands=hands, trump=None, leader=0), threads=args.threads)
            ours_tab.append(time.perf_counter() - t0)
            table = {
                (-1 if trump is None else trump, leader): v[leader]
                for trump, v in leads.items()
                for leader in range(4)
            }
            dds_reset()
            t0 = time.perf_counter()
            dtab = calc_dd_table(Deal(to_pbn(hands)))
            dds_tab.append(time.perf_counter() - t0)
            if args.check:
                for (trump, leader), v in table.items():
                    declarer = (leader + 3) % 4
                    if 13 - v != dtab[DENOMS[trump], Player(declarer)]:
                        wrong += 1
                        print(f"deal {k} table {trump} {leader}: mismatch", file=sys.stderr)

    print(f"{args.deals} random classic deals (seed {args.seed}), hearts trumps, East leads")
    print("  (wall-clock medians; single solves one thread each, ours cold, DDS reset first)")
    m_ours, m_one, m_all = (statistics.median(x) for x in (ours, dds_one, dds_all))
    print(f"  ours single solve     median {ms(m_ours)}  max {ms(max(ours))}")
    print(f"    nodes               median {statistics.median(nodes):10.0f}")
    if base_times:
        m_b = statistics.median(base_times)
        print(f"  baseline single solve median {ms(m_b)}  max {ms(max(base_times))}")
        print(f"    ratio baseline/DDS one {m_b / statistics.median(dds_one):6.2f}")
    print(f"  DDS solve_board one   median {ms(m_one)}  ratio ours/DDS {m_ours / m_one:6.2f}")
    print(f"  DDS solve_board all   median {ms(m_all)}  ratio ours/DDS {m_ours / m_all:6.2f}")
    if ours_tab:
        m_t, m_d = statistics.median(ours_tab), statistics.median(dds_tab)
        print(f"  tables on {args.threads} thread(s) each, DDS reset first:")
        print(f"  ours 20-solve table   median {ms(m_t)}  max {ms(max(ours_tab))}")
        print(f"  DDS calc_dd_table     median {ms(m_d)}  ratio ours/DDS {m_t / m_d:6.2f}")
    checked = "single solves and tables" if args.check and ours_tab else "single solves"
    print(f"  results differing from DDS ({checked}): {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
