"""Random valid and invalid input never crashes the process: the Python API answers with a
value or a DDInputError, the C entry point with a value or a ValueError/TypeError."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dd import DDInputError, Position, backend_available, solve

pytestmark = pytest.mark.skipif(not backend_available("c"), reason="the C core is not built")

cards = st.tuples(st.integers(-1, 6), st.integers(-2, 17))
anything = st.one_of(st.none(), st.integers(-3, 20), st.text(max_size=2), st.booleans())


@settings(max_examples=300, deadline=None)
@given(
    hands=st.lists(st.lists(cards, min_size=0, max_size=4), min_size=2, max_size=5),
    trump=st.one_of(st.none(), st.integers(-1, 5), st.just("H")),
    leader=st.integers(-1, 5),
    follow=st.booleans(),
    with_columns=st.booleans(),
    tricks=st.one_of(st.none(), st.integers(-1, 5), st.just(True)),
)
def test_random_positions_give_a_value_or_a_clear_error(
    hands: list[list[tuple[int, int]]],
    trump: Any,
    leader: int,
    follow: bool,
    with_columns: bool,
    tricks: Any,
) -> None:
    hand_tuples = tuple(tuple(h) for h in hands)
    columns = tuple((h,) for h in hand_tuples) if with_columns else None
    try:
        position = Position(
            hands=hand_tuples,
            trump=trump,
            leader=leader,
            jokers_follow=follow,
            columns=columns,
            tricks=tricks,
        )
    except DDInputError as exc:
        message = str(exc)
        assert message
        return
    value = solve(position)
    assert 0 <= value <= position.hand_size


def _garbage(rng: random.Random) -> Any:
    kind = rng.randrange(7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.randint(-(2**40), 2**40)
    if kind == 2:
        return "x" * rng.randrange(3)
    if kind == 3:
        return [rng.randint(-5, 90) for _ in range(rng.randrange(20))]
    if kind == 4:
        return [
            [rng.randint(-5, 90) for _ in range(rng.randrange(6))] for _ in range(rng.randrange(6))
        ]
    if kind == 5:
        return [[[rng.randint(-2, 82)] for _ in range(2)] for _ in range(rng.randrange(6))]
    return 1.5


def test_the_c_entry_point_checks_its_arguments() -> None:
    from engine.dd import _core

    rng = random.Random(1)
    outcomes = {"value": 0, "error": 0}
    for _ in range(3000):
        hands = _garbage(rng)
        if rng.random() < 0.4:  # mostly-valid hands with random corruption
            deck = rng.sample(range(80), 16)
            hands = [deck[i * 4 : (i + 1) * 4] for i in range(4)]
            if rng.random() < 0.5:
                hands[rng.randrange(4)][0] = rng.choice((-1, 80, hands[1][1], 2**33))
        args = [
            hands,
            rng.randint(-2, 5),
            rng.random() < 0.5,
            _garbage(rng),
            rng.randint(8, 28),
            0,
            rng.randint(-2, 19),
        ]
        try:
            solver = _core.Solver(*args[: rng.randint(1, 7)])
            leader = rng.randint(-2, 5)
            value = solver.solve(leader, rng.randint(-2, 5))
        except (ValueError, TypeError, OverflowError):
            outcomes["error"] += 1
            continue
        assert 0 <= value <= 17
        outcomes["value"] += 1
    assert outcomes["value"] > 0
    assert outcomes["error"] > 0


def test_a_node_limit_stops_a_search_without_spoiling_the_solver() -> None:
    from engine.dd import NodeLimitError, _core

    rng = random.Random(11)
    deck = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(deck)
    hands = [[s * 16 + r for s, r in deck[i * 13 : (i + 1) * 13]] for i in range(4)]
    solver = _core.Solver(hands, 2)
    with pytest.raises(NodeLimitError):
        solver.solve(0, 0, 50)
    with pytest.raises(NodeLimitError):
        solver.at_least(0, 0, 7, 50)
    assert solver.nodes <= 100 + 2  # each search stopped where it was told
    with pytest.raises(ValueError, match="max_nodes"):
        solver.solve(0, 0, -1)
    exact = _core.Solver(hands, 2).solve(0, 0)
    assert solver.solve(0, 0) == exact  # what the stopped searches stored is sound
    assert solver.solve(0, 0, 10**9) == exact
