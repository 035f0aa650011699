"""Our solver against DDS (through endplay, a test dependency only) on bridge-shaped deals.

The wide check is `make bench` (benchmarks/dd.py: 1,000 more single solves and 100 full tables
against DDS, a disagreement fails it). These run in every CI: 150 single solves and 25 full
tables, each on deals of their own, enough to catch a solver that has gone wrong (a wrong
value shows on most deals) for a quarter of the two cores' minutes the earlier 500 and 100
cost."""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

import pytest

from engine.dd import Position, solve, solve_table, solver_for
from tests.engine.dd.bridge import dds_table, dds_tricks, random_hands

pytest.importorskip("endplay")
pytestmark = pytest.mark.heavy  # both cores for about half a minute

TRUMPS = (None, 0, 1, 2, 3)
T = TypeVar("T")
R = TypeVar("R")


def _single(deal: tuple[tuple, int | None, int]) -> tuple[int, int]:
    hands, trump, leader = deal
    ours = solve(Position(hands=hands, trump=trump, leader=leader))
    return ours, dds_tricks(hands, trump, leader, one_card=True)


def _table(hands: tuple) -> tuple[dict, dict]:
    # one thread a table: the two processes already fill both cores
    leads = solve_table(Position(hands=hands, trump=None, leader=0), TRUMPS, threads=1)
    ours = {}
    for trump in TRUMPS:
        for declarer in range(4):
            ours[(declarer, trump)] = 13 - leads[trump][(declarer + 1) % 4]
    return ours, dds_table(hands)


def _on_both_cores(work: Callable[[T], R], items: list[T]) -> list[R]:
    """The machine has two cores: solve in two processes (each solve stays one solve).

    The processes come from a fork server, not a fork of this one: the test process has
    threads (the database pool's, Redis listeners) and a fork copies whatever locks they hold,
    which can leave a child waiting for ever."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as pool:
        return list(pool.map(work, items, chunksize=5))


def test_single_solves_agree_with_dds_on_150_random_classic_deals() -> None:
    # 150 full 13-card deals, one random trump (or no-trump) and leader each.
    rng = random.Random(20261122)
    deals = [(random_hands(rng), rng.choice(TRUMPS), rng.randrange(4)) for _ in range(150)]
    for deal, (ours, theirs) in zip(deals, _on_both_cores(_single, deals), strict=True):
        assert ours == theirs, deal


def test_full_tables_agree_with_dds_on_25_classic_deals() -> None:
    # Every declarer (its left-hand opponent leads) and strain against DDS's calc_dd_table.
    rng = random.Random(99)
    deals = [random_hands(rng) for _ in range(25)]
    for hands, (ours, theirs) in zip(deals, _on_both_cores(_table, deals), strict=True):
        assert ours == theirs, hands


def _bid_whist_relabelled(rng: random.Random) -> tuple[tuple, int, bool] | None:
    """A Bid Whist suit contract (two jokers on top of trumps, optionally downtown ranks) with
    at most 13 trumps in play, relabelled as a 12-card bridge deal: ranks renumbered 0..12
    within each suit by strength."""
    downtown = rng.random() < 0.5
    trump = rng.randrange(4)

    # strength of a natural rank 0..12 (2..A): uptown A high; downtown A high then 2, 3 .. K
    def strength(rank: int) -> int:
        if not downtown:
            return rank
        return 12 if rank == 12 else 11 - rank

    deck = [(s, strength(r)) for s in range(4) for r in range(13)]
    deck += [(trump, 13), (trump, 14)]  # Little Joker, Big Joker
    rng.shuffle(deck)
    in_play = deck[6:]  # six cards discarded by the declarer
    if sum(1 for s, _ in in_play if s == trump) > 13:
        return None
    relabel = {}
    for suit in range(4):
        cards = sorted(c for c in in_play if c[0] == suit)
        for i, card in enumerate(cards):
            relabel[card] = (suit, 13 - len(cards) + i)
    ours = tuple(tuple(sorted(in_play[i * 12 : (i + 1) * 12])) for i in range(4))
    bridge = tuple(tuple(sorted(relabel[c] for c in hand)) for hand in ours)
    return (ours, bridge, trump), trump, downtown


def test_bid_whist_hands_relabelled_to_bridge_agree_with_dds() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 6:
        made = _bid_whist_relabelled(rng)
        if made is None:
            continue
        (ours, bridge, trump), _, _ = made
        leader = rng.randrange(4)
        value = solve(Position(hands=ours, trump=trump, leader=leader))
        assert value == dds_tricks(bridge, trump, leader)
        checked += 1


def test_a_solver_reused_across_leaders_and_sides_stays_exact() -> None:
    rng = random.Random(3)
    hands = random_hands(rng, size=9)
    solver = solver_for(Position(hands=hands, trump=2, leader=0))
    for leader in (0, 1, 2, 3, 1, 0):
        for_seat = rng.randrange(4)
        ours = solver.solve(leader, for_seat)
        leader_side = dds_tricks(hands, 2, leader)
        expected = leader_side if for_seat % 2 == leader % 2 else 9 - leader_side
        assert ours == expected
