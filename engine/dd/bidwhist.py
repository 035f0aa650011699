"""Bid Whist double-dummy values: the declarer's best discard, the table of books, par.

A Bid Whist declarer wins the auction, names trumps or the ranking (one of ten contract
types: uptown or downtown with one of four trump suits, no-trump uptown or downtown), takes
the six-card kitty and discards six of the 18 cards before leading (docs/games/bidwhist.md). So the
value of a contract type for a seat is a maximum over discards:

    B(seat, type) = 1 + max over legal discards of the double-dummy tricks of seat's side in
                    the 12 tricks, seat leading

(the discards are the declaring side's first book; at no-trump with `nt_jokers_discarded` the
jokers are among them). A bid kind (uptown, downtown, no-trump) is worth the best of its types,
since the declarer chooses trumps or the ranking after winning the bid.

Discard search (`DiscardSearch`), a branch and bound that only ever asks thresholds:

- the bound is the spare-card relaxation (`Position(..., tricks=12)`): the declarer keeps every
  card not yet discarded, plays 12 tricks and may put a whole led suit aside while it can spare
  the cards, so it does at least as well as with any choice of the remaining discards;
- the relaxation with nothing discarded gives an upper bound U and the heuristic's favourite
  discard a lower bound v (two solves); they are nearly always equal, and the answer is then
  known. Otherwise t = U - 1, U - 2, ... down to v + 1 are asked until one is reached, each
  "is there a discard worth t?" a search over discards pruned by the relaxation. The
  relaxation is monotone (holding more cards never hurts), so a node whose parent (one
  discard fewer) cannot reach t is pruned unasked. The search goes depth first, which finds a
  discard quickly when there is one, and after DEPTH_FIRST_CALLS calls level by level (a node
  is asked only when all its parents reached t), which proves there is none with fewer calls;
- the declarer's cards are grouped into runs of equivalent cards (no other hand holds a card
  between them), and a node fixes how many cards of each run go, runs taken in a heuristic
  order (no-suit jokers first, then side suits, shortest suits and lowest cards first, sure
  winners and trumps last), so no discard set is reached twice;
- every question is a zero-window test (`at_least`) or one solve, remembered per node, and
  every question about one contract type goes to the same solver (`SharedSolver`), dealt the
  node's hands: its transposition table describes positions, not deals, so what one question
  proved serves the next ones, which differ by a card or two.

Par (`BoardSolver.par`, `par_from_books`): backward induction over the single round of bidding
from the dealer's left. Each seat in turn passes or makes any bid above the highest so far; the
last highest bid is played by its bidder with the best type of its kind (ties: the first of
CONTRACT_TYPES, clubs to spades, uptown ranking before downtown). Each side maximises its own
score (NS `rules.ns_score`, EW its negation); on equal outcomes a seat prefers to pass, then the
lower bid (uptown before downtown of the same number). All pass: `all_pass=redeal` scores 0
("passed out"), `dealer_must_bid` makes the dealer bid.

Par never needs the whole table. Every bid needs at least 9 books and a set costs the same
whatever the books, so values below 9 are all alike. The induction is run on intervals of the
books of each (seat, kind): once with NS's values at their upper and EW's at their lower
bounds, once the other way round; the score is monotone in each side's values, so when both
runs agree on the contract and the score, the score is par (and the contract is the one both
runs reach; another auction may reach the same score). Otherwise a value deciding one of the
two runs is narrowed, asking first whether its upper bound is real (for the weaker side that is
a question about a high number of tricks, which the solver refutes quickly). Par's books are
reported exactly when proven ({"books": 11}); a set contract (a sacrifice) only needs them
below its target, so it may report {"books_at_most": 10}.

The table (`BoardSolver.table`) wants every cell exact, which costs far more than par (15 to
over 100 s a board on this machine, weak contracts being the slow ones to prove), so it is
budgeted: every cell first gets its favourite discard's value, then the relaxation bounds and
the searches go strongest cells first until the budget runs out; cells left open keep the
value of the best discard found and are listed as approximate.

Work is capped by a budget of search nodes (`PAR_BUDGET` for par, `TABLE_BUDGET` for the table,
see `Budget`: nodes rather than seconds, so a cut result is the same on every machine). Par cut
short is the par of the values proven so far (every unproven value at its lower bound) and is
marked approximate.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.boards import Board
from engine.cards import Card, Seat, Side, Suit
from engine.dd import Backend, NodeLimitError, SolverLike, solver_for
from engine.dd.base import GameAnalysis, Par, cached, deal_key, position_for
from engine.dd.position import NO_SUIT, DDInputError, Position, card_code
from engine.games.base import GameRules
from engine.games.bidwhist import (
    BidKind,
    BidWhistBid,
    BidWhistContract,
    BidWhistEntry,
    BidWhistRules,
)
from engine.games.entry import Score
from engine.games.play import PlayContext

__all__ = [
    "CONTRACT_TYPES",
    "PAR_BOOKS",
    "PAR_BUDGET",
    "TABLE_BUDGET",
    "BidWhistAnalysis",
    "BoardSolver",
    "Budget",
    "ContractType",
    "DiscardSearch",
    "Outcome",
    "ParOutcome",
    "SharedSolver",
    "SolverCard",
    "board_solver",
    "par_from_books",
]

SolverCard = tuple[int, int]
T = TypeVar("T")

TRICKS = 12
DISCARDS = 6
DEPTH_FIRST_CALLS = 40
"""Solver calls a depth-first search for one target may make before going level by level."""
PAR_BOOKS = 9
"""The fewest books any bid needs (a bid of 3): below this a side can only be set."""

PAR_BUDGET = 300_000_000
"""Search nodes allowed for one board's par: 25 to 40 s of one core at worst (the core searches
some 8 to 12 million nodes a second). Since the solver is shared between questions (2026-11-26)
the hardest board of the benchmark's 36 (`python -m benchmarks.par`), board 28, needs 18
million, the whole set 105 million; before, board 28 ran out of this budget (300 million nodes)
and came back approximate."""
TABLE_BUDGET = 50_000_000
"""Search nodes allowed for one board's table after par, whose answers it reuses."""


