"""A team tournament as one object: its settings and teams, the draw of each round, each
table's game, forfeits and byes, the standings and the playoff's seeding.

`TeamTournament` holds no state beyond its settings and teams: the caller keeps the rounds and
results (the app stores them) and hands them back, so a correction re-ranks without redrawing
a round, and the draw of a round depends only on what came before it.

The draw by rotation:
- round robin and moving team are fixed schedules, worked out whole from the teams and the
  seed (the same every time), of which round n is taken; a withdrawn team stays in them (its
  opponents get the forfeit result: the caller records it);
- king of the hill ("ladder", "halves") and Swiss draw each round from the last one's results;
  a withdrawn team is left out.

>>> from engine.teams.settings import TournamentSettings
>>> teams = [Team(n) for n in range(1, 5)]
>>> t = TeamTournament(TournamentSettings(rotation="swiss", rounds=3), teams)
>>> first = t.draw(1, [], [], seed=1)
>>> sorted(team for p in first.tables for team in p.teams)
[1, 2, 3, 4]
>>> game = t.played(1, 1, 1, 2, score={"home_points": 7, "away_points": 3})
>>> game.winner, game.points
(1, (7, 3))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from engine.reading import quoted
from engine.teams.bracket import Bracket
from engine.teams.game import GameTally, TeamGame
from engine.teams.model import GameResult, Round, Team, TeamsError
from engine.teams.ranking import StandingRow, standings
from engine.teams.schedule import moving_team, round_robin
from engine.teams.settings import TournamentSettings
from engine.teams.swiss import first_round, next_round_by_result, swiss_round

__all__ = ["SCORE_FIELDS", "TeamTournament"]

#: What a paper score sheet's final score may give (the home team sits North-South).
SCORE_FIELDS = (
    "home_points",
    "away_points",
    "home_hands",
    "away_hands",
    "home_bostons",
    "away_bostons",
    "home_sets",
    "away_sets",
)


class TeamTournament:
    """The tournament's rules from one set of settings and its teams."""

    def __init__(self, settings: TournamentSettings, teams: Sequence[Team]) -> None:
        self.settings = settings
        self.teams = tuple(teams)
        self.game = TeamGame(settings.game)
        #: Ties played off in one game: the two teams and the winner (`standings`).
        self.tie_games: dict[frozenset[int], int] = {}
        self._fixed: list[Round] | None = None
        self._fixed_seed: int | None = None

    def __repr__(self) -> str:
        return f"TeamTournament({self.settings.rotation}, {len(self.teams)} teams)"

    # ---- the draw -------------------------------------------------------------------------

    def schedule(self, seed: int) -> list[Round]:
        """The whole fixed schedule (round robin, moving team); a TeamsError says when the
        rotation cannot play this many rounds without a rematch."""
        if self._fixed is None or self._fixed_seed != seed:
            rounds = self.settings.rounds
            if self.settings.rotation == "round_robin":
                self._fixed = round_robin(self.teams, rounds=rounds, seed=seed)
            else:
                self._fixed = moving_team(self.teams, rounds=rounds, seed=seed)
            self._fixed_seed = seed
        return self._fixed

    def draw(
        self,
        number: int,
        rounds: Sequence[Round],
        results: Sequence[GameResult],
        *,
        seed: int,
        withdrawn: Collection[int] = (),
    ) -> Round:
        """Round `number`'s tables, from the rounds drawn before it (`rounds`, in order) and
        the results that count so far."""
        if number != len(rounds) + 1:
            raise TeamsError(
                f"round {number} follows round {len(rounds)}: draw the rounds in order"
            )
        if number > self.settings.rounds:
            raise TeamsError(
                f"the tournament has {self.settings.rounds} rounds: there is no round {number}"
            )
        rotation = self.settings.rotation
        if rotation in ("round_robin", "moving"):
            return self.schedule(seed)[number - 1]
        active = [t for t in self.teams if t.number not in withdrawn]
        if len(active) < 2:
            raise TeamsError("fewer than two teams are left: finish the tournament instead")
        rng_seed = random.Random(seed * 1_000 + number).randrange(1 << 30)
        if rotation == "swiss":
            return self._swiss(number, rounds, results, active, rng_seed)
        if number == 1 or withdrawn_since(rounds[-1], withdrawn):
            # The first round, or a team has left the ladder: a fresh draw of those left,
            # best first, as the standings give them.
            return (
                first_round(active, seed=rng_seed)
                if number == 1
                else self._reseat(number, results, active, rng_seed)
            )
        previous = rounds[-1]
        winners = winners_of(previous, results)
        history = {frozenset(p.teams) for r in rounds for p in r.tables}
        form: Literal["ladder", "halves"] = "ladder" if rotation == "ladder" else "halves"
        return next_round_by_result(
            previous, winners, form=form, history=history, byes_had=_byes(rounds)
        )

    def _order(self, results: Sequence[GameResult], active: Sequence[Team]) -> list[int]:
        keep = {t.number for t in active}
        return [row.team.number for row in self.standings(results) if row.team.number in keep]

    def _swiss(
        self,
        number: int,
        rounds: Sequence[Round],
        results: Sequence[GameResult],
        active: Sequence[Team],
        seed: int,
    ) -> Round:
        rows = {row.team.number: row for row in self.standings(results)}
        order = self._order(results, active)
        if number == 1:
            random.Random(seed).shuffle(order)
        history = {frozenset(p.teams) for r in rounds for p in r.tables}
        homes = Counter(p.home for r in rounds for p in r.tables)
        return swiss_round(
            number,
            order,
            history,
            _byes(rounds),
            cities={t.number: t.place for t in active},
            scores={n: float(rows[n].wins) for n in order},
            homes={n: homes[n] for n in order},
        )

    def _reseat(
        self, number: int, results: Sequence[GameResult], active: Sequence[Team], seed: int
    ) -> Round:
        """A ladder after a withdrawal: the teams left, in standings order, two to a table
        from the top (table 1), the odd team out on a bye."""
        del seed  # the standings decide the order: nothing is drawn by lot
        order = self._order(results, active)
        return swiss_round(number, order, set(), [], scores=dict.fromkeys(order, 0.0))

    # ---- the games ------------------------------------------------------------------------

    def played(
        self,
        round: int,
        table: int,
        home: int,
        away: int,
        *,
        hands: Sequence[Mapping[str, Any]] | None = None,
        score: Mapping[str, Any] | None = None,
        week: int = 1,
        names: tuple[str, str] = ("home", "away"),
    ) -> GameResult:
        """A table's game from its hands or the final score on its sheet; refused unless it
        is over (a game to 7 that stopped at 5-3 is not a result). `names` are the two teams'
        names as the table knows them: a refusal names the teams, not home and away."""
        if (hands is None) == (score is None):
            raise TeamsError("give the game's hands or its final score, one of them")
        if hands is not None:
            if not isinstance(hands, list | tuple):
                raise TeamsError(f"hands: a list of the game's hands, not {quoted(hands)}")
            tally = self.game.play(hands, names)
        else:
            assert score is not None
            tally = self.game.final_score(**_score_args(score), names=names)
        result = tally.to_result(round, table, home, away, week=week)
        return self._back_door(result)

    def _back_door(self, result: GameResult) -> GameResult:
        """A back-door win (the losers driven to minus the target) scores `backdoor_points`
        for the winners, where the event says so, instead of the points they had."""
        won_at = self.settings.backdoor_points
        if won_at is None or result.winner is None or result.away is None:
            return result
        target = self.settings.game.value
        loser = 1 if result.winner == result.home else 0
        if result.points[loser] > -target or result.points[1 - loser] >= target:
            return result
        points = (won_at, result.points[1]) if loser == 1 else (result.points[0], won_at)
        return replace(result, points=points)

    def tally(
        self, hands: Sequence[Mapping[str, Any]], names: tuple[str, str] = ("home", "away")
    ) -> GameTally:
        """The score sheet so far from the hands played (home North-South): each hand's
        points and the running totals, and whether the game is over; a TeamsError names a
        hand the rules refuse, or one after the end."""
        if not isinstance(hands, list | tuple):
            raise TeamsError(f"hands: a list of the game's hands, not {quoted(hands)}")
        return self.game.play(hands, names)

    def forfeit(
        self,
        round: int,
        table: int,
        winner: int,
        loser: int,
        *,
        home: int | None = None,
        withdrawn: bool = False,
        week: int = 1,
    ) -> GameResult:
        """`loser` did not come (`withdrawn`: left the tournament): `winner` gets the game and
        the stated points. `home` (the table's North-South team) stays home in the result, so
        the pages show it as the table sat."""
        result = self.game.forfeit(
            round,
            table,
            winner,
            loser,
            points=self.settings.forfeit_points,
            week=week,
            withdrawn=withdrawn,
        )
        if home is not None and result.home != home:
            result = replace(
                result,
                home=result.away if result.away is not None else home,
                away=result.home,
                points=(result.points[1], result.points[0]),
                hands=(result.hands[1], result.hands[0]),
                bostons=(result.bostons[1], result.bostons[0]),
            )
        return result

    def bye(self, round: int, team: int, *, week: int = 1) -> GameResult:
        stated = self.settings.forfeit_points
        points = stated[0] if stated is not None and self._bye_rule == "win" else None
        return self.game.bye(round, team, self._bye_rule, points=points, week=week)

    # ---- the ranking ----------------------------------------------------------------------

    def standings(
        self, results: Sequence[GameResult], through_week: int | None = None
    ) -> list[StandingRow]:
        """The standings; a tie played off in one game (`tie_games`, where the settings allow
        it) is ranked by that game."""
        return standings(
            self.teams,
            results,
            self.settings.keys,
            through_week=through_week,
            bye_rule=self._bye_rule,
            tie_games=self.tie_games if self.settings.tie_games else None,
        )

    @property
    def _bye_rule(self) -> Literal["win", "average"]:
        return "average" if self.settings.bye == "average" else "win"

    def bracket(self, rows: Sequence[StandingRow]) -> Bracket:
        """The playoff seeded from the standings: the top `playoff` teams."""
        size = self.settings.playoff
        if not size:
            raise TeamsError("this tournament has no playoff (playoff: 0)")
        if len(rows) < size:
            raise TeamsError(
                f"the playoff takes the top {size} teams, and only {len(rows)} are ranked"
            )
        return Bracket.seeded(
            [row.team.number for row in rows[:size]], self.settings.playoff_third_place
        )


