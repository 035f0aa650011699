"""A single-elimination playoff seeded from the standings.

Most Bid Whist tournaments end with a playoff among the top teams of the standings. The bracket
is the standard one, so the best seeds can only meet late: in a bracket of 8, seed 1 plays 8,
4 plays 5, 2 plays 7 and 3 plays 6, and the winners of 1-8 and 4-5 meet in a semi-final. When
the number of teams is not a power of two the bracket is the next power of two, and the missing
places are first-round byes for the top seeds (6 teams: seeds 1 and 2 wait for the semi-finals;
12 teams: seeds 1 to 4 wait for the quarter-finals).

Matches are numbered from 1, round by round, top to bottom; a first-round bye is no match. A
match's two places (`Slot`) hold a team, or the winner (the loser, for the third-place match)
of an earlier match. A round is named by the number of places it has: "Final" (2),
"Semi-finals" (4), "Quarter-finals" (8), "Round of 16" (16), else "Round n". The optional
third-place match, between the semi-finals' losers, is played in the last round beside the
final.

Each match is played at a table (`Bracket.table_of`: its place in its round; `match_at` says
which ready match a table plays now), and may be a series of games (`series`: one game, or the
best of three or five), whose winner is then recorded.

A `Bracket` never changes: `record` returns a new one. It refuses a winner who is not in the
match, a match whose teams are not both known yet, and a match already decided otherwise
(`clear` takes a result back while no later match depends on it). `to_dict` and `from_dict`
store it as plain data.

>>> bracket = Bracket.seeded([11, 12, 13, 14, 15, 16])
>>> [(r.name, len(r.matches), r.byes) for r in bracket.rounds]
[('Quarter-finals', 2, (11, 12)), ('Semi-finals', 2, ()), ('Final', 1, ())]
>>> [str(m) for m in bracket.next_matches()]
['match 1: team 14 v team 15', 'match 2: team 13 v team 16']
>>> bracket = bracket.record(1, 14).record(2, 13).record(3, 11).record(4, 13).record(5, 13)
>>> bracket.champion
13
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.reading import quoted
from engine.teams.model import TeamsError

__all__ = [
    "MAX_PLAYOFF_TEAMS",
    "SERIES_LENGTHS",
    "Bracket",
    "BracketRound",
    "Match",
    "Series",
    "Slot",
    "round_name",
    "series",
]

#: How many games a playoff match may be: one game, or the best of three (or five).
SERIES_LENGTHS = (1, 3, 5)

MAX_PLAYOFF_TEAMS = 256

_NAMES = {2: "Final", 4: "Semi-finals", 8: "Quarter-finals", 16: "Round of 16"}


def round_name(number: int, places: int) -> str:
    """A round's name from its number of places (2: "Final"), else "Round `number`"."""
    return _NAMES.get(places, f"Round {number}")