# ---- contract types ------------------------------------------------------------------------


@dataclass(frozen=True)
class ContractType:
    """What the declarer names after winning a bid of `kind`: trumps or the no-trump ranking."""

    kind: BidKind
    trumps: Suit | None = None
    ranking: BidKind | None = None

    @property
    def name(self) -> str:
        if self.kind is BidKind.NOTRUMP:
            return f"notrump {self.ranking}"
        assert self.trumps is not None
        return f"{self.kind} {self.trumps.letter}"

    def contract(self, declarer: Seat, discards: Sequence[Card] = ()) -> BidWhistContract:
        return BidWhistContract(declarer, self.kind, self.trumps, self.ranking, tuple(discards))

    def __str__(self) -> str:
        return self.name


SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
CONTRACT_TYPES: tuple[ContractType, ...] = (
    *(ContractType(BidKind.UPTOWN, trumps=s) for s in SUITS),
    *(ContractType(BidKind.DOWNTOWN, trumps=s) for s in SUITS),
    ContractType(BidKind.NOTRUMP, ranking=BidKind.UPTOWN),
    ContractType(BidKind.NOTRUMP, ranking=BidKind.DOWNTOWN),
)
"""The ten types, in the order ties are broken (clubs first, uptown ranking first)."""

KINDS = (BidKind.UPTOWN, BidKind.DOWNTOWN, BidKind.NOTRUMP)


# ---- budget --------------------------------------------------------------------------------


@dataclass
class Budget:
    """Work allowed for one board's par (or table): search nodes of the C core, which are
    proportional to time but the same on every machine, so a cut result is reproducible and
    can be cached; `calls` also caps the number of solver calls (the Python solver counts no
    nodes). The C core stops a search at the nodes left (`max_nodes`, NodeLimitError), so the
    budget holds, except for the one solve of the favourite discard that a cut search falls
    back on, which always runs to the end."""

    nodes: int
    calls: int = 10**9
    used_nodes: int = 0
    used_calls: int = 0

    @property
    def exhausted(self) -> bool:
        return self.used_nodes >= self.nodes or self.used_calls >= self.calls

    @property
    def left(self) -> int:
        """Nodes one more solver call may use (at least 1: 0 would mean no limit)."""
        return max(1, self.nodes - self.used_nodes)

    def charge(self, nodes: int) -> None:
        self.used_calls += 1
        self.used_nodes += nodes


class BudgetExhausted(Exception):
    """A search ran out of its budget of solver calls."""


# ---- the discard search, in solver terms ---------------------------------------------------


class SharedSolver:
    """One solver, and so one transposition table, for every question asked about positions
    of one contract type (same trumps and ranking, 12 tricks): the discard search's nodes
    differ by a card or two, and the declarers of one type hold the same 54 cards between
    them, so most of what one question proves is reused by the next (the table's entries
    describe positions, whatever deal they came from). Sharing alone took par of the
    benchmark's 36 boards from 580 million search nodes (a fresh solver per question) to 224
    million."""

    def __init__(self, backend: Backend | None = None) -> None:
        self.backend = backend
        self.solver: SolverLike | None = None

    def at(self, position: Position) -> SolverLike:
        """The solver, dealt `position`'s hands (made from it the first time)."""
        if self.solver is None:
            self.solver = solver_for(position, backend=self.backend)
        else:
            self.solver.deal(position.core_args()[0])
        return self.solver

    def dealt(self, codes: Sequence[Sequence[int]], position: Callable[[], Position]) -> SolverLike:
        """`at` for hands already in card codes, the position made only the first time (a
        position checks every card: a third of par's Python time, when made per question)."""
        if self.solver is None:
            return self.at(position())
        self.solver.deal(codes)
        return self.solver

    def release(self) -> None:
        """Forget the solver (its table can hold tens of megabytes)."""
        self.solver = None


