"""The double-dummy analysis every game shares: a board as a solver position, the board's own
tricks, the table of every declarer and strain, par by the board's tricks, and a cache by deal.

`GameAnalysis` answers the three questions (`tricks`, `table`, `par`) the way a game whose
trumps the board fixes needs them; a game with a par of its own (an auction) subclasses it in
`engine/dd/<game>.py`, and `engine.dd.analysis` finds the subclass by the game's rules class.
docs/development/double-dummy.md describes par for each of the games.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.boards import Board
from engine.cards import Card, Seat, Side, Suit
from engine.dd import Backend, solver_for
from engine.dd.position import NO_SUIT, DDInputError, Position
from engine.games.base import GameRules
from engine.games.entry import Entry
from engine.games.play import PlayContext

__all__ = [
    "STRAINS",
    "GameAnalysis",
    "Par",
    "cached",
    "clear_cache",
    "deal_key",
    "position_for",
    "strain_name",
]

STRAINS: tuple[Suit | None, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None)


def strain_name(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.letter


def context_for(board: Board, trumps: Suit | None, leader: Seat, rules: GameRules) -> PlayContext:
    return PlayContext(trumps=trumps, leader=leader, seats=board.seats)


def position_for(
    rules: GameRules,
    board: Board,
    hands: dict[Seat, tuple[Card, ...]],
    context: PlayContext,
    *,
    tricks: int | None = None,
) -> Position:
    """The solver position of a board under `rules` with these hands and this context
    (`tricks`: play only that many tricks; hands may then hold spare cards, see Position).

    Ranks are renumbered per suit by the game's own `strength`, so any rank order (downtown,
    jokers on top of trumps) reaches the solver as plain indices; cards with no suit in this
    context (jokers at no-trump) become no-suit cards that cannot win.
    """
    seats = context.seats
    suit_of: dict[Card, int] = {}
    for seat in seats:
        for card in hands[seat]:
            suit = rules.effective_suit(card, context)
            suit_of[card] = NO_SUIT if suit is None else suit.index
    index: dict[Card, tuple[int, int]] = {}
    for suit_index in range(NO_SUIT + 1):
        cards = [c for c, s in suit_of.items() if s == suit_index]
        cards.sort(key=lambda c: (rules.strength(c, context), str(c)))
        for rank, card in enumerate(cards):
            index[card] = (suit_index, rank)
    columns = None
    layout = board.columns
    if layout:
        columns = tuple(
            tuple(tuple(index[c] for c in column if c in index) for column in layout[seat])
            for seat in seats
        )
    return Position(
        hands=tuple(tuple(sorted(index[c] for c in hands[seat])) for seat in seats),
        trump=None if context.trumps is None else context.trumps.index,
        leader=seats.index(context.leader),
        columns=columns,
        tricks=tricks,
    )


# ---- cache -------------------------------------------------------------------------------

_CACHE: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 4096


def deal_key(board: Board, rules: GameRules, what: str) -> tuple[Any, ...]:
    # The board number only matters through the dealer (who leads), so equal deals under
    # equal rules share their analysis.
    return (
        what,
        repr(rules),
        board.variant,
        str(board.deal),
        board.dealer,
        board.trumps,
        tuple(board.kitty),
        board.turned_card,
    )


def cached(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    value = compute()
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def clear_cache() -> None:
    with _CACHE_LOCK:
        _CACHE.clear()


# ---- par ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Par:
    """Par of one board: the contract(s) reached with perfect bidding and play, NS's score.

    `contracts` are strings such as "9H by N" (auction games) or "H, E leads" (trick games);
    `approximate` is true when a search budget cut the analysis short.
    """

    board: int
    contracts: tuple[str, ...]
    ns_score: int | None
    tricks: dict[str, int] = field(default_factory=dict)
    approximate: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "contracts": list(self.contracts),
            "ns_score": self.ns_score,
            "tricks": dict(self.tricks),
            "approximate": self.approximate,
        }


# ---- the questions, for a game whose board fixes trumps ---------------------------------


class GameAnalysis:
    """Double dummy for a game whose board fixes trumps and the lead (classic whist, Open
    Whist): the board's own tricks, the table of every declarer and strain, and par, which is
    the board's tricks scored by the game's rules. Auction games subclass it for their par."""

    def tricks(self, board: Board, rules: GameRules, backend: Backend | None) -> dict[str, Any]:
        """The double-dummy result of the board as dealt: its trumps, the dealer's left leading.

        Returns {"trumps", "leader", "ns", "ew"} (4 seats) or {"trumps", "leader", "tricks":
        {seat: paranoid value}} (three players).
        """
        if rules.has_auction:
            raise DDInputError(
                f"board {board.number}: {rules.title} chooses trumps in the auction; "
                "use the table or par"
            )

        def compute() -> dict[str, Any]:
            context = rules.play_context(board)
            hands = {seat: board.deal.hand(seat) for seat in board.seats}
            position = position_for(rules, board, hands, context)
            solver = solver_for(position, backend=backend)
            out: dict[str, Any] = {
                "trumps": strain_name(context.trumps),
                "leader": str(context.leader),
            }
            if position.seats == 4:
                lead_side = solver.solve(position.leader, position.leader)
                ns = lead_side if context.leader.side is Side.NS else board.hand_size - lead_side
                out.update(ns=ns, ew=board.hand_size - ns)
            else:
                out["tricks"] = {
                    str(seat): solver.solve(position.leader, i)
                    for i, seat in enumerate(board.seats)
                }
            return out

        result: dict[str, Any] = cached(deal_key(board, rules, "tricks"), compute)
        return result

    def table(self, board: Board, rules: GameRules, backend: Backend | None) -> dict[str, Any]:
        """The declaring side's tricks for every declarer and strain, the declarer's left-hand
        opponent leading; three players: each player's paranoid value. One solver (and its
        table) serves the four leaders of a strain."""

        def compute() -> dict[str, dict[str, int]]:
            hands = {seat: board.deal.hand(seat) for seat in board.seats}
            seats = board.seats
            out: dict[str, dict[str, int]] = {str(seat): {} for seat in seats}
            for strain in STRAINS:
                context = context_for(board, strain, seats[0], rules)
                position = position_for(rules, board, hands, context)
                solver = solver_for(position, backend=backend)
                for i, declarer in enumerate(seats):
                    leader = (i + 1) % len(seats)
                    out[str(declarer)][strain_name(strain)] = solver.solve(leader, i)
            return out

        result: dict[str, dict[str, int]] = cached(deal_key(board, rules, "table"), compute)
        return result

    def hardness(self, board: Board, rules: GameRules) -> float:
        """A guess, at no cost, at how long this board's par takes, higher for harder: a job
        that hands boards out to several workers starts the hardest first, so that the last
        board to finish is a short one (`engine.dd.analysis.hardest_first`). Here every board
        is alike (one solve each): 0, and the boards keep their order."""
        return 0.0

    def par(self, board: Board, rules: GameRules, backend: Backend | None) -> Par:
        """The board's own tricks, scored by the game: par when nobody bids."""
        result = self.tricks(board, rules, backend)
        contract = f"{result['trumps']}, {result['leader']} leads"
        if "tricks" in result:
            return Par(board.number, (contract,), None, dict(result["tricks"]))
        entry: Entry = rules.parse_entry(board, {"ns_tricks": result["ns"]})
        score = rules.ns_score(board, entry)
        return Par(
            board.number,
            (contract,),
            int(score),
            {"ns": result["ns"], "ew": result["ew"]},
        )
