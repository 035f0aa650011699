"""Bid Whist double dummy: the discard search against brute force, par's induction on
hand-made tables, the rule options, the commands and the batch function."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

import engine.dd.bidwhist as bw
from engine.boards import Board
from engine.cards import Card, Seat, Side
from engine.cli import main
from engine.dd import Position, solve
from engine.dd.analysis import analyse_boards, clear_cache, par, position_for, table
from engine.dd.bidwhist import (
    CONTRACT_TYPES,
    BoardSolver,
    Budget,
    DiscardSearch,
    ParOutcome,
    par_from_books,
)
from engine.games import rules_for
from engine.games.bidwhist import BidKind, BidWhistAuction, BidWhistRules
from engine.games.play import IllegalBidError
from engine.pbn import dumps

# ---- the discard search on small positions --------------------------------------------------


Hands = list[tuple[tuple[int, int], ...]]
BooksTable = dict[Seat, dict[str, int]]


def _small_case(rng: random.Random, size: int, extra: int) -> tuple[Hands, int | None]:
    """Four hands of `size` cards, the declarer (N) holding `extra` more, from a short deck
    with a joker-like fifth card on top of the trump suit now and then."""
    ranks = 6
    deck = [(s, r) for s in range(4) for r in range(ranks)]
    trump = rng.choice([None, 0, 1, 2, 3])
    if trump is not None and rng.random() < 0.5:
        deck.append((trump, ranks))
    rng.shuffle(deck)
    north = deck[: size + extra]
    rest = deck[size + extra :]
    hands = [north] + [rest[i * size : (i + 1) * size] for i in range(3)]
    return [tuple(sorted(h)) for h in hands], trump


def _brute(hands: Hands, trump: int | None, extra: int) -> int:
    """Best tricks over every choice of discards, each solved on its own."""
    best = -1
    for kept in itertools.combinations(hands[0], len(hands[0]) - extra):
        position = Position(hands=(tuple(kept), *hands[1:]), trump=trump, leader=0)
        best = max(best, solve(position))
    return best


@pytest.mark.parametrize("depth_first_calls", [40, 2])
def test_the_discard_search_equals_brute_force_on_small_positions(
    depth_first_calls: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with 2 calls depth first, most open searches go on level by level: both ways are checked
    monkeypatch.setattr(bw, "DEPTH_FIRST_CALLS", depth_first_calls)
    levels = []
    real_levels = DiscardSearch._levels

    def spy(self: DiscardSearch, target: int, failed: set[tuple[int, ...]]) -> bool:
        levels.append(target)
        return real_levels(self, target, failed)

    monkeypatch.setattr(DiscardSearch, "_levels", spy)
    rng = random.Random(2)
    for _ in range(200):
        size, extra = rng.choice([(3, 2), (4, 2), (4, 3), (5, 2), (5, 3)])
        hands, trump = _small_case(rng, size, extra)
        expected = _brute(hands, trump, extra)
        search = DiscardSearch(hands, trump, 0, extra)
        result = search.best()
        assert result.exact and result.tricks == expected, (hands, trump)
        # the discard it names is worth what it says
        kept = tuple(c for c in hands[0] if c not in result.discards)
        assert len(result.discards) == extra
        assert solve(Position(hands=(kept, *hands[1:]), trump=trump, leader=0)) == expected
        # asked only above a floor, it answers None at or below it and the value above it
        floor = rng.randrange(-1, size + 1)
        above = DiscardSearch(hands, trump, 0, extra).best(floor)
        assert above.exact
        assert above.tricks == (expected if expected > floor else None)
    if depth_first_calls == 2:
        assert len(levels) > 20


def test_the_pure_python_backend_gives_the_same_discard_values() -> None:
    rng = random.Random(5)
    for _ in range(6):
        hands, trump = _small_case(rng, 3, 2)
        c_value = DiscardSearch(hands, trump, 0, 2).best().tricks
        py_value = DiscardSearch(hands, trump, 0, 2, backend="python").best().tricks
        assert py_value == c_value == _brute(hands, trump, 2)


def test_the_relaxation_is_at_least_every_discard() -> None:
    rng = random.Random(9)
    for _ in range(80):
        size, extra = rng.choice([(3, 2), (4, 2), (4, 3)])
        hands, trump = _small_case(rng, size, extra)
        relaxed = solve(Position(hands=tuple(hands), trump=trump, leader=0, tricks=size))
        assert relaxed >= _brute(hands, trump, extra)


def test_runs_group_only_cards_no_other_hand_splits() -> None:
    north = ((0, 0), (0, 1), (0, 3), (1, 2), (1, 3), (1, 4), (2, 0), (3, 5))
    others = (((0, 2), (1, 0)), ((1, 1), (2, 1)), ((3, 0), (3, 1)))
    search = DiscardSearch((north, *others), None, 0, 6)
    runs = sorted(search.groups)
    assert runs == [((0, 0), (0, 1)), ((0, 3),), ((1, 2), (1, 3), (1, 4)), ((2, 0),), ((3, 5),)]


def test_a_cut_budget_still_names_a_real_discard_and_says_so() -> None:
    rng = random.Random(4)
    hands, trump = _small_case(rng, 5, 2)
    result = DiscardSearch(hands, trump, 0, 2, budget=Budget(nodes=0)).best()
    assert not result.exact
    assert result.tricks is not None and result.tricks <= _brute(hands, trump, 2)
    kept = tuple(c for c in hands[0] if c not in result.discards)
    assert solve(Position(hands=(kept, *hands[1:]), trump=trump, leader=0)) == result.tricks


# ---- par's induction on hand-made tables -----------------------------------------------------


def _board(dealer_number: int = 1) -> Board:
    rules = rules_for("bidwhist")
    return rules.deal_board(dealer_number, random.Random(0))


def _books(**cells: int) -> BooksTable:
    """Every cell 8 books (no bid makes) unless given as SEAT_kind_X, e.g. S_uptown_H=11."""
    table = {seat: {t.name: 8 for t in CONTRACT_TYPES} for seat in Seat}
    for key, value in cells.items():
        seat, name = key.split("_", 1)
        table[Seat.from_str(seat)][name.replace("_", " ")] = value
    return table


def _par(
    options: Mapping[str, object], books: BooksTable, board: Board | None = None
) -> ParOutcome:
    rules = rules_for("bidwhist", options)
    assert isinstance(rules, BidWhistRules)
    return par_from_books(rules, board or _board(), books)


def test_nobody_can_make_anything_so_the_board_is_passed_out() -> None:
    result = _par({}, _books())
    assert result.entry is None and result.ns_score == 0


def test_dealer_must_bid_makes_the_dealer_take_the_cheapest_set() -> None:
    board = _board(1)  # dealer N
    result = _par({"all_pass": "dealer_must_bid"}, _books(), board)
    assert result.entry is not None and result.ctype is not None
    assert result.entry.declarer is Seat.N
    assert (result.entry.bid, result.entry.kind) == (3, BidKind.UPTOWN)
    assert result.ctype.name == "uptown C"  # ties: the first type
    assert result.ns_score == -3


def test_fosdick_overtricks_let_the_strong_side_bid_low_and_not_be_outbid() -> None:
    # Dealer N, so E, S, W, N bid in turn. Only S can make anything: 11 books with hearts.
    # Worked by hand: after S's 3 W would sacrifice 4 (EW -4 beats NS +5), so S bids 4; W's
    # cheapest sacrifice over 4 costs 5, no better for EW than S's +5, and a tie passes. E
    # gains nothing by bidding first either.
    result = _par({}, _books(S_uptown_H=11))
    assert result.entry is not None and result.ctype is not None
    assert (result.entry.declarer, result.entry.bid, result.ctype.name) == (Seat.S, 4, "uptown H")
    assert result.entry.books == 11
    assert result.ns_score == 5


def test_andrews_without_overtricks_bids_up_to_what_the_hand_makes() -> None:
    # Made bids score the bid only: S bids what it can make (5 with 11 books); nobody's
    # sacrifice above that is cheaper than +5.
    result = _par({"scoring": "andrews"}, _books(S_uptown_H=11))
    assert result.entry is not None
    assert (result.entry.declarer, result.entry.bid, result.entry.kind) == (
        Seat.S,
        5,
        BidKind.UPTOWN,
    )
    assert result.ns_score == 5
    # defenders scoring changes who gets the points of a set, not NS minus EW
    same = _par({"scoring": "andrews", "defenders_score": True}, _books(S_uptown_H=11))
    assert same.ns_score == 5


def test_notrump_doubles_so_a_side_must_sacrifice_higher() -> None:
    # Dealer N speaks last. With 10 books in a suit (+4) N cannot be stopped by E: a 4-level
    # sacrifice costs EW as much (tie: E passes) and N bids 3. With 10 books at no-trump (+8)
    # N outbids any 4-level bid with 4 no-trump, so EW sacrifice at 5 (-5), where N's 10
    # books make nothing; W, speaking just before N, can do it, so E passes (a tie).
    suit = _par({}, _books(N_downtown_D=10))
    assert suit.entry is not None and suit.ctype is not None
    assert (suit.entry.declarer, suit.entry.bid, suit.ctype.name) == (Seat.N, 3, "downtown D")
    assert suit.ns_score == 4
    nt = _par({}, _books(N_notrump_downtown=10))
    assert nt.entry is not None and nt.ctype is not None
    assert (nt.entry.declarer, nt.entry.bid, nt.ctype.name) == (Seat.W, 5, "uptown C")
    assert not nt.entry.made
    assert nt.ns_score == 5


def test_the_last_seat_outbids_and_ties_prefer_passing() -> None:
    # N (the dealer, last to speak) makes 13 books downtown in clubs (+7), E makes 12 uptown
    # in spades. Whatever E bids, N outbids it and makes, or E's 7 is set: +7 for NS every
    # time, so E passes (a tie) and N bids the lowest bid.
    result = _par({}, _books(N_downtown_C=13, E_uptown_S=12))
    assert result.entry is not None and result.ctype is not None
    assert (result.entry.declarer, result.entry.bid, result.ctype.name) == (
        Seat.N,
        3,
        "downtown C",
    )
    assert result.ns_score == 7


def _auction_value(rules: BidWhistRules, board: Board, books: BooksTable) -> int:
    """NS's score under best bidding, by walking every auction with the game's own
    BidWhistAuction (another route than par_from_books's table of bids)."""

    def value(auction: BidWhistAuction) -> int:
        if auction.is_over:
            if auction.highest is None:
                return 0
            seat, bid = auction.highest
            row = books[seat]
            ctype = max(
                (t for t in CONTRACT_TYPES if t.kind is bid.kind), key=lambda t: row[t.name]
            )
            entry = rules.parse_entry(
                board,
                {
                    "declarer": str(seat),
                    "bid": bid.level,
                    "kind": str(bid.kind),
                    **(
                        {"ranking": str(ctype.ranking)}
                        if ctype.trumps is None
                        else {"trumps": str(ctype.trumps)}
                    ),
                    "books": row[ctype.name],
                },
            )
            return int(rules.ns_score(board, entry))
        to_call = auction.to_call
        assert to_call is not None
        outcomes = []
        for call in [None, *auction.legal_bids()]:
            nxt = rules.auction(board)
            for _seat, b in auction.calls:
                nxt.call(b)
            try:
                nxt.call(call)
            except IllegalBidError:  # the dealer may not pass
                continue
            outcomes.append(value(nxt))
        return max(outcomes) if to_call.side is Side.NS else min(outcomes)

    return value(rules.auction(board))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"scoring": "andrews"},
        {"scoring": "andrews", "overtricks": "yes"},
        {"all_pass": "dealer_must_bid"},
    ],
)
def test_par_scores_equal_an_exhaustive_walk_of_the_auction(options: dict[str, object]) -> None:
    rules = rules_for("bidwhist", options)
    assert isinstance(rules, BidWhistRules)
    rng = random.Random(str(options))
    for number in (1, 2, 3, 4):
        board = _board(number)
        books = {
            seat: {t.name: rng.choice([8, 8, 8, 9, 10, 11, 12, 13]) for t in CONTRACT_TYPES}
            for seat in Seat
        }
        assert par_from_books(rules, board, books).ns_score == _auction_value(rules, board, books)


