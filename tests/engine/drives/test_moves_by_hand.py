"""Every move form with 8, 9, 10, 11 and 13 players, against seatings worked out by hand.

How the tables below were worked out (with pencil, from docs/games/drives.md, not by running
the code): a table is (N, E, S, W); A sits N and E, B sits S and W; partners are N-S and E-W.
The first hand is placed in number order (players 1-4 at table 1 and so on; a partner drive
seats pair 1-2 North-South and pair 3-4 East-West at table 1). The winning side at each table
is the same pattern in every scenario (`WINNERS`): after hand 1 tables 1, 2, 3 are won by NS,
EW, NS; after hand 2 by EW, EW, NS; after hand 3 by NS, NS, EW (a two-table drive uses the
first two). Each move then goes in four steps:

1. the form's rows: e.g. progressive, at table t next hand: N = the winning A of t, W = the
   winning B of t, E = the losing A of t-1, S = the losing B of t+1 (tables in a ring);
   semi-partner: N, S = t's winners, E = the losing A of t-1, W = the losing B of t+1;
   partner drive: NS = the winners of t-1, EW = the losers of t; the house rule below:
   N = t's winning A, S = t's losing B, E = the losing A of t-1, W = the winning B of t+1;
2. with ends=stay, a player who would move past an end table stays there and swaps with
   whoever the ring put in the seat of their role's other outcome at that table;
3. each table's two sides swap compass directions when that keeps more players (the dummy
   aside) in the chairs they sat in; a tie keeps the rows' directions;
4. sitting out: per role, A first, the players at the tables with the fewest hands sat out go,
   preferring one whose partnership changes anyway, then the lowest table and seat; those
   coming back take their seats, in bench order. A partner drive benches the pair with the
   fewest hands out, lowest table, NS before EW.

Two-table drives show the ring folding: with two tables "up one" and "down one" are the same
table, so semi-partner losers arrive at the other table together and stay partners.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Side
from engine.drives import (
    Drive,
    DriveSettings,
    move_form,
    partner_drive,
    progressive,
    rule_table,
    semi_partner,
)
from engine.drives.model import Role
from engine.drives.seating import Seating, next_seating

WINNERS = [("NS", "EW", "NS"), ("EW", "EW", "NS"), ("NS", "NS", "EW")]

Case = tuple[Any, dict[str, Any], int, list[tuple[list[tuple[int, ...]], tuple[int, ...]]]]

# A house custom: the winning A stays and the winning B moves down; the losing A moves up and
# the losing B stays.
HOUSE_RULE = [
    ("won", "A", 0, "N"),
    ("won", "B", -1, "W"),
    ("lost", "A", 1, "E"),
    ("lost", "B", 0, "S"),
]

# Each case: the form, the settings beyond the players, and for hands 1 to 4 the tables and the
# bench (players sitting out, in the order they left; a partner drive's bench is a pair, 0 the
# dummy). The comments note the steps that decide something.
# fmt: off
CASES: dict[str, Case] = {
    # ---- progressive -----------------------------------------------------------------------
    "progressive-8": (progressive(), {}, 8, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], ()),
        ([(1, 5, 7, 3), (6, 2, 4, 8)], ()),
        ([(5, 6, 4, 3), (2, 1, 7, 8)], ()),
        ([(5, 1, 8, 4), (2, 6, 3, 7)], ()),
    ]),
    # One A sits out: all candidates are at 0 hands out and all change partner, so the lowest
    # seat goes (1, then 5); after hand 3, 1 and 9 have sat out, so 2 (t2 N) goes before 6.
    "progressive-9": (progressive(), {}, 9, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9,)),
        ([(9, 5, 7, 3), (6, 2, 4, 8)], (1,)),
        ([(1, 6, 4, 3), (2, 9, 7, 8)], (5,)),
        ([(1, 9, 8, 4), (5, 6, 3, 7)], (2,)),
    ]),
    # An A and a B sit out; the A seats are settled first.
    "progressive-10": (progressive(), {}, 10, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9, 10)),
        ([(9, 5, 10, 3), (6, 2, 4, 8)], (1, 7)),
        ([(1, 6, 7, 3), (2, 9, 10, 8)], (5, 4)),
        ([(1, 9, 4, 7), (5, 6, 3, 10)], (8, 2)),
    ]),
    # A three-handed table: the dummy (0) moves like a player.
    "progressive-11": (progressive(), {"short_table": "dummy"}, 11, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)], ()),
        ([(1, 10, 7, 3), (6, 2, 0, 8), (9, 5, 4, 11)], ()),
        ([(10, 5, 0, 3), (2, 1, 11, 8), (9, 6, 7, 4)], ()),
        ([(10, 9, 8, 0), (2, 5, 7, 11), (6, 1, 3, 4)], ()),
    ]),
    "progressive-13": (progressive(), {}, 13, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)], (13,)),
        ([(13, 10, 7, 3), (6, 2, 12, 8), (9, 5, 4, 11)], (1,)),
        ([(1, 5, 12, 3), (2, 13, 11, 8), (9, 6, 7, 4)], (10,)),
        # 1 and 13 have sat out; of 9, 2, 5, 6 (none out yet) the lowest seat, t1 E, goes.
        ([(1, 10, 8, 12), (2, 5, 7, 11), (6, 13, 3, 4)], (9,)),
    ]),
    # ---- semi-partner ----------------------------------------------------------------------
    # Where East-West won, the sides swap directions so the winners keep their chairs.
    "semi-partner-8": (semi_partner(), {}, 8, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], ()),
        ([(1, 5, 3, 7), (2, 6, 4, 8)], ()),
        ([(2, 5, 4, 7), (1, 6, 3, 8)], ()),
        ([(2, 6, 4, 8), (1, 5, 3, 7)], ()),
    ]),
    # Two tables: everyone keeps a partner, so the lowest seat with the fewest hands out goes.
    "semi-partner-9": (semi_partner(), {}, 9, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9,)),
        ([(9, 5, 3, 7), (2, 6, 4, 8)], (1,)),
        ([(1, 5, 4, 7), (9, 6, 3, 8)], (2,)),
        ([(1, 2, 4, 8), (9, 5, 3, 7)], (6,)),
    ]),
    # After 9 replaces 1, 3 has lost their partner anyway, so 3 sits out rather than a B who
    # keeps a partner; the same happens to 4 after hand 2 and to 8 after hand 3.
    "semi-partner-10": (semi_partner(), {}, 10, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9, 10)),
        ([(9, 5, 10, 7), (2, 6, 4, 8)], (1, 3)),
        ([(1, 5, 3, 7), (9, 6, 10, 8)], (2, 4)),
        ([(1, 2, 3, 4), (9, 5, 10, 7)], (6, 8)),
    ]),
    "semi-partner-11": (semi_partner(), {"short_table": "dummy"}, 11, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)], ()),
        ([(1, 10, 3, 7), (2, 6, 0, 8), (9, 5, 11, 4)], ()),
        ([(5, 10, 0, 7), (1, 6, 4, 8), (9, 2, 11, 3)], ()),
        ([(5, 9, 0, 8), (1, 10, 4, 11), (6, 2, 7, 3)], ()),
    ]),
    # The winners at a table keep each other, so an A who is changing partner sits out first:
    # 10 (not 1, who keeps 3), then 5, then 9.
    "semi-partner-13": (semi_partner(), {}, 13, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)], (13,)),
        ([(1, 13, 3, 7), (2, 6, 12, 8), (9, 5, 11, 4)], (10,)),
        ([(10, 13, 12, 7), (1, 6, 4, 8), (9, 2, 11, 3)], (5,)),
        ([(10, 5, 12, 8), (1, 13, 4, 11), (6, 2, 7, 3)], (9,)),
    ]),
    # ---- partner drive: winners move up, losers stay -----------------------------------------
    # The losers keep their chairs; the arriving winners take the other side.
    "partner-8": (partner_drive(), {}, 8, [
        ([(1, 3, 2, 4), (5, 7, 6, 8)], ()),
        ([(7, 3, 8, 4), (5, 1, 6, 2)], ()),
        ([(7, 1, 8, 2), (5, 3, 6, 4)], ()),
        ([(5, 1, 6, 2), (7, 3, 8, 4)], ()),
    ]),
    # The odd player, 9, partners the dummy; one pair sits out each hand.
    "partner-9": (partner_drive(), {}, 9, [
        ([(1, 3, 2, 4), (5, 7, 6, 8)], (9, 0)),
        ([(9, 3, 0, 4), (5, 1, 6, 2)], (7, 8)),
        ([(9, 7, 0, 8), (5, 3, 6, 4)], (1, 2)),
        ([(1, 7, 2, 8), (9, 3, 0, 4)], (5, 6)),
    ]),
    "partner-10": (partner_drive(), {}, 10, [
        ([(1, 3, 2, 4), (5, 7, 6, 8)], (9, 10)),
        ([(9, 3, 10, 4), (5, 1, 6, 2)], (7, 8)),
        ([(9, 7, 10, 8), (5, 3, 6, 4)], (1, 2)),
        ([(1, 7, 2, 8), (9, 3, 10, 4)], (5, 6)),
    ]),
    "partner-11": (partner_drive(), {}, 11, [
        ([(1, 3, 2, 4), (5, 7, 6, 8), (9, 11, 10, 0)], ()),
        ([(9, 3, 10, 4), (5, 1, 6, 2), (7, 11, 8, 0)], ()),
        ([(9, 7, 10, 8), (5, 3, 6, 4), (1, 11, 2, 0)], ()),
        ([(11, 7, 0, 8), (9, 3, 10, 4), (1, 5, 2, 6)], ()),
    ]),
    "partner-13": (partner_drive(), {}, 13, [
        ([(1, 3, 2, 4), (5, 7, 6, 8), (9, 11, 10, 12)], (13, 0)),
        ([(13, 3, 0, 4), (5, 1, 6, 2), (7, 11, 8, 12)], (9, 10)),
        ([(13, 9, 0, 10), (5, 3, 6, 4), (1, 11, 2, 12)], (7, 8)),
        ([(7, 9, 8, 10), (13, 3, 0, 4), (1, 5, 2, 6)], (11, 12)),
    ]),
    # The king's table (ends=stay): the top table's winners stay, its losers go to table 1.
    "partner-8-stay": (partner_drive(), {"ends": "stay"}, 8, [
        ([(1, 3, 2, 4), (5, 7, 6, 8)], ()),
        ([(5, 3, 6, 4), (1, 7, 2, 8)], ()),
        ([(5, 1, 6, 2), (3, 7, 4, 8)], ()),
        ([(7, 1, 8, 2), (3, 5, 4, 6)], ()),
    ]),
    # ---- a house rule, with the ends not joined ---------------------------------------------
    # With ends=stay the bottom table's winning B stays (and its losing B goes to the top
    # table) and the top table's losing A stays (its winning A goes to table 1). On two tables
    # this sends every winner to table 1 and every loser to table 2.
    "house-rule-8": (rule_table(HOUSE_RULE), {"ends": "stay"}, 8, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], ()),
        ([(1, 6, 3, 8), (5, 2, 7, 4)], ()),
        ([(2, 6, 4, 8), (5, 1, 7, 3)], ()),
        ([(2, 5, 4, 7), (6, 1, 8, 3)], ()),
    ]),
    "house-rule-9": (rule_table(HOUSE_RULE), {"ends": "stay"}, 9, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9,)),
        ([(9, 6, 3, 8), (5, 2, 7, 4)], (1,)),
        ([(1, 6, 4, 8), (5, 9, 7, 3)], (2,)),
        ([(1, 2, 4, 7), (6, 9, 8, 3)], (5,)),
    ]),
    "house-rule-10": (rule_table(HOUSE_RULE), {"ends": "stay"}, 10, [
        ([(1, 2, 3, 4), (5, 6, 7, 8)], (9, 10)),
        ([(9, 6, 10, 8), (5, 2, 7, 4)], (1, 3)),
        ([(1, 6, 3, 8), (5, 9, 7, 10)], (2, 4)),
        ([(1, 2, 3, 4), (6, 9, 8, 10)], (5, 7)),
    ]),
    "house-rule-11": (rule_table(HOUSE_RULE), {"ends": "stay", "short_table": "dummy"}, 11, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)], ()),
        ([(1, 9, 3, 8), (6, 2, 7, 11), (5, 10, 4, 0)], ()),
        ([(5, 9, 11, 8), (2, 1, 7, 4), (6, 10, 3, 0)], ()),
        ([(5, 10, 11, 7), (2, 9, 4, 0), (6, 1, 3, 8)], ()),
    ]),
    "house-rule-13": (rule_table(HOUSE_RULE), {"ends": "stay"}, 13, [
        ([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)], (13,)),
        ([(1, 13, 3, 8), (6, 2, 7, 11), (5, 10, 4, 12)], (9,)),
        ([(9, 13, 11, 8), (2, 1, 7, 4), (6, 10, 3, 12)], (5,)),
        ([(9, 5, 11, 7), (2, 13, 4, 12), (6, 1, 3, 8)], (10,)),
    ]),
}
# fmt: on


def _results(hand: int, tables: int) -> dict[int, dict[str, int]]:
    """Seven tricks to the side `WINNERS` names (six to the other)."""
    return {
        t: {"ns_tricks": 7 if WINNERS[hand - 1][t - 1] == "NS" else 6} for t in range(1, tables + 1)
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_moves_match_the_hand_worked_table(name: str) -> None:
    form, extra, players, hands = CASES[name]
    drive = Drive(DriveSettings(players=players, hands=4, move=form, **extra))
    first_tables, first_bench = hands[0]
    seating = drive.placed_seating(first_tables, first_bench)
    for hand, (tables, bench) in enumerate(hands, start=1):
        assert seating.hand == hand
        assert seating.tables == tuple(tables), f"{name}, hand {hand}"
        assert seating.bench == bench, f"{name}, hand {hand}"
        if hand < 4:
            record = drive.record_hand(seating, _results(hand, len(tables)))
            seating = drive.next_seating(seating, record)


def test_every_form_and_player_count_is_covered() -> None:
    forms = {case[0].form for case in CASES.values()}
    assert forms == {"progressive", "semi-partner", "partner", "custom"}
    for form in forms:
        counts = {case[2] for case in CASES.values() if case[0].form == form}
        assert counts >= {8, 9, 10, 11, 13}, form


def test_named_forms_are_the_rows_the_docs_give() -> None:
    assert move_form("progressive") == progressive()
    assert move_form("semi-partner", losers="up").params == (("losers", "up"),)
    assert move_form("partner", movers="losers", direction="down").describe() == (
        "partner (movers=losers, direction=down): won A: stay, sit N; won B: stay, sit S; "
        "lost A: down 1, sit E; lost B: down 1, sit W"
    )


def test_a_player_coming_back_never_parts_the_winners_beside_them() -> None:
    """Found by the properties test: 14 players, hand 4 to 5. Table 1's winners (1 North,
    3 South) stay together; two come back from the bench, one of each role. Role A's leaver is
    player 1 (every A who has not sat out won); role B's must be a loser who has not sat out
    (11), not 3: when role A's returner took 1's seat first, 3's partnership looked as if it
    were ending anyway and 3 was sent out, parting the winners."""
    settings = DriveSettings(players=14, hands=5, half_time=2, move=semi_partner())
    rests = (0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1)
    before = Seating(
        4, ((1, 6, 3, 12), (5, 10, 7, 11), (13, 2, 8, 14)), (9, 4), (Role.A, Role.B), rests
    )
    after = next_seating(settings, before, [Side.NS, Side.NS, Side.EW])
    assert after.bench == (1, 11)
    assert 3 in after.tables[0]  # 3 plays on; 1's seat went to 9
