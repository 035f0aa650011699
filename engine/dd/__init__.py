"""clubwhist's own double-dummy solver: tricks under best play with all hands visible.

Existing solvers only know contract bridge; clubwhist's games need more (jokers above the ace
of trumps, jokers that cannot win at no-trump, reversed ranks, exposed columns, three
players), so positions are described generically (:class:`Position`) and solved by a compiled
C core (``engine.dd._core``), with a pure-Python fallback (``engine.dd.pysolver``) used when
the core is not built. The fallback is hopelessly slow on full deals; using it is announced
once with a :class:`RuntimeWarning`.

>>> from engine.dd import Position, solve
>>> p = Position(hands=(((3, 12), (3, 0)), ((3, 11), (2, 1)), ((3, 5), (2, 0)), ((2, 5), (2, 4))),
...              trump=None, leader=0)
>>> solve(p)
1
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, Protocol

from engine.dd.position import NO_SUIT, Card, DDInputError, Position, code_card
from engine.dd.pysolver import PySolver

__all__ = [
    "NO_SUIT",
    "Backend",
    "Card",
    "DDInputError",
    "NodeLimitError",
    "Position",
    "SolverLike",
    "backend_available",
    "principal_line",
    "solve",
    "solve_all_leads",
    "solve_table",
    "solver_for",
]

Backend = Literal["c", "python"]

try:
    from engine.dd import _core as _core_module

    _core: Any = _core_module
except ImportError:  # pragma: no cover - depends on the build
    _core = None

_warned = False


class _PyNodeLimitError(RuntimeError):
    """Stand-in when the C core is not built (the Python solver has no node limit)."""


NodeLimitError: type[RuntimeError] = (
    _core.NodeLimitError if _core is not None else _PyNodeLimitError
)
"""Raised by the C core's ``solve``/``at_least`` given ``max_nodes`` when the search reaches
that many nodes: there is no answer, the table keeps only sound bounds, the solver can be used
again."""


class SolverLike(Protocol):
    """What `solver_for` returns: the C core's Solver or the Python fallback."""

    nodes: int

    def solve(self, leader: int, for_seat: int = ..., max_nodes: int = ..., /) -> int: ...

    def at_least(
        self, leader: int, for_seat: int, target: int, max_nodes: int = ..., /
    ) -> bool: ...

    def deal(self, hands: Sequence[Sequence[int]], /) -> None: ...


def backend_available(backend: Backend) -> bool:
    """Whether ``backend`` can be used here ("python" always can)."""
    return backend == "python" or _core is not None


def _pick(backend: Backend | None) -> Backend:
    global _warned
    if backend == "python":
        return "python"
    if _core is not None:
        return "c"
    if backend == "c":
        raise DDInputError(
            "the compiled double-dummy core engine.dd._core is not built: run `pip install -e .`"
        )
    if not _warned:
        _warned = True
        warnings.warn(
            "clubwhist: the compiled double-dummy core (engine.dd._core) is not built; using the "
            "pure-Python solver, which takes minutes to hours per full deal. "
            "Build it with `pip install -e .` (a C compiler is needed).",
            RuntimeWarning,
            stacklevel=3,
        )
    return "python"


def solver_for(position: Position, *, backend: Backend | None = None) -> SolverLike:
    """A solver for ``position``'s deal; reuse it for several leaders (it keeps its table)."""
    if not isinstance(position, Position):
        raise DDInputError(f"expected a Position, not {type(position).__name__}")
    if _pick(backend) == "python":
        return PySolver(position)
    hands, trump, follow, columns, tricks = position.core_args()
    solver: SolverLike = _core.Solver(hands, trump, follow, columns, tricks=tricks)
    return solver


def _side_seat(position: Position, for_seat: int | None) -> int:
    if for_seat is None:
        return position.leader
    if not isinstance(for_seat, int) or not 0 <= for_seat < position.seats:
        raise DDInputError(f"for_seat {for_seat!r} is not a seat index 0..{position.seats - 1}")
    return for_seat


def solve(
    position: Position, *, for_seat: int | None = None, backend: Backend | None = None
) -> int:
    """Tricks won, of the ``position.hand_size`` still to play, by the side of ``for_seat``
    (default: the side on lead) under double-dummy play; with three seats, the paranoid value
    (that one player against the other two combined)."""
    seat = _side_seat(position, for_seat)
    return solver_for(position, backend=backend).solve(position.leader, seat)


def solve_all_leads(position: Position, *, backend: Backend | None = None) -> tuple[int, ...]:
    """For each seat as leader (``position.leader`` is ignored), the tricks of the leader's
    side; one solver and one table serve all leaders."""
    solver = solver_for(position, backend=backend)
    return tuple(solver.solve(leader, leader) for leader in range(position.seats))


TABLE_TRUMPS: tuple[int | None, ...] = (None, 0, 1, 2, 3)


def solve_table(
    position: Position,
    trumps: Sequence[int | None] = TABLE_TRUMPS,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
) -> dict[int | None, tuple[int, ...]]:
    """`solve_all_leads` for each of ``trumps`` (``position.trump`` is ignored): a bridge
    deal's full table is ``solve_table(position)`` (the declarer's tricks are the hand size
    less those of the side of the declarer's left-hand opponent, who leads).

    Each strain has its own solver, whose table serves its leaders; the strains are spread over
    ``threads`` threads (default: up to two, or one if the machine has one core). The C core
    releases the GIL while it searches, so the threads run on separate cores; a strain's
    solve is the same work in any thread, so the values never depend on ``threads``."""
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    if not isinstance(position, Position):
        raise DDInputError(f"expected a Position, not {type(position).__name__}")
    # replace() validates each trump as the constructor does
    positions = [dataclasses.replace(position, trump=trump) for trump in trumps]

    def one(p: Position) -> tuple[int, ...]:
        return solve_all_leads(p, backend=backend)

    if threads <= 1 or len(positions) <= 1 or _pick(backend) == "python":
        results = [one(p) for p in positions]
    else:
        with ThreadPoolExecutor(min(threads, len(positions))) as pool:
            results = list(pool.map(one, positions))
    return dict(zip(trumps, results, strict=True))


def principal_line(position: Position, *, for_seat: int | None = None) -> list[Card]:
    """One line of best play for everyone: every card in play order (C core only)."""
    seat = _side_seat(position, for_seat)
    if _pick("c") != "c":  # pragma: no cover - _pick("c") raises instead
        raise DDInputError("principal_line needs the compiled core")
    hands, trump, follow, columns, tricks = position.core_args()
    core = _core.Solver(hands, trump, follow, columns, tricks=tricks)
    codes: list[int] = core.line(position.leader, seat)
    return [code_card(c) for c in codes]
