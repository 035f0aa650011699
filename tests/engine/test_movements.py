"""Movements: the invariants on every movement offered, the REFERENCE.md formulas, files."""

from __future__ import annotations

import pytest

from engine.movements import (
    Meeting,
    MovementError,
    MovementFileError,
    PairSlot,
    advise,
    build,
    dumps_csv,
    howell,
    loads_asc,
    loads_csv,
    mitchell,
    validate,
    why,
)
from engine.movements.howell import MAX_HOWELL_TABLES


def _assert_valid(movement):
    report = validate(movement)
    assert report.ok, report.problems
    return report


@pytest.mark.parametrize("tables", range(3, 31))
def test_every_mitchell_from_3_to_30_tables_passes_the_validator(tables):
    variants = [{"even": "skip"}, {"even": "relay"}] if tables % 2 == 0 else [{}]
    for variant in variants:
        for extra in ({}, {"phantom": True}, {"arrow_switch": [1]}, {"rounds": 2}):
            movement = mitchell(tables, **variant, **extra)
            report = _assert_valid(movement)
            counts = set(report.times_played.values())
            if not extra or "arrow_switch" in extra:
                assert len(counts) == 1, "a full Mitchell plays every board equally often"
            elif "phantom" in extra and variant.get("even") != "skip":
                assert len(counts) == 1, "the sit-out table rests every set once"


@pytest.mark.parametrize("tables", range(2, MAX_HOWELL_TABLES + 1))
def test_every_howell_offered_is_complete_and_valid(tables):
    for phantom in (False, True):
        movement = howell(tables, phantom=phantom)
        _assert_valid(movement)
        pairs = movement.pair_numbers()
        met = {frozenset((m.ns, m.ew)) for m in movement.meetings if 0 not in (m.ns, m.ew)}
        expected = len(pairs) * (len(pairs) - 1) // 2
        assert len(met) == expected, "every pair meets every other pair"
        for pair in pairs:
            sets = [r.set for r in movement.guide_for_pair(pair) if r.opponents != 0]
            if not phantom:
                assert sorted(sets) == list(range(1, movement.sets + 1))
            seats = [r.seat for r in movement.guide_for_pair(pair)]
            assert abs(seats.count("NS") - seats.count("EW")) <= 1 or pair == 2 * tables


def test_a_shortened_howell_reports_unequal_plays_for_factoring():
    report = _assert_valid(howell(4, rounds=5))
    assert report.notes
    assert "unequally" in report.notes[0]


def test_seven_table_mitchell_follows_the_reference_formulas_round_by_round():
    n = 7
    movement = mitchell(n)
    assert movement.rounds == 7
    assert movement.sets == 7
    for r in range(1, n + 1):
        for p in range(1, n + 1):
            table = ((p + r - 2) % n) + 1  # EW pair p's table
            m = movement.meeting(r, table)
            assert (m.ns, m.ew) == (table, p)
            assert m.set == ((table + r - 2) % n) + 1
    # Hand-checked: round 3, EW 6 is at table 1 with set 3; EW 1 at table 3 with set 5.
    assert movement.meeting(3, 1) == Meeting(3, 1, 1, 6, 3)
    assert movement.meeting(3, 3) == Meeting(3, 3, 3, 1, 5)


def test_skip_mitchell_moves_ew_two_tables_after_half_way():
    movement = mitchell(8)
    assert movement.kind == "skip-mitchell"
    assert movement.rounds == 7
    # EW 1: tables 1,2,3,4 in rounds 1-4, then ((1 + r - 1) mod 8) + 1 = 6,7,8.
    tables = [row.table for row in movement.guide_for_pair(1, "EW")]
    assert tables == [1, 2, 3, 4, 6, 7, 8]
    with pytest.raises(MovementError, match=r"1\.\.7 rounds"):
        mitchell(8, rounds=8)


def test_relay_mitchell_shares_table_one_and_uses_the_bye_stand():
    movement = mitchell(6, even="relay")
    assert movement.rounds == 6
    assert movement.shared_tables == ((1, 6),)
    assert len(movement.relay_sets) == 6
    for r in range(1, 7):
        assert movement.meeting(r, 1).set == movement.meeting(r, 6).set
        relay = dict(movement.relay_sets)[r]
        assert relay not in {m.set for m in movement.meetings if m.round == r}


