"""The season's competitions: every kind, best-of, qualification, each tie rule and the
handicapped ladder, each checked against a recount written differently here, and the
hand-worked handicap example of docs/directors/season.md to the last figure."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction as F

import pytest

from engine.season import (
    Appearance,
    CompetitionRule,
    CompetitionRuleError,
    CompetitionTable,
    HandicapRule,
    averages_before,
    competition_table,
    evening_handicaps,
)


def pairs(
    play: int, day: dt.date, entrant: str, member: int | None, pct: object, name: str = ""
) -> Appearance:
    return Appearance(
        "event",
        play,
        f"Pairs {play}",
        day,
        entrant,
        member,
        name or (f"Member {member}" if member else "Visitor"),
        "1",
        8,
        percentage=F(str(pct)),
        points=F(str(pct)),
    )


def drive(play: int, day: dt.date, member: int | None, points: object) -> Appearance:
    return Appearance(
        "drive", play, f"Drive {play}", day, str(member), member, f"Member {member}", "1", 20,
        points=F(str(points)),
    )  # fmt: skip


def teams(play: int, day: dt.date, team: str, member: int, wins: object, points: int) -> Appearance:
    return Appearance(
        "tournament", play, f"Teams {play}", day, team, member, f"Member {member}", "1", 6,
        points=F(points), wins=F(str(wins)),
    )  # fmt: skip


def day(n: int) -> dt.date:
    return dt.date(2025, 1, 1) + dt.timedelta(days=7 * n)


def summary(table: CompetitionTable) -> list[tuple[str, int, str]]:
    return [(row.place, row.member_id, row.shown) for row in table.rows]


# -- the ladder -------------------------------------------------------------------------------


def test_a_ladder_averages_each_members_best_n_percentages() -> None:
    rows = [
        pairs(1, day(1), "NS1", 1, 60),
        pairs(2, day(2), "NS1", 1, 40),
        pairs(3, day(3), "NS1", 1, 50),
        pairs(1, day(1), "NS2", 2, 55),
        pairs(2, day(2), "NS2", 2, 54),
    ]
    table = competition_table(CompetitionRule("ladder", best_of=2), rows)
    assert summary(table) == [("1", 1, "55.00"), ("2", 2, "54.50")]
    assert table.rows[0].played == 3 and table.rows[0].counted == 2
    assert table.rows[0].detail == "best 60.00"
    assert table.evenings == 3


def test_members_short_of_the_qualifying_evenings_are_listed_after_unplaced() -> None:
    rows = [
        pairs(1, day(1), "NS1", 1, 70),
        pairs(1, day(1), "NS2", 2, 50),
        pairs(2, day(2), "NS2", 2, 52),
        pairs(1, day(1), "NS3", 3, 45),
        pairs(2, day(2), "NS3", 3, 46),
    ]
    table = competition_table(CompetitionRule("ladder", min_sessions=2), rows)
    assert summary(table) == [("1", 2, "51.00"), ("2", 3, "45.50"), ("", 1, "70.00")]
    assert [row.qualified for row in table.rows] == [True, True, False]


def test_visitors_are_never_listed_and_unscored_evenings_do_not_count() -> None:
    rows = [
        pairs(1, day(1), "NS1", None, 80),
        pairs(1, day(1), "NS2", 4, 50),
        # An IMPs event: points but no percentage, so no ladder evening.
        Appearance("event", 2, "IMPs", day(2), "NS1", 4, "Member 4", "1", 8, points=F(12)),
    ]
    table = competition_table(CompetitionRule("ladder"), rows)
    assert summary(table) == [("1", 4, "50.00")]
    assert table.rows[0].played == 1


def test_the_name_is_the_latest_as_played() -> None:
    rows = [pairs(1, day(1), "NS1", 1, 50, "Jo Smith"), pairs(2, day(2), "NS1", 1, 50, "Jo Brown")]
    assert competition_table(CompetitionRule("ladder"), rows).rows[0].name == "Jo Brown"


# -- ties -------------------------------------------------------------------------------------


def tied_rows() -> list[Appearance]:
    # Members 1 and 2 both average 55; member 1 played three evenings (best 60), member 2 two
    # (best 58); member 3 averages 55 too over two evenings with best 58, as member 2.
    return [
        pairs(1, day(1), "NS1", 1, 60),
        pairs(2, day(2), "NS1", 1, 55),
        pairs(3, day(3), "NS1", 1, 50),
        pairs(1, day(1), "NS2", 2, 58),
        pairs(2, day(2), "NS2", 2, 52),
        pairs(1, day(1), "NS3", 3, 52),
        pairs(2, day(2), "NS3", 3, 58),
        pairs(1, day(1), "NS4", 4, 40),
    ]


def test_ties_shared() -> None:
    table = competition_table(CompetitionRule("ladder", ties="share"), tied_rows())
    assert [row.place for row in table.rows] == ["1=", "1=", "1=", "4"]


def test_ties_split_by_more_sessions_then_shared() -> None:
    table = competition_table(CompetitionRule("ladder", ties="sessions"), tied_rows())
    assert summary(table)[:3] == [("1", 1, "55.00"), ("2=", 2, "55.00"), ("2=", 3, "55.00")]
    assert table.rows[3].place == "4"


def test_ties_split_by_the_best_single_result() -> None:
    table = competition_table(CompetitionRule("ladder", ties="best"), tied_rows())
    assert [(row.place, row.member_id) for row in table.rows] == [
        ("1", 1),
        ("2=", 2),
        ("2=", 3),
        ("4", 4),
    ]


# -- total, improved, attendance, league -----------------------------------------------------


def test_a_total_adds_the_best_n_evenings_points() -> None:
    rows = [
        drive(1, day(1), 1, 150),
        drive(2, day(2), 1, 120),
        drive(3, day(3), 1, F(281, 2)),
        drive(1, day(1), 2, 160),
        drive(2, day(2), 2, 100),
    ]
    table = competition_table(CompetitionRule("total", best_of=2, formats=("drive",)), rows)
    assert summary(table) == [("1", 1, "290.50"), ("2", 2, "260.00")]
    assert table.rows[0].detail == "best 150.00"


def test_a_total_over_two_kinds_of_points_is_refused_with_a_reason() -> None:
    with pytest.raises(CompetitionRuleError, match="one kind of points"):
        CompetitionRule("total", formats=("event", "drive"))


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"kind": "ladder", "formats": ("drive",)}, "pairs percentages"),
        ({"kind": "league", "formats": ("event",)}, "Bid Whist teams only"),
        ({"kind": "attendance", "best_of": 3}, "every evening"),
        ({"kind": "total", "handicapped": True}, "Only a ladder"),
        ({"kind": "ladder", "best_of": 0}, "at least one"),
        ({"kind": "ladder", "formats": ()}, "at least one format"),
    ],
)
def test_settings_that_cannot_make_a_table_are_refused(settings: dict, words: str) -> None:
    with pytest.raises(CompetitionRuleError, match=words):
        CompetitionRule(**settings)


def test_most_improved_is_the_season_average_less_the_average_before() -> None:
    history = [pairs(i, dt.date(2024, 12, i), "NS1", 1, 45) for i in range(1, 4)] + [
        pairs(i, dt.date(2024, 12, i), "NS2", 2, 55) for i in range(1, 4)
    ]
    season = [
        pairs(10, day(1), "NS1", 1, 50),
        pairs(11, day(2), "NS1", 1, 51),
        pairs(10, day(1), "NS2", 2, 56),
        pairs(10, day(1), "NS3", 3, 70),  # no average before the season: unqualified
    ]
    baseline = averages_before(history + season, HandicapRule(10, 3), day(0) + dt.timedelta(1))
    assert baseline == {1: F(45), 2: F(55)}
    table = competition_table(CompetitionRule("improved"), season, baseline=baseline)
    assert summary(table) == [("1", 1, "+5.50"), ("2", 2, "+1.00"), ("", 3, "")]
    assert table.rows[0].detail == "50.50 against 45.00"
    assert "no average before the season" in table.rows[2].detail


def test_attendance_counts_evenings_of_every_format_it_counts() -> None:
    rows = [
        pairs(1, day(1), "NS1", 1, 50),
        drive(2, day(2), 1, 100),
        drive(2, day(2), 2, 100),
        teams(3, day(3), "T1", 1, 2, 300),
        pairs(1, day(1), "NS2", None, 50),
    ]
    rule = CompetitionRule("attendance", formats=("event", "drive", "tournament"))
    assert summary(competition_table(rule, rows)) == [("1", 1, "3"), ("2", 2, "1")]
    only_drives = CompetitionRule("attendance", formats=("drive",))
    assert summary(competition_table(only_drives, rows)) == [("1=", 1, "1"), ("1=", 2, "1")]


def test_a_league_ranks_wins_then_points_then_evenings() -> None:
    rows = [
        teams(1, day(1), "T1", 1, 3, 500),
        teams(1, day(1), "T1", 2, 3, 500),
        teams(1, day(1), "T2", 3, F(7, 2), 400),
        teams(1, day(1), "T3", 4, 2, 600),
        teams(2, day(2), "T1", 4, 1, 200),
        teams(1, day(1), "T4", 5, 2, 600),
        teams(2, day(2), "T2", 5, 1, 200),
        teams(1, day(1), "T5", 6, 3, 500),
    ]
    table = competition_table(CompetitionRule("league", formats=("tournament",)), rows)
    assert summary(table)[0] == ("1", 3, "3.5")
    # Wins first (member 3's 3.5), then points (4 and 5: 800 beat 500), then evenings:
    # 4 and 5 both 800 from two evenings, level; 1, 2, 6 level on 3 wins, 500 points, 1 evening.
    assert [(row.place, row.member_id) for row in table.rows] == [
        ("1", 3),
        ("2=", 4),
        ("2=", 5),
        ("4=", 1),
        ("4=", 2),
        ("4=", 6),
    ]
    assert table.rows[1].detail == "800 points"


def test_league_evenings_played_split_level_wins_and_points() -> None:
    rows = [
        teams(1, day(1), "T1", 1, 2, 400),
        teams(1, day(1), "T2", 2, 1, 200),
        teams(2, day(2), "T2", 2, 1, 200),
    ]
    table = competition_table(CompetitionRule("league", formats=("tournament",)), rows)
    assert [(row.place, row.member_id) for row in table.rows] == [("1", 2), ("2", 1)]


def test_the_table_document_round_trips() -> None:
    table = competition_table(CompetitionRule("ladder", ties="best"), tied_rows())
    assert CompetitionTable.from_dict(table.to_dict()) == table
    assert table.to_dict()["rows"][0]["figure"] == "55"


# -- handicaps: docs/directors/season.md's worked example ---------------------------------------

ALICE, BOB, CAROL, DAN, EVE = 1, 2, 3, 4, 5
START = dt.date(2025, 1, 1)


def docs_example() -> tuple[list[Appearance], list[Appearance]]:
    """The docs' example: the evenings before the season, then the season's two evenings."""
    before = []
    for i, (alice, bob, carol) in enumerate(((45, 58, 52), (44, 57, 50), (46, 59, 51)), start=1):
        when = dt.date(2024, 12, i)
        before += [
            pairs(100 + i, when, "NS1", ALICE, alice, "Alice"),
            pairs(100 + i, when, "NS2", BOB, bob, "Bob"),
            pairs(100 + i, when, "NS3", CAROL, carol, "Carol"),
        ]
    before += [pairs(101, dt.date(2024, 12, 1), "NS4", DAN, 50, "Dan")]
    before += [pairs(102, dt.date(2024, 12, 2), "NS4", DAN, 52, "Dan")]
    first, second = dt.date(2025, 1, 7), dt.date(2025, 1, 14)
    season = [
        pairs(1, first, "NS1", ALICE, 55, "Alice"),
        pairs(1, first, "NS1", BOB, 55, "Bob"),
        pairs(1, first, "NS2", CAROL, "56.2", "Carol"),
        pairs(1, first, "NS2", None, "56.2", "A visitor"),
        pairs(1, first, "NS3", DAN, "47.5", "Dan"),
        pairs(1, first, "NS3", EVE, "47.5", "Eve"),
        pairs(2, second, "NS1", ALICE, 48, "Alice"),
        pairs(2, second, "NS1", DAN, 48, "Dan"),
        pairs(2, second, "NS2", BOB, 60, "Bob"),
        pairs(2, second, "NS2", CAROL, 60, "Carol"),
    ]
    return before, season


def test_the_docs_handicaps_fixed_at_the_seasons_start() -> None:
    before, season = docs_example()
    found = evening_handicaps(before + season, HandicapRule(10, 3), fixed_at=START)
    # Alice averaged 45 % before the season: +5; Bob 58 %: -8; Carol 51 %: -1; Dan (two
    # evenings) and Eve (none) have no handicap.
    assert found[("event", 1)] == {ALICE: F(5), BOB: F(-8), CAROL: F(-1)}
    assert found[("event", 2)] == {ALICE: F(5), BOB: F(-8), CAROL: F(-1)}
    rule = CompetitionRule("ladder", handicapped=True)
    table = competition_table(rule, season, handicaps=found)
    assert [(row.place, row.name, row.shown) for row in table.rows] == [
        ("1", "Carol", "55.60"),
        ("2", "Bob", "54.50"),
        ("3", "Alice", "52.00"),
        ("4", "Dan", "49.00"),
        ("5", "Eve", "47.50"),
    ]
    plain = competition_table(CompetitionRule("ladder"), season)
    assert [(row.name, row.shown) for row in plain.rows] == [
        ("Carol", "58.10"),
        ("Bob", "57.50"),
        ("Alice", "51.50"),
        ("Dan", "47.75"),
        ("Eve", "47.50"),
    ]


def test_the_docs_handicaps_fluctuating() -> None:
    before, season = docs_example()
    found = evening_handicaps(before + season, HandicapRule(10, 3))
    assert found[("event", 1)][ALICE] == F(5)
    # Before the second evening Alice's window holds 45, 44, 46 and 55: 47.50 %, so +2.50;
    # Dan's now holds three evenings (50, 52, 47.5): 49.83 %, so +1/6.
    assert found[("event", 2)][ALICE] == F(5, 2)
    assert found[("event", 2)][DAN] == F(1, 6)
    table = competition_table(CompetitionRule("ladder", handicapped=True), season, handicaps=found)
    alice = next(row for row in table.rows if row.name == "Alice")
    # Alice: (55 - 3/2) and (48 + (5/2 + 1/6) / 2) = 53.5 and 49.333..., averaging 51.4166...
    assert alice.figure == (F(107, 2) + 48 + F(4, 3)) / 2
    assert alice.shown == "51.42"


# -- against a recount written differently -------------------------------------------------------


def recount_ladder(rows: list[Appearance], best_of: int | None, minimum: int) -> list[tuple]:
    """Averages by hand: a dictionary of lists, sorted descending, sliced, and places counted
    as one plus the number of qualified members strictly ahead."""
    by_member: dict[int, list[F]] = {}
    for a in rows:
        if a.member_id is not None and a.percentage is not None:
            by_member[a.member_id] = [*by_member.get(a.member_id, []), a.percentage]
    figures = {}
    for member, values in by_member.items():
        values = sorted(values)[::-1]
        chosen = values if best_of is None else values[:best_of]
        figures[member] = (sum(chosen) / len(chosen), len(values) >= minimum)
    qualified = {m: f for m, (f, ok) in figures.items() if ok}
    out = []
    for member, figure in qualified.items():
        ahead = sum(1 for other in qualified.values() if other > figure)
        level = sum(1 for other in qualified.values() if other == figure)
        out.append((f"{ahead + 1}{'=' if level > 1 else ''}", member, figure))
    return sorted(out, key=lambda t: (-t[2], t[1]))


@pytest.mark.parametrize("seed", range(12))
def test_random_ladders_agree_with_a_recount(seed: int) -> None:
    rng = random.Random(seed)
    rows = []
    for play in range(1, rng.randint(2, 12)):
        for member in rng.sample(range(1, 25), rng.randint(4, 16)):
            rows.append(
                pairs(play, day(play), f"NS{member}", member, rng.choice([40, 45, 50, 55, 60]))
            )
    best_of = rng.choice([None, 1, 2, 4])
    minimum = rng.choice([0, 1, 2, 3])
    table = competition_table(
        CompetitionRule("ladder", best_of=best_of, min_sessions=minimum), rows
    )
    ranked = [(row.place, row.member_id, row.figure) for row in table.rows if row.qualified]
    expected = recount_ladder(rows, best_of, minimum)
    assert sorted(ranked, key=lambda t: (-t[2], t[1])) == expected
