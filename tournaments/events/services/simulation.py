"""Plausible table results for rehearsals, demos and load tests.

The results go through `result_submit` and `result_confirm`, the same services tablets use, so
a simulated evening exercises the real path. "Plausible" means biased by the cards: the side
with more high-card points tends to take more tricks, declare, and bid higher.
"""

from __future__ import annotations

import random
from contextlib import nullcontext

from django.db import transaction

from engine.boards import Board as EngineBoard
from engine.games import EntryError, GameRules
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import Event, MovementRow, Result, Section
from tournaments.events.selectors.room import sit_outs
from tournaments.events.services.results import result_confirm, result_submit


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
    section = event.section
    rules = rules_for(event)
    boards = {b.number: engine_board(b) for b in event.boards.all()}
    made = []
    last = section.rounds if rounds is None else min(rounds, section.rounds)
    rows = MovementRow.objects.filter(section=section, round__lte=last).order_by("round", "table")
    # The movement's sit-outs, and the meetings of a pair away that round (absent, come
    # late or gone early): its opponents sit out.
    no_game = sit_outs(section)
    for row in rows:
        if (row.round, row.table) in no_game:
            continue
        for number in section.boards_of_set(row.board_set):
            if Result.objects.filter(
                section=section, board_number=number, round=row.round, table=row.table
            ).exists():
                continue
            result, _ = _submit_plausible(section, row, number, boards[number], rules, rng)
            made.append(result_confirm(result=result, device="simulator"))
    return made


def _submit_plausible(
    section: Section,
    row: MovementRow,
    number: int,
    board: EngineBoard,
    rules: GameRules,
    rng: random.Random,
) -> tuple[Result, bool]:
    for _ in range(20):
        entry = rules.plausible_entry(board, rng)
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
