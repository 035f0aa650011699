"""The standings: teams ranked by the event's keys, with the tie-break that decided each place.

A team event ranks by games won, then points, and players want to see why a team finished
above another it tied with, so the keys are the event's choice, `tie_break_text` says their
order in words for the printed results, and each row says which key separated it from the
team above (`StandingRow.decided_by`, e.g. "points: 31 to 28") when the earlier keys did not.

The keys (`KEYS`):

- ``wins``: games won, a drawn game counting half; a bye and a forfeit won count as wins;
- ``points``: points scored; ``difference``: points scored less points against;
- ``hands``: hands won; ``bostons``: Bostons made;
- ``head_to_head``: the games between exactly the teams still tied, as a table of their own
  (games won). It is used only when every one of those teams has met every other the same
  number of times (a complete mini-league), and it decides only if it separates them; teams it
  leaves level are compared again among themselves, then by the next key;
- ``losses_fewest``: fewer games lost ranks higher.

Teams level on every key share their rank (the caller prints it as "3="), listed by number,
unless the event plays such a tie off in one game (`tie_games`: the two teams and the winner):
two teams level on every key with a play-off game between them are ranked by it, and the row
says "play-off game".

Playoff results are left out. `through_week=N` counts a league's results of weeks 1 to N only
("standings through week N"). A forfeit and a withdrawn team's stated result count alike: a
win with the stated points for the opponents, a loss for the team that forfeited or withdrew
(`forfeits` counts these; the withdrawn team stays in the table, the caller marks it).

A bye is a win. With ``bye_rule="win"`` it counts as recorded (`TeamGame.bye`: the walkover
score). With ``bye_rule="average"`` it scores, as some clubs rule, the average of the points
(and hands) of the round's winners in played games, rounded to the nearest whole number
(halves up), with nothing against; a round with no played game yet gives the bye 0 points.

>>> from engine.teams.model import GameResult, Team
>>> teams = [Team(1), Team(2), Team(3)]
>>> results = [GameResult(1, 1, 1, 2, 1, (7, 3), (3, 1)),
...            GameResult(2, 1, 2, 3, 2, (7, 5), (3, 2)),
...            GameResult(3, 1, 3, 1, 3, (7, 2), (3, 1))]
>>> [(row.rank, row.team.number, row.won, row.decided_by) for row in standings(teams, results)]
[(1, 3, 1, None), (2, 2, 1, 'points: 12 to 10'), (3, 1, 1, 'points: 10 to 9')]
>>> tie_break_text(("wins", "points", "head_to_head"))
'Ranked by games won, then points scored, then head to head'
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from engine.reading import quoted
from engine.teams.model import GameResult, ResultKind, Team, TeamsError

__all__ = ["DEFAULT_KEYS", "KEYS", "StandingRow", "standings", "tie_break_text"]

#: Each key: (its words in the printed tie-break order, its name beside a decided place).
KEYS: dict[str, tuple[str, str]] = {
    "wins": ("games won", "games won"),
    "points": ("points scored", "points"),
    "difference": ("points difference", "difference"),
    "hands": ("hands won", "hands won"),
    "bostons": ("Bostons", "Bostons"),
    "head_to_head": ("head to head", "head to head"),
    "losses_fewest": ("fewest games lost", "games lost"),
}
DEFAULT_KEYS = ("wins", "points", "hands", "bostons", "head_to_head")
BYE_RULES = ("win", "average")


@dataclass(frozen=True)
class StandingRow:
    """One team's line: its rank (shared when `tied`), games played, won, lost and drawn
    (byes and forfeits included), points for and against, hands won, Bostons, byes, games
    forfeited (or withdrawn from) and won by the opponents' forfeit, and the key that put it
    below the team above when only a tie-break did (None otherwise)."""

    rank: int
    team: Team
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    points_for: int = 0
    points_against: int = 0
    hands: int = 0
    bostons: int = 0
    byes: int = 0
    forfeits: int = 0
    walkovers: int = 0
    decided_by: str | None = None
    tied: bool = False

    @property
    def wins(self) -> Fraction:
        """Games won, a draw counting half."""
        return self.won + Fraction(self.drawn, 2)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


def tie_break_text(keys: Sequence[str] = DEFAULT_KEYS) -> str:
    """The ranking order in words, for the printed results."""
    return "Ranked by " + ", then ".join(KEYS[key][0] for key in _check_keys(keys))


def standings(
    teams: Sequence[Team],
    results: Iterable[GameResult],
    keys: Sequence[str] = DEFAULT_KEYS,
    through_week: int | None = None,
    bye_rule: Literal["win", "average"] = "win",
    tie_games: Mapping[frozenset[int], int] | None = None,
) -> list[StandingRow]:
    """Every team's row, best first, from the results (in any order); `tie_games` maps two
    teams to the winner of the game that played off their tie."""
    keys = _check_keys(keys)
    numbers = [team.number for team in teams]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise TeamsError(f"teams: team {repeated[0]} is listed twice")
    if through_week is not None and (
        isinstance(through_week, bool) or not isinstance(through_week, int) or through_week < 1
    ):
        raise TeamsError(f"through_week: a week from 1, not {quoted(through_week)}")
    if bye_rule not in BYE_RULES:
        raise TeamsError(f"bye_rule: win or average, not {quoted(bye_rule)}")
    counted = [
        r for r in results if not r.playoff and (through_week is None or r.week <= through_week)
    ]
    _check_results(counted, set(numbers))
    if bye_rule == "average":
        counted = _average_byes(counted)
    rows = {team.number: StandingRow(0, team) for team in teams}
    for result in counted:
        for number in result.teams:
            rows[number] = _add(rows[number], result, number)
    table = _Table(rows, counted, tie_games or {})
    order = table.split(sorted(rows), keys, False)
    out: list[StandingRow] = []
    for block, text in order:
        rank = len(out) + 1
        for index, number in enumerate(block):
            out.append(
                replace(
                    rows[number],
                    rank=rank,
                    tied=len(block) > 1,
                    decided_by=text if index == 0 else None,
                )
            )
    return out


def _check_keys(keys: Sequence[str]) -> tuple[str, ...]:
    if isinstance(keys, str) or not keys:
        raise TeamsError(f"keys: a list of ranking keys from {', '.join(KEYS)}")
    for key in keys:
        if key not in KEYS:
            raise TeamsError(
                f"keys: {quoted(key)} is not a ranking key; the keys are {', '.join(KEYS)}"
            )
    if len(set(keys)) != len(keys):
        raise TeamsError("keys: each ranking key once")
    return tuple(keys)


def _where(result: GameResult) -> str:
    week = f" of week {result.week}" if result.week != 1 else ""
    return f"round {result.round}{week}"


def _check_results(results: Sequence[GameResult], numbers: set[int]) -> None:
    seen: set[tuple[int, int, int]] = set()
    for result in results:
        if result.home == result.away:
            raise TeamsError(f"{_where(result)}: team {result.home} cannot play itself")
        for number in result.teams:
            if number not in numbers:
                raise TeamsError(
                    f"{_where(result)}, table {result.table}: team {number} is not in the "
                    "event's team list"
                )
            key = (result.week, result.round, number)
            if key in seen:
                raise TeamsError(
                    f"{_where(result)}: team {number} has two results; remove the wrong one"
                )
            seen.add(key)
        if result.winner is not None and result.winner not in result.teams:
            raise TeamsError(
                f"{_where(result)}, table {result.table}: the winner, team {result.winner}, "
                "did not play at that table"
            )


def _average_byes(results: Sequence[GameResult]) -> list[GameResult]:
    """Each bye scored at the average of its round's winners (halves rounded up)."""
    winners: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r in results:
        if r.kind is ResultKind.PLAYED and r.winner is not None and r.away is not None:
            scores = winners.setdefault((r.week, r.round), [])
            scores.append((r.team_points(r.winner), r.team_hands(r.winner)))
    out = []
    for r in results:
        if r.kind is ResultKind.BYE:
            scores = winners.get((r.week, r.round), [])
            points = _half_up([p for p, _ in scores])
            hands = _half_up([h for _, h in scores])
            r = replace(r, winner=r.home, points=(points, 0), hands=(hands, 0))
        out.append(r)
    return out


