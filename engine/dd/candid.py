"""Candid Whist's par: the auction equilibrium over the table of every declarer and strain.

The table is the one every game shares (`engine.dd.base`); the auction and the scoring are
Candid Whist's own (docs/games/candid.md, docs/development/double-dummy.md).
"""

from __future__ import annotations

import functools
from typing import Any

from engine.boards import Board
from engine.cards import Seat, Side
from engine.dd import Backend
from engine.dd.base import STRAINS, GameAnalysis, Par, strain_name
from engine.games.base import GameRules
from engine.games.candid import CandidEntry, opener

__all__ = ["CandidAnalysis", "candid_par"]


class CandidAnalysis(GameAnalysis):
    """Candid Whist: trumps are bid, so the board has no tricks of its own; par is read off
    the full table."""

    def par(self, board: Board, rules: GameRules, backend: Backend | None) -> Par:
        tab: dict[str, Any] = self.table(board, rules, backend)
        return candid_par(board, rules, tab)


def candid_par(board: Board, rules: GameRules, tab: dict[str, dict[str, int]]) -> Par:
    """Candid Whist par: the two sides outbid each other in turn (the idea of bridge par, as
    in DDS's Par.cpp) until neither gains; no doubles, a made contract scores 10 x bid + 1 per
    overtrick, a failed one -10 x bid (docs/games/candid.md). Solved exactly by backward induction
    over the 35 contracts 7C < 7D < ... < 13NT; a side plays a contract with its better declarer.
    The side of the opening bidder (`opener`: lowest HCP) acts first; if both pass the board
    is passed out and scores 0. On equal scores a side prefers to pass (the lower contract).
    """

    ladder = [(bid, strain) for bid in range(7, 14) for strain in STRAINS]

    def played(k: int, side: Side) -> tuple[int, Seat]:
        """NS score of contract k played by `side`'s better declarer, and that declarer."""
        bid, strain = ladder[k]
        options = []
        for seat in side.seats:
            tricks = tab[str(seat)][strain_name(strain)]
            entry = CandidEntry(seat, bid, strain, tricks)
            options.append((int(rules.side_points(board, entry)[side]), seat))
        own, seat = max(options, key=lambda o: o[0])
        return (own if side is Side.NS else -own), seat

    def prefers(side: Side, a: int, b: int) -> bool:
        return a > b if side is Side.NS else a < b

    Outcome = tuple[int, int, Side]  # NS score, contract index (-1 all pass), declaring side

    @functools.cache
    def after_bid(k: int, holder: Side) -> Outcome:
        """Contract k by `holder` is the highest bid; the other side acts."""
        actor = holder.other
        best: Outcome = (played(k, holder)[0], k, holder)
        for higher in range(k + 1, len(ladder)):
            reply = after_bid(higher, actor)
            if prefers(actor, reply[0], best[0]):
                best = reply
        return best

    def opening(actor: Side, passes: int) -> Outcome:
        best: Outcome = (0, -1, actor) if passes == 1 else opening(actor.other, passes + 1)
        for k in range(len(ladder)):
            reply = after_bid(k, actor)
            if prefers(actor, reply[0], best[0]):
                best = reply
        return best

    score, k, side = opening(opener(board).side, 0)
    if k < 0:
        return Par(board.number, ("all pass",), 0)
    bid, strain = ladder[k]
    _, declarer = played(k, side)
    return Par(
        board.number,
        (f"{bid}{strain_name(strain)} by {declarer}",),
        score,
        {"declarer_tricks": tab[str(declarer)][strain_name(strain)]},
    )
