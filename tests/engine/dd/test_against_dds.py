"""Our solver against DDS (through endplay, a test dependency only) on bridge-shaped deals."""

from __future__ import annotations

import random

import pytest

from engine.dd import Position, solve, solve_all_leads, solver_for
from tests.engine.dd.bridge import dds_tricks, random_hands

pytest.importorskip("endplay")

TRUMPS = (None, 0, 1, 2, 3)


def test_single_solves_agree_with_dds_on_500_random_deals() -> None:
    # 500 deals of 9 cards a hand (DDS solves partial deals too), one random trump and
    # leader each; full 13-card deals are compared below and in benchmarks/dd.py.
    rng = random.Random(20261122)
    for n in range(500):
        hands = random_hands(rng, size=9)
        trump = rng.choice(TRUMPS)
        leader = rng.randrange(4)
        ours = solve(Position(hands=hands, trump=trump, leader=leader))
        assert ours == dds_tricks(hands, trump, leader), (n, hands, trump, leader)


def test_full_thirteen_card_deals_agree_with_dds() -> None:
    rng = random.Random(7)
    for _ in range(4):
        hands = random_hands(rng)
        trump = rng.choice((0, 1, 2, 3))
        leader = rng.randrange(4)
        assert solve(Position(hands=hands, trump=trump, leader=leader)) == dds_tricks(
            hands, trump, leader
        )


def test_full_tables_agree_with_dds_on_100_deals() -> None:
    # Tables of 6-card deals, every declarer (its left-hand opponent leads) and strain, each
    # cell checked against a DDS solve (DDS's own table call needs complete 13-card deals:
    # benchmarks/dd.py compares full tables).
    rng = random.Random(99)
    for _ in range(100):
        hands = random_hands(rng, size=6)
        for trump in TRUMPS:
            leads = solve_all_leads(Position(hands=hands, trump=trump, leader=0))
            for declarer in range(4):
                leader = (declarer + 1) % 4
                assert 6 - leads[leader] == 6 - dds_tricks(hands, trump, leader)


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