# ---- boards: flags, the lazy par against the full table --------------------------------------


def _joker_board() -> tuple[Board, Seat]:
    rules = rules_for("bidwhist")
    rng = random.Random(11)
    for number in range(1, 60):
        board = rules.deal_board(number, rng)
        for seat in Seat:
            if any(c.is_joker for c in (*board.deal.hand(seat), *board.kitty)):
                return board, seat
    raise AssertionError("no joker anywhere")  # pragma: no cover


@pytest.mark.parametrize("discarded", [True, False])
def test_nt_jokers_discarded_forces_the_jokers_out_at_notrump(discarded: bool) -> None:
    board, seat = _joker_board()
    rules = rules_for("bidwhist", {"nt_jokers_discarded": discarded})
    assert isinstance(rules, BidWhistRules)
    solver = BoardSolver(rules, board)
    pool = [*board.deal.hand(seat), *board.kitty]
    jokers = [c for c in pool if c.is_joker]
    nt = CONTRACT_TYPES[-2]
    search = solver.search(seat, nt)
    assert search.discard == 6 - (len(jokers) if discarded else 0)
    assert len(search.hands[search.declarer]) == 12 + search.discard
    result = search.best()
    assert result.tricks is not None
    cards = solver.discards(seat, nt, result.discards)
    if discarded:
        assert set(jokers) <= set(cards)
    # the named discard, replayed through the game's own rules, is worth what the search says
    contract = nt.contract(seat, cards)
    hands = rules.starting_hands(board, contract)
    context = rules.play_context(board, contract)
    assert solve(position_for(rules, board, hands, context)) == result.tricks
    # suit contracts never force a discard
    assert solver.search(seat, CONTRACT_TYPES[0]).discard == 6


