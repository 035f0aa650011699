"""The C core agrees with the independent pure-Python solver on small endings of every game."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.dd import Position, backend_available, principal_line, solve, solver_for
from engine.dd.pysolver import legal_plays, trick_winner
from tests.engine.dd.endings import KINDS, random_ending

pytestmark = [
    pytest.mark.skipif(
        not backend_available("c"), reason="the C core is not built (pip install -e .)"
    ),
    pytest.mark.heavy,  # thousands of solves
]


@pytest.mark.parametrize("kind", KINDS)
def test_c_core_agrees_with_python_on_random_endings(kind: str) -> None:
    rng = random.Random(f"endings-{kind}")
    for n in range(500):
        size = 4 if n % 10 == 0 else rng.randint(1, 3)
        position = random_ending(rng, kind, size)
        for_seat = rng.randrange(position.seats)
        c_value = solve(position, for_seat=for_seat, backend="c")
        py_value = solve(position, for_seat=for_seat, backend="python")
        assert c_value == py_value, (kind, n, position, for_seat)


@pytest.mark.parametrize("kind", KINDS)
def test_the_c_core_with_its_shortcuts_off_gives_the_same_values(kind: str) -> None:
    from engine.dd import _core

    rng = random.Random(f"off-{kind}")
    for _ in range(100):
        position = random_ending(rng, kind, rng.randint(3, 5))
        hands, trump, follow, columns, _ = position.core_args()
        plain = _core.Solver(hands, trump, follow, columns, 12, 2097151)
        fast = solver_for(position, backend="c")
        for leader in range(position.seats):
            assert plain.solve(leader, leader) == fast.solve(leader, leader)


@pytest.mark.parametrize("kind", KINDS)
def test_the_principal_line_is_legal_and_makes_the_value(kind: str) -> None:
    rng = random.Random(f"line-{kind}")
    for _ in range(60):
        position = random_ending(rng, kind, rng.randint(2, 5))
        value = solve(position)
        line = principal_line(position)
        hands = [frozenset(h) for h in position.hands]
        side = position.side_of(position.leader)
        leader, won, n = position.leader, 0, position.seats
        assert len(line) == position.hand_size * n
        for start in range(0, len(line), n):
            trick = tuple(line[start : start + n])
            for i, card in enumerate(trick):
                seat = (leader + i) % n
                assert card in legal_plays(position, tuple(hands), seat, trick[:i])
                hands[seat] = hands[seat] - {card}
            leader = (leader + trick_winner(position, trick)) % n
            won += leader in side
        assert won == value


def _with_spare(rng: random.Random, kind: str, size: int) -> Position:
    """An ending of `kind` where the leader also holds one to three spare cards (the Bid Whist
    relaxation)."""
    base = random_ending(rng, kind, size)
    used = {c for hand in base.hands for c in hand}
    free = [(s, r) for s in range(4) for r in range(13) if (s, r) not in used]
    if base.trump is not None and kind == "bid_suit":
        free = [c for c in free if c[0] != base.trump or c[1] < 13]
    seat = rng.randrange(base.seats)
    spare = tuple(rng.sample(free, rng.randint(1, 3)))
    hands = tuple(tuple(sorted(h + spare)) if i == seat else h for i, h in enumerate(base.hands))
    return Position(hands, base.trump, seat, base.jokers_follow, None, size)


@pytest.mark.parametrize("kind", ["classic", "bid_suit", "bid_no_trump", "three_hands"])
def test_spare_cards_agree_with_python_and_bound_every_choice_of_cards(kind: str) -> None:
    rng = random.Random(f"spare-{kind}")
    for _ in range(150):
        relaxed = _with_spare(rng, kind, rng.randint(1, 3))
        seat = relaxed.leader
        for_seat = rng.choice((seat, (seat + 1) % relaxed.seats))
        c_value = solve(relaxed, for_seat=for_seat, backend="c")
        assert c_value == solve(relaxed, for_seat=for_seat, backend="python"), relaxed
        # every way of keeping exactly `tricks` cards of the big hand is a special case
        big = relaxed.hands[seat]
        values = []
        for kept in itertools.combinations(big, relaxed.hand_size):
            hands = tuple(kept if i == seat else h for i, h in enumerate(relaxed.hands))
            exact = Position(hands, relaxed.trump, seat, relaxed.jokers_follow)
            values.append(solve(exact, for_seat=for_seat, backend="c"))
        if for_seat == seat:
            assert c_value >= max(values)
        else:  # the other side faces the big hand: at most its worst case
            assert c_value <= min(values)
