"""Double-dummy analysis of clubwhist boards: trick tables, par per game, a cache by deal and
a progress-reporting batch function for background jobs.

Boards are translated into solver positions with the games' own rules (`engine.games`): the
suit a card counts as (`effective_suit`), its strength (`strength`, which knows downtown and
the jokers), the starting hands and the Open Whist columns, so the solver plays exactly the
game's legal plays.

Par (see README "Engine: double dummy and par"):
- classic whist and Open Whist: the double-dummy tricks for the board's trumps, with the
  player on the dealer's left leading;
- three-player Open Whist: each player's paranoid value (that player against the other two);
- Candid Whist: the auction equilibrium over the table of every declarer and strain;
- Bid Whist: the auction equilibrium of the single round of bidding over the best books of
  every seat and contract type, each a maximum over the declarer's discards
  (`engine.dd.bidwhist`, which documents the search, the rule and its budget).
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.boards import Board
from engine.cards import Card, Seat, Side, Suit
from engine.dd import Backend, solver_for
from engine.dd.position import NO_SUIT, DDInputError, Position
from engine.games import GameRules, PlayContext

STRAINS: tuple[Suit | None, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None)


def strain_name(strain: Suit | None) -> str:
    return "NT" if strain is None else strain.letter


def _context(board: Board, trumps: Suit | None, leader: Seat, rules: GameRules) -> PlayContext:
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


def _deal_key(board: Board, rules: GameRules, what: str) -> tuple[Any, ...]:
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


def _cached(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
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


# ---- tables ------------------------------------------------------------------------------


def _check_solvable(board: Board, rules: GameRules) -> None:
    rules.check_board(board)


def _bidwhist(board: Board, rules: GameRules, backend: Backend | None) -> Any:
    """The board's Bid Whist solver, cached by deal so par and the table share their work."""
    from engine.dd.bidwhist import BoardSolver
    from engine.games.bidwhist import BidWhistRules

    assert isinstance(rules, BidWhistRules)
    return _cached(
        _deal_key(board, rules, "bidwhist-solver"), lambda: BoardSolver(rules, board, backend)
    )


def board_tricks(
    board: Board, rules: GameRules, *, backend: Backend | None = None
) -> dict[str, Any]:
    """The double-dummy result of the board as dealt: its trumps, the dealer's left leading.

    Returns {"trumps", "leader", "ns", "ew"} (4 seats) or {"trumps", "leader", "tricks":
    {seat: paranoid value}} (three-player Open Whist).
    """
    _check_solvable(board, rules)
    if board.variant == "bidwhist":
        raise DDInputError(
            f"board {board.number}: in Bid Whist the declarer names trumps or the ranking "
            "after the auction and discards six cards from hand and kitty, so the board has "
            "no tricks of its own: use the table (every seat and contract type) or par"
        )
    if board.variant not in ("classic", "openwhist"):
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
                str(seat): solver.solve(position.leader, i) for i, seat in enumerate(board.seats)
            }
        return out

    result: dict[str, Any] = _cached(_deal_key(board, rules, "tricks"), compute)
    return result


