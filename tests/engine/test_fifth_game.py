"""A fifth game, registered in the test suite only, runs an event through the engine: deal, PBN
written and read back, entry, scoring, par, printing.

This proves what adding a game takes: its own rules module (here `KittyWhistRules`, with its
board shape and aliases), its par only if the board-fixed-trumps par does not fit, its docs
page and its tests; no other engine module names it. Kitty Whist is made up for the test: 12
cards to each of four players, four face down in a kitty nobody takes, trumps by rotation,
every trick scores.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from engine import pbn
from engine.boards import Board, Deal, dealer_for, trump_rotation
from engine.cards import Seat, Side
from engine.dd.analysis import analyse_boards, par_summary
from engine.dealing import deal_boards
from engine.games import find_variant, register, rules_for, unregister, variant_names
from engine.games.base import GameRules
from engine.games.classic import (
    dd_board_ns_tricks,
    ns_tricks_fields,
    plausible_ns_tricks,
    trick_entry,
)
from engine.games.entry import Entry, EntryField, Score, expect_entry
from engine.games.play import PlayContext
from engine.movements import build
from engine.printing import curtain_cards, hand_records, travellers
from engine.scoring import TravellerLine, score_session
from engine.shapes import BoardShape, Hands, shape_names

TRICKS = 12


@dataclass(frozen=True)
class KittyEntry(Entry):
    """The tricks NS won (EW won the rest of the 12)."""

    ns_tricks: int


class KittyWhistRules(GameRules):
    """Kitty Whist: four hands of 12, a kitty of 4 left aside, trumps by rotation."""

    shape = BoardShape("kittywhist", "Kitty Whist", (Hands(TRICKS, tuple(Seat)),), kitty=4)
    aliases = ("kitty",)

    def deal_board(self, number: int, rng: random.Random) -> Board:
        dealer = dealer_for(number)
        hands, kitty = self.deal_round(
            self.shape.deck(), dealer, self.hands.seats, self.hand_size, rng
        )
        return Board(number, self.name, dealer, Deal(hands), trump_rotation(number), kitty)

    def play_context(self, board: Board, contract: object = None) -> PlayContext:
        return PlayContext(trumps=board.trumps, leader=board.dealer.next(), seats=board.seats)

    def parse_entry(self, board: Board, data: Mapping[str, object]) -> KittyEntry:
        self.check_board(board)
        return KittyEntry(trick_entry(self.title, data, TRICKS))

    def side_points(self, board: Board, entry: Entry) -> dict[Side, Score]:
        ns = expect_entry(entry, KittyEntry, self.title).ns_tricks
        return {Side.NS: ns, Side.EW: TRICKS - ns}

    def ns_score(self, board: Board, entry: Entry) -> Score:
        return self.side_points(board, entry)[Side.NS]

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        return {"ns_tricks": expect_entry(entry, KittyEntry, self.title).ns_tricks}

    def entry_fields(self) -> tuple[EntryField, ...]:
        return ns_tricks_fields(TRICKS)

    def describe(self, entry: Entry) -> str:
        ns = expect_entry(entry, KittyEntry, self.title).ns_tricks
        return f"NS {ns}, EW {TRICKS - ns} tricks"

    def describe_short(self, entry: Entry) -> str:
        ns = expect_entry(entry, KittyEntry, self.title).ns_tricks
        return f"{ns}-{TRICKS - ns}"

    def ns_tricks(self, board: Board, entry: Entry) -> int | None:
        return expect_entry(entry, KittyEntry, self.title).ns_tricks

    def dd_ns_tricks(self, board: Board, entry: Entry, analysis: Mapping[str, Any]) -> int | None:
        return dd_board_ns_tricks(analysis)

    def plausible_entry(self, board: Board, rng: random.Random) -> dict[str, object]:
        return plausible_ns_tricks(board, rng)


@pytest.fixture
def kitty_whist() -> Iterator[type[KittyWhistRules]]:
    register(KittyWhistRules)
    try:
        yield KittyWhistRules
    finally:
        unregister(KittyWhistRules)


def test_the_fifth_game_is_known_by_name_and_alias_while_registered(
    kitty_whist: type[KittyWhistRules],
) -> None:
    assert variant_names()[-1] == "kittywhist"
    assert find_variant("Kitty") is kitty_whist
    assert find_variant("kitty-whist") is kitty_whist
    assert "kittywhist" in shape_names()
    assert rules_for("kittywhist").hand_size == TRICKS


def test_registration_is_undone() -> None:
    before = variant_names()
    register(KittyWhistRules)
    unregister(KittyWhistRules)
    assert variant_names() == before
    assert "kittywhist" not in shape_names()


def test_an_event_of_the_fifth_game_runs_through_the_engine(
    kitty_whist: type[KittyWhistRules],
) -> None:
    rules = rules_for("kittywhist")
    movement = build("mitchell", tables=3, boards_per_round=2)
    numbers = range(1, movement.board_count() + 1)

    # deal
    boards = deal_boards("kittywhist", numbers, seed=5)
    assert all(len(board.kitty) == 4 and board.hand_size == TRICKS for board in boards)
    assert boards[0].trumps is not None and boards[0].columns == {}

    # PBN written and read back, the kitty in its own tag
    text = pbn.dumps(boards)
    assert '[WhistVariant "kittywhist"]' in text and "[WhistKitty " in text
    assert "[WhistJokers " not in text
    assert pbn.loads(text) == boards
    assert Board.from_str(str(boards[0])) == boards[0]

    # entry: every meeting's result, scored by the rules
    by_number = {board.number: board for board in boards}
    rng = random.Random(1)
    lines = []
    for meeting in movement.meetings:
        if meeting.sit_out:
            continue
        for number in movement.boards_for_set(meeting.set):
            board = by_number[number]
            entry = rules.parse_entry(board, rules.plausible_entry(board, rng))
            assert rules.entry_to_dict(entry) == {"ns_tricks": rules.ns_tricks(board, entry)}
            score = rules.ns_score(board, entry)
            lines.append(TravellerLine(number, meeting.ns, meeting.ew, score))

    # score the session
    session = score_session(lines, movement=movement)
    assert session.for_field("NS") and session.for_field("EW")

    # par: the default analysis of a game whose board fixes trumps
    analyses = analyse_boards(boards[:2], rules, with_table=False)
    assert all(a.error is None and a.par is not None for a in analyses)
    assert par_summary(analyses[0].to_dict()).startswith("NS ")

    # print
    stored = {a.board: a.to_dict() for a in analyses}
    assert hand_records(boards, rules, analyses=stored).startswith(b"%PDF")
    assert curtain_cards(boards, rules).startswith(b"%PDF")
    assert travellers(boards, rules, movement).startswith(b"%PDF")