def _half_up(values: Sequence[int]) -> int:
    if not values:
        return 0
    return math.floor(Fraction(sum(values), len(values)) + Fraction(1, 2))


def _add(row: StandingRow, r: GameResult, number: int) -> StandingRow:
    forfeit = r.kind in (ResultKind.FORFEIT, ResultKind.WITHDRAWN)
    return replace(
        row,
        played=row.played + 1,
        won=row.won + r.won(number),
        lost=row.lost + r.lost(number),
        drawn=row.drawn + r.drawn(),
        points_for=row.points_for + r.team_points(number),
        points_against=row.points_against + r.points_against(number),
        hands=row.hands + r.team_hands(number),
        bostons=row.bostons + r.team_bostons(number),
        byes=row.byes + (r.kind is ResultKind.BYE),
        forfeits=row.forfeits + (forfeit and r.lost(number)),
        walkovers=row.walkovers + (forfeit and r.won(number)),
    )


def _show(key: str, value: Fraction | int) -> str:
    if key == "losses_fewest":
        value = -value
    if key == "difference":
        return f"{value:+d}"
    whole = math.floor(value)
    if value == whole:
        return str(whole)
    return f"{whole or ''}½"


Block = tuple[list[int], str | None]


class _Table:
    """The rows and the counted results, split group by group."""

    def __init__(
        self,
        rows: dict[int, StandingRow],
        results: Sequence[GameResult],
        tie_games: Mapping[frozenset[int], int],
    ) -> None:
        self.rows = rows
        self.games = [r for r in results if r.away is not None]
        self.tie_games = tie_games

    def value(self, key: str, number: int) -> Fraction | int:
        row = self.rows[number]
        if key == "wins":
            return row.wins
        if key == "points":
            return row.points_for
        if key == "difference":
            return row.difference
        if key == "hands":
            return row.hands
        if key == "bostons":
            return row.bostons
        return -row.lost

    def head_to_head(self, group: Sequence[int]) -> dict[int, Fraction] | None:
        """Games won among `group` alone; None unless each pair met equally often."""
        members = set(group)
        games = [r for r in self.games if r.home in members and r.away in members]
        meetings = Counter(frozenset(r.teams) for r in games)
        counts = {meetings[frozenset(pair)] for pair in itertools.combinations(group, 2)}
        if len(counts) != 1 or 0 in counts:
            return None
        wins = dict.fromkeys(group, Fraction(0))
        for r in games:
            for number in r.teams:
                wins[number] += r.won(number) + Fraction(r.drawn(), 2)
        return wins

    def split(self, group: list[int], keys: tuple[str, ...], breaking: bool) -> list[Block]:
        """`group` (tied on the keys before `keys`) in order: blocks of teams level on every
        key, each with the text of the key that put it below the block before, when
        `breaking` a tie (the first key's order is not a tie-break)."""
        if len(group) == 2 and not keys:
            winner = self.tie_games.get(frozenset(group))
            if winner in group:
                loser = group[0] if group[1] == winner else group[1]
                return [([winner], None), ([loser], "play-off game")]
        if len(group) == 1 or not keys:
            return [(sorted(group), None)]
        key, rest = keys[0], keys[1:]
        if key == "head_to_head":
            mini = self.head_to_head(group)
            values: dict[int, Fraction | int] | None = None if mini is None else dict(mini)
            again = keys  # teams it leaves level are compared again among themselves
        else:
            values = {number: self.value(key, number) for number in group}
            again = rest
        if values is None or len(set(values.values())) == 1:
            return self.split(group, rest, True)
        levels = sorted(set(values.values()), reverse=True)
        blocks: list[Block] = []
        for index, level in enumerate(levels):
            sub = [number for number in group if values[number] == level]
            found = self.split(sub, again, True)
            if index > 0 and breaking:
                above = _show(key, levels[index - 1])
                text = f"{KEYS[key][1]}: {above} to {_show(key, level)}"
                found[0] = (found[0][0], text)
            blocks.extend(found)
        return blocks