def table(board: Board, rules: GameRules, *, backend: Backend | None = None) -> dict[str, Any]:
    """Tricks won by the declarer's side for every declarer and strain, the declarer's
    left-hand opponent leading (Candid Whist's lead rule, the bridge convention).

    Three-player Open Whist: for each player and strain, that player's paranoid value when the
    player on its left leads. One solver (and its table) serves the four leaders of a strain.

    Bid Whist: for every seat, the declaring side's best books (kitty book included) for each
    of the ten contract types ("uptown C" .. "uptown S", "downtown C" .. "downtown S",
    "notrump uptown", "notrump downtown"), the declarer choosing the discard and leading;
    plus "approximate": the cells ("N uptown S") the table budget left at the best discard
    found rather than proven best.
    """
    _check_solvable(board, rules)
    if board.variant == "bidwhist":

        def bidwhist_table() -> dict[str, Any]:
            rows, rough = _bidwhist(board, rules, backend).table()
            return {**rows, "approximate": rough}

        found: dict[str, Any] = _cached(_deal_key(board, rules, "table"), bidwhist_table)
        return found

    def compute() -> dict[str, dict[str, int]]:
        hands = {seat: board.deal.hand(seat) for seat in board.seats}
        seats = board.seats
        out: dict[str, dict[str, int]] = {str(seat): {} for seat in seats}
        for strain in STRAINS:
            context = _context(board, strain, seats[0], rules)
            position = position_for(rules, board, hands, context)
            solver = solver_for(position, backend=backend)
            for i, declarer in enumerate(seats):
                leader = (i + 1) % len(seats)
                out[str(declarer)][strain_name(strain)] = solver.solve(leader, i)
        return out

    result: dict[str, dict[str, int]] = _cached(_deal_key(board, rules, "table"), compute)
    return result


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


def _candid_par(board: Board, rules: GameRules, tab: dict[str, dict[str, int]]) -> Par:
    """Candid Whist par: the two sides outbid each other in turn (the idea of bridge par, as
    in DDS's Par.cpp) until neither gains; no doubles, a made contract scores 10 x bid + 1 per
    overtrick, a failed one -10 x bid (seed 000). Solved exactly by backward induction over
    the 35 contracts 7C < 7D < ... < 13NT; a side plays a contract with its better declarer.
    The side of the opening bidder (`opener`: lowest HCP) acts first; if both pass the board
    is passed out and scores 0. On equal scores a side prefers to pass (the lower contract).
    """

    from engine.games.candid import CandidEntry, opener

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


def _bidwhist_par(board: Board, rules: GameRules, backend: Backend | None) -> Par:
    from engine.dd.bidwhist import describe_par

    outcome, approximate, span = _bidwhist(board, rules, backend).par()
    contracts, books = describe_par(outcome, span)
    return Par(board.number, contracts, int(outcome.ns_score), books, approximate)


def par(board: Board, rules: GameRules, *, backend: Backend | None = None) -> Par:
    """Par of one board under `rules` (see the module docstring for each game)."""
    _check_solvable(board, rules)

    def compute() -> Par:
        if board.variant == "bidwhist":
            return _bidwhist_par(board, rules, backend)
        if board.variant == "candid":
            return _candid_par(board, rules, table(board, rules, backend=backend))
        result = board_tricks(board, rules, backend=backend)
        contract = f"{result['trumps']}, {result['leader']} leads"
        if "tricks" in result:
            return Par(board.number, (contract,), None, dict(result["tricks"]))
        from engine.games.base import Entry

        entry: Entry = rules.parse_entry(board, {"ns_tricks": result["ns"]})
        score = rules.ns_score(board, entry)
        return Par(
            board.number,
            (contract,),
            int(score),
            {"ns": result["ns"], "ew": result["ew"]},
        )

    value: Par = _cached(_deal_key(board, rules, "par"), compute)
    if value.board != board.number:
        value = Par(board.number, value.contracts, value.ns_score, value.tricks, value.approximate)
    return value


# ---- batch -------------------------------------------------------------------------------

Progress = Callable[[int, int, int], None]
"""progress(done, total, board_number): called after each board."""


@dataclass(frozen=True)
class BoardAnalysis:
    board: int
    tricks: dict[str, Any] | None
    table: dict[str, Any] | None
    par: Par | None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "tricks": self.tricks,
            "table": self.table,
            "par": None if self.par is None else self.par.to_dict(),
            "error": self.error,
        }