def test_lazy_par_equals_par_of_the_whole_table_of_what_par_needs() -> None:
    # the table par needs: every (seat, type) searched on its own, exact at 9 books and up
    rules = rules_for("bidwhist")
    assert isinstance(rules, BidWhistRules)
    board = _quick_boards()[0]
    lazy, approximate, span = BoardSolver(rules, board).par()
    whole = BoardSolver(rules, board)
    books: dict[Seat, dict[str, int]] = {}
    for seat in Seat:
        books[seat] = {}
        for ctype in CONTRACT_TYPES:
            result = whole.search(seat, ctype).best(floor=7)
            assert result.exact
            books[seat][ctype.name] = 8 if result.tricks is None else result.tricks + 1
    full = par_from_books(rules, board, books)
    assert not approximate
    assert lazy.ns_score == full.ns_score
    assert lazy.entry is not None and full.entry is not None and lazy.ctype is not None
    assert (lazy.entry.declarer, lazy.entry.bid, lazy.ctype) == (
        full.entry.declarer,
        full.entry.bid,
        full.ctype,
    )
    if full.entry.made:
        assert span == (full.entry.books, full.entry.books)


def _pbn(tmp_path: Path, boards: list[Board]) -> Path:
    path = tmp_path / "bidwhist.pbn"
    path.write_text(dumps(boards), encoding="utf-8")
    return path