def seed_order(size: int) -> list[int]:
    """The seeds top to bottom in a bracket of `size` (a power of two): 1 8 4 5 2 7 3 6.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@dataclass(frozen=True)
class Slot:
    """One place in a match: a team, or the winner (`loser`: the loser) of match `source`."""

    team: int | None = None
    source: int | None = None
    loser: bool = False

    def __str__(self) -> str:
        if self.team is not None:
            return f"team {self.team}"
        return f"{'loser' if self.loser else 'winner'} of match {self.source}"


@dataclass(frozen=True)
class Match:
    """A match: its number, round, two places, the teams once known and the winner once
    played (`home` is the better seed's side)."""

    id: int
    round: int
    home: Slot
    away: Slot
    home_team: int | None = None
    away_team: int | None = None
    winner: int | None = None
    third_place: bool = False

    @property
    def teams(self) -> tuple[int, int] | None:
        """Both teams, once both are known."""
        if self.home_team is None or self.away_team is None:
            return None
        return (self.home_team, self.away_team)

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.teams is None:
            return None
        return self.teams[1] if self.winner == self.teams[0] else self.teams[0]

    @property
    def ready(self) -> bool:
        """Both teams known and not played yet."""
        return self.teams is not None and self.winner is None

    @property
    def pairing(self) -> str:
        """'team 1 v team 8', 'team 1 v winner of match 2'."""
        return f"{_place(self.home, self.home_team)} v {_place(self.away, self.away_team)}"

    def __str__(self) -> str:
        name = "third-place match" if self.third_place else f"match {self.id}"
        return f"{name}: {self.pairing}"


def _place(slot: Slot, team: int | None) -> str:
    return f"team {team}" if team is not None else str(slot)


@dataclass(frozen=True)
class BracketRound:
    """A round: its number from 1, its name, its matches, and the teams with a bye into the
    next round (first round only)."""

    number: int
    name: str
    matches: tuple[Match, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Bracket:
    """The playoff: the teams in seed order (best first), the third-place flag, and the winners
    recorded so far as (match, team) pairs in match order."""

    seeds: tuple[int, ...]
    third_place: bool = False
    winners: tuple[tuple[int, int], ...] = ()
    _skeleton: tuple[tuple[Match, ...], ...] = field(init=False, repr=False, compare=False)
    _byes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _rounds: tuple[BracketRound, ...] = field(init=False, repr=False, compare=False)

    @classmethod
    def seeded(cls, teams: Sequence[int], third_place: bool = False) -> Bracket:
        """The bracket for `teams` in seed order (the standings' order), none played yet."""
        return cls(tuple(teams), third_place)

    def __post_init__(self) -> None:
        seeds = self.seeds
        if not 2 <= len(seeds) <= MAX_PLAYOFF_TEAMS:
            raise TeamsError(f"playoff: from 2 to {MAX_PLAYOFF_TEAMS} teams, not {len(seeds)}")
        for team in seeds:
            if isinstance(team, bool) or not isinstance(team, int) or team < 1:
                raise TeamsError(f"playoff: teams are numbers from 1, not {quoted(team)}")
        if len(set(seeds)) != len(seeds):
            raise TeamsError("playoff: a team is seeded twice")
        if not isinstance(self.third_place, bool):
            raise TeamsError(f"third_place: true or false, not {quoted(self.third_place)}")
        if self.third_place and len(seeds) < 4:
            raise TeamsError(
                "third_place: a third-place match needs two semi-finals, so 4 teams or more"
            )
        skeleton, byes = _build(len(seeds), self.third_place)
        object.__setattr__(self, "_skeleton", skeleton)
        object.__setattr__(self, "_byes", tuple(seeds[s - 1] for s in sorted(byes)))
        object.__setattr__(self, "winners", tuple(sorted(dict(self.winners).items())))
        object.__setattr__(self, "_rounds", self._resolve())

    def _resolve(self) -> tuple[BracketRound, ...]:
        """Each match with its teams and winner, checked in match order (a match only ever
        depends on earlier ones)."""
        won = dict(self.winners)
        known: dict[int, Match] = {}
        rounds = []
        size = 2 ** len(self._skeleton)
        for number, matches in enumerate(self._skeleton, start=1):
            filled = []
            for match in matches:
                home, away = (self._seat(slot) for slot in (match.home, match.away))
                done = replace(
                    match,
                    home=home,
                    away=away,
                    home_team=self._team(home, known),
                    away_team=self._team(away, known),
                    winner=won.pop(match.id, None),
                )
                if done.winner is not None:
                    _check_winner(done, done.winner)
                known[match.id] = done
                filled.append(done)
            byes = self._byes if number == 1 else ()
            name = round_name(number, size // 2 ** (number - 1))
            rounds.append(BracketRound(number, name, tuple(filled), byes))
        if won:
            raise TeamsError(f"playoff: there is no match {min(won)}")
        return tuple(rounds)

    def _seat(self, slot: Slot) -> Slot:
        """The skeleton's slots name seeds; the bracket's name teams."""
        return slot if slot.team is None else Slot(team=self.seeds[slot.team - 1])

    @staticmethod
    def _team(slot: Slot, known: Mapping[int, Match]) -> int | None:
        if slot.team is not None:
            return slot.team
        assert slot.source is not None
        source = known[slot.source]
        return source.loser if slot.loser else source.winner

    # ---- reading ---------------------------------------------------------------------------

    @property
    def rounds(self) -> tuple[BracketRound, ...]:
        return self._rounds

    @property
    def matches(self) -> tuple[Match, ...]:
        """Every match in number order."""
        return tuple(match for r in self._rounds for match in r.matches)

    def match(self, match_id: int) -> Match:
        for match in self.matches:
            if match.id == match_id:
                return match
        last = self.matches[-1].id
        raise TeamsError(f"playoff: there is no match {quoted(match_id)}; matches run 1 to {last}")

    def next_matches(self) -> list[Match]:
        """The matches ready to play: both teams known, no winner yet."""
        return [match for match in self.matches if match.ready]

    def table_of(self, match_id: int) -> int:
        """The table a match is played at: its place in its round, top to bottom (the
        third-place match after the final: table 2). A round's matches sit at tables 1 to n,
        so a room needs as many tables as the first round has matches."""
        match = self.match(match_id)
        matches = self._rounds[match.round - 1].matches
        return next(index for index, m in enumerate(matches, start=1) if m.id == match_id)

    def match_at(self, table: int) -> Match | None:
        """The match to play at `table` now: the earliest-numbered ready match whose table it
        is (a later round's match there waits for the earlier one), None when there is none."""
        for match in self.next_matches():
            if self.table_of(match.id) == table:
                return match
        return None

    @property
    def final(self) -> Match:
        return next(m for m in self._rounds[-1].matches if not m.third_place)

    @property
    def champion(self) -> int | None:
        return self.final.winner

    # ---- recording -------------------------------------------------------------------------

    def record(self, match_id: int, winner: int) -> Bracket:
        """A new bracket with `winner` recorded for match `match_id`."""
        match = self.match(match_id)
        if match.teams is None:
            waiting = [str(slot) for slot, team in _places(match) if team is None]
            raise TeamsError(
                f"match {match_id} is not ready: it waits for the {' and the '.join(waiting)}"
            )
        _check_winner(match, winner)
        if match.winner is not None:
            if match.winner == winner:
                return self
            raise TeamsError(
                f"match {match_id} was won by team {match.winner}; to change it, clear it first"
            )
        return replace(self, winners=(*self.winners, (match_id, winner)))

    def clear(self, match_id: int) -> Bracket:
        """A new bracket without match `match_id`'s result; refused while a later match that
        its winner or loser plays in has a result."""
        match = self.match(match_id)
        for later in self.matches:
            fed = any(slot.source == match_id for slot, _ in _places(later))
            if fed and later.winner is not None:
                raise TeamsError(
                    f"match {match_id}: match {later.id} has been played by its winner; "
                    f"clear match {later.id} first"
                )
        if match.winner is None:
            return self
        return replace(self, winners=tuple(w for w in self.winners if w[0] != match_id))

    # ---- storage ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        return {
            "seeds": list(self.seeds),
            "third_place": self.third_place,
            "winners": {str(match): team for match, team in self.winners},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Bracket:
        """A stored bracket, each result checked again as `record` checks it."""
        if not isinstance(data, Mapping):
            raise TeamsError(f"playoff: expected an object, not {quoted(data)}")
        seeds, winners = data.get("seeds"), data.get("winners", {})
        if not isinstance(seeds, list | tuple):
            raise TeamsError(f"playoff: seeds is a list of teams, not {quoted(seeds)}")
        if not isinstance(winners, Mapping):
            raise TeamsError(f"playoff: winners maps matches to teams, not {quoted(winners)}")
        third = data.get("third_place", False)
        if not isinstance(third, bool):
            raise TeamsError(f"third_place: true or false, not {quoted(third)}")
        bracket = cls(tuple(seeds), third)
        results = []
        for key, team in winners.items():
            try:
                results.append((int(key), team))
            except (TypeError, ValueError):
                raise TeamsError(f"playoff: {quoted(key)} is not a match number") from None
        for match_id, team in sorted(results):
            bracket = bracket.record(match_id, team)
        return bracket


@dataclass(frozen=True)
class Series:
    """A playoff match of `length` games (1: one game; 3: the best of three) as it stands: the
    games each team has won, the number of the next game to play, and the winner once a team
    has won more than half (None until then)."""

    length: int
    home_wins: int
    away_wins: int
    winner: int | None

    @property
    def next_game(self) -> int:
        return self.home_wins + self.away_wins + 1

    @property
    def needed(self) -> int:
        """Games a team must win: 2 of 3."""
        return self.length // 2 + 1

    def text(self, home: str, away: str) -> str:
        """In words for the tablets and the director: "game 2 of up to 3: Aces lead 1-0"."""
        if self.length == 1:
            return "one game"
        high, low = max(self.home_wins, self.away_wins), min(self.home_wins, self.away_wins)
        ahead = home if self.home_wins > self.away_wins else away
        if self.winner is not None:
            return f"{ahead} won the series {high}-{low}"
        game = f"game {self.next_game} of up to {self.length}"
        if high == low:
            return f"{game}: level {high}-{low}"
        return f"{game}: {ahead} lead {high}-{low}"


def series(match: Match, winners: Sequence[int | None], length: int = 1) -> Series:
    """The series of `match` from its games' winners in play order. Refused: a length not in
    `SERIES_LENGTHS`, a game won by a team not in the match, a drawn game (a playoff game has
    a winner), and a game after a team had already won the series.

    >>> m = Match(1, 1, Slot(team=4), Slot(team=9), home_team=4, away_team=9)
    >>> series(m, [9, 4], 3).text("Aces", "Kings")
    'game 3 of up to 3: level 1-1'
    >>> series(m, [9, 4, 9], 3).winner
    9
    """
    if length not in SERIES_LENGTHS:
        shown = ", ".join(str(n) for n in SERIES_LENGTHS)
        raise TeamsError(f"playoff_best_of: a match is {shown} games, not {quoted(length)}")
    if match.teams is None:
        raise TeamsError(f"match {match.id} is not ready: its teams are not both known")
    home, away = match.teams
    wins = {home: 0, away: 0}
    needed = length // 2 + 1
    for number, winner in enumerate(winners, start=1):
        if max(wins.values()) >= needed:
            raise TeamsError(f"match {match.id}: game {number} was played after the series was won")
        if winner not in wins:
            raise TeamsError(
                f"match {match.id}, game {number}: a playoff game needs a winner from the "
                f"match ({match.pairing}), not {quoted(winner)}"
            )
        wins[winner] += 1
    done = [team for team, won in wins.items() if won >= needed]
    return Series(length, wins[home], wins[away], done[0] if done else None)


def _places(match: Match) -> tuple[tuple[Slot, int | None], tuple[Slot, int | None]]:
    return ((match.home, match.home_team), (match.away, match.away_team))


def _check_winner(match: Match, winner: object) -> None:
    if match.teams is None or winner not in match.teams:
        raise TeamsError(f"match {match.id}: team {quoted(winner)} is not in it ({match.pairing})")


def _build(count: int, third_place: bool) -> tuple[tuple[tuple[Match, ...], ...], list[int]]:
    """The empty matches round by round (slots name seeds, 1 = best) and the seeds with a
    first-round bye."""
    size = 1
    while size < count:
        size *= 2
    order = seed_order(size)
    entries: list[Slot] = []
    byes: list[int] = []
    first: list[Match] = []
    next_id = 1
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        if bottom > count:
            byes.append(top)
            entries.append(Slot(team=top))
        else:
            first.append(Match(next_id, 1, Slot(team=top), Slot(team=bottom)))
            entries.append(Slot(source=next_id))
            next_id += 1
    rounds = [tuple(first)]
    number = 1
    while len(entries) > 1:
        number += 1
        matches = []
        for home, away in zip(entries[::2], entries[1::2], strict=True):
            matches.append(Match(next_id, number, home, away))
            next_id += 1
        entries = [Slot(source=match.id) for match in matches]
        if third_place and len(matches) == 1:
            semis = rounds[-1]
            losers = (Slot(source=semis[0].id, loser=True), Slot(source=semis[1].id, loser=True))
            matches.append(Match(next_id, number, *losers, third_place=True))
        rounds.append(tuple(matches))
    return tuple(rounds), byes
