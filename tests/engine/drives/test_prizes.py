"""The prize list: every category, one prize each, and each tie rule deciding a tie."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from engine.drives import (
    Drive,
    DriveSettings,
    PlayerTotal,
    Prize,
    Role,
    award_prizes,
    partner_drive,
)
from engine.drives.prizes import ordinal


def settings(*prizes: Prize, **extra: Any) -> DriveSettings:
    return DriveSettings(players=8, hands=4, half_time=2, prizes=prizes, **extra)


def line(
    player: int, points: Sequence[int], big: Sequence[bool] = (), role: str = "A"
) -> PlayerTotal:
    """A player's line from their points on hands 1-4 (the break after hand 2)."""
    first = sum(points[:2])
    flags = tuple(big) or (False,) * len(points)
    return PlayerTotal(
        player,
        Role.from_str(role),
        sum(points),
        first,
        sum(points) - first,
        sum(flags),
        len(points),
        0,
        0,
        tuple(points),
        flags,
    )


# Eight players, chosen so that each category has a different winner.
FIELD = [
    line(1, [3, 3, 3, 3], role="A"),  # 12: highest
    line(2, [2, 2, 2, 2], role="B"),  # 8: highest B
    line(3, [5, 5, 0, 0], role="A"),  # 10: best first half
    line(4, [0, 0, 5, 4], role="A"),  # 9: best second half
    line(5, [1, 1, 1, 1], [True, True, True, False], role="A"),  # 3 hands of 10+
    line(6, [0, 0, 0, 0], role="B"),  # 0: booby
    line(7, [1, 1, 1, 0], role="A"),  # 3
    line(8, [1, 1, 0, 1], role="B"),  # 3
]


def winners(awards: Any) -> list[tuple[int, ...]]:
    return [award.winners for award in awards]


def test_each_category_picks_its_own_best() -> None:
    prizes = [
        Prize("highest"),
        Prize("highest", role=Role.B),
        Prize("first_half"),
        Prize("second_half"),
        Prize("ten_plus"),
        Prize("booby"),
    ]
    awards = award_prizes(settings(*prizes), FIELD, seed=1)
    assert winners(awards) == [(1,), (2,), (3,), (4,), (5,), (6,)]
    assert [award.title for award in awards] == [
        "Highest total",
        "Highest total, B",
        "Highest first half",
        "Highest second half",
        "Most hands with 10 or more tricks",
        "Lowest total",
    ]
    assert awards[5].text == "player 6 with 0"


def test_role_labels_name_the_prize() -> None:
    awards = award_prizes(
        settings(Prize("highest", role=Role.B), roles=("Lady", "Gent")), FIELD, names={2: "Ann"}
    )
    assert awards[0].title == "Highest total, Gent"
    assert awards[0].text == "Ann with 8"


def test_one_prize_each_passes_a_winner_over_and_says_so() -> None:
    # Player 3 is second overall (10) and best over the first half (10), player 1 next (6):
    # both have a prize by then, so the first half goes to player 2 (4).
    awards = award_prizes(settings(Prize("highest"), Prize("highest"), Prize("first_half")), FIELD)
    assert winners(awards) == [(1,), (3,), (2,)]
    assert awards[2].text == (
        "player 2 with 4; passed over, one prize each: player 3 (10, won 2nd highest total), "
        "player 1 (6, won Highest total)"
    )


def test_without_one_prize_each_a_player_can_win_two_categories() -> None:
    chosen = settings(Prize("highest"), Prize("highest"), Prize("first_half"), one_prize_each=False)
    awards = award_prizes(chosen, FIELD)
    # ... but never the same category twice: the second "highest" is the runner-up.
    assert winners(awards) == [(1,), (3,), (3,)]
    assert awards[1].title == "2nd highest total"


TIED = [
    line(1, [4, 2, 1, 3]),  # 10, last hand 3
    line(2, [2, 2, 4, 2]),  # 10, last hand 2, last two 6
    line(3, [3, 3, 2, 2]),  # 10, last hand 2, last two 4
    line(4, [1, 1, 1, 1]),
]


