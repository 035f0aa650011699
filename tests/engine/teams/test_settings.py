"""A team tournament's rule settings as clubs use them: each stored and read back, each
refused with its own words when it cannot be used."""

from __future__ import annotations

import pytest

from engine.teams import Team, TeamsError, TeamTournament, TournamentSettings
from engine.teams.ranking import StandingRow


def test_the_playoff_settings_read_back_and_seed_a_third_place_game():
    settings = TournamentSettings.from_dict(
        {"playoff": 4, "playoff_third_place": True, "playoff_best_of": 3}
    )
    assert TournamentSettings.from_dict(settings.to_dict()) == settings
    assert TournamentSettings.from_dict({}).playoff_best_of == 1  # stored before: one game
    engine = TeamTournament(settings, [Team(n) for n in range(1, 7)])
    rows = [StandingRow(rank, Team(number)) for rank, number in enumerate([5, 2, 6, 1], 1)]
    bracket = engine.bracket(rows)
    assert bracket.third_place and [m.third_place for m in bracket.matches] == [
        False, False, False, True,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"playoff": 2, "playoff_third_place": True}, r"^playoff_third_place: a third-place .* 4"),
        ({"playoff": 4, "playoff_third_place": 1}, r"^playoff_third_place: true or false, not 1"),
        ({"playoff": 4, "playoff_best_of": 2}, r"^playoff_best_of: .* 1, 3, 5 games, not 2"),
        ({"playoff": 4, "playoff_best_of": True}, r"^playoff_best_of: .* not True"),
    ],
)
def test_playoff_settings_refused(data, message):
    with pytest.raises(TeamsError, match=message):
        TournamentSettings.from_dict(data)