def test_phantom_makes_one_pair_sit_out_each_round():
    movement = mitchell(5, phantom=True)
    sit_outs = [m for m in movement.meetings if m.sit_out]
    assert len(sit_outs) == 5
    assert all(m.table == 5 and m.ns == 0 for m in sit_outs)
    assert PairSlot(5, "NS") not in movement.pairs
    guide = movement.guide_for_pair(2, "EW")
    assert [row.opponents for row in guide].count(0) == 1


def test_arrow_switch_makes_one_field_with_unique_numbers():
    movement = mitchell(7, arrow_switch=[7])
    assert movement.one_winner
    numbers = movement.pair_numbers()
    assert sorted(numbers) == list(range(1, 15))
    last = movement.meeting(7, 1)
    assert last.ns > 7, "the EW pair plays the NS cards when switched"
    assert last.ew == 1
    assert movement.field_of(3, 1) == "ALL"
    assert mitchell(7).field_of(3, 1, "EW") == "EW"


def test_guide_cards_give_next_table_and_where_the_boards_go():
    movement = mitchell(5, boards_per_round=2)
    first = movement.guide_for_pair(1, "EW")[0]
    assert (first.table, first.seat, first.opponents, first.set) == (1, "EW", 1, 1)
    assert first.boards == range(1, 3)
    assert first.next_table == 2
    assert first.boards_next_table == 5, "boards go down one table, 1 -> 5"
    table = movement.guide_for_table(3)
    assert [row.ew for row in table] == [3, 2, 1, 5, 4]
    with pytest.raises(MovementError, match="say which"):
        movement.guide_for_pair(1)


def test_build_by_name_and_bad_sizes_are_refused():
    assert build("relay-mitchell", tables=4).kind == "relay-mitchell"
    with pytest.raises(MovementError, match="unknown movement"):
        build("australian", tables=4)
    with pytest.raises(MovementError, match="even number"):
        build("skip-mitchell", tables=5)
    with pytest.raises(MovementError, match="at least 3"):
        mitchell(2)


def test_csv_round_trip_keeps_the_movement():
    for movement in (mitchell(6, even="relay"), howell(4), mitchell(5, arrow_switch=[5])):
        again = loads_csv(dumps_csv(movement), boards_per_round=movement.boards_per_round)
        assert again.meetings == movement.meetings
        assert again.relay_sets == movement.relay_sets
        assert again.one_winner == movement.one_winner
        assert validate(again).times_played == validate(movement).times_played


ASC_THREE_TABLE_MITCHELL = """6 3 3 3 0
# NS pairs 1-3 stay, EW pairs 4-6 move up, boards move down
1-4 A  2-5 B  3-6 C
1-6 B  2-4 C  3-5 A
1-5 C  2-6 A  3-4 B
"""


def test_asc_file_is_read_with_letter_groups():
    movement = loads_asc(ASC_THREE_TABLE_MITCHELL, boards_per_round=4)
    _assert_valid(movement)
    assert not movement.one_winner, "pairs never change direction: two fields"
    assert movement.meeting(2, 1) == Meeting(2, 1, 1, 6, 2)
    assert movement.board_count() == 12


def test_a_movement_file_that_breaks_an_invariant_names_the_line():
    broken = ASC_THREE_TABLE_MITCHELL.replace("1-5 C", "1-4 C")
    with pytest.raises(
        MovementFileError, match=r"line 5: round 3 table 1: EW pair 4 plays set 3 again"
    ):
        loads_asc(broken)
    csv_text = "round,table,ns,ew,set\n1,1,1,2,1\n1,2,3,4,2\n2,1,1,3,1\n2,2,2,4,2\n"
    with pytest.raises(MovementFileError, match=r"line 4: .*plays set 1 again"):
        loads_csv(csv_text)
    with pytest.raises(MovementFileError, match="line 3: round 2 needs"):
        loads_asc("4 2 2 2 0\n1-2 A 3-4 B\n1-3 B\n")
    with pytest.raises(MovementFileError, match="line 2: NS pair 'x'"):
        loads_csv("round,table,ns,ew,set\n1,1,x,2,1\n")


def test_a_movement_file_in_which_nobody_plays_is_refused_in_either_form():
    # Found by the readers' fuzzing: an ASC file of empty cells was read as a movement with
    # no meetings, whose CSV (a header alone) the CSV reader then refused.
    with pytest.raises(MovementFileError, match="no meetings"):
        loads_asc("4 2 2 2 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n", boards_per_round=2)
    with pytest.raises(MovementFileError, match="no meetings"):
        loads_csv("round,table,ns,ew,set\n1,1,0,0,1\n")


