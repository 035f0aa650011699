"""Plausible table results for rehearsals, demos and load tests.

The results go through `result_submit` and `result_confirm`, the same services tablets use, so
a simulated evening exercises the real path. "Plausible" means biased by the cards: the side
with more high-card points tends to take more tricks, declare, and bid higher.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

from django.db import transaction

from engine.boards import Board as EngineBoard
from engine.cards import Seat, Side
from engine.games import EntryError
from tournaments.models import Event, MovementRow, Pair, Result, Section
from tournaments.services.engine_bridge import engine_board
from tournaments.services.results import boards_of_set, result_confirm, result_submit

HCP = {14: 4, 13: 3, 12: 2, 11: 1}


def _hcp(board: EngineBoard, seat: Seat) -> int:
    return sum(HCP.get(card.rank, 0) for card in board.deal.hand(seat) if card.suit is not None)


def _side_hcp(board: EngineBoard, side: Side) -> int:
    return sum(_hcp(board, seat) for seat in Seat if seat.side == side)


def _clip(value: float, low: int, high: int) -> int:
    return max(low, min(high, round(value)))


def _longest_suit(board: EngineBoard, seats: Iterable[Seat]) -> str:
    counts: dict[str, int] = {}
    for seat in seats:
        for card in board.deal.hand(seat):
            if card.suit is not None:
                counts[str(card.suit)] = counts.get(str(card.suit), 0) + 1
    return max(sorted(counts), key=lambda s: counts[s])


def plausible_entry(game: str, board: EngineBoard, rng: random.Random) -> dict[str, Any]:
    ns_hcp = _side_hcp(board, Side.NS)
    if game in {"classic", "openwhist"}:
        hand = len(board.deal.hand(Seat.N))
        mean = hand / 2 + (ns_hcp - 20) / 3
        return {"ns_tricks": _clip(rng.gauss(mean, 1.3), 0, hand)}
    side = Side.NS if ns_hcp >= 20 else Side.EW
    seats = [s for s in Seat if s.side == side]
    declarer = max(seats, key=lambda s: (_hcp(board, s), rng.random()))
    strength = max(ns_hcp, 40 - ns_hcp)
    if game == "candid":
        bid = _clip(7 + (strength - 20) / 5 + rng.gauss(0, 0.6), 7, 10)
        strain = rng.choice([_longest_suit(board, seats), _longest_suit(board, seats), "NT"])
        tricks = _clip(rng.gauss(bid + 0.3, 1.2), 0, 13)
        return {"declarer": str(declarer), "bid": bid, "strain": strain, "tricks": tricks}
    if game == "bidwhist":
        bid = _clip(3 + (strength - 20) / 5 + rng.gauss(0, 0.7), 3, 7)
        kind = rng.choices(["uptown", "downtown", "notrump"], weights=[5, 3, 2])[0]
        books = _clip(rng.gauss(6 + bid + 0.4, 1.3), 1, 13)
        entry: dict[str, Any] = {
            "declarer": str(declarer),
            "bid": bid,
            "kind": kind,
            "books": books,
        }
        if kind == "notrump":
            entry["ranking"] = rng.choice(["uptown", "downtown"])
        else:
            entry["trumps"] = _longest_suit(board, seats)
        return entry
    raise ValueError(f"no simulation for the game {game!r}")


def event_simulate(
    *, event: Event, rounds: int | None = None, seed: int | None = None, batch: bool = False
) -> list[Result]:
    """Play every missing result of the first `rounds` rounds (all when None).

    By default each result is its own transaction, as from real tablets (a load test wants
    that). `batch=True` commits them together, so the standings are computed once: the demo
    data uses it.
    """
    with transaction.atomic() if batch else nullcontext():
        return _simulate(event, rounds, random.Random(seed))


def _simulate(event: Event, rounds: int | None, rng: random.Random) -> list[Result]:
    section: Section = event.sections.get()
    boards = {b.number: engine_board(b) for b in event.boards.all()}
    made = []
    last = section.rounds if rounds is None else min(rounds, section.rounds)
    rows = MovementRow.objects.filter(section=section, round__lte=last).order_by("round", "table")
    absent = set(
        Pair.objects.filter(section=section, is_phantom=True).values_list("number", "direction")
    )
    ns_seat, ew_seat = ("", "") if section.one_winner else ("NS", "EW")
    for row in rows:
        if not (row.ns_pair and row.ew_pair):
            continue  # the movement's sit-out
        if (row.ns_pair, ns_seat) in absent or (row.ew_pair, ew_seat) in absent:
            continue  # a pair marked absent: its opponents sit out
        for number in boards_of_set(section, row.board_set):
            if Result.objects.filter(
                section=section, board_number=number, round=row.round, table=row.table
            ).exists():
                continue
            result, _ = _submit_plausible(section, row, number, boards[number], event.game, rng)
            made.append(result_confirm(result=result, device="simulator"))
    return made


def _submit_plausible(
    section: Section,
    row: MovementRow,
    number: int,
    board: EngineBoard,
    game: str,
    rng: random.Random,
) -> tuple[Result, bool]:
    for _ in range(20):
        entry = plausible_entry(game, board, rng)
        try:
            return result_submit(
                section=section,
                round=row.round,
                table=row.table,
                board_number=number,
                entry=entry,
                device="simulator",
            )
        except EntryError:
            continue  # an entry the rules refuse (e.g. an impossible combination): draw again
    raise ValueError(f"could not draw a valid result for board {number}")
