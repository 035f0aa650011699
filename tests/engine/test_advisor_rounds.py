"""The advisor's time for an evening counts every round the room plays, sit-outs included."""

from __future__ import annotations

from engine.movements import advise, why


def test_nine_pairs_howell_takes_all_nine_rounds() -> None:
    s = advise(9, 27)
    howell = next(x for x in s if x.kind == "howell" and x.complete and x.boards_per_round == 3)
    assert (howell.tables, howell.rounds, howell.boards_per_pair) == (5, 9, 24)
    # 9 rounds x 3 boards x 7 minutes + 8 moves x 2 minutes = 205 minutes (a pair that sits
    # out waits its round out: 24 boards' worth, 3 h 04, would end a round early).
    assert "about 3 h 25 at 7 minutes a board" in why(howell)


def test_seven_pairs_of_open_whist_likewise() -> None:
    howell = next(
        x for x in advise(7, 21) if x.kind == "howell" and x.complete and x.boards_per_round == 3
    )
    assert (howell.rounds, howell.boards_per_pair) == (7, 18)
    # 7 x 3 x 7 + 6 x 2 = 159 minutes
    assert "about 2 h 39" in why(howell)


def test_without_a_sit_out_the_time_is_the_boards_each_pair_plays() -> None:
    mitchell = next(x for x in advise(14, 21) if x.kind == "mitchell" and x.complete)
    minutes = mitchell.boards_per_pair * 7 + (mitchell.rounds - 1) * 2
    hours, rest = divmod(minutes, 60)
    assert f"about {hours} h {rest:02d}" in why(mitchell)
