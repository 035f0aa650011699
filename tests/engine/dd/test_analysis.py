"""Boards of the real games through the solver: the games' own legal plays, tables, par."""

from __future__ import annotations

import json
import random

import pytest

from engine.boards import Board
from engine.cards import Seat
from engine.cli import main
from engine.dd import principal_line
from engine.dd.analysis import (
    analyse_boards,
    board_tricks,
    clear_cache,
    par,
    position_for,
    table,
)
from engine.dd.position import DDInputError
from engine.dd.pysolver import legal_plays
from engine.games import GameRules, PlayContext, rules_for, variant_names
from engine.games.bidwhist import BidKind, BidWhistContract, BidWhistRules
from engine.pbn import dumps


def _hands(board):
    return {seat: board.deal.hand(seat) for seat in board.seats}


def test_the_principal_line_replays_as_a_legal_classic_play() -> None:
    rules = rules_for("classic")
    board = rules.deal_board(5, random.Random(5))
    context = rules.play_context(board)
    position = position_for(rules, board, _hands(board), context)
    line = principal_line(position)
    solver_of = {}
    ctx_cards = [c for s in board.seats for c in board.deal.hand(s)]
    for card in ctx_cards:
        solver_of[_solver_card(rules, board, context, card)] = card
    play = rules.replay(board, [solver_of[c] for c in line])
    ns = play.side_tricks()[Seat.N.side]
    assert ns == board_tricks(board, rules)["ns"]


def _solver_card(rules, board, context, card):
    position = position_for(rules, board, _hands(board), context)
    seat = board.deal.seat_of(card)
    # the hands are sorted by (suit, rank); rebuild the same mapping position_for uses
    from engine.dd.position import NO_SUIT

    suit = rules.effective_suit(card, context)
    suit_index = NO_SUIT if suit is None else suit.index
    same = sorted(
        (
            c
            for s in board.seats
            for c in board.deal.hand(s)
            if (rules.effective_suit(c, context) or None) == suit
        ),
        key=lambda c: (rules.strength(c, context), str(c)),
    )
    card_ = (suit_index, same.index(card))
    assert card_ in position.hands[board.seats.index(seat)]
    return card_


def _contract(rules: GameRules, board: Board) -> object:
    """A contract to play the board in: None where the board fixes trumps, else one the
    auction could reach (Bid Whist: no-trump downtown, jokers discarded; Candid: 7NT)."""
    if isinstance(rules, BidWhistRules):
        pool = [*board.deal.hand(board.dealer), *board.kitty]
        jokers = [c for c in pool if c.is_joker]
        discards = tuple((jokers + [c for c in pool if not c.is_joker])[:6])
        return BidWhistContract(board.dealer, BidKind.NOTRUMP, None, BidKind.DOWNTOWN, discards)
    if rules.has_auction:
        return rules.parse_entry(board, {"declarer": "N", "bid": 7, "strain": "NT", "tricks": 7})
    return None


@pytest.mark.parametrize("variant", variant_names())
def test_the_solver_allows_exactly_the_games_legal_first_plays(variant: str) -> None:
    rules = rules_for(variant)
    rng = random.Random(variant)
    for number in range(1, 9):
        board = rules.deal_board(number, rng)
        play = rules.new_play(board, _contract(rules, board))
        context = play.context
        position = position_for(rules, board, dict(play.hands), context)
        n = len(board.seats)
        hands = tuple(frozenset(h) for h in position.hands)
        mapping = {}
        for seat in board.seats:
            for card in play.hands[seat]:
                mapping[_to_solver(rules, context, play.hands, card)] = card
        # play a few cards, comparing the legal sets at every step
        trick: list = []
        for _ in range(2 * n):
            seat_index = board.seats.index(play.to_play)
            ours = {mapping[c] for c in legal_plays(position, hands, seat_index, tuple(trick))}
            assert ours == set(play.legal_plays())
            card = sorted(ours, key=str)[0]
            solver_card = next(k for k, v in mapping.items() if v == card)
            hands = tuple(h - {solver_card} if i == seat_index else h for i, h in enumerate(hands))
            trick = [*trick, solver_card] if len(trick) < n - 1 else []
            play.play(card)