def test_countback_decides_on_the_last_hand() -> None:
    awards = award_prizes(settings(Prize("highest")), TIED)
    assert winners(awards) == [(1,)]
    assert awards[0].text == (
        "player 1 with 10, tied with player 2 and player 3; count-back: more points over the "
        "last hand (player 1 3, player 2 2, player 3 2)"
    )


def test_countback_goes_back_further_while_still_tied() -> None:
    awards = award_prizes(settings(Prize("highest"), Prize("highest")), TIED)
    # 1 wins; 2 and 3 are level on the last hand, so the last two hands decide: 6 against 4.
    assert winners(awards) == [(1,), (2,)]
    assert "more points over the last 2 hands (player 2 6, player 3 4)" in awards[1].text


def test_countback_for_booby_favours_the_lower_score() -> None:
    # Level on the last hand (0 each), player 1 fewer over the last two.
    field = [line(1, [1, 0, 0, 0]), line(2, [0, 0, 1, 0]), line(3, [5, 5, 5, 5])]
    awards = award_prizes(settings(Prize("booby")), field)
    assert winners(awards) == [(1,)]
    assert "fewer points over the last 2 hands (player 1 0, player 2 1)" in awards[0].text


def test_countback_for_a_half_looks_at_that_halfs_last_hands() -> None:
    # First halves tie at 4; the first half's last hand (hand 2) favours player 2, while the
    # evening's last hand would have favoured player 1.
    field = [line(1, [3, 1, 0, 9]), line(2, [1, 3, 0, 0])]
    awards = award_prizes(settings(Prize("first_half")), field)
    assert winners(awards) == [(2,)]
    assert "over the last hand of the first half (player 1 1, player 2 3)" in awards[0].text


def test_countback_for_ten_trick_hands_counts_them_backwards() -> None:
    field = [
        line(1, [1, 1, 1, 1], [True, True, False, False]),
        line(2, [1, 1, 1, 1], [False, True, True, False]),
    ]
    awards = award_prizes(settings(Prize("ten_plus")), field)
    assert winners(awards) == [(2,)]
    assert "more hands with 10+ tricks over the last 2 hands (player 1 0, player 2 1)" in (
        awards[0].text
    )


def test_shared_rule_shares_and_the_next_prize_moves_down() -> None:
    chosen = settings(Prize("highest"), Prize("highest"), tie_rule="shared")
    awards = award_prizes(chosen, TIED)
    assert winners(awards) == [(1, 2, 3), (4,)]
    assert awards[0].text == "shared by player 1, player 2 and player 3, tied on 10"


def test_a_prize_is_named_by_its_order_among_its_kind_whatever_the_ties() -> None:
    # Three share the first prize: the second "highest" prize is still the 2nd highest
    # total (it once read "Highest total (4th)", a place no prize list names).
    chosen = settings(Prize("highest"), Prize("highest"), Prize("booby"), tie_rule="shared")
    awards = award_prizes(chosen, TIED)
    assert [a.title for a in awards] == ["Highest total", "2nd highest total", "Lowest total"]
    roles = settings(Prize("booby", role=Role.B), Prize("booby", role=Role.B))
    assert [a.title for a in award_prizes(roles, FIELD)] == [
        "Lowest total, B",
        "2nd lowest total, B",
    ]


