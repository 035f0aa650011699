"""Helpers shared by the tests and the benchmark: random bridge deals in both our terms and
endplay's, so that our solver can be compared with DDS (endplay is a test dependency only)."""

from __future__ import annotations

import random

from engine.dd import Position

RANKS = "23456789TJQKA"  # rank index 0..12
SUITS_PBN = "SHDC"  # PBN order; our suit index: C=0 D=1 H=2 S=3


def random_hands(rng: random.Random, size: int = 13) -> tuple[tuple[tuple[int, int], ...], ...]:
    deck = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(deck)
    return tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(4))


def to_pbn(hands) -> str:
    out = []
    for hand in hands:
        parts = []
        for pbn_suit in range(4):
            suit = 3 - pbn_suit
            ranks = sorted((r for s, r in hand if s == suit), reverse=True)
            parts.append("".join(RANKS[r] for r in ranks))
        out.append(".".join(parts))
    return "N:" + " ".join(out)


# A one-card-a-hand deal that is never one of the deals compared (see dds_reset).
_RESET_PBN = "N:A... K... Q... J..."


def dds_reset() -> None:
    """Make DDS forget the previous deal, so that its next call starts from an empty table.

    DDS (2.9, as bundled by endplay) keeps each thread's transposition table between calls and
    clears it only when the next deal is new and not "similar" (few cards moved) or the trump
    changes: solving a deal again (every card after one optimal card, another leader, the same
    table twice) reuses what it learned and can take next to nothing. endplay exposes
    ``FreeMemory`` (``endplay._dds.FreeMemory``), but with this build the next solve then
    crashes (the threads' tables are not re-created). So the reset is DDS's own: a one-trick
    deal (answered before any search, on thread 0 by ``solve_board`` and on every thread of a
    table by ``calc_dd_table``) becomes each thread's last deal, and the next real deal is new
    and unlike it, which clears the table at the start of that (timed) call as for any fresh
    deal. Measured: a table solved again right away took 30 ms instead of 85; after this reset,
    87 ms again."""
    from endplay.dds import calc_dd_table, solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    solve_board(Deal(_RESET_PBN, first=Player(0), trump=Denom.nt), SolveMode.OptimalOne)
    calc_dd_table(Deal(_RESET_PBN))


def dds_set_threads(threads: int) -> None:
    """How many threads DDS may use for a table (``SetMaxThreads``; endplay sets 0 at import,
    "as many as the machine has"). A single ``solve_board`` runs in the calling thread
    whatever this says."""
    from endplay import _dds

    _dds.SetMaxThreads(threads)


def dds_tricks(hands, trump: int | None, leader: int, *, one_card: bool = False) -> int:
    """Tricks for the side on lead according to DDS (via endplay).

    `one_card`: DDS's "one optimal card" mode, its cheapest call for this question (what the
    speed target compares with); otherwise every card is valued (its default mode).
    """
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    denom = (
        Denom.nt
        if trump is None
        else [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades][trump]
    )
    deal = Deal(to_pbn(hands), first=Player(leader), trump=denom)
    if one_card:
        return max(t for _, t in solve_board(deal, SolveMode.OptimalOne))
    return max(t for _, t in solve_board(deal))


def dds_table(hands) -> dict[tuple[int, int | None], int]:
    """(declarer seat, trump) -> declarer's tricks with declarer's LHO leading."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    table = calc_dd_table(Deal(to_pbn(hands)))
    out = {}
    for trump, denom in (
        (0, Denom.clubs),
        (1, Denom.diamonds),
        (2, Denom.hearts),
        (3, Denom.spades),
        (None, Denom.nt),
    ):
        for seat in range(4):
            out[(seat, trump)] = table[denom, Player(seat)]
    return out


def position(hands, trump: int | None, leader: int) -> Position:
    return Position(hands=hands, trump=trump, leader=leader)