def test_advisor_lists_movements_that_fit_best_first():
    suggestions = advise(14, 24)
    assert suggestions, "seven tables must have something to offer"
    best = suggestions[0]
    assert abs(best.boards_per_pair - 24) <= abs(suggestions[-1].boards_per_pair - 24)
    # The recommendation is said in words: boards, rounds, time, winners.
    assert why(best).startswith(f"Each pair plays {best.boards_per_pair} boards in")
    assert "winner" in why(best) and "minutes a board" in why(best)
    # A shortened Howell is never recommended over a movement that fits.
    assert not (best.kind == "howell" and not best.complete)
    assert advise(6, 18)[0].kind == "howell"  # a small room: everyone meets
    assert "sits out" in why(advise(9, 20)[0])
    kinds = {s.kind for s in suggestions}
    assert {"mitchell", "howell"} <= kinds
    assert any(s.winners == 1 and s.kind == "mitchell" for s in suggestions), "arrow switch"
    for s in suggestions:
        movement = s.movement()
        assert validate(movement).ok
        assert s.total_boards == movement.board_count()
        assert not s.sit_out
    odd = advise(9, 20)
    assert odd
    assert all(s.sit_out for s in odd)
    with pytest.raises(MovementError):
        advise(2, 20)


def test_boards_going_to_the_relay_stand_say_where_they_are_played_next():
    movement = mitchell(6, even="relay")
    resting = dict(movement.relay_sets)
    checked = 0
    for m in movement.meetings:
        if m.round >= movement.rounds or m.sit_out:
            continue
        after = movement.next_places(m.round, m.table)
        if resting.get(m.round + 1) == m.set:
            # not played next round: the relay stand, then a table in a later round
            assert after.boards is None
            played_later = [
                x for x in movement.meetings if x.set == m.set and x.round > m.round + 1
            ]
            if not played_later:  # rests in the last round: not played again
                assert after.boards_later is None
                continue
            assert after.boards_later is not None
            later_round, later_table = after.boards_later
            assert later_round == min(x.round for x in played_later)
            assert later_round > m.round + 1
            assert movement.meeting(later_round, later_table).set == m.set
            checked += 1
        else:
            assert after.boards is not None and after.boards_later is None
    assert checked > 0


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("mitchell", {"tables": 7}),
        ("mitchell", {"tables": 8}),
        ("skip-mitchell", {"tables": 8}),
        ("relay-mitchell", {"tables": 6}),
        ("howell", {"tables": 5}),
        ("mitchell", {"tables": 7, "phantom": True}),
    ],
)
def test_feeders_are_the_tables_whose_pairs_or_boards_go_to_a_table(kind, params):
    # The index a tablet reads must say what asking next_places of every table would say.
    movement = build(kind, **params)
    expected: dict[tuple[int, int], set[int]] = {}
    for m in movement.meetings:
        after = movement.next_places(m.round, m.table)
        for place in (after.boards, after.ns and after.ns[0], after.ew and after.ew[0]):
            if place:
                expected.setdefault((m.round + 1, place), set()).add(m.table)
    for r in range(2, movement.rounds + 1):
        for t in range(1, movement.tables + 1):
            assert movement.feeders(r, t) == expected.get((r, t), set())
    # A pair's own rounds come from the index as they did from a scan of the meetings.
    pair = movement.pair_numbers()[0]
    guide = movement.guide_for_pair(pair, None if movement.one_winner else "NS")
    assert [row.round for row in guide] == sorted({row.round for row in guide})
    assert all(movement.meeting(row.round, row.table).set == row.set for row in guide)


def test_a_sit_out_kept_at_one_table_all_evening_makes_that_table_idle():
    # 7 pairs in a Howell: the phantom stays at table 1, whose pair sits out every round.
    assert howell(4, phantom=True).idle_tables == frozenset({1})
    assert howell(4, phantom=True).tables_in_play == (2, 3, 4)
    assert howell(4).idle_tables == frozenset()
    # A Mitchell's phantom sitting North-South stays at its table too; sitting East-West
    # it moves, and every table is played at.
    assert build("mitchell", tables=5, phantom=True).idle_tables == frozenset({5})
    moving = build("mitchell", tables=5, phantom=True, phantom_seat="EW")
    assert moving.idle_tables == frozenset() and len(moving.tables_in_play) == 5
    advised = {(s.kind, s.tables, s.sit_out): s.tables_in_play for s in advise(7, 24)}
    assert advised[("howell", 4, True)] == 3