def _to_solver(rules, context: PlayContext, hands, card):
    from engine.dd.position import NO_SUIT

    suit = rules.effective_suit(card, context)
    every = [c for h in hands.values() for c in h]
    same = sorted(
        (c for c in every if rules.effective_suit(c, context) == suit),
        key=lambda c: (rules.strength(c, context), str(c)),
    )
    return (NO_SUIT if suit is None else suit.index, same.index(card))


def test_candid_par_is_an_auction_equilibrium() -> None:
    rules = rules_for("candid")
    board = rules.deal_board(1, random.Random(1))
    result = par(board, rules)
    tab = table(board, rules)
    assert result.ns_score is not None
    (contract,) = result.contracts
    bid = int(
        contract.split()[0][:-1] if contract.split()[0][-1] != "T" else contract.split()[0][:-2]
    )
    strain = contract.split()[0][len(str(bid)) :]
    declarer = contract.split()[-1]
    tricks = tab[declarer][strain]
    made = 10 * bid + (tricks - bid) if tricks >= bid else -10 * bid
    sign = 1 if declarer in "NS" else -1
    assert result.ns_score == sign * made
    # the other side cannot do better by bidding any higher contract that makes for it
    other = "EW" if declarer in "NS" else "NS"
    for level in range(bid, 14):
        for s in ("C", "D", "H", "S", "NT"):
            if (level, ("C", "D", "H", "S", "NT").index(s)) <= (
                bid,
                ("C", "D", "H", "S", "NT").index(strain),
            ):
                continue
            best = max(tab[d][s] for d in other)
            if best >= level:
                theirs = 10 * level + best - level
                assert theirs <= -sign * result.ns_score or sign * result.ns_score < 0


def test_bid_whist_boards_have_no_tricks_before_the_auction() -> None:
    rules = rules_for("bidwhist")
    board = rules.deal_board(1, random.Random(1))
    with pytest.raises(DDInputError, match="after the auction"):
        board_tricks(board, rules)


def test_analyse_boards_reports_progress_and_caches_by_deal(capsys) -> None:
    clear_cache()
    rules = rules_for("classic")
    rng = random.Random(8)
    boards = [rules.deal_board(n, rng) for n in (1, 2)]
    seen = []
    results = analyse_boards(
        boards, rules, progress=lambda d, t, b: seen.append((d, t, b)), with_table=False
    )
    assert seen == [(1, 2, 1), (2, 2, 2)]
    assert [r.board for r in results] == [1, 2]
    assert all(r.error is None and r.par is not None for r in results)
    # Served from the cache: nothing is solved again (a solve would store a new entry).
    from engine.dd import base

    known = list(base._CACHE)
    again = analyse_boards(boards, rules, with_table=False)
    assert sorted(map(repr, base._CACHE)) == sorted(map(repr, known))
    assert [a.to_dict() for a in again] == [r.to_dict() for r in results]


def test_the_dd_command_prints_one_json_object_per_board(tmp_path, capsys) -> None:
    rules = rules_for("classic")
    rng = random.Random(4)
    boards = [rules.deal_board(n, rng) for n in (1, 2)]
    path = tmp_path / "boards.pbn"
    path.write_text(dumps(boards), encoding="utf-8")
    assert main(["dd", str(path), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["board"] for r in records] == [1, 2]
    for record, board in zip(records, boards, strict=True):
        assert record == {"board": board.number, **board_tricks(board, rules)}
        assert record["ns"] + record["ew"] == 13
    # NS tricks are the par score under `tricks` scoring (odd_tricks, the default, scores NS - EW)
    assert main(["par", str(path), "--json", "--option", "scoring=tricks"]) == 0
    pars = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert [p["ns_score"] for p in pars] == [r["ns"] for r in records]
