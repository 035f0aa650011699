"""The words of a Bid Whist team tournament: teams, a round's tables, a game's result.

Bid Whist is played in tournaments and leagues, not in duplicate: partnerships ("teams" of
two) play one game against one team after another, and are ranked by games won, then points
(docs/games/teams.md). Everything here is plain data shared by the format's modules:

- a `Team` is numbered 1..n in its event (the number is what schedules and results carry);
  its city (or club) lets a schedule keep teams of one place apart;
- a round's `Round` seats two teams at each table (`Pairing`: the home team sits North-South)
  and gives the odd team out a bye;
- a `GameResult` is one table's game as the standings read it: who won, each team's points,
  hands won and Bostons, and whether it was played, forfeited, a bye or a withdrawal's
  stated result.

>>> Pairing(1, 3, 5).teams
(3, 5)
>>> r = GameResult(round=1, table=1, home=3, away=5, winner=5, points=(4, 7), hands=(2, 4))
>>> r.team_points(5), r.opponent(5), r.won(5), r.won(3)
(7, 3, True, False)
>>> GameResult.from_dict(r.to_dict()) == r
True
>>> Round.from_dict({"number": 1, "tables": [[1, 2, 1]], "byes": [3]}).opponent(1)
2
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import EngineError
from engine.reading import quoted

__all__ = [
    "MAX_TEAMS",
    "GameKind",
    "GameResult",
    "Pairing",
    "ResultKind",
    "Round",
    "Team",
    "TeamsError",
    "check_round",
]


#: The most teams a tournament (so each week of a league) takes: 128 tables. A county league
#: has some 60 teams, the biggest open Swiss planned for 200 (its draw is benchmarked), and
#: 256 is the largest playoff bracket too, so every team can go into it. The app checks a
#: team list against it before reading any team: 5,000 teams took seconds to draw and made a
#: 12 MB director's page.
MAX_TEAMS = 256


class TeamsError(EngineError):
    """A team list, schedule, result or setting the tournament cannot use; says what to do."""


@dataclass(frozen=True)
class Team:
    """A partnership entered in the event. `city` is its home city or club as typed; two
    teams of the same (case and spacing aside) place are kept apart where the rotation can."""

    number: int
    name: str = ""
    city: str = ""

    @property
    def place(self) -> str:
        """The city as compared: "" (unknown) never matches another team's."""
        return " ".join(self.city.split()).casefold()


@dataclass(frozen=True)
class Pairing:
    """Two teams at one table for one round; `home` sits North-South, `away` East-West."""

    table: int
    home: int
    away: int

    @property
    def teams(self) -> tuple[int, int]:
        return (self.home, self.away)


