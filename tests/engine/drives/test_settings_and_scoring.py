"""Drive settings (each refusal names its setting), the games a drive can use, and the score
cards: a hand's points, sitting out, the dummy, half-time and hands of 10 or more tricks."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from engine.cards import Side, Suit
from engine.drives import (
    Drive,
    DriveError,
    DriveSettings,
    Prize,
    Role,
    Seating,
    partner_drive,
    progressive,
    rule_table,
    semi_partner,
)
from engine.games import find_variant, variant_names

# ---- settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": 3}, "players: from 4 to 2000, not 3"),
        ({"players": "12"}, "players: a whole number, not '12'"),
        ({"players": 12, "hands": 0}, "hands: from 1 to 60, not 0"),
        ({"players": 12, "hands": 10, "half_time": 10}, "half_time: the break comes after a hand"),
        ({"players": 12, "game": "bridge"}, "game: unknown game 'bridge'"),
        ({"players": 12, "scoring": "rubbers"}, "scoring: option scoring must be one of"),
        ({"players": 12, "game": "candid", "scoring": "tricks"}, "scoring: Candid Whist scores"),
        ({"players": 12, "game_options": {"honours": True}}, "game_options: honours are scored"),
        (
            {"players": 12, "game_options": {"rotation": "SHDC"}},
            "game_options: a drive sets rotation",
        ),
        (
            {"players": 12, "game_options": {"colour": 1}},
            "game_options: Classic Whist has no option",
        ),
        (
            {"players": 12, "game": "openwhist", "game_options": {"players": 3}},
            "game: Three-player",
        ),
        (
            {"players": 12, "game": "openwhist", "game_options": {"players": 2}},
            "game_options: a drive seats four",
        ),
        ({"players": 12, "trumps": "HDXC"}, "trumps: write the schedule as suit letters"),
        ({"players": 12, "no_trump_every": 1}, "no_trump_every: 0 (never) or at least 2"),
        (
            {"players": 12, "game": "candid", "trumps": "SHDC", "sit_out_score": "average"},
            "trumps: Candid Whist chooses trumps",
        ),
        ({"players": 12, "roles": ("Lady", "lady")}, "roles: two different labels"),
        ({"players": 12, "ends": "bounce"}, "ends: wrap or stay, not 'bounce'"),
        (
            {"players": 12, "move": semi_partner(), "ends": "stay"},
            "ends: a semi-partner drive needs",
        ),
        ({"players": 12, "short_table": "ghost"}, "short_table: one of sit_out, dummy"),
        ({"players": 12, "sit_out_score": "best"}, "sit_out_score: one of fixed, average"),
        ({"players": 12, "sit_out_tricks": 14}, "sit_out_tricks: from 0 to 13 tricks, not 14"),
        ({"players": 12, "game": "candid"}, "sit_out_score: Candid Whist scores a bid"),
        (
            {"players": 12, "half_time": 0, "prizes": (Prize("second_half"),)},
            "prizes: prize 1 (second_half) needs a break",
        ),
        ({"players": 12, "tie_rule": "coin"}, "tie_rule: one of countback, shared"),
    ],
)
def test_a_bad_setting_is_refused_naming_it(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(DriveError) as caught:
        DriveSettings(**settings)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("won", "A", 0, "N")] * 4, "move: a rule table has exactly four rows"),
        (
            [
                ("won", "A", 0, "N"),
                ("won", "B", 0, "S"),
                ("lost", "A", 1, "N"),
                ("lost", "B", 1, "W"),
            ],
            "move: the winning and the losing A both sit NS",
        ),
        (
            [
                ("won", "A", 0, "S"),
                ("won", "B", 0, "S"),
                ("lost", "A", 1, "E"),
                ("lost", "B", 1, "W"),
            ],
            "move: row 1: a role-A player sits N or E, not S",
        ),
        (
            [
                ("won", "A", 4, "N"),
                ("won", "B", 0, "S"),
                ("lost", "A", 1, "E"),
                ("lost", "B", 1, "W"),
            ],
            "move: row 1 (won A) moves 4 tables; at most 3 either way",
        ),
        (
            [
                ("won", "A", "x", "N"),
                ("won", "B", 0, "S"),
                ("lost", "A", 1, "E"),
                ("lost", "B", 1, "W"),
            ],
            "move: row 1: the offset is a whole number of tables, not 'x'",
        ),
        ([("drew", "A", 0, "N")], "an outcome is won or lost, not 'drew'"),
    ],
)
def test_a_bad_rule_table_is_refused_naming_the_row(rows: Any, message: str) -> None:
    with pytest.raises(DriveError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rule_table(rows)


def test_stay_needs_moves_that_balance_at_the_ends() -> None:
    both_up = rule_table(
        [("won", "A", 1, "N"), ("won", "B", 0, "S"), ("lost", "A", 1, "E"), ("lost", "B", 0, "W")]
    )
    with pytest.raises(DriveError, match="both players of role A move up"):
        DriveSettings(players=8, move=both_up, ends="stay")
    assert DriveSettings(players=8, move=both_up).ends == "wrap"
    assert DriveSettings(players=8, move=partner_drive(), ends="stay").ends == "stay"


def test_settings_round_trip_through_json() -> None:
    settings = DriveSettings(
        players=23,
        hands=20,
        half_time=10,
        scoring="tricks",
        trumps="HDSCN",
        roles=("Lady", "Gent"),
        move=rule_table(
            [
                ("won", "A", 0, "N"),
                ("won", "B", -1, "W"),
                ("lost", "A", 2, "E"),
                ("lost", "B", 0, "S"),
            ]
        ),
        short_table="dummy",
        sit_out_score="average",
        prizes=(Prize("highest", role=Role.B, label="Best gent"), Prize("raffle", everyone=True)),
        one_prize_each=False,
        tie_rule="shared",
    )
    data = json.loads(json.dumps(settings.to_dict()))
    assert DriveSettings.from_dict(data) == settings
    named = DriveSettings(players=9, move=partner_drive("losers", "down"))
    assert DriveSettings.from_dict(json.loads(json.dumps(named.to_dict()))) == named
    with pytest.raises(DriveError, match="a drive has no setting 'tables'"):
        DriveSettings.from_dict({**named.to_dict(), "tables": 3})
    with pytest.raises(DriveError, match="move: no move form 'waltz'"):
        DriveSettings.from_dict({"players": 8, "move": {"form": "waltz"}})
    with pytest.raises(DriveError, match="move: the progressive form takes no setting 'movers'"):
        DriveSettings.from_dict({"players": 8, "move": {"form": "progressive", "movers": "x"}})


def test_defaults_follow_seed_003_and_say_why_in_the_docs() -> None:
    settings = DriveSettings(players=40)
    assert (settings.hands, settings.break_after, settings.tables, settings.bench_size) == (
        24,
        12,
        10,
        0,
    )
    assert settings.move == progressive()
    assert settings.game_rules.rules.option("scoring") == "odd_tricks"
    assert [settings.trump(hand) for hand in range(1, 6)] == [
        Suit.HEARTS,
        Suit.DIAMONDS,
        Suit.SPADES,
        Suit.CLUBS,
        Suit.HEARTS,
    ]
    with_nt = DriveSettings(players=40, no_trump_every=5)
    assert [with_nt.trump(hand) for hand in (4, 5, 6)] == [Suit.CLUBS, None, Suit.HEARTS]
    assert [p.kind for p in settings.prizes or ()] == ["highest"] * 3 + ["first_half", "booby"]
    assert [p.kind for p in DriveSettings(players=8, half_time=0).prizes or ()] == [
        "highest"
    ] * 3 + ["booby"]


@pytest.mark.parametrize(
    ("players", "form", "short", "tables", "bench", "dummy"),
    [
        (8, progressive(), "sit_out", 2, 0, False),
        (9, progressive(), "sit_out", 2, 1, False),
        (10, progressive(), "dummy", 2, 2, False),  # two left over: no table of three
        (11, progressive(), "dummy", 3, 0, True),
        (11, progressive(), "sit_out", 2, 3, False),
        (13, semi_partner(), "dummy", 3, 1, False),
        (9, partner_drive(), "sit_out", 2, 2, True),  # the odd player partners the dummy
        (10, partner_drive(), "dummy", 2, 2, False),
        (11, partner_drive(), "sit_out", 3, 0, True),
        (1000, progressive(), "sit_out", 250, 0, False),
    ],
)
def test_the_room_follows_from_the_players(
    players: int, form: Any, short: str, tables: int, bench: int, dummy: bool
) -> None:
    settings = DriveSettings(players=players, move=form, short_table=short)
    assert (settings.tables, settings.bench_size, settings.has_dummy) == (tables, bench, dummy)
    seating = Drive(settings).first_seating(seed=4)
    assert len(seating.tables) == tables
    assert len(seating.bench) == bench


# ---- seatings ------------------------------------------------------------------------------


def test_the_first_seating_is_random_and_repeatable_with_a_seed() -> None:
    drive = Drive(DriveSettings(players=13))
    assert drive.first_seating(seed=5) == drive.first_seating(seed=5)
    assert len({drive.first_seating(seed=seed).tables for seed in range(10)}) == 10
    seating = drive.first_seating()  # no seed: the system's generator
    assert sorted([*(p for t in seating.tables for p in t), *seating.bench]) == list(range(1, 14))


@pytest.mark.parametrize(
    ("tables", "bench", "message"),
    [
        ([(1, 2, 3, 4)], [9], "seating: 9 players make 2 tables here, not 1"),
        ([(1, 2, 3, 4), (5, 6, 7, 8)], [], "seating: 1 places sit out each hand, not 0"),
        (
            [(1, 2, 3, 4), (5, 6, 7, 1)],
            [9],
            r"seating: player 1 sits twice \(table 1 N and table 2 W\)",
        ),
        ([(1, 2, 3, 4), (5, 6, 7, 10)], [9], "seating: table 2 W: players are 1 to 9, not 10"),
        ([(1, 2, 3, 4), (5, 6, 7, 0)], [9], "seating: player 8 has no seat"),
        ([(1, 2, 3), (5, 6, 7, 8)], [9], r"seating: table 1 seats four \(N, E, S, W\)"),
    ],
)
def test_a_placed_seating_must_seat_everyone_once(tables: Any, bench: Any, message: str) -> None:
    drive = Drive(DriveSettings(players=9))
    with pytest.raises(DriveError, match=message):
        drive.placed_seating(tables, bench)


def test_a_seating_round_trips_and_answers_where_people_are() -> None:
    drive = Drive(DriveSettings(players=11, short_table="dummy"))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)])
    assert Seating.from_dict(json.loads(json.dumps(seating.to_dict()))) == seating
    assert str(seating.place(7)) == "table 2 S"
    assert seating.partner(10) == 0
    assert seating.role(10) is Role.A
    assert seating.lines()[2] == "table 3: N 9, E 10, S 11, W dummy"
    # Not at the drive this hand (not come yet, or gone home): no place, no partner, no role.
    assert seating.place(12) is None and seating.partner(12) is None and 12 not in seating
    with pytest.raises(DriveError, match="there is no player 12"):
        seating.role(12)


def test_there_is_no_hand_after_the_last() -> None:
    drive = Drive(DriveSettings(players=8, hands=1))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
    with pytest.raises(DriveError, match="the drive has 1 hands: hand 1 is the last"):
        drive.next_seating(seating, [Side.NS, Side.NS])


# ---- a hand's score and the totals ---------------------------------------------------------


def test_each_player_scores_their_sides_points() -> None:
    drive = Drive(DriveSettings(players=8, hands=2, scoring="tricks"))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
    record = drive.record_hand(seating, {1: {"ns_tricks": 10}, 2: {"ns_tricks": 2}})
    assert record.points[1:] == (10, 3, 10, 3, 2, 11, 2, 11)
    assert record.big == {1, 3, 6, 8}
    assert record.winners == (Side.NS, Side.EW)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ({1: {"ns_tricks": 7}}, "hand 1: table 2 has no result yet"),
        ({1: {"ns_tricks": 7}, 2: {"ns_tricks": 14}, 3: {}}, "hand 1: there is no table 3"),
        (
            {1: {"ns_tricks": 7}, 2: {"ns_tricks": 14}},
            "hand 1, table 2: NS tricks must be between 0 and 13",
        ),
    ],
)
def test_a_bad_result_is_refused_naming_the_table(results: Any, message: str) -> None:
    drive = Drive(DriveSettings(players=8, hands=2))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
    with pytest.raises(DriveError, match=message):
        drive.record_hand(seating, results)


def test_sitting_out_scores_seven_tricks_or_the_average() -> None:
    tables, results = [(1, 2, 3, 4), (5, 6, 7, 8)], {1: {"ns_tricks": 9}, 2: {"ns_tricks": 8}}
    fixed = Drive(DriveSettings(players=9, hands=2))  # odd tricks: 7 tricks score 1
    assert fixed.record_hand(fixed.placed_seating(tables, [9]), results).points[9] == 1
    tricks = Drive(DriveSettings(players=9, hands=2, scoring="tricks", sit_out_tricks=6))
    assert tricks.record_hand(tricks.placed_seating(tables, [9]), results).points[9] == 6
    average = Drive(DriveSettings(players=9, hands=2, sit_out_score="average"))
    # odd tricks: table 1 NS 3, EW 0; table 2 NS 2, EW 0: (3+3+2+2) / 8 players = 5/4
    assert average.record_hand(average.placed_seating(tables, [9]), results).points[9] == Fraction(
        5, 4
    )


def test_the_dummys_partner_scores_their_side_and_the_dummy_nothing() -> None:
    drive = Drive(DriveSettings(players=11, hands=2, short_table="dummy", scoring="tricks"))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)])
    results = {1: {"ns_tricks": 7}, 2: {"ns_tricks": 7}, 3: {"ns_tricks": 5}}
    record = drive.record_hand(seating, results)
    assert (record.points[10], record.points[0]) == (8, 0)
    assert len(record.points) == 12


def test_totals_keep_the_halves_ten_trick_hands_and_every_hand() -> None:
    drive = Drive(DriveSettings(players=8, hands=4, half_time=2, move=partner_drive()))
    seating = drive.placed_seating([(1, 3, 2, 4), (5, 7, 6, 8)])
    records = []
    for ns in ([10, 3], [6, 7], [11, 2], [7, 7]):
        record = drive.record_hand(seating, {1: {"ns_tricks": ns[0]}, 2: {"ns_tricks": ns[1]}})
        records.append(record)
        if record.hand < 4:
            seating = drive.next_seating(seating, record)
    lines = {line.player: line for line in drive.standings(records)}
    # Pair 1-2 (worked by hand): hand 1 at t1 NS, 10 tricks: 4, and up to t2, where the losers
    # 5-6 keep their North-South chairs, so 1-2 sit East-West: 6 tricks, 0; they stay, win
    # hand 3 with 11 tricks (5) and move up to t1 (the ring), North-South: 7 tricks, 1.
    assert lines[1].hand_points == (4, 0, 5, 1)
    assert (lines[1].total, lines[1].first_half, lines[1].second_half) == (10, 4, 6)
    assert (lines[1].ten_plus, lines[1].big_hands) == (2, (True, False, True, False))
    assert lines[2].total == lines[1].total
    assert drive.standings(records)[0].player == 1
    assert drive.totals(records).first_half[1] == 4


def test_totals_take_the_hands_in_order() -> None:
    drive = Drive(DriveSettings(players=8, hands=2))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
    record = drive.record_hand(seating, {1: {"ns_tricks": 7}, 2: {"ns_tricks": 7}})
    second = drive.record_hand(
        drive.next_seating(seating, record), {1: {"ns_tricks": 7}, 2: {"ns_tricks": 7}}
    )
    with pytest.raises(
        DriveError, match="hand 2 comes after hand 1, but the totals stop at hand 0"
    ):
        drive.totals([second])


def test_a_correction_rescores_a_hand_without_moving_anyone() -> None:
    drive = Drive(DriveSettings(players=8, hands=2))
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8)])
    first = drive.record_hand(seating, {1: {"ns_tricks": 8}, 2: {"ns_tricks": 8}})
    moved = drive.next_seating(seating, first)
    corrected = drive.record_hand(seating, {1: {"ns_tricks": 5}, 2: {"ns_tricks": 8}})
    assert corrected.points[2] == 2 and first.points[2] == 0
    # The corrected winners would have moved people differently; the stored seating stands.
    assert drive.next_seating(seating, corrected) != moved
    with pytest.raises(DriveError, match="scored on another seating"):
        drive.next_seating(moved, corrected)


# ---- the games -----------------------------------------------------------------------------


def test_the_games_a_drive_can_use_are_those_whose_rules_score_both_sides() -> None:
    """Classic, Open Whist (four players), Candid and Bid Whist all score each side of one hand
    through their rules class; each table result scores exactly as the rules say."""
    offered = []
    rng = random.Random(3)
    for name in variant_names():
        settings = DriveSettings(players=8, game=name, sit_out_score="average")
        offered.append(name)
        game = settings.game_rules
        rules = find_variant(name)(game.rules.options)
        for _ in range(20):
            data = rules.plausible_entry(game.board, rng)
            score = game.score(data)
            entry = rules.parse_entry(game.board, data)
            assert {Side.NS: score.ns, Side.EW: score.ew} == rules.side_points(game.board, entry)
            assert score.ns_tricks == rules.ns_tricks(game.board, entry)
    assert offered == ["classic", "bidwhist", "candid", "openwhist"]


def test_open_whist_scores_like_classic_through_its_own_rules() -> None:
    game = DriveSettings(players=8, game="openwhist").game_rules
    score = game.score({"ns_tricks": 9})
    assert (score.ns, score.ew, score.winners) == (3, 0, Side.NS)
    assert Drive(DriveSettings(players=8, game="openwhist")).trumps_text(3) == "spades"


def test_candid_whist_scores_the_bid_and_a_pass_goes_to_north_south() -> None:
    settings = DriveSettings(players=8, game="candid", sit_out_score="average")
    game = settings.game_rules
    made = game.score({"declarer": "E", "bid": 8, "strain": "S", "tricks": 9})
    assert (made.ns, made.ew, made.winners, made.ew_tricks) == (0, 81, Side.EW, 9)
    down = game.score({"declarer": "E", "bid": 9, "strain": "NT", "tricks": 8})
    assert (down.ns, down.ew, down.winners) == (0, -90, Side.NS)
    passed = game.score({"passed_out": True})
    assert (passed.ns, passed.ew, passed.ns_tricks, passed.winners) == (0, 0, None, Side.NS)
    assert Drive(settings).trumps_text(1) == "chosen in the auction"
    assert Drive(settings).trumps(1) is None


def test_candid_bags_are_counted_per_player() -> None:
    """Player 1 declares 7 clubs and takes all 13 tricks twice: 6 bags each time, so the tenth
    bag costs 100 (docs/games/candid.md); partner 2 made the same bags with the same side."""
    settings = DriveSettings(
        players=8, hands=2, game="candid", sit_out_score="average", move=partner_drive()
    )
    drive = Drive(settings)
    seating = drive.placed_seating([(1, 3, 2, 4), (5, 7, 6, 8)])
    grand = {"declarer": "N", "bid": 7, "strain": "C", "tricks": 13}
    other = {"declarer": "E", "bid": 7, "strain": "H", "tricks": 7}
    first = drive.record_hand(seating, {1: grand, 2: other})
    seating = drive.next_seating(seating, first)
    assert seating.place(1) is not None and seating.place(1).table == 2  # type: ignore[union-attr]
    # At table 2 the losers 5-6 keep their North-South chairs: 1-2 sit East-West.
    second = drive.record_hand(seating, {1: other, 2: {**grand, "declarer": "E"}})
    lines = {line.player: line for line in drive.standings([first, second])}
    assert lines[1].hand_points == (76, 76)
    assert (lines[1].adjustment, lines[1].total) == (-100, 52)
    assert lines[2].total == 52
    assert lines[3].adjustment == 0
