"""One game between two teams: from its hands, or from the final score on the sheet.

A team event ranks teams by games won, so the engine has to know when a game is over and who
won it, under the event's choice of how a game ends (`GameKind`, `GameSettings.value`):

- ``TARGET`` (7 by default): the first team to reach the target wins, and a team driven to minus
  the target ("in the hole", Fosdick, seed 002) loses. Only one side's score moves in a hand (the
  declarers', or the defenders' when they set a bid with Andrews's `defenders_score`), so the
  two teams can never cross in the same hand: the first crossing ends the game. With defenders
  scoring nobody goes below 0 and only the target ends a game; Andrews suggests a higher target
  then, such as 11 or 21 (seed 004).
- ``BEST_OF`` (an odd n): the first team to win more than half of n hands. A hand is won by the
  side that scored more in it: the declarers when they make their bid, the defenders when they
  set it (0 beats the declarers' minus, or they score the bid with defenders scoring).
- ``HANDS`` (n): n hands are played, then the higher points win, then more hands won; level on
  both, the game is drawn.

A hand passed out (all four passed, allowed only with the game option ``all_pass=redeal``) is
dealt again: it stands on the score sheet, wins for nobody and is not one of a game's n hands.

The game is found in the games' registry (`GameSettings.variant`, Bid Whist by default) and
each hand scored by its rules through `DriveGame`, the drives' one-hand scorer; home is
North-South, away East-West. The rules also bound a hand's score (`most_in_a_hand`, to check a
final score) and say who made a Boston (`sweep_side`: bid 7, all 13 books in Bid Whist).

Where the event counts a Boston double (`boston_counts_double`, as clubs do that count "a
Boston as two games" in a three-of-five-hands game), a Boston hand counts as two hands won: it
can end a best-of game a hand sooner and weighs twice in hands won, here and in the standings;
the Bostons column and the Boston pot still count it once.

A forfeit (a late or absent team, or a withdrawn team's game) gives the opponents the win and
a walkover score: the target to 0 in a game to a target, the majority of hands in a best-of
game; a game of a fixed number of hands has no natural score, so the event states it. A bye is
a win: with rule ``win`` by the same walkover score, with rule ``average`` by the average score
of the round's winners, which only the standings can work out (`ranking.standings`).

>>> game = TeamGame(GameSettings())  # first to 7, or the other team driven to -7 (Fosdick)
>>> made = {"declarer": "N", "bid": 4, "kind": "uptown", "trumps": "S", "books": 11}
>>> set_ = {"declarer": "E", "bid": 3, "kind": "downtown", "trumps": "H", "books": 7}
>>> tally = game.play([made, set_])
>>> tally.over, tally.points, tally.hands
(False, (5, -3), (2, 0))
>>> tally = game.play([made, set_, made])
>>> tally.over, tally.winner, tally.points, tally.ended
(True, 'home', (10, -3), 'home reached 7')
>>> tally.to_result(round=1, table=2, home=3, away=5).winner
3
>>> game.final_score(7, 9)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.teams.model.TeamsError: 7 to 9: home reached 7 and away reached 7, but only one team's...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from engine import EngineError
from engine.cards import Side
from engine.drives.game import DriveGame, TableScore
from engine.reading import quoted
from engine.teams.model import GameKind, GameResult, ResultKind, TeamsError

__all__ = ["GameSettings", "GameTally", "HandLine", "TeamGame", "TeamSide"]

#: A game to 21 is the highest target the rule texts mention; 99 leaves room for house rules.
MAX_TARGET = 99
MAX_HANDS = 99

TeamSide = Literal["home", "away"]
_SIDES: tuple[TeamSide, TeamSide] = ("home", "away")
_KIND_WORDS = ", ".join(kind.value for kind in GameKind)


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TeamsError(f"{name}: a whole number, not {quoted(value)}")
    if value < low or (high is not None and value > high):
        shown = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise TeamsError(f"{name}: {shown}, not {value}")
    return value


def _counts(**numbers: object) -> None:
    """Round, table, week and team numbers: whole numbers from 1."""
    for name, value in numbers.items():
        _whole(name, value, 1)


def _pair(name: str, value: object, low: int | None = None) -> tuple[int, int]:
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise TeamsError(f"{name}: two whole numbers (home, away), not {quoted(value)}")
    first, second = value
    for number in (first, second):
        if isinstance(number, bool) or not isinstance(number, int):
            raise TeamsError(f"{name}: whole numbers, not {quoted(number)}")
        if low is not None and number < low:
            raise TeamsError(f"{name}: {low} or more, not {number}")
    return (first, second)


@dataclass(frozen=True)
class GameSettings:
    """How the event's games end and are scored, checked once (docs/games/teams.md).

    `kind` and `value`: a target of points (1..99), the best of an odd number of hands, or a
    fixed number of hands (1..99). `variant` names the game (any name or alias the games'
    registry knows; Bid Whist by default, the game team events are played with) and is kept
    under its registry name. `scoring` is the game's scoring choice (Bid Whist: ``fosdick`` or
    ``andrews``; None for a game without one); `options` are the game's other options (Bid
    Whist: ``defenders_score``, ``overtricks``, ``all_pass``...).
    """

    kind: GameKind = GameKind.TARGET
    value: int = 7
    scoring: str | None = "fosdick"
    options: Mapping[str, object] = field(default_factory=dict)
    boston_counts_double: bool = False
    variant: str = "bidwhist"
    sets_lose: int = 0
    _game: DriveGame = field(init=False, repr=False, compare=False)
    _swing: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, GameKind):
            try:
                object.__setattr__(self, "kind", GameKind(self.kind))
            except ValueError:
                raise TeamsError(f"kind: one of {_KIND_WORDS}, not {quoted(self.kind)}") from None
        kind, value = self.kind, self.value
        if kind is GameKind.TARGET:
            _whole("value", value, 1, MAX_TARGET)
        elif kind is GameKind.HANDS:
            _whole("value", value, 1, MAX_HANDS)
        else:
            _whole("value", value, 1, MAX_HANDS)
            if value % 2 == 0:
                raise TeamsError(
                    f"value: best of {value} hands can end level; choose an odd number so one "
                    f"team wins more than half, or kind=hands for a fixed {value} hands"
                )
        if not isinstance(self.boston_counts_double, bool):
            raise TeamsError(
                f"boston_counts_double: true or false, not {quoted(self.boston_counts_double)}"
            )
        _whole("sets_lose", self.sets_lose, 0, 9)
        if self.sets_lose and self.kind is not GameKind.TARGET:
            raise TeamsError(
                "sets_lose: a team set that many times loses a game to a target; a best-of or "
                "fixed number of hands game already counts each set hand as a hand lost"
            )
        if not isinstance(self.options, Mapping):
            raise TeamsError(f"options: expected an object, not {quoted(self.options)}")
        if "scoring" in self.options:
            raise TeamsError("options: give the scoring as the scoring setting, not an option")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        try:
            game = DriveGame(self.variant, self.options, self.scoring)
        except EngineError as exc:
            message = str(exc).replace("game_options:", "options:", 1)
            if message.startswith("game:"):  # the game itself, named by this setting
                message = "variant:" + message.removeprefix("game:")
            raise TeamsError(message) from None
        swing = game.rules.most_in_a_hand()
        if swing is None:
            raise TeamsError(
                f"variant: {game.title} cannot say the most a hand scores, which a team event "
                "needs to check a score sheet's final score"
            )
        object.__setattr__(self, "variant", game.rules.name)
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_swing", swing)

    @property
    def defenders_score(self) -> bool:
        """Andrews's rule: the defenders score a set bid, so nobody goes below 0."""
        return bool(self._game.rules.options.get("defenders_score"))

    @property
    def most_in_a_hand(self) -> int:
        """The most points one hand can win or lose (7 no-trump: 14 under both scorings)."""
        return self._swing

    @property
    def majority(self) -> int:
        """Hands won that win a best-of game (3 of 5)."""
        return self.value // 2 + 1

    @property
    def text(self) -> str:
        """How a game ends, for the printed conditions of contest."""
        if self.kind is GameKind.TARGET:
            hole = "" if self.defenders_score else f", or the other team driven to -{self.value}"
            sets = f"; a team set {self.sets_lose} times loses" if self.sets_lose else ""
            return f"first team to {self.value} points{hole}{sets}"
        double = ", a Boston counting as two hands" if self.boston_counts_double else ""
        if self.kind is GameKind.BEST_OF:
            return f"best of {self.value} hands{double}"
        return f"{self.value} hands, then most points, then most hands won{double}"

    def to_dict(self) -> dict[str, object]:
        """The settings as plain data, for storage (`from_dict` reads them back)."""
        return {
            "kind": self.kind.value,
            "value": self.value,
            "scoring": self.scoring,
            "options": dict(self.options),
            "boston_counts_double": self.boston_counts_double,
            "variant": self.variant,
            "sets_lose": self.sets_lose,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> GameSettings:
        """Stored settings, checked again; an unknown name is refused."""
        if not isinstance(data, Mapping):
            raise TeamsError(f"game: expected an object, not {quoted(data)}")
        known = (
            "kind", "value", "scoring", "options", "boston_counts_double", "variant", "sets_lose",
        )  # fmt: skip
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise TeamsError(f"game: unknown {', '.join(unknown)} (known: {', '.join(known)})")
        values: dict[str, Any] = dict(data)
        return cls(**values)

    def walkover(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """A forfeit's or bye's default (points, hands) for the winner first; None where the
        event must state it (a game of a fixed number of hands)."""
        if self.kind is GameKind.TARGET:
            return ((self.value, 0), (0, 0))
        if self.kind is GameKind.BEST_OF:
            return ((0, 0), (self.majority, 0))
        return None


@dataclass(frozen=True)
class HandLine:
    """One hand on the score sheet: what was played, each team's points in it and after it,
    who won it (None: passed out), a Boston's side, and whether it counts as one of n hands."""

    number: int
    text: str
    points: tuple[int, int]
    totals: tuple[int, int]
    won_by: TeamSide | None
    boston: TeamSide | None
    counted: bool


@dataclass(frozen=True)
class GameTally:
    """A game so far: the score sheet's lines, whether it is over and who won (None: drawn or
    not over), each team's points, hands won (a doubled Boston counting two) and Bostons, as
    (home, away) pairs, and how it ended in words."""

    settings: GameSettings = field(repr=False)
    lines: tuple[HandLine, ...]
    over: bool
    winner: TeamSide | None
    points: tuple[int, int]
    hands: tuple[int, int]
    bostons: tuple[int, int]
    ended: str

    def to_result(self, round: int, table: int, home: int, away: int, week: int = 1) -> GameResult:
        """The game as the standings count it, with the teams' numbers; only once it is over."""
        if not self.over:
            raise TeamsError(
                f"round {round}, table {table}: the game is not over ({self.ended}); enter the "
                "rest of its hands, or its final score"
            )
        _counts(round=round, table=table, week=week, home=home, away=away)
        if home == away:
            raise TeamsError(f"round {round}, table {table}: team {home} cannot play itself")
        winner = None if self.winner is None else (home if self.winner == "home" else away)
        return GameResult(
            round, table, home, away, winner, self.points, self.hands, self.bostons, week=week
        )


class TeamGame:
    """The event's games under its `GameSettings`: played hand by hand, typed from a score
    sheet's final score, forfeited, or a bye."""

    def __init__(self, settings: GameSettings | None = None) -> None:
        self.settings = settings if settings is not None else GameSettings()

    def __repr__(self) -> str:
        return f"TeamGame({self.settings!r})"

    # ---- hand by hand ----------------------------------------------------------------------

    def play(
        self, hands: Iterable[Mapping[str, object]], names: tuple[str, str] = _SIDES
    ) -> GameTally:
        """The game from its hands in play order, each a result as the game's rules take it
        (home North-South; in Bid Whist ``{"passed_out": True}`` too). A hand after the game is
        over is refused, naming it; a game not over yet reports ``over=False``. `names` are
        the words for the two teams in how the game ended (the teams' names at a table)."""
        s = self.settings
        lines: list[HandLine] = []
        totals, won, bostons, sets = [0, 0], [0, 0], [0, 0], [0, 0]
        counted = 0
        winner: TeamSide | None = None
        ended = "not over"
        over = False
        for number, hand in enumerate(hands, start=1):
            if over:
                raise TeamsError(
                    f"hand {number}: the game was over after hand {number - 1} ({ended}); "
                    "remove the hands after it, or start a new game"
                )
            score = self._score(number, hand)
            points = (int(score.ns), int(score.ew))
            totals = [totals[0] + points[0], totals[1] + points[1]]
            entry = score.entry
            boston: TeamSide | None = None
            won_by: TeamSide | None = None
            # A result naming no tricks is a hand thrown in unplayed (all passed).
            if score.ns_tricks is not None and entry is not None:
                counted += 1
                won_by = "home" if points[0] > points[1] else "away"
                swept = s._game.rules.sweep_side(entry)
                if swept is not None:
                    boston = "home" if swept is Side.NS else "away"
                    bostons[_SIDES.index(boston)] += 1
                double = boston is not None and s.boston_counts_double
                won[_SIDES.index(won_by)] += 2 if double else 1
                declarers = _declarers(hand)
                if declarers is not None and won_by != declarers:
                    sets[_SIDES.index(declarers)] += 1
            text = s._game.rules.describe(entry) if entry is not None else ""
            sheet = (totals[0], totals[1])
            lines.append(HandLine(number, text, points, sheet, won_by, boston, won_by is not None))
            winner, ended, over = self._state(
                (totals[0], totals[1]), (won[0], won[1]), counted, names
            )
            if not over and s.sets_lose:
                for side in (0, 1):
                    if sets[side] >= s.sets_lose:
                        winner, over = _SIDES[1 - side], True
                        ended = f"{names[side]} was set {sets[side]} times"
        sums = ((totals[0], totals[1]), (won[0], won[1]), (bostons[0], bostons[1]))
        return GameTally(s, tuple(lines), over, winner, *sums, ended)

    def _score(self, number: int, hand: Mapping[str, object]) -> TableScore:
        if not isinstance(hand, Mapping):
            title = self.settings._game.title
            raise TeamsError(f"hand {number}: expected a {title} result, not {quoted(hand)}")
        try:
            return self.settings._game.score(hand)
        except EngineError as exc:
            raise TeamsError(f"hand {number}: {exc}") from None

    def _state(
        self,
        points: tuple[int, int],
        hands: tuple[int, int],
        counted: int,
        names: tuple[str, str] = _SIDES,
    ) -> tuple[TeamSide | None, str, bool]:
        """(winner, how it ended, over) after a hand."""
        s = self.settings
        n = s.value
        if s.kind is GameKind.TARGET:
            # One hand moves one side's score, so at most one of these is newly true.
            for side, other in ((0, 1), (1, 0)):
                if points[side] >= n:
                    return _SIDES[side], f"{names[side]} reached {n}", True
                if points[other] <= -n:
                    return _SIDES[side], f"{names[other]} was driven to -{n}", True
            return None, "not over", False
        if s.kind is GameKind.BEST_OF:
            for side in (0, 1):
                if hands[side] >= s.majority:
                    return _SIDES[side], f"{names[side]} won {hands[side]} hands of {n}", True
            return None, "not over", False
        if counted < n:
            return None, f"not over: {counted} of {n} hands played", False
        return _after_hands(points, hands, n, names)

    # ---- a score sheet's final score -------------------------------------------------------

    def final_score(
        self,
        home_points: int,
        away_points: int,
        home_hands: int | None = None,
        away_hands: int | None = None,
        home_bostons: int = 0,
        away_bostons: int = 0,
        home_sets: int = 0,
        away_sets: int = 0,
        *,
        names: tuple[str, str] = _SIDES,
    ) -> GameTally:
        """The game from the final score on a paper score sheet, checked for plausibility; the
        winner is inferred. Hands won (optional to a target) count 0 when not given. `names`
        word a refusal with the teams' names (as the table's tablet shows them)."""
        s = self.settings
        points = _pair("points", (home_points, away_points))
        bostons = _pair("bostons", (home_bostons, away_bostons), low=0)
        given = home_hands is not None or away_hands is not None
        if given and (home_hands is None or away_hands is None):
            raise TeamsError("hands: give both teams' hands won, or neither")
        if s.kind is GameKind.BEST_OF and not given:
            raise TeamsError(
                f"hands: a best-of-{s.value} game is decided by hands won: give both teams' "
                "hands won"
            )
        hands = _pair("hands", (home_hands or 0, away_hands or 0), low=0)
        per_boston = 2 if s.boston_counts_double else 1
        if given:
            for side in (0, 1):
                if bostons[side] * per_boston > hands[side]:
                    raise TeamsError(
                        f"bostons: {names[side]} has {bostons[side]} Boston(s) but won "
                        f"{hands[side]} hand(s); a Boston is a hand won"
                    )
        shown = f"{points[0]} to {points[1]}"
        sets = _pair("sets", (home_sets, away_sets), low=0)
        if any(sets) and not s.sets_lose:
            raise TeamsError(
                "sets: the event does not end a game on sets (sets_lose is 0): leave them out"
            )
        lost_on_sets = [side for side in (0, 1) if s.sets_lose and sets[side] >= s.sets_lose]
        winner: TeamSide | None
        if lost_on_sets:
            winner, ended = self._check_sets(points, sets, lost_on_sets, shown, names)
        elif s.kind is GameKind.TARGET:
            winner, ended = self._check_target(points, shown, names)
        elif s.kind is GameKind.BEST_OF:
            winner, ended = self._check_best_of(hands, sum(bostons) * (per_boston - 1), names)
        else:
            most = s.value * s.most_in_a_hand
            low = 0 if s.defenders_score else -most
            if not (low <= points[0] <= most and low <= points[1] <= most):
                raise TeamsError(
                    f"{shown}: in {s.value} hands a team scores from {low} to {most}: check "
                    "the score sheet"
                )
            if given and sum(hands) != s.value + sum(bostons) * (per_boston - 1):
                extra = " (a Boston counting two)" if per_boston == 2 else ""
                raise TeamsError(
                    f"hands: {hands[0]} and {hands[1]} hands won, but every one of the "
                    f"{s.value} hands is won by one team{extra}: check the score sheet"
                )
            winner, ended, _ = _after_hands(points, hands, s.value, names)
        return GameTally(s, (), True, winner, points, hands, bostons, f"final score: {ended}")

    def _check_sets(
        self,
        points: tuple[int, int],
        sets: tuple[int, int],
        lost: list[int],
        shown: str,
        names: tuple[str, str],
    ) -> tuple[TeamSide, str]:
        """A game ended by a team's last set: one team only, set exactly `sets_lose` times (a
        set that also crossed the target or the hole ends the game for the same team)."""
        s = self.settings
        n = s.value
        if len(lost) > 1:
            raise TeamsError(
                f"sets: {names[0]} and {names[1]} were both set {s.sets_lose} times, but the "
                "game ended at the first team's last set: check the score sheet"
            )
        side = lost[0]
        if sets[side] > s.sets_lose:
            raise TeamsError(
                f"sets: {names[side]} was set {sets[side]} times, but the game ended at its "
                f"set number {s.sets_lose}: check the score sheet"
            )
        if max(points) >= n + s.most_in_a_hand or min(points) <= -n - s.most_in_a_hand:
            raise TeamsError(f"{shown}: no game to {n} gets that far: check the score sheet")
        return _SIDES[1 - side], f"{names[side]} was set {sets[side]} times"

    def _check_target(
        self, points: tuple[int, int], shown: str, names: tuple[str, str] = _SIDES
    ) -> tuple[TeamSide, str]:
        s = self.settings
        n, swing = s.value, s.most_in_a_hand
        if s.defenders_score and min(points) < 0:
            raise TeamsError(f"{shown}: with defenders scoring no team goes below 0")
        crossed = [(side, f"{names[side]} reached {n}") for side in (0, 1) if points[side] >= n] + [
            (1 - side, f"{names[side]} was driven to -{n}") for side in (0, 1) if points[side] <= -n
        ]
        if not crossed:
            hole = "" if s.defenders_score else f", or is driven to -{n}"
            raise TeamsError(
                f"{shown} does not end a game to {n}: it ends when a team reaches {n}{hole}; "
                "enter the hands played so far, or check the score"
            )
        if len(crossed) > 1:
            raise TeamsError(
                f"{shown}: {' and '.join(text for _, text in crossed)}, but only one team's "
                "score moves in a hand, so the game ended at the first of these: check the "
                "score sheet"
            )
        side, ended = crossed[0]
        if points[side] >= n and points[side] > n - 1 + swing:
            raise TeamsError(
                f"{shown}: the game ends on the hand that reaches {n}, so the winners have at "
                f"most {n - 1 + swing} ({n - 1} before it, and {swing}, the most a hand "
                "scores): check the score sheet"
            )
        loser = points[1 - side]
        if loser <= -n and loser < -(n - 1) - swing:
            raise TeamsError(
                f"{shown}: the game ends on the hand that drives a team to -{n}, so the losers "
                f"have at least {-(n - 1) - swing} (-{n - 1} before it, less {swing}, the most "
                "a hand loses): check the score sheet"
            )
        return _SIDES[side], ended

    def _check_best_of(
        self, hands: tuple[int, int], doubled: int, names: tuple[str, str] = _SIDES
    ) -> tuple[TeamSide, str]:
        s = self.settings
        m = s.majority
        shown = f"{hands[0]} to {hands[1]} hands"
        ahead = [side for side in (0, 1) if hands[side] >= m]
        if not ahead:
            raise TeamsError(
                f"{shown} does not end a best-of-{s.value} game: a team needs {m} hands; "
                "enter the hands played so far, or check the score"
            )
        if len(ahead) == 2:
            raise TeamsError(
                f"{shown}: both teams have {m} or more, but the game ends when the first "
                f"reaches {m}: check the score sheet"
            )
        side = ahead[0]
        top = m + (1 if s.boston_counts_double else 0)
        if hands[side] > top or sum(hands) > s.value + doubled:
            raise TeamsError(
                f"{shown}: the game ends on the hand that gives a team {m}, so no more than "
                f"{top} are won by the winners and {s.value} hands are played: check the "
                "score sheet"
            )
        return _SIDES[side], f"{names[side]} won {hands[side]} hands of {s.value}"

    # ---- forfeits and byes -----------------------------------------------------------------

    def forfeit(
        self,
        round: int,
        table: int,
        winner: int,
        loser: int,
        points: tuple[int, int] | None = None,
        week: int = 1,
        *,
        hands: tuple[int, int] | None = None,
        withdrawn: bool = False,
    ) -> GameResult:
        """The late (or withdrawn: `withdrawn`) team `loser` forfeits: `winner` gets the game
        and the stated points and hands (winner's first), by default the walkover score. The
        winner is written as the home team."""
        _counts(round=round, table=table, week=week, winner=winner, loser=loser)
        if winner == loser:
            raise TeamsError(f"round {round}, table {table}: team {winner} cannot play itself")
        stated, won = self._walkover(points, hands, "forfeit")
        kind = ResultKind.WITHDRAWN if withdrawn else ResultKind.FORFEIT
        return GameResult(round, table, winner, loser, winner, stated, won, kind=kind, week=week)

    def bye(
        self,
        round: int,
        team: int,
        rule: Literal["win", "average"] = "win",
        *,
        points: int | None = None,
        week: int = 1,
    ) -> GameResult:
        """`team` sits out `round`: a win. Rule ``win`` scores it the walkover score (or
        `points`); rule ``average`` records it at 0 for the standings to score it at the
        average of the round's winners (``standings(..., bye_rule="average")``)."""
        _counts(round=round, team=team, week=week)
        if rule not in ("win", "average"):
            raise TeamsError(f"rule: win or average, not {quoted(rule)}")
        if rule == "average" and points is not None:
            raise TeamsError("points: a bye at the average scores the round's average, not points")
        stated, won = ((0, 0), (0, 0))
        if rule == "win":
            stated, won = self._walkover(None if points is None else (points, 0), None, "bye")
        scored = ((stated[0], 0), (won[0], 0))
        return GameResult(round, 0, team, None, team, *scored, kind=ResultKind.BYE, week=week)

    def _walkover(
        self, points: tuple[int, int] | None, hands: tuple[int, int] | None, what: str
    ) -> tuple[tuple[int, int], tuple[int, int]]:
        default = self.settings.walkover()
        if points is not None:
            stated = _pair("points", points)
        elif default is not None:
            stated = default[0]
        else:
            raise TeamsError(
                f"points: a game of {self.settings.value} hands has no target score, so a "
                f"{what} needs its points stated, such as points=(7, 0)"
            )
        fallback = default[1] if default is not None else (0, 0)
        return stated, (_pair("hands", hands, low=0) if hands is not None else fallback)


def _declarers(hand: Mapping[str, object]) -> TeamSide | None:
    """The side whose bid a hand played (home sits North-South); None when it names none."""
    seat = hand.get("declarer")
    if seat in ("N", "S"):
        return "home"
    if seat in ("E", "W"):
        return "away"
    return None


def _after_hands(
    points: tuple[int, int], hands: tuple[int, int], n: int, names: tuple[str, str] = _SIDES
) -> tuple[TeamSide | None, str, bool]:
    """A game of n hands at its end: points decide, then hands won, else drawn."""
    if points[0] != points[1]:
        side = 0 if points[0] > points[1] else 1
        return _SIDES[side], f"{names[side]} scored more in {n} hands", True
    if hands[0] != hands[1]:
        side = 0 if hands[0] > hands[1] else 1
        return _SIDES[side], f"level on points; {names[side]} won more hands", True
    return None, f"drawn: level on points and hands after {n} hands", True