@dataclass(frozen=True)
class Round:
    """One round's tables, numbered from 1, and the teams without a game (a bye, or none)."""

    number: int
    tables: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()

    def teams(self) -> list[int]:
        """Every team of the round, seated or on a bye."""
        return [t for p in self.tables for t in p.teams] + list(self.byes)

    def to_dict(self) -> dict[str, object]:
        """As stored: {"number": 2, "tables": [[1, 3, 5], ...], "byes": [7]}."""
        return {
            "number": self.number,
            "tables": [[p.table, p.home, p.away] for p in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        try:
            return cls(
                int(data["number"]),
                tuple(Pairing(int(t), int(h), int(a)) for t, h, a in data["tables"]),
                tuple(int(b) for b in data.get("byes", ())),
            )
        except (KeyError, TypeError, ValueError):
            raise TeamsError(f"not a stored round: {quoted(data)}") from None

    def opponent(self, team: int) -> int | None:
        """Whom `team` plays this round; None on a bye."""
        for p in self.tables:
            if p.home == team:
                return p.away
            if p.away == team:
                return p.home
        return None


class GameKind(enum.Enum):
    """How a game ends (the event's choice): a points target (seed 002: first to 7, or the
    other side driven to minus 7), the better of N hands, or a fixed number of hands."""

    TARGET = "target"
    BEST_OF = "best_of"
    HANDS = "hands"


class ResultKind(enum.Enum):
    """Where a result came from: a game played, a forfeit (a late or absent team: the
    opponents get the win and the stated points), a bye, or a withdrawn team's round under the
    event's withdrawal rule."""

    PLAYED = "played"
    FORFEIT = "forfeit"
    BYE = "bye"
    WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class GameResult:
    """One table's game as the standings count it.

    `away` is None for a bye. `winner` is a team number, or None for a drawn game (only a game
    of a fixed number of hands can end level on points and hands). `points`, `hands` (hands
    won) and `bostons` are (home, away) pairs; a bye's away figures are zeros. `week` is the
    league week (1 for a one-night tournament); `playoff` marks a bracket game, which the
    standings leave out.
    """

    round: int
    table: int
    home: int
    away: int | None
    winner: int | None
    points: tuple[int, int] = (0, 0)
    hands: tuple[int, int] = (0, 0)
    bostons: tuple[int, int] = (0, 0)
    kind: ResultKind = ResultKind.PLAYED
    week: int = 1
    playoff: bool = False

    @property
    def teams(self) -> tuple[int, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)

    def _side(self, team: int) -> int:
        if team == self.home:
            return 0
        if team == self.away:
            return 1
        raise TeamsError(f"team {team} did not play at table {self.table} in round {self.round}")

    def opponent(self, team: int) -> int | None:
        return self.away if self._side(team) == 0 else self.home

    def won(self, team: int) -> bool:
        return self.winner == team

    def lost(self, team: int) -> bool:
        return self.winner is not None and self.winner != team and self.away is not None

    def drawn(self) -> bool:
        return self.winner is None and self.away is not None

    def team_points(self, team: int) -> int:
        return self.points[self._side(team)]

    def points_against(self, team: int) -> int:
        return self.points[1 - self._side(team)]

    def team_hands(self, team: int) -> int:
        return self.hands[self._side(team)]

    def team_bostons(self, team: int) -> int:
        return self.bostons[self._side(team)]

    def to_dict(self) -> dict[str, object]:
        """As stored and exported (JSON): pairs as two-item lists, kinds by value."""
        return {
            "round": self.round,
            "table": self.table,
            "home": self.home,
            "away": self.away,
            "winner": self.winner,
            "points": list(self.points),
            "hands": list(self.hands),
            "bostons": list(self.bostons),
            "kind": self.kind.value,
            "week": self.week,
            "playoff": self.playoff,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        def pair(key: str) -> tuple[int, int]:
            a, b = data.get(key, (0, 0))
            return (int(a), int(b))

        try:
            away = data["away"]
            winner = data["winner"]
            return cls(
                round=int(data["round"]),
                table=int(data["table"]),
                home=int(data["home"]),
                away=None if away is None else int(away),
                winner=None if winner is None else int(winner),
                points=pair("points"),
                hands=pair("hands"),
                bostons=pair("bostons"),
                kind=ResultKind(data.get("kind", "played")),
                week=int(data.get("week", 1)),
                playoff=bool(data.get("playoff", False)),
            )
        except (KeyError, TypeError, ValueError):
            raise TeamsError(f"not a stored game result: {quoted(data)}") from None


def check_round(round_: Round, teams: Iterable[int]) -> None:
    """A round must seat every team of `teams` exactly once, at a table or on a bye, and its
    tables must be numbered 1..n; a TeamsError says which team or table is wrong."""
    expected = set(teams)
    seen: dict[int, str] = {}
    for index, pairing in enumerate(round_.tables, start=1):
        if pairing.table != index:
            raise TeamsError(
                f"round {round_.number}: tables are numbered 1 to {len(round_.tables)}; "
                f"table {pairing.table} is in place {index}"
            )
        if pairing.home == pairing.away:
            raise TeamsError(
                f"round {round_.number}, table {pairing.table}: team {pairing.home} cannot "
                "play itself"
            )
        for team in pairing.teams:
            if team in seen:
                raise TeamsError(
                    f"round {round_.number}: team {team} is at table {pairing.table} and "
                    f"{seen[team]}"
                )
            seen[team] = f"table {pairing.table}"
    for team in round_.byes:
        if team in seen:
            raise TeamsError(f"round {round_.number}: team {team} has a bye and {seen[team]}")
        seen[team] = "a bye"
    missing = sorted(expected - set(seen))
    extra = sorted(set(seen) - expected)
    if missing:
        raise TeamsError(f"round {round_.number}: no place for team(s) {_list(missing)}")
    if extra:
        raise TeamsError(f"round {round_.number}: team(s) {_list(extra)} are not in the event")


def _list(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)
