"""Scoring: hand-worked boards on both scales, Neuberg, artificial scores, IMPs, totals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.movements import howell, mitchell
from engine.scoring import (
    ArtificialCodeError,
    DuplicateMeetingError,
    ScoringError,
    TravellerLine,
    UnknownPairError,
    WrongBoardError,
    butler_datum,
    format_points,
    imps,
    matchpoint_board,
    parse_artificial,
    score_session,
)

F = Fraction
L = TravellerLine


def test_the_reference_neuberg_example_sole_top_becomes_19_9_of_20():
    scores = list(range(10))  # ten different results, the last the sole top
    points = matchpoint_board(scores, scale="ebu", expected=11)
    assert points[-1] == F(199, 10)
    assert matchpoint_board(scores, scale="ebu")[-1] == 18
    lines = [L(1, p, p, s) for p, s in enumerate(scores, start=1)]
    session = score_session(lines, expected=11)
    assert session.lines[-1].top == 20
    assert format_points(session.lines[-1].ns_points, 1) == "19.9"


def test_a_hand_worked_board_with_ties_on_both_scales():
    # Tricks by NS at five tables: 9 beats four results; each 7 beats the 5 and ties twice.
    scores = [9, 7, 7, 7, 5]
    assert matchpoint_board(scores, scale="ebu") == [8, 4, 4, 4, 0]
    assert matchpoint_board(scores, scale="acbl") == [4, 2, 2, 2, 0]
    session = score_session([L(1, p, p, s) for p, s in enumerate(scores, start=1)])
    ns = session.for_field("NS")
    assert [(s.pair, s.rank) for s in ns] == [(1, "1"), (2, "2="), (3, "2="), (4, "2="), (5, "5")]
    ew = session.for_field("EW")
    assert [s.rank for s in ew] == ["1", "2=", "2=", "2=", "5"]
    assert ew[0].pair == 5
    assert ew[0].total == 8


def test_a_session_with_an_average_plus_average_minus_split():
    lines = [
        # Board 1: three real results and one split artificial score.
        L(1, 1, 1, 10),
        L(1, 2, 2, 8),
        L(1, 3, 3, 8),
        L(1, 4, 4, None, ("A+", "A-")),
        # Board 2: four real results, NS 4 and EW 1 share the top.
        L(2, 1, 2, 6),
        L(2, 2, 3, 6),
        L(2, 3, 4, 5),
        L(2, 4, 1, 7),
    ]
    session = score_session(lines)
    by_line = {(s.line.board, s.line.ns): s for s in session.lines}
    # Neuberg for 3 results of 4: 10 -> (4+1)*4/3-1 = 17/3; each 8 -> (1+1)*4/3-1 = 5/3.
    assert by_line[(1, 1)].ns_points == F(17, 3)
    assert by_line[(1, 2)].ns_points == F(5, 3)
    assert by_line[(1, 2)].ew_points == F(13, 3)
    # The split: 60 % and 40 % of the top of 6.
    assert by_line[(1, 4)].ns_points == F(18, 5)
    assert by_line[(1, 4)].ew_points == F(12, 5)
    ns4 = session.standing(4, "NS")
    assert ns4.total == F(18, 5) + 6
    assert ns4.max_total == 12
    assert ns4.percentage == (F(18, 5) + 6) * 100 / 12  # 80 %
    ew4 = session.standing(4, "EW")
    # EW 4 also had the top on board 2 (NS 3's 5 was the lowest NS score).
    assert ew4.total == F(12, 5) + 6
    assert ew4.percentage == 70


def test_session_reading_of_artificial_scores_uses_the_pairs_own_percentage():
    lines = [
        L(1, 1, 1, 10),
        L(1, 2, 2, 5),
        L(2, 1, 2, 9),
        L(2, 2, 1, 9),
        L(3, 1, 1, None, ("A+", "A-")),
        L(3, 2, 2, 4),
    ]
    fixed = score_session(lines)
    session = score_session(lines, artificial="session")
    ns1 = session.standing(1, "NS")
    # NS 1 scored 2 + 1 of 4 on its real boards (75 %), more than 60 %: Ave+ = 75 % of top 2.
    assert session.lines[4].ns_points == F(3, 2)
    assert fixed.lines[4].ns_points == F(6, 5)
    assert ns1.total == 2 + 1 + F(3, 2)
    # EW 1 scored 0 + 1 of 4 (25 %), less than 40 %: Ave- = 25 % of the top.
    assert session.lines[4].ew_points == F(1, 2)
    assert fixed.lines[4].ew_points == F(4, 5)


def test_not_played_boards_leave_the_percentage_untouched():
    lines = [L(1, 1, 1, 7), L(1, 2, 2, 6), L(1, 3, 3, None, ("NP", "NP")), L(2, 3, 3, 1)]
    session = score_session(lines)
    ns3 = session.standing(3, "NS")
    assert ns3.boards_played == 1
    assert ns3.max_total == 0
    assert ns3.percentage is None
    assert session.standing(1, "NS").total == F(7, 2)  # (2+1)*3/2-1: factored to 3 results


def test_percentages_are_the_same_on_both_scales():
    lines = [L(b, p, p, (p * b * 7) % 5) for b in range(1, 4) for p in range(1, 6)]
    lines[3] = L(1, 4, 4, None, ("A+", "A"))
    ebu = score_session(lines, scale="ebu")
    acbl = score_session(lines, scale="acbl")
    assert [s.percentage for s in ebu.standings] == [s.percentage for s in acbl.standings]
    assert [s.total for s in ebu.standings] == [2 * s.total for s in acbl.standings]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=13), min_size=1, max_size=25))
def test_matchpoints_on_a_board_add_up_to_every_comparison(scores):
    n = len(scores)
    points = matchpoint_board(scores, scale="ebu")
    assert sum(points) == n * (n - 1)
    assert matchpoint_board(scores, scale="acbl") == [p / 2 for p in points]
    factored = matchpoint_board(scores, scale="ebu", expected=n + 2)
    assert sum(factored) == n * (n + 1)  # each (M+1)(n+2)/n - 1 summed
    for a, b, pa, pb in zip(scores, scores[1:], points, points[1:], strict=False):
        assert (a > b) == (pa > pb)
        assert (a == b) == (pa == pb)


def test_imps_follow_the_bridge_table():
    assert [imps(d) for d in (0, 10, 20, 49, 50, 430, 490, 4000, 9999)] == [
        0, 0, 1, 1, 2, 10, 10, 24, 24,
    ]  # fmt: skip
    assert imps(-430) == -10
    assert imps(F(39, 2)) == 0


def test_cross_imps_and_butler_on_a_small_board():
    lines = [L(1, 1, 1, 420), L(1, 2, 2, 450), L(1, 3, 3, -50)]
    cross = score_session(lines, method="cross-imps")
    # 420: -1 against 450 (30), +10 against -50 (470): 9 IMPs over 2 comparisons.
    assert cross.lines[0].ns_points == F(9, 2)
    assert cross.lines[0].ew_points == F(-9, 2)
    assert cross.standing(1, "NS").percentage is None
    assert butler_datum([420, 450, -50]) == 270  # mean 273.3, to the nearest 10
    butler = score_session(lines, method="butler")
    # Against 270: +150 is 4 IMPs, +180 is 5, -320 is 8.
    assert [s.ns_points for s in butler.lines] == [4, 5, -8]
    assert butler_datum([1, 2, 3, 4, 100], rounding=None) == 3  # one dropped each end


def test_total_tricks_shows_each_pair_against_its_directions_average():
    lines = [L(1, 1, 1, 8), L(1, 2, 2, 6), L(2, 1, 2, 5), L(2, 2, 1, 7)]
    session = score_session(lines, method="total", total_complement=13)
    ns1 = session.standing(1, "NS")
    assert ns1.total == 13
    assert ns1.versus_average == (8 - 7) + (5 - 6)
    ew1 = session.standing(1, "EW")
    assert ew1.total == 5 + 6
    assert ew1.versus_average == (5 - 6) + (6 - 7)
    assert ns1.rank == "1="
    assert session.standing(2, "NS").rank == "1="


def test_bid_whist_totals_take_bag_penalties_as_adjustments():
    lines = [L(1, 1, 1, 120), L(1, 2, 2, -60)]
    session = score_session(lines, method="total", adjustments={"NS1": -100, "EW2": 50})
    assert session.standing(1, "NS").total == 20
    assert session.standing(1, "NS").adjustments == -100
    assert session.standing(2, "EW").total == 110
    assert session.for_field("EW")[0].pair == 2
    with pytest.raises(ScoringError, match="say NS1 or EW1"):
        score_session(lines, method="total", adjustments={1: -100})


def test_a_howell_is_one_field_and_lines_are_checked_against_it():
    movement = howell(2, boards_per_round=1)
    lines = [L(m.set, m.ns, m.ew, (m.ns * 3 + m.set) % 7) for m in movement.meetings]
    session = score_session(lines, movement=movement)
    assert session.fields == ("ALL",)
    assert sorted(s.pair for s in session.standings) == [1, 2, 3, 4]
    assert all(s.max_total == 6 for s in session.standings)  # three boards, top 2 each


def test_bad_traveller_lines_name_the_line_and_never_score():
    movement = mitchell(3, boards_per_round=1)
    good = [L(m.set, m.ns, m.ew, 7, source_line=i + 2) for i, m in enumerate(movement.meetings)]
    with pytest.raises(UnknownPairError, match=r"line 9 .*no EW pair 4"):
        score_session([*good, L(1, 1, 4, 5, source_line=9)], movement=movement)
    with pytest.raises(WrongBoardError, match=r"line 9 .*do not play board 2"):
        score_session([*good[1:], L(2, 1, 1, 5, source_line=9)], movement=movement)
    with pytest.raises(DuplicateMeetingError, match=r"line 12 .*already has a result on board 1"):
        score_session([*good, L(1, 1, 1, 6, source_line=12)], movement=movement)
    with pytest.raises(DuplicateMeetingError):
        score_session([L(1, 1, 1, 3), L(1, 1, 1, 3)])
    with pytest.raises(ArtificialCodeError, match=r"'A\+\+'"):
        parse_artificial("A++")
    with pytest.raises(ScoringError, match="whole number or a fraction"):
        L(1, 1, 1, 7.5)  # type: ignore[arg-type]
    with pytest.raises(ScoringError, match="only 2 were expected"):
        score_session([L(1, p, p, p) for p in (1, 2, 3)], expected=2)


def test_format_points_rounds_only_for_display():
    assert format_points(F(199, 10)) == "19.90"
    assert format_points(F(5, 8)) == "0.63"
    assert format_points(F(-5, 8)) == "-0.63"
    assert format_points(F(200, 3), 1) == "66.7"


def test_a_movement_is_checked_once_however_often_it_is_scored(monkeypatch):
    import importlib

    checks = importlib.import_module("engine.movements.validate")

    checked = []
    real = checks.validate
    monkeypatch.setattr(checks, "validate", lambda m: checked.append(m) or real(m))
    movement = howell(2, boards_per_round=1)
    lines = [L(m.set, m.ns, m.ew, (m.ns * 3 + m.set) % 7) for m in movement.meetings]
    first = score_session(lines, movement=movement)
    again = score_session(lines, movement=movement)
    assert first.standings == again.standings
    assert checked == [movement]
    same_shape = howell(2, boards_per_round=1)  # another object: checked on its own
    score_session(lines, movement=same_shape)
    assert len(checked) == 2 and checked[1] is same_shape