def _byes(rounds: Sequence[Round]) -> list[int]:
    """Every bye so far, a team once per bye."""
    return [team for r in rounds for team in r.byes]


def withdrawn_since(previous: Round, withdrawn: Collection[int]) -> bool:
    return any(team in withdrawn for team in previous.teams())


def winners_of(previous: Round, results: Sequence[GameResult]) -> dict[int, int | None]:
    """Each table's winner in `previous` (None for a drawn game); every table must have one."""
    by_table = {r.table: r for r in results if r.round == previous.number and r.away is not None}
    winners: dict[int, int | None] = {}
    for pairing in previous.tables:
        result = by_table.get(pairing.table)
        if result is None:
            raise TeamsError(
                f"round {previous.number}, table {pairing.table} has no result: the next round "
                "is drawn from every table's"
            )
        winners[pairing.table] = result.winner
    return winners


def _score_args(score: Mapping[str, Any]) -> dict[str, int]:
    if not isinstance(score, Mapping):
        raise TeamsError(f"score: the final score's fields, not {quoted(score)}")
    unknown = sorted(set(score) - set(SCORE_FIELDS))
    if unknown:
        raise TeamsError(f"score: unknown {', '.join(unknown)} (known: {', '.join(SCORE_FIELDS)})")
    for key in ("home_points", "away_points"):
        if key not in score:
            raise TeamsError(f"score: give {key.replace('_', ' ')}")
    out: dict[str, int] = {}
    for key, value in score.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TeamsError(
                f"score: {key.replace('_', ' ')} is a whole number, not {quoted(value)}"
            )
        out[key] = value
    return out