def _quick_boards() -> list[Board]:
    rules = rules_for("bidwhist")
    rng = random.Random("bidwhist")
    boards = [rules.deal_board(n, rng) for n in range(1, 5)]
    return [boards[0], boards[3]]  # boards 1 and 4: par in well under a second each


def test_the_par_command_prints_bid_whist_par_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clear_cache()
    boards = _quick_boards()
    assert main(["par", str(_pbn(tmp_path, boards)), "--variant", "bidwhist", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rules = rules_for("bidwhist")
    assert [r["board"] for r in records] == [b.number for b in boards]
    for record, board in zip(records, boards, strict=True):
        assert record == par(board, rules).to_dict()
        (contract,) = record["contracts"]
        bid, *words, by, seat = contract.split()
        assert by == "by" and seat in "NESW" and 3 <= int(bid) <= 7
        assert " ".join(words) in {t.name for t in CONTRACT_TYPES}
        assert record["approximate"] is False


def test_the_dd_command_wants_table_for_bid_whist_and_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clear_cache()
    monkeypatch.setattr(bw, "TABLE_BUDGET", 2_000_000)  # keep the test quick: cells may be cut
    path = _pbn(tmp_path, _quick_boards()[:1])
    assert main(["dd", str(path), "--variant", "bidwhist", "--json"]) == 1
    assert "--table" in capsys.readouterr().err
    assert main(["dd", str(path), "--variant", "bidwhist", "--table", "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    tab = record["table"]
    assert set(tab) == {"N", "E", "S", "W", "approximate"}
    for seat in "NESW":
        assert set(tab[seat]) == {t.name for t in CONTRACT_TYPES}
        assert all(1 <= v <= 13 for v in tab[seat].values())
    for cell in tab["approximate"]:
        seat, name = cell.split(" ", 1)
        assert seat in "NESW" and name in {t.name for t in CONTRACT_TYPES}
    assert main(["dd", str(path), "--variant", "bidwhist", "--table"]) == 0
    text = capsys.readouterr().out
    assert "up S" in text and "NT dn" in text


def test_analyse_boards_handles_bid_whist_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()
    monkeypatch.setattr(bw, "TABLE_BUDGET", 1_000_000)
    rules = rules_for("bidwhist")
    boards = _quick_boards()
    seen: list[tuple[int, int, int]] = []
    results = analyse_boards(boards, rules, progress=lambda d, t, b: seen.append((d, t, b)))
    assert seen == [(1, 2, boards[0].number), (2, 2, boards[1].number)]
    for result, board in zip(results, boards, strict=True):
        assert result.error is None and result.tricks is None
        assert result.par == par(board, rules)
        assert result.table == table(board, rules)
        assert result.table is not None and "approximate" in result.table
        json.dumps(result.to_dict())


def test_a_cut_par_budget_marks_par_approximate(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()
    monkeypatch.setattr(bw, "PAR_BUDGET", 0)
    rules = rules_for("bidwhist")
    board = _quick_boards()[0]
    result = par(board, rules)
    assert result.approximate
    clear_cache()


def test_discards_named_by_the_board_solver_are_legal_cards() -> None:
    rules = rules_for("bidwhist")
    assert isinstance(rules, BidWhistRules)
    board = _quick_boards()[0]
    solver = BoardSolver(rules, board)
    ctype = CONTRACT_TYPES[3]
    result = solver.search(Seat.E, ctype).best()
    cards = solver.discards(Seat.E, ctype, result.discards)
    assert len(cards) == 6 and all(isinstance(c, Card) for c in cards)
    hands = rules.starting_hands(board, ctype.contract(Seat.E, cards))
    assert len(hands[Seat.E]) == 12
