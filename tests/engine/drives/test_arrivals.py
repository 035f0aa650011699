"""Late arrivals and leavers: every hand's seating holds exactly the players there for it, in
tables of four, whoever comes and goes and whatever the results; their points follow the
drive's rule for the hands they missed, and the prizes leave out whom the rule leaves out.

The recounts here are written out again from the rule in docs/games/drives.md, not taken from
the engine's totals.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.drives import DUMMY, Drive, DriveError, DriveSettings, Prize, semi_partner
from engine.drives.seating import check_seating, fit_seating


def _play(drive: Drive, seed: int) -> list[Any]:
    rng = random.Random(seed)
    seating = drive.first_seating(seed=seed)
    records = []
    for hand in range(1, drive.settings.hands + 1):
        check_seating(drive.settings, seating)
        results = {t: {"ns_tricks": rng.randint(0, 13)} for t in range(1, len(seating.tables) + 1)}
        record = drive.record_hand(seating, results)
        records.append(record)
        if hand < drive.settings.hands:
            seating = drive.next_seating(seating, record)
    return records


@st.composite
def evenings(draw: Any) -> DriveSettings:
    starters = draw(st.integers(4, 23))
    hands = draw(st.integers(2, 10))
    late = draw(st.integers(0, 3))
    players = starters + late
    arrivals = tuple((starters + k + 1, draw(st.integers(1, hands))) for k in range(late))
    leavers = draw(st.lists(st.integers(1, players), max_size=3, unique=True))
    departures = []
    for player in leavers:
        first = dict(arrivals).get(player, 1)
        if first > hands - 1:
            continue
        departures.append((player, draw(st.integers(first, hands - 1))))
    try:
        return DriveSettings(
            players=players,
            hands=hands,
            arrivals=arrivals,
            departures=tuple(departures),
            short_table=draw(st.sampled_from(["sit_out", "dummy"])),
            move=draw(st.sampled_from([semi_partner(), semi_partner("up")]))
            if draw(st.booleans())
            else DriveSettings(players=4).move,
        )
    except DriveError:  # fewer than four at some hand
        return DriveSettings(players=starters, hands=hands)


@given(evenings(), st.integers(0, 1000))
@settings(max_examples=150, deadline=None)
def test_every_hand_seats_exactly_the_players_there(
    drive_settings: DriveSettings, seed: int
) -> None:
    drive = Drive(drive_settings)
    for record in _play(drive, seed):
        hand = record.hand
        seating = record.seating
        there = {p for t in seating.tables for p in t if p != DUMMY} | set(seating.sitting_out)
        assert there == set(drive_settings.present(hand))
        for table in seating.tables:
            assert len(table) == 4
        assert len(seating.tables) == drive_settings.tables_at(hand)
        # Nobody who went home, or has not come yet, scores for the hand; except that a late
        # arrival's missed hands score as late_score says (nothing, here).
        for player in range(1, drive_settings.players + 1):
            if player not in there:
                assert record.points[player] == 0


def _late_drive(late_score: str) -> tuple[Drive, list[Any]]:
    settings = DriveSettings(
        players=9,
        hands=4,
        arrivals=((9, 3),),
        departures=((2, 2),),
        late_score=late_score,
        short_table="dummy",
    )
    drive = Drive(settings)
    return drive, _play(drive, 7)


@pytest.mark.parametrize("late_score", ["nothing", "lowest", "average"])
def test_a_late_arrival_scores_the_rule_for_missed_hands(late_score: str) -> None:
    drive, records = _late_drive(late_score)
    lines = {line.player: line for line in drive.standings(records)}
    expected: Fraction = Fraction(0)
    for record in records:
        seating = record.seating
        at_tables = [p for table in seating.tables for p in table if p != DUMMY]
        if 9 in seating:
            side = seating.place(9)
            assert side is not None or 9 in seating.sitting_out
            expected += Fraction(record.points[9])
            continue
        # Recount this hand's scores from the table results, side by side.
        scores = []
        for table, score in zip(seating.tables, record.scores, strict=True):
            for index, player in enumerate(table):
                if player != DUMMY:
                    scores.append(score.ns if index % 2 == 0 else score.ew)
        assert len(scores) == len(at_tables)
        credit = {
            "nothing": Fraction(0),
            "lowest": Fraction(min(scores)),
            "average": Fraction(sum(scores), len(scores)),
        }[late_score]
        expected += credit
    assert lines[9].total == expected
    assert lines[9].joined == 3 and lines[9].played + lines[9].sat_out == 2
    # The leaver's card is closed after hand 2: nothing after.
    assert lines[2].left == 2 and lines[2].hand_points[2:] == (0, 0)


def test_a_leaver_is_out_of_the_prizes_unless_the_director_keeps_them_in() -> None:
    base: dict[str, Any] = {
        "players": 8,
        "hands": 2,
        "departures": ((1, 1),),
        "prizes": (Prize("highest"), Prize("booby"), Prize("raffle", everyone=True)),
        "half_time": 0,
    }
    seating_order = [(1, 2, 3, 4), (5, 6, 7, 8)]
    for keep in (False, True):
        drive = Drive(DriveSettings(**base, leavers_in_prizes=keep))
        first = drive.placed_seating(seating_order)
        # Player 1's side takes all 13 tricks: the highest score of hand 1.
        record = drive.record_hand(first, {1: {"ns_tricks": 13}, 2: {"ns_tricks": 7}})
        second = drive.next_seating(first, record)
        assert 1 not in second and second.tables.count  # 7 players: one sits out
        results = {t: {"ns_tricks": 7} for t in range(1, len(second.tables) + 1)}
        records = [record, drive.record_hand(second, results)]
        awards = drive.prizes(records, seed=1)
        winners = {player for award in awards for player in award.winners}
        assert (1 in winners) is keep
        booby = next(award for award in awards if award.prize.kind == "booby")
        assert 1 not in booby.winners


def test_a_newcomer_takes_the_dummys_seat_and_nobody_else_moves() -> None:
    settings = DriveSettings(players=12, hands=6, short_table="dummy", arrivals=((12, 3),))
    drive = Drive(settings)
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 0)])
    # The director says at hand 3 that player 12 came, before anyone played it: the seating
    # of hand 3 is fitted to the players there.
    record = drive.record_hand(seating, {t: {"ns_tricks": 7} for t in (1, 2, 3)})
    later = drive.next_seating(seating, record)
    record2 = drive.record_hand(later, {t: {"ns_tricks": 7} for t in (1, 2, 3)})
    third = drive.next_seating(later, record2)
    assert 12 in third and DUMMY not in {p for t in third.tables for p in t}
    unfitted = DriveSettings(players=11, hands=6, short_table="dummy")
    plain = Drive(unfitted).next_seating(_resized(later, unfitted), record2.winners)
    dummy_at = next(
        (t, i) for t, table in enumerate(plain.tables) for i, p in enumerate(table) if p == DUMMY
    )
    assert third.tables[dummy_at[0]][dummy_at[1]] == 12
    for t, table in enumerate(plain.tables):
        for i, player in enumerate(table):
            if player != DUMMY:
                assert third.tables[t][i] == player


def _resized(seating: Any, settings: DriveSettings) -> Any:
    from engine.drives import Seating

    return Seating(
        seating.hand, seating.tables, seating.bench, seating.bench_roles, seating.rests[:12]
    )


def test_a_table_closes_at_the_top_when_a_leaver_leaves_too_few() -> None:
    settings = DriveSettings(players=12, hands=4, departures=((5, 1),))
    drive = Drive(settings)
    seating = drive.placed_seating([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)])
    record = drive.record_hand(seating, {t: {"ns_tricks": 9} for t in (1, 2, 3)})
    after = drive.next_seating(seating, record)
    # 11 players, sitting out: two tables and three out.
    assert len(after.tables) == 2 and len(after.sitting_out) == 3
    assert 5 not in after


def test_fit_refuses_nothing_when_nobody_comes_or_goes() -> None:
    settings = DriveSettings(players=9, hands=3)
    seating = Drive(settings).first_seating(seed=2)
    assert fit_seating(settings, seating) is seating


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"arrivals": ((9, 5),), "players": 9}, "from 1 to 4"),
        ({"arrivals": ((5, 2),), "players": 9}, "numbered after"),
        ({"departures": ((3, 4),)}, "from 0 to 3"),
        ({"departures": ((3, 1), (3, 2))}, "listed twice"),
        ({"departures": ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1))}, "would have 3 players"),
        ({"arrivals": ((9, 3),), "departures": ((9, 2),), "players": 9}, "came at hand 3"),
        ({"late_score": "best"}, "late_score"),
        ({"departures": ((1, 1),), "move": "partner"}, "partner drive keeps its pairs"),
    ],
)
def test_refusals_say_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    data: dict[str, Any] = {"players": 8, "hands": 4, **changes}
    if data.get("move") == "partner":
        from engine.drives import partner_drive

        data["move"] = partner_drive()
    with pytest.raises(DriveError, match=message):
        DriveSettings(**data)


def test_settings_round_trip_and_old_ones_still_read() -> None:
    settings = DriveSettings(players=9, arrivals=((9, 5),), departures=((2, 12),))
    data = settings.to_dict()
    assert data["arrivals"] == [[9, 5]] and data["departures"] == [[2, 12]]
    assert DriveSettings.from_dict(data) == settings
    plain = DriveSettings(players=8).to_dict()
    assert "arrivals" not in plain and "departures" not in plain