@pytest.mark.parametrize(
    ("number", "words"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th")],
)  # fmt: skip
def test_ordinals_read_as_english(number: int, words: str) -> None:
    assert ordinal(number) == words


def test_countback_that_cannot_part_players_shares() -> None:
    field = [line(1, [1, 2, 3, 4]), line(2, [1, 2, 3, 4]), line(3, [0, 0, 0, 0])]
    awards = award_prizes(settings(Prize("highest"), Prize("highest")), field)
    assert winners(awards) == [(1, 2), (3,)]
    assert "count-back cannot part them" in awards[0].text


def test_raffle_is_drawn_among_those_without_a_prize_and_repeatable() -> None:
    chosen = settings(Prize("highest"), Prize("raffle"), Prize("raffle", everyone=True))
    first = award_prizes(chosen, FIELD, seed=7)
    again = award_prizes(chosen, FIELD, seed=7)
    assert winners(first) == winners(again)
    drawn = first[1].winners + first[2].winners
    assert sorted(drawn) == [2, 3, 4, 5, 6, 7, 8]  # everyone but the winner, once each
    assert first[2].text == "drawn by lot among the 6 players without a prize"
    orders = {award_prizes(chosen, FIELD, seed=seed)[2].winners for seed in range(20)}
    assert len(orders) > 1


def test_prizes_beyond_the_field_go_to_nobody() -> None:
    awards = award_prizes(settings(*[Prize("highest")] * 3), FIELD[:2])
    assert winners(awards) == [(1,), (2,), ()]
    assert awards[2].text == "nobody eligible is left for this prize"


def test_fractional_scores_read_as_people_write_them() -> None:
    field = [line(1, [1, 1, 1, 1]), line(2, [0, 0, 0, 0])]
    field[0] = PlayerTotal(
        1, Role.A, Fraction(9, 2), 2, Fraction(5, 2), 0, 4, 0, 0, (1, 1, 1, 1), (False,) * 4
    )
    assert award_prizes(settings(Prize("highest")), field)[0].text == "player 1 with 4.50"


@pytest.mark.parametrize(
    ("prize", "message"),
    [
        ({"kind": "best"}, "prizes: no prize kind 'best'"),
        ({"kind": "raffle", "role": "A"}, "prizes: a raffle is drawn among everyone"),
        ({"kind": "highest", "everyone": True}, "prizes: only a raffle can go to everyone"),
        ({"kind": "highest", "role": "C"}, "a role is A or B, not 'C'"),
    ],
)
def test_a_bad_prize_is_refused_with_its_reason(prize: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Prize.from_dict(prize)


def test_in_a_partner_drive_a_pair_wins_together() -> None:
    """Worked by hand: hand 1, pair 1-2 take 10 tricks at table 1 (4) and pair 5-6 8 at
    table 2 (2); both move up, pair 9-dummy comes back for pair 5-6 (lowest table, NS), who
    score 1 sitting out (seven tricks); hand 2, pair 1-2 and pair 9-dummy each take 9 (3).
    Totals: 1-2 7, 9 4 (1 sitting out, then 3), 5-6 3, the rest 0."""
    drive = Drive(
        DriveSettings(
            players=9,
            hands=2,
            half_time=1,
            move=partner_drive(),
            prizes=(Prize("highest"), Prize("highest"), Prize("highest", role=Role.B)),
        )
    )
    seating = drive.placed_seating([(1, 3, 2, 4), (5, 7, 6, 8)], [9, 0])
    first = drive.record_hand(seating, {1: {"ns_tricks": 10}, 2: {"ns_tricks": 8}})
    seating = drive.next_seating(seating, first)
    assert seating.tables == ((9, 3, 0, 4), (1, 7, 2, 8))
    second = drive.record_hand(seating, {1: {"ns_tricks": 9}, 2: {"ns_tricks": 9}})
    awards = drive.prizes([first, second])
    assert winners(awards) == [(1, 2), (9,), (6,)]
    assert [award.text for award in awards] == [
        "player 1 and player 2 with 7",
        "player 9 with 4",
        "player 6 with 3; passed over, one prize each: player 2 (7, won Highest total)",
    ]
    assert [award.title for award in awards] == [
        "Highest total",
        "2nd highest total",
        "Highest total, B",
    ]


def test_provisional_prizes_before_half_time_count_back_over_the_hands_played() -> None:
    """One hand of four played: a first-half tie counts back over that one hand, and a
    second-half prize has nothing to count back over yet (it is shared, not a crash)."""
    early = [line(1, [3], role="A"), line(2, [3], role="B"), line(3, [1], role="A")]
    awards = award_prizes(settings(Prize("first_half"), Prize("second_half")), early)
    assert len(awards) == 2
    assert set(awards[0].winners) <= {1, 2}