def par_summary(data: dict[str, Any]) -> str:
    """One line for the traveller and the hand record, from a stored `BoardAnalysis.to_dict()`.

    Games with fixed trumps: 'NS 8, EW 5 tricks (H trumps, E leads)'; auction games:
    '9H by N; NS +90'; a failed analysis: its error.
    """
    if data.get("error"):
        return str(data["error"])
    tricks = data.get("tricks") or {}
    if "ns" in tricks:
        return (
            f"NS {tricks['ns']}, EW {tricks['ew']} tricks "
            f"({tricks['trumps']} trumps, {tricks['leader']} leads)"
        )
    found = data.get("par") or {}
    contracts = ", ".join(found.get("contracts") or []) or "no contract"
    score = found.get("ns_score")
    text = contracts if score is None else f"{contracts}; NS {score:+d}"
    if found.get("approximate"):
        text += " (approximate)"
    return text


_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_CONTRACT = re.compile(r"\b(\d+)([CDHS])(?= by )")
_KIND_SUIT = re.compile(r"\b(uptown|downtown) ([CDHS])\b")
_TRUMPS = re.compile(r"(^|\()([CDHS])(?=( trumps|, ))")


def par_line(data: dict[str, Any]) -> str:
    """`par_summary` for people reading a hand record or a board page: suit symbols for the
    suit letters ("9♥ by N", "4 uptown ♠ by N", "♥ trumps"), and, where par is a contract
    that fails (a sacrifice), by how much: "9♥ by N, down 2; NS -20"."""
    text = par_summary(data)
    if data.get("error"):
        return text
    found = data.get("par") or {}
    tricks = found.get("tricks") or {}
    contracts = found.get("contracts") or []
    if len(contracts) == 1:
        target = _target(contracts[0])
        made = tricks.get("declarer_tricks", tricks.get("books"))
        if target is not None and isinstance(made, int) and made < target:
            text = text.replace(contracts[0], f"{contracts[0]}, down {target - made}", 1)
    text = _CONTRACT.sub(lambda m: m.group(1) + _SUIT_SYMBOLS[m.group(2)], text)
    text = _KIND_SUIT.sub(lambda m: f"{m.group(1)} {_SUIT_SYMBOLS[m.group(2)]}", text)
    return _TRUMPS.sub(lambda m: m.group(1) + _SUIT_SYMBOLS[m.group(2)], text)


def _target(contract: str) -> int | None:
    """The tricks (Candid: "9H by N" -> 9) or books (Bid Whist: "4 uptown S by N" -> 10,
    six plus the bid) a par contract needs; None when the text names no contract."""
    first = contract.split(" ", 1)[0]
    digits = "".join(ch for ch in first if ch.isdigit())
    if not digits:
        return None
    if first.isdigit():  # Bid Whist: "4 uptown S", a bid of books over six
        return 6 + int(digits)
    return int(digits)


def analyse_boards(
    boards: Iterable[Board],
    rules: GameRules,
    *,
    progress: Progress | None = None,
    with_table: bool = True,
    backend: Backend | None = None,
) -> list[BoardAnalysis]:
    """Analyse a board set for a background job (plain Python: the tournaments app wraps it in
    a Celery task). A board the solver cannot handle gets an `error` instead of stopping the
    set; `progress` is told after every board. A Bid Whist board costs at most about
    `bidwhist.PAR_BUDGET` + `TABLE_BUDGET` search nodes (about 30 s of one core at worst,
    a second or two typically); its table may list approximate cells."""
    items = list(boards)
    out: list[BoardAnalysis] = []
    for done, board in enumerate(items, start=1):
        try:
            fixed = not rules.has_auction
            tricks = board_tricks(board, rules, backend=backend) if fixed else None
            # par first: for Bid Whist it needs far less than the table, which then reuses it
            result = par(board, rules, backend=backend)
            tab = table(board, rules, backend=backend) if with_table else None
            out.append(BoardAnalysis(board.number, tricks, tab, result))
        except DDInputError as exc:
            out.append(BoardAnalysis(board.number, None, None, None, str(exc)))
        if progress is not None:
            progress(done, len(items), board.number)
    return out
