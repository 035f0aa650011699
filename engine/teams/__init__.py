"""Bid Whist team tournaments and leagues: teams of two play one game a round against one team
after another and are ranked by games won, then points (docs/games/teams.md).

The format's rules are pure engine code beside the games, as the drives' are:

- `model`: teams, a round's tables, a game's result, errors;
- `schedule`: the fixed rotations (round robin, moving team) and the checks of a schedule;
- `swiss`: the rotations drawn from results (first round, king of the hill: ladder and
  halves, Swiss), byes included;
- `game`: one game from its hands under the game's own rules (to a target, best of N hands,
  or a fixed number of hands), forfeits and byes;
- `ranking`: the standings with the event's keys and the tie-break that decided each place,
  a league's standings through week N;
- `bracket`: a single-elimination playoff seeded from the standings;
- `money`: the Boston pot and the prize split (money recorded, never processed);
- `settings`: `TournamentSettings`, checked once;
- `tournament`: `TeamTournament`, all of it behind one object.

>>> settings = TournamentSettings(rotation="ladder", rounds=2)
>>> t = TeamTournament(settings, [Team(n) for n in range(1, 7)])
>>> len(t.draw(1, [], [], seed=3).tables)
3
"""

from engine.teams.bracket import (
    SERIES_LENGTHS,
    Bracket,
    BracketRound,
    Match,
    Series,
    Slot,
    round_name,
    seed_order,
    series,
)
from engine.teams.game import GameSettings, GameTally, HandLine, TeamGame, TeamSide
from engine.teams.model import (
    GameKind,
    GameResult,
    Pairing,
    ResultKind,
    Round,
    Team,
    TeamsError,
    check_round,
)
from engine.teams.money import PotAward, boston_pot, count_bostons, prize_split
from engine.teams.ranking import DEFAULT_KEYS, KEYS, StandingRow, standings, tie_break_text
from engine.teams.schedule import (
    moving_team,
    rematches,
    round_robin,
    same_city_floor,
    same_city_games,
)
from engine.teams.settings import BYE_RULES, ROTATIONS, TournamentSettings
from engine.teams.swiss import first_round, next_round_by_result, swiss_round
from engine.teams.tournament import SCORE_FIELDS, TeamTournament

__all__ = [
    "BYE_RULES",
    "DEFAULT_KEYS",
    "KEYS",
    "ROTATIONS",
    "SCORE_FIELDS",
    "SERIES_LENGTHS",
    "Bracket",
    "BracketRound",
    "GameKind",
    "GameResult",
    "GameSettings",
    "GameTally",
    "HandLine",
    "Match",
    "Pairing",
    "PotAward",
    "ResultKind",
    "Round",
    "Series",
    "Slot",
    "StandingRow",
    "Team",
    "TeamGame",
    "TeamSide",
    "TeamTournament",
    "TeamsError",
    "TournamentSettings",
    "boston_pot",
    "check_round",
    "count_bostons",
    "first_round",
    "moving_team",
    "next_round_by_result",
    "prize_split",
    "rematches",
    "round_name",
    "round_robin",
    "same_city_floor",
    "same_city_games",
    "seed_order",
    "series",
    "standings",
    "swiss_round",
    "tie_break_text",
]