@dataclass(frozen=True)
class Outcome:
    """One search's answer: the best tricks (of 12) above the floor asked for, or None when no
    discard beats it; `exact` is false when the budget cut the search short (then `tricks` is
    the value of a real discard, a lower bound)."""

    tricks: int | None
    discards: tuple[SolverCard, ...]
    exact: bool


class DiscardSearch:
    """Branch and bound over one declarer's discards (see the module docstring).

    `hands` are the four hands, the declarer's holding every candidate card (hand and kitty,
    forced discards already removed); `discard` of them must go; the declarer leads. `order`
    ranks the declarer's cards, lower first to be discarded. The search remembers what it has
    proven (`low`, `high`: bounds on the best tricks) across questions.
    """

    def __init__(
        self,
        hands: Sequence[Sequence[SolverCard]],
        trump: int | None,
        declarer: int,
        discard: int,
        *,
        order: Callable[[SolverCard], tuple[int, ...]] | None = None,
        budget: Budget | None = None,
        backend: Backend | None = None,
        shared: SharedSolver | None = None,
    ) -> None:
        self.hands = [tuple(sorted(h)) for h in hands]
        self.trump = trump
        self.declarer = declarer
        self.discard = discard
        self.tricks = len(self.hands[(declarer + 1) % len(self.hands)])
        if len(self.hands[declarer]) != self.tricks + discard:
            raise DDInputError(
                f"the declarer holds {len(self.hands[declarer])} cards: "
                f"{self.tricks} to play and {discard} to discard expected"
            )
        self.budget = budget if budget is not None else Budget(nodes=10**15)
        self.backend = backend
        self.groups = self._runs(order)
        self._suffix = [0] * (len(self.groups) + 1)
        for i in range(len(self.groups) - 1, -1, -1):
            self._suffix[i] = self._suffix[i + 1] + len(self.groups[i])
        self.low = -1
        """Largest tricks proven reachable by some discard (-1: none yet)."""
        self.high = self.tricks
        """Smallest proven upper bound on every discard's tricks."""
        self.best_discard: tuple[SolverCard, ...] = ()
        self._nodes: dict[tuple[SolverCard, ...], list[int]] = {}
        self.shared = shared if shared is not None else SharedSolver(backend)
        self._codes = [[card_code(c) for c in hand] for hand in self.hands]

    def _runs(
        self, order: Callable[[SolverCard], tuple[int, ...]] | None
    ) -> list[tuple[SolverCard, ...]]:
        """The declarer's cards in runs that no other hand splits, each lowest card first."""
        mine = set(self.hands[self.declarer])
        runs: list[list[SolverCard]] = []
        previous: SolverCard | None = None
        for card in sorted(c for h in self.hands for c in h):
            if card in mine:
                if previous is not None and previous in mine and previous[0] == card[0]:
                    runs[-1].append(card)
                else:
                    runs.append([card])
            previous = card
        result = [tuple(r) for r in runs]
        if order is not None:
            result.sort(key=lambda r: order(r[0]))
        return result

    def _kept(self, dropped: tuple[SolverCard, ...]) -> tuple[SolverCard, ...]:
        gone = set(dropped)
        return tuple(c for c in self.hands[self.declarer] if c not in gone)

    def position(self, dropped: tuple[SolverCard, ...]) -> Position:
        """The declarer holding all but `dropped`: a relaxation until six are dropped."""
        hands = list(self.hands)
        hands[self.declarer] = self._kept(dropped)
        # always `tricks`, spare cards or not, so that one solver takes every node (deal)
        return Position(
            hands=tuple(hands), trump=self.trump, leader=self.declarer, tricks=self.tricks
        )

    def _node_reaches(self, dropped: tuple[SolverCard, ...], target: int) -> bool:
        """Can the side take `target` tricks after dropping `dropped` (relaxed if fewer than
        all the discards)? One zero-window test, remembered per node."""
        bounds = self._nodes.setdefault(dropped, [0, self.tricks + 1])
        if target <= bounds[0]:
            return True
        if target >= bounds[1]:
            return False
        if self.budget.exhausted:
            raise BudgetExhausted
        declarer = self.declarer
        ok = self._ask(dropped, lambda sv, n: sv.at_least(declarer, declarer, target, n))
        bounds[0 if ok else 1] = target
        return ok

    def _dropped(self, counts: Sequence[int]) -> tuple[SolverCard, ...]:
        """The cards a node discards: the lowest `counts[i]` cards of run i."""
        return tuple(c for run, k in zip(self.groups, counts, strict=True) for c in run[:k])

    def _first(self) -> tuple[int, ...]:
        """The heuristic's favourite discard: as many as possible from the first runs."""
        counts, left = [], self.discard
        for run in self.groups:
            counts.append(min(len(run), left))
            left -= counts[-1]
        return tuple(counts)

    def _parents(self, counts: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [
            (*counts[:i], counts[i] - 1, *counts[i + 1 :]) for i in range(len(counts)) if counts[i]
        ]

    def _find(self, target: int) -> bool:
        """Is some discard worth `target` tricks (the root's relaxation is known to reach it)?

        The relaxation is monotone (a declarer holding more cards can do whatever one holding
        fewer can), so a node whose parent (one discard fewer) cannot reach the target is
        pruned unasked. First depth first, in the heuristic's order, which finds a discard
        quickly when there is one (usually the first leaf: the relaxation is nearly always
        tight); after DEPTH_FIRST_CALLS calls without success, level by level, asking a node
        only when every one of its parents reached the target, which needs far fewer calls to
        show that there is none.
        """
        first = self._first()
        if self._reach_counts(first, target):
            self.best_discard = self._dropped(first)
            return True
        if self.low < 0:
            # what the favourite is worth: a lower bound for free, should the budget run out
            if self.budget.exhausted:
                raise BudgetExhausted
            self.favourite()
        failed: set[tuple[int, ...]] = set()
        calls = [0]
        sizes = [len(run) for run in self.groups]
        n = len(sizes)
        suffix = self._suffix

        def dfs(g: int, counts: tuple[int, ...], left: int) -> bool | None:
            """True: found; False: none below; None: gave up (too many calls)."""
            if any(counts):
                if any(p in failed for p in self._parents(counts)):
                    failed.add(counts)
                    return False
                if not self._known(counts, target):
                    if calls[0] >= DEPTH_FIRST_CALLS:
                        return None
                    calls[0] += 1
                if not self._reach_counts(counts, target):
                    failed.add(counts)
                    return False
            if left == 0:
                self.best_discard = self._dropped(counts)
                return True
            gave_up = False
            for h in range(g, n):
                if suffix[h] < left:
                    break
                for take in range(min(sizes[h], left), 0, -1):
                    if suffix[h + 1] < left - take:
                        break
                    child = (*counts[:h], take, *counts[h + 1 :])
                    found = dfs(h + 1, child, left - take)
                    if found:
                        return True
                    if found is None:
                        gave_up = True
            return None if gave_up else False

        found = dfs(0, tuple(0 for _ in sizes), self.discard)
        if found is not None:
            return found
        return self._levels(target, failed)

    def _levels(self, target: int, failed: set[tuple[int, ...]]) -> bool:
        sizes = [len(run) for run in self.groups]
        passed: set[tuple[int, ...]] = {tuple(0 for _ in sizes)}
        for level in range(1, self.discard + 1):
            children: set[tuple[int, ...]] = set()
            for node in passed:
                for i, size in enumerate(sizes):
                    if node[i] < size:
                        children.add((*node[:i], node[i] + 1, *node[i + 1 :]))
            reached: set[tuple[int, ...]] = set()
            # the heuristic's order: most cards from the first runs first
            for child in sorted(children, key=lambda c: tuple(-k for k in c)):
                if child in failed or not all(p in passed for p in self._parents(child)):
                    continue
                if self._reach_counts(child, target):
                    if level == self.discard:
                        self.best_discard = self._dropped(child)
                        return True
                    reached.add(child)
            if not reached:
                return False
            passed = reached
        return False  # pragma: no cover - the last level returns

    def _known(self, counts: tuple[int, ...], target: int) -> bool:
        bounds = self._nodes.get(self._dropped(counts))
        return bounds is not None and (target <= bounds[0] or target >= bounds[1])

    def _reach_counts(self, counts: tuple[int, ...], target: int) -> bool:
        return self._node_reaches(self._dropped(counts), target)

    def reaches(self, target: int) -> bool:
        """Is some discard worth at least `target` tricks? Exact; may raise BudgetExhausted."""
        if target <= self.low:
            return True
        if target > self.high:
            return False
        if self._node_reaches((), target) and (self.discard == 0 or self._find(target)):
            self.low = target
            return True
        self.high = target - 1
        return False

    def _ask(
        self,
        dropped: tuple[SolverCard, ...],
        question: Callable[[SolverLike, int], T],
        *,
        limited: bool = True,
    ) -> T:
        """Ask the type's shared solver, dealt the node's hands, `question(solver, max_nodes)`;
        the nodes it searches are charged to the budget; `limited`: stopped at the nodes the
        budget has left (BudgetExhausted)."""
        codes = list(self._codes)
        codes[self.declarer] = [card_code(c) for c in self._kept(dropped)]
        solver = self.shared.dealt(codes, lambda: self.position(dropped))
        before = solver.nodes
        try:
            return question(solver, self.budget.left if limited else 0)
        except NodeLimitError:
            raise BudgetExhausted from None
        finally:
            self.budget.charge(solver.nodes - before)

    def _exact(self, dropped: tuple[SolverCard, ...], *, limited: bool) -> int:
        """Exact value of a node (relaxed unless a leaf): one solve, remembered."""
        bounds = self._nodes.setdefault(dropped, [0, self.tricks + 1])
        if bounds[0] + 1 == bounds[1]:
            return bounds[0]
        if limited and self.budget.exhausted:
            raise BudgetExhausted
        declarer = self.declarer
        value = self._ask(dropped, lambda sv, n: sv.solve(declarer, declarer, n), limited=limited)
        bounds[:] = [value, value + 1]
        return value

    def node_value(self, dropped: tuple[SolverCard, ...]) -> int:
        """Exact value of a node within the budget."""
        return self._exact(dropped, limited=True)

    def favourite(self) -> int:
        """The value of the heuristic's favourite discard (solved whatever the budget; it
        becomes the proven lower bound if nothing better is known)."""
        first = self._dropped(self._first())
        value = self._exact(first, limited=False)
        if value > self.low:
            self.low, self.best_discard = value, first
        return value

    def best_or_raise(self, floor: int = -1) -> Outcome:
        """`best`, raising BudgetExhausted instead of falling back."""
        if self.low < self.high:
            self.high = min(self.high, self.node_value(()))
            if self.low < 0:
                if self.budget.exhausted:
                    raise BudgetExhausted
                self.favourite()
        for target in range(self.high, max(self.low, floor), -1):
            if self.reaches(target):
                break
        if self.low <= floor:
            return Outcome(None, (), exact=True)
        return Outcome(self.low, self.best_discard, exact=True)

    def best(self, floor: int = -1) -> Outcome:
        """The best discard if it is worth more than `floor` tricks (else `tricks` None).

        The relaxation's value U and the heuristic's favourite discard's value v (two solves)
        bracket the answer; when they differ, t = U - 1, U - 2, ... down to v + 1 are asked
        until one is reached. Out of budget: the best discard proven so far, not exact.
        """
        try:
            return self.best_or_raise(floor)
        except BudgetExhausted:
            return self._fallback(floor)

    def _fallback(self, floor: int) -> Outcome:
        """Out of budget: the value of the best discard proven so far, else of the
        heuristic's favourite (solved beyond the budget if need be, so the answer is always
        the value of a real discard)."""
        if self.low < 0 or len(self.best_discard) != self.discard:
            self.favourite()
        dropped = self.best_discard
        value = self._exact(dropped, limited=False)
        self.low = max(self.low, value)
        return Outcome(value if value > floor else None, dropped, exact=False)


# ---- par from a table of books (pure) ------------------------------------------------------


@dataclass(frozen=True)
class ParOutcome:
    """Par of a table: the contract played (None: passed out), its type and NS's score."""

    entry: BidWhistEntry | None
    ctype: ContractType | None
    ns_score: Score


BIDS: tuple[BidWhistBid, ...] = tuple(
    BidWhistBid(level, kind) for level in range(3, 8) for kind in KINDS
)
"""Every bid, lowest first (uptown before the equal downtown, then no-trump)."""


def best_type(row: Mapping[str, int], kind: BidKind) -> tuple[ContractType, int]:
    """The type of `kind` with the most books in `row` (first in CONTRACT_TYPES on ties)."""
    best: tuple[ContractType, int] | None = None
    for ctype in CONTRACT_TYPES:
        if ctype.kind is kind and (best is None or row[ctype.name] > best[1]):
            best = (ctype, row[ctype.name])
    assert best is not None
    return best


def par_from_books(
    rules: BidWhistRules,
    board: Board,
    books: Mapping[Seat, Mapping[str, int]],
    scores: dict[tuple[Seat, int, ContractType, int], Score] | None = None,
) -> ParOutcome:
    """Par by backward induction over the auction, given every seat's books per contract type
    (names as in CONTRACT_TYPES; values below 9 may be anything below 9). See the module
    docstring for the rule and its tie-breaks. `scores`, if given, keeps the NS score of each
    contract played (seat, bid, type, books) for the next call on the same board and rules:
    par asks some thirty times a board, most contracts' books unchanged."""
    order = [board.dealer.next(1 + i) for i in range(4)]
    must_bid = rules.option("all_pass") == "dealer_must_bid"
    choice = {(s, k): best_type(books[s], k) for s in order for k in KINDS}
    ns = [seat.side is Side.NS for seat in order]

    def played(seat: Seat, bid: BidWhistBid) -> tuple[Score, BidWhistEntry, ContractType]:
        ctype, got = choice[(seat, bid.kind)]
        entry = BidWhistEntry(seat, bid.level, bid.kind, ctype.trumps, ctype.ranking, got)
        return rules.ns_score(board, entry), entry, ctype

    memo = {} if scores is None else scores

    def score_of(seat: Seat, j: int) -> Score:
        ctype, got = choice[(seat, BIDS[j].kind)]
        key = (seat, j, ctype, got)
        if key not in memo:
            memo[key] = played(seat, BIDS[j])[0]
        return memo[key]

    # each seat's every bid is scored once, up front: the induction reads each many times
    score = [[score_of(seat, j) for j in range(len(BIDS))] for seat in order]
    Result = tuple[Score, int, int]  # NS score, index of the contract in BIDS (-1 none), holder

    @functools.cache
    def turn(i: int, high: int, holder: int) -> Result:
        if i == 4:
            if high < 0:
                return (0, -1, -1)
            return (score[holder][high], high, holder)
        best: Result | None = None
        if not (must_bid and i == 3 and high < 0):
            best = turn(i + 1, high, holder)
        for j in _OUTBIDS[high]:
            reply = turn(i + 1, j, i)
            if best is None or (reply[0] > best[0] if ns[i] else reply[0] < best[0]):
                best = reply
        assert best is not None
        return best

    value, high, holder = turn(0, -1, -1)
    if high < 0:
        return ParOutcome(None, None, 0)
    _, entry, ctype = played(order[holder], BIDS[high])
    return ParOutcome(entry, ctype, value)


_OUTBIDS: dict[int, tuple[int, ...]] = {
    high: tuple(j for j, bid in enumerate(BIDS) if high < 0 or bid.key > BIDS[high].key)
    for high in range(-1, len(BIDS))
}
"""For the highest bid so far (its index in BIDS, -1 for none), the indices of the bids that
may follow it: higher in the auction's order (a downtown bid does not outbid the equal
uptown one)."""


# ---- one board -----------------------------------------------------------------------------


def _card_names(
    rules: BidWhistRules,
    context: PlayContext,
    hands: Mapping[Seat, Sequence[Card]],
    position: Position,
) -> dict[SolverCard, Card]:
    """Solver card -> card, numbered as `position_for` numbers them (checked)."""
    by_suit: dict[int, list[Card]] = {}
    for hand in hands.values():
        for card in hand:
            suit = rules.effective_suit(card, context)
            by_suit.setdefault(NO_SUIT if suit is None else suit.index, []).append(card)
    names: dict[SolverCard, Card] = {}
    for suit_index, cards in by_suit.items():
        cards.sort(key=lambda c: (rules.strength(c, context), str(c)))
        for rank, card in enumerate(cards):
            names[(suit_index, rank)] = card
    if sorted(names) != sorted(c for h in position.hands for c in h):  # pragma: no cover
        raise DDInputError("internal: card numbering differs from position_for")
    return names


def _order_for(
    hand: Sequence[SolverCard], others: Sequence[SolverCard], trump: int | None
) -> Callable[[SolverCard], tuple[int, ...]]:
    """The discard heuristic: a key per declarer card, lowest discarded first."""
    length = [sum(1 for c in hand if c[0] == s) for s in range(NO_SUIT + 1)]
    top = [max((c[1] for c in others if c[0] == s), default=-1) for s in range(NO_SUIT + 1)]

    def key(card: SolverCard) -> tuple[int, ...]:
        suit, rank = card
        if suit == NO_SUIT:
            return (0, 0, 0, 0, rank)
        sure = 1 if rank > top[suit] else 0
        return (1, 1 if suit == trump else 0, sure, length[suit], rank)

    return key


class BoardSolver:
    """Every Bid Whist question about one board: discard searches per (seat, type), par and
    the table, sharing what they prove. The analysis cache hands one instance to every
    caller of the same deal, so `par` and `table` take turns (a lock): they change it."""

    def __init__(self, rules: BidWhistRules, board: Board, backend: Backend | None = None):
        self.lock = threading.Lock()
        self.rules = rules
        self.board = board
        self.backend = backend
        self.budget = Budget(nodes=PAR_BUDGET)
        self._searches: dict[tuple[Seat, ContractType], DiscardSearch] = {}
        self._cards: dict[tuple[Seat, ContractType], dict[SolverCard, Card]] = {}
        self._shared: dict[ContractType, SharedSolver] = {}
        self._scores: dict[tuple[Seat, int, ContractType, int], Score] = {}

    def search(self, seat: Seat, ctype: ContractType) -> DiscardSearch:
        key = (seat, ctype)
        if key not in self._searches:
            self._searches[key] = self._new_search(seat, ctype)
        found = self._searches[key]
        found.budget = self.budget
        return found

    def _new_search(self, seat: Seat, ctype: ContractType) -> DiscardSearch:
        board, rules = self.board, self.rules
        pool = [*board.deal.hand(seat), *board.kitty]
        forced = (
            [c for c in pool if c.is_joker]
            if ctype.kind is BidKind.NOTRUMP and rules.nt_jokers_discarded
            else []
        )
        hands = {s: board.deal.hand(s) for s in board.seats}
        hands[seat] = tuple(c for c in pool if c not in forced)
        context = rules.play_context(board, ctype.contract(seat))
        position = position_for(rules, board, hands, context, tricks=TRICKS)
        self._cards[(seat, ctype)] = _card_names(rules, context, hands, position)
        me = board.seats.index(seat)
        others = [c for i, h in enumerate(position.hands) if i != me for c in h]
        order = _order_for(position.hands[me], others, position.trump)
        return DiscardSearch(
            position.hands,
            position.trump,
            me,
            DISCARDS - len(forced),
            order=order,
            budget=self.budget,
            backend=self.backend,
            shared=self._shared.setdefault(ctype, SharedSolver(self.backend)),
        )

    def discards(
        self, seat: Seat, ctype: ContractType, dropped: Sequence[SolverCard]
    ) -> tuple[Card, ...]:
        """A discard of the search in cards, forced jokers included: six cards that
        `rules.starting_hands` accepts."""
        search = self.search(seat, ctype)
        names = self._cards[(seat, ctype)]
        pool = [*self.board.deal.hand(seat), *self.board.kitty]
        kept = {names[c] for c in search.hands[search.declarer]}
        forced = tuple(c for c in pool if c not in kept)
        return forced + tuple(names[c] for c in dropped)

    # -- books bounds per (seat, type); books = tricks + 1 ---------------------------------

    def _books(self, seat: Seat, ctype: ContractType, upper: bool, clamp: bool = True) -> int:
        s = self._searches.get((seat, ctype))
        # nothing asked of it yet: a search's first bounds (no discard proven, every trick
        # possible), without building the search, which most cells of a board never need
        low, high = (-1, TRICKS) if s is None else (s.low, s.high)
        value = (high if upper else low) + 1
        # below 9 books every bid fails: for the auction those values are all alike
        return max(value, PAR_BOOKS - 1) if clamp else value

    def _kind_bounds(self, seat: Seat, kind: BidKind, clamp: bool = True) -> tuple[int, int]:
        types = [t for t in CONTRACT_TYPES if t.kind is kind]
        return (
            max(self._books(seat, t, False, clamp) for t in types),
            max(self._books(seat, t, True, clamp) for t in types),
        )

    def _narrow(self, seat: Seat, kind: BidKind) -> None:
        """Is the (seat, kind)'s upper bound real? Ask its best-looking types."""
        low, high = self._kind_bounds(seat, kind)
        assert low < high
        candidates = [
            t for t in CONTRACT_TYPES if t.kind is kind and self._books(seat, t, True) == high
        ]
        for ctype in candidates:
            if self.search(seat, ctype).reaches(high - 1):
                return

    def _run(self, ns_upper: bool) -> ParOutcome:
        books = {
            seat: {
                t.name: self._books(seat, t, (seat.side is Side.NS) == ns_upper)
                for t in CONTRACT_TYPES
            }
            for seat in self.board.seats
        }
        return par_from_books(self.rules, self.board, books, self._scores)

    def par(self) -> tuple[ParOutcome, bool, tuple[int, int]]:
        """Par, whether it is approximate (budget), and the proven (low, high) books of the
        contract played."""
        with self.lock:
            try:
                return self._par()
            finally:
                self._release()

    def _release(self) -> None:
        """Drop the solvers' tables: the board stays in the analysis cache, they need not."""
        for shared in self._shared.values():
            shared.release()

    def _par(self) -> tuple[ParOutcome, bool, tuple[int, int]]:
        self.budget = Budget(nodes=PAR_BUDGET)
        approximate = False
        while True:
            best, worst = self._run(True), self._run(False)
            if _same(best, worst):
                break
            todo = [
                (o.entry.declarer, o.entry.kind)
                for o in (best, worst)
                if o.entry is not None
                and self._kind_bounds(o.entry.declarer, o.entry.kind)[0]
                < self._kind_bounds(o.entry.declarer, o.entry.kind)[1]
            ]
            if not todo:
                # decided by a value off both lines of play: narrow the widest remaining one
                open_ = [
                    (self._kind_bounds(s, k)[1], i, s, k)
                    for i, (s, k) in enumerate((s, k) for s in self.board.seats for k in KINDS)
                    if self._kind_bounds(s, k)[0] < self._kind_bounds(s, k)[1]
                ]
                if not open_:  # pragma: no cover - equal bounds give equal runs
                    break
                _, _, seat, kind = max(open_)
                todo = [(seat, kind)]
            try:
                self._narrow(*todo[0])
            except BudgetExhausted:
                approximate = True
                worst = self._proven()
                break
        entry = worst.entry
        if entry is None:
            return worst, approximate, (0, 0)
        # name the type proven to give the books (the upper run may have used an unproven one)
        seat, kind = entry.declarer, entry.kind
        lows = {t.name: self._books(seat, t, False, clamp=False) for t in CONTRACT_TYPES}
        ctype, books = best_type(lows, kind)
        entry = BidWhistEntry(seat, entry.bid, kind, ctype.trumps, ctype.ranking, max(books, 1))
        span = self._kind_bounds(seat, kind, clamp=False)
        return ParOutcome(entry, ctype, worst.ns_score), approximate, (max(span[0], 1), span[1])

    def _proven(self) -> ParOutcome:
        """Par of the values proven so far (every value at its lower bound)."""
        books = {
            seat: {t.name: self._books(seat, t, False) for t in CONTRACT_TYPES}
            for seat in self.board.seats
        }
        return par_from_books(self.rules, self.board, books, self._scores)

    def table(self) -> tuple[dict[str, dict[str, int]], list[str]]:
        """Best books for every seat and type, and the cells the budget left approximate.

        In three sweeps so that a budget cut leaves as many cells exact as it can: the value of
        every cell's favourite discard (always done: every cell gets a real discard's value),
        then every cell's relaxation (an upper bound: where it equals the favourite's value the
        cell is exact), then the search proper for the cells still open.
        """
        with self.lock:
            try:
                return self._table()
            finally:
                self._release()

    def _table(self) -> tuple[dict[str, dict[str, int]], list[str]]:
        self.budget = Budget(nodes=TABLE_BUDGET)
        cells = [(seat, t) for seat in self.board.seats for t in CONTRACT_TYPES]
        values = {cell: self.search(*cell).favourite() for cell in cells}
        # weak hands are the slow ones to solve (and matter least): strong cells first
        by_strength = sorted(cells, key=lambda cell: -values[cell])
        try:
            for seat, ctype in by_strength:
                search = self.search(seat, ctype)
                if search.low < search.high:
                    search.high = min(search.high, search.node_value(()))
            for seat, ctype in by_strength:
                self.search(seat, ctype).best_or_raise()
        except BudgetExhausted:
            pass
        out: dict[str, dict[str, int]] = {str(seat): {} for seat in self.board.seats}
        rough: list[str] = []
        for seat, ctype in cells:
            search = self.search(seat, ctype)
            out[str(seat)][ctype.name] = search.low + 1
            if search.low < search.high:
                rough.append(f"{seat} {ctype.name}")
        return out, rough


def _same(a: ParOutcome, b: ParOutcome) -> bool:
    if a.ns_score != b.ns_score:
        return False
    if a.entry is None or b.entry is None:
        return a.entry is b.entry
    return (a.entry.declarer, a.entry.bid, a.entry.kind) == (
        b.entry.declarer,
        b.entry.bid,
        b.entry.kind,
    )


def contract_text(entry: BidWhistEntry, ctype: ContractType) -> str:
    """'4 uptown S by N', '5 notrump downtown by E'."""
    return f"{entry.bid} {ctype.name} by {entry.declarer}"


def describe_par(
    outcome: ParOutcome, span: tuple[int, int]
) -> tuple[tuple[str, ...], dict[str, int]]:
    """The contract strings and the books record of a par result: {"books": n} when proven,
    else the proven bounds ({"books_at_most": n} for a set whose books do not matter)."""
    if outcome.entry is None or outcome.ctype is None:
        return ("passed out",), {}
    low, high = span
    if low == high:
        books = {"books": low}
    elif high < outcome.entry.target:
        books = {"books_at_most": high}
    else:
        books = {"books_at_least": low, "books_at_most": high}
    return (contract_text(outcome.entry, outcome.ctype),), books


# ---- the game's analysis -------------------------------------------------------------------

_POINTS = {14: 4, 13: 3, 12: 2, 11: 1}
"""High-card points by rank (ace 14 down to jack 11), for `BidWhistAnalysis.hardness`."""


def board_solver(board: Board, rules: GameRules, backend: Backend | None = None) -> BoardSolver:
    """The board's solver, cached by deal so par and the table share their work (and a
    benchmark can read the nodes par searched off its budget)."""
    assert isinstance(rules, BidWhistRules)
    found: BoardSolver = cached(
        deal_key(board, rules, "bidwhist-solver"), lambda: BoardSolver(rules, board, backend)
    )
    return found


class BidWhistAnalysis(GameAnalysis):
    """Bid Whist: no tricks of the board's own, the table of books per seat and contract type
    (each a maximum over the declarer's discards), and par by the single round of bidding."""

    def tricks(self, board: Board, rules: GameRules, backend: Backend | None) -> dict[str, Any]:
        raise DDInputError(
            f"board {board.number}: in Bid Whist the declarer names trumps or the ranking "
            "after the auction and discards six cards from hand and kitty, so the board has "
            "no tricks of its own: use the table (every seat and contract type) or par"
        )

    def table(self, board: Board, rules: GameRules, backend: Backend | None) -> dict[str, Any]:
        """For every seat, the declaring side's best books (kitty book included) for each of
        the ten contract types, the declarer choosing the discard and leading; plus
        "approximate": the cells ("N uptown S") the table budget left at the best discard
        found rather than proven best."""

        def compute() -> dict[str, Any]:
            rows, rough = board_solver(board, rules, backend).table()
            return {**rows, "approximate": rough}

        found: dict[str, Any] = cached(deal_key(board, rules, "table"), compute)
        return found

    def hardness(self, board: Board, rules: GameRules) -> float:
        """The weaker side's high-card points (ace 4, king 3, queen 2, jack 1; the kitty is
        anybody's, so it is left out). When one side holds little, it can bid nothing and
        par is settled by the other side's contracts alone, in a few questions; when both
        sides are strong, both sides' contracts have to be proven, each a discard search.
        Measured on the benchmark's 36 boards and 24 more under other options: a rank
        correlation of 0.38 with the search nodes par needs (the difference between the sides
        did a little worse, 0.34; jokers counted as points worse still). Rough, but it needs
        no search at all, so it costs nothing against par itself."""
        points = {Side.NS: 0, Side.EW: 0}
        for seat in board.seats:
            hand = board.deal.hand(seat)
            points[seat.side] += sum(_POINTS.get(c.rank, 0) for c in hand if not c.is_joker)
        return float(min(points.values()))

    def par(self, board: Board, rules: GameRules, backend: Backend | None) -> Par:
        outcome, approximate, span = board_solver(board, rules, backend).par()
        contracts, books = describe_par(outcome, span)
        return Par(board.number, contracts, int(outcome.ns_score), books, approximate)
