"""The one place that turns database rows into engine objects and back (the app's engine adapters).

The engine is pure Python and knows nothing of models; the services hand it plain values. Board
records are stored as PBN text exactly as `engine.pbn` writes them, so a board read back is the
board that was dealt.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine import pbn
from engine.boards import Board as EngineBoard
from engine.games import GameRules, find_variant
from engine.movements import Movement, build
from tournaments.events.models import Board, Event, Section


def rules_for(event: Event) -> GameRules:
    """The game's rules with the event's options; raises the engine's OptionsError if bad."""
    return rules_named(event.game, event.options)


def rules_named(game: str, options: dict[str, object]) -> GameRules:
    """`rules_for` from a game's name and options held elsewhere (a cached snapshot)."""
    return _rules(game, _freeze(options))


@lru_cache(maxsize=64)
def _rules(game: str, options: tuple[tuple[str, object], ...]) -> GameRules:
    return find_variant(game)(dict(options))


def _freeze(options: dict[str, object]) -> tuple[tuple[str, object], ...]:
    return tuple(sorted((str(k), v) for k, v in (options or {}).items()))


def movement_for(section: Section) -> Movement:
    """Rebuild the engine movement from the stored kind and parameters (deterministic)."""
    return _movement(section.movement_kind, _freeze(section.movement_params))


@lru_cache(maxsize=64)
def _movement(kind: str, params: tuple[tuple[str, object], ...]) -> Movement:
    plain = {k: (tuple(v) if isinstance(v, list) else v) for k, v in params}
    return build(kind, **plain)


@dataclass(frozen=True)
class MeetingRow:
    """One meeting of the movement, as a `MovementRow` holds it (pair 0: nobody)."""

    round: int
    table: int
    ns_pair: int
    ew_pair: int
    board_set: int


def meeting_rows(section: Section) -> dict[tuple[int, int], MeetingRow]:
    """The section's meetings by (round, table). The stored movement rows are written from
    the engine's movement when the event is created and never change, so the hot paths (every
    tablet request needs them) read that movement, cached per process, not the database."""
    return _meeting_rows(section.movement_kind, json.dumps(section.movement_params, sort_keys=True))


@lru_cache(maxsize=64)
def _meeting_rows(kind: str, params: str) -> dict[tuple[int, int], MeetingRow]:
    movement = _movement(kind, _freeze(json.loads(params)))
    return {
        (m.round, m.table): MeetingRow(m.round, m.table, m.ns or 0, m.ew or 0, m.set)
        for m in movement.meetings
    }


def board_record(board: EngineBoard) -> str:
    return pbn.dumps([board])


def engine_board(board: Board) -> EngineBoard:
    return board_from_record(board.record)


def board_from_record(record: str) -> EngineBoard:
    """A stored board record (PBN) as the engine's board; parsed once per record."""
    return _engine_board(record)


@lru_cache(maxsize=2048)
def _engine_board(record: str) -> EngineBoard:
    boards = pbn.loads(record)
    if len(boards) != 1:
        raise ValueError(f"a stored board record holds {len(boards)} boards, not 1")
    return boards[0]


def as_int_score(value: int | Fraction) -> int:
    """Game scores are whole points; refuse to store anything else rather than round it."""
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise ValueError(f"the game produced a fractional score {value}")
        return int(value)
    return int(value)
