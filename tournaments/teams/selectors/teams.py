"""Reading a team tournament: its engine, rounds, the games that count, the standings, and
what the director's page, the room and the public pages show.

Nothing here writes. Every figure comes from the rows through the engine
(`engine.teams.TeamTournament`), so a page, the API, an export and a recomputation agree.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from engine.teams import GameResult, Round, Team, TeamTournament
from engine.teams.ranking import StandingRow, tie_break_text
from engine.teams.settings import ROTATIONS, TournamentSettings
from tournaments.kernel.member_links import shown_player
from tournaments.teams.access import tournaments_for
from tournaments.teams.models import League, Tournament, TournamentGame, TournamentTeam


def tournaments_visible(user: Any) -> QuerySet[Tournament]:
    """The tournaments on the home page: the account's clubs', else the public ones."""
    if getattr(user, "is_authenticated", False):
        return tournaments_for(user).select_related("club", "league")[:100]
    public = Tournament.objects.filter(status=Tournament.Status.PUBLISHED)
    return public.select_related("club", "league")[:100]


def settings_of(tournament: Tournament) -> TournamentSettings:
    """The tournament's settings as the engine reads them. Reading them checks the game's
    rules by building them (a millisecond and more), and a tablet's request reads them two or
    three times: the settings read are kept by their stored words, a few hundred at most, and
    shared (they are frozen, and a change of settings is new words)."""
    return _settings_read(json.dumps(tournament.settings, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _settings_read(stored: str) -> TournamentSettings:
    return TournamentSettings.from_dict(json.loads(stored))


def engine_teams(tournament: Tournament) -> list[Team]:
    return [
        Team(t.number, t.name, t.city)
        for t in TournamentTeam.objects.filter(tournament=tournament).order_by("number")
    ]


def engine_for(tournament: Tournament) -> TeamTournament:
    settings = settings_of(tournament)
    engine = TeamTournament(settings, engine_teams(tournament))
    if settings.tie_games:
        engine.tie_games = tie_games_of(tournament)
    return engine


#: A tie played off in one game is stored as a game whose `match` starts with this.
TIE_GAME = "tie-"


def tie_game_tag(teams: tuple[int, int]) -> str:
    """The `match` of the game that played off the tie between two teams: "tie-3-5"."""
    low, high = sorted(teams)
    return f"{TIE_GAME}{low}-{high}"


def tie_games_of(tournament: Tournament) -> dict[frozenset[int], int]:
    """The ties played off in one game that count: the two teams and the winner."""
    rows = TournamentGame.objects.filter(
        tournament=tournament,
        match__startswith=TIE_GAME,
        status=TournamentGame.Status.CONFIRMED,
        result__isnull=False,
    )
    out: dict[frozenset[int], int] = {}
    for row in rows:
        winner = row.result.get("winner") if isinstance(row.result, dict) else None
        if row.away is not None and winner in (row.home, row.away):
            out[frozenset((row.home, row.away))] = winner
    return out


def rounds_of(tournament: Tournament) -> list[Round]:
    return [Round.from_dict(r.tables) for r in tournament.rounds.order_by("number")]


#: Drawn rounds read before, by (tournament, its creation time, round number): a round's
#: pairings never change once committed (a draw makes a new round; a tournament deleted takes
#: its rounds with it, and one restored under its id keeps its creation time and its rounds).
#: A tablet's request reads the round two or three times (its pairing, its state, where the
#: teams move); each read was a query bringing the whole round's pairings.
_ROUNDS: OrderedDict[tuple[int, str, int], Round] = OrderedDict()
_ROUNDS_KEPT = 512
_ROUNDS_LOCK = threading.Lock()


def round_of(tournament: Tournament, number: int) -> Round | None:
    """Round `number` as drawn, None before its draw. Kept once read outside a transaction
    (so committed, and never to change); read inside one (a draw being made, perhaps to be
    rolled back), it is read afresh and not kept."""
    key = (tournament.pk, tournament.created_at.isoformat(), number)
    with _ROUNDS_LOCK:
        found = _ROUNDS.get(key)
        if found is not None:
            _ROUNDS.move_to_end(key)
            return found
    row = tournament.rounds.filter(number=number).first()
    if row is None:
        return None
    drawn = Round.from_dict(row.tables)
    if not connection.in_atomic_block:
        with _ROUNDS_LOCK:
            _ROUNDS[key] = drawn
            while len(_ROUNDS) > _ROUNDS_KEPT:
                _ROUNDS.popitem(last=False)
    return drawn


def counted_results(tournament: Tournament, *, playoff: bool = False) -> list[GameResult]:
    """Every game that counts: confirmed at the table or entered by the director, forfeits,
    byes and withdrawals; the playoff's too when asked."""
    games = TournamentGame.objects.filter(
        tournament=tournament, status=TournamentGame.Status.CONFIRMED, result__isnull=False
    )
    if not playoff:
        games = games.filter(Q(match="") | Q(kind=TournamentGame.Kind.BYE))
    ordered = games.order_by("round", "table", "match")
    return [GameResult.from_dict(g.result) for g in ordered if g.result is not None]


def standings_of(tournament: Tournament) -> list[StandingRow]:
    return engine_for(tournament).standings(counted_results(tournament))


def league_results(league: League, through_week: int | None = None) -> list[GameResult]:
    """Every week's games that count, each team named by its league number (a week's own
    numbers move when a team is absent that week), week by week."""
    weeks = league.weeks.exclude(status=Tournament.Status.DRAFT).order_by("week")
    if through_week is not None:
        weeks = weeks.filter(week__lte=through_week)
    out: list[GameResult] = []
    for week in weeks:
        keys = {
            number: league_team or number
            for number, league_team in week.teams.values_list("number", "league_team")
        }
        out.extend(_as_league(result, keys) for result in counted_results(week))
    return out


def _as_league(result: GameResult, keys: Mapping[int, int]) -> GameResult:
    def key(number: int | None) -> int | None:
        return None if number is None else keys.get(number, number)

    home, away, winner = key(result.home), key(result.away), key(result.winner)
    assert home is not None
    return replace(result, home=home, away=away, winner=winner)


def league_teams_now(league: League) -> list[Team]:
    """The league's teams by their league numbers, as week 1 entered them."""
    first = league.weeks.order_by("week").first()
    if first is None:
        return []
    return [
        Team(t.league_team or t.number, t.name, t.city)
        for t in TournamentTeam.objects.filter(tournament=first).order_by("number")
    ]


def week_notes(league: League, weeks: Sequence[Tournament]) -> dict[int, str]:
    """What each week's page of the league says of its teams, by the week's id: who was absent
    (a league team taken off that week) and who stood in (a player other than the team's
    own, as week 1 entered them); "" for a week as entered."""
    first = league.weeks.order_by("week").first()
    if first is None:
        return {}
    regular = {
        team.league_team or team.number: team
        for team in TournamentTeam.objects.filter(tournament=first)
    }
    notes: dict[int, str] = {}
    for week in weeks:
        teams = week.teams.select_related("member_one", "member_two")
        there = {t.league_team or t.number: t for t in teams}
        said = []
        absent = [regular[k].name for k in sorted(regular) if k not in there]
        if absent:
            said.append("absent: " + ", ".join(absent))
        for key in sorted(there):
            team, usual = there[key], regular.get(key)
            if usual is None:
                continue
            stood_in = [
                shown_player(name, member)
                for name, member in ((team.player_one, team.member_one),
                                     (team.player_two, team.member_two))
                if name and name not in (usual.player_one, usual.player_two)
            ]  # fmt: skip
            if stood_in:
                said.append(f"{team.name} with {' and '.join(stood_in)} standing in")
        notes[week.pk] = "; ".join(said)
    return notes


def league_standings(league: League, through_week: int | None = None) -> list[StandingRow]:
    """The league table through week N (all weeks played so far when None): the first week's
    settings rank every week's games, team by team whatever their numbers on each night."""
    first = league.weeks.order_by("week").first()
    if first is None:
        return []
    engine = TeamTournament(settings_of(first), league_teams_now(league))
    return engine.standings(league_results(league, through_week), through_week=through_week)


@dataclass(frozen=True)
class EarlierRound:
    """A round already played, as the director's page lists it for corrections."""

    number: int
    tables: list[TableView]


@dataclass(frozen=True)
class TableView:
    """One table of the round as the pages show it."""

    number: int
    home: TournamentTeam
    away: TournamentTeam
    game: TournamentGame | None
    text: str

    @property
    def done(self) -> bool:
        return self.game is not None and self.game.status == TournamentGame.Status.CONFIRMED

    @property
    def waiting(self) -> bool:
        return self.game is not None and self.game.status == TournamentGame.Status.ENTERED

    @property
    def disputed(self) -> bool:
        return self.game is not None and self.game.status == TournamentGame.Status.DISPUTED


@dataclass
class TournamentState:
    """Everything the director's page shows."""

    tournament: Tournament
    settings: TournamentSettings
    teams: list[TournamentTeam]
    tables: list[TableView] = field(default_factory=list)
    byes: list[TournamentTeam] = field(default_factory=list)
    standings: list[StandingRow] = field(default_factory=list)
    done: int = 0
    #: The rounds before the current one, each with its tables, for corrections.
    earlier: list[EarlierRound] = field(default_factory=list)

    @property
    def rotation_text(self) -> str:
        return ROTATIONS[self.settings.rotation]

    @property
    def tie_break(self) -> str:
        text = tie_break_text(self.settings.keys)
        if self.settings.tie_games:
            text += ", then a game between two teams still level, where they play it off"
        return text

    @property
    def complete(self) -> bool:
        return bool(self.tables) and self.done == len(self.tables)

    @property
    def last_round(self) -> bool:
        return self.tournament.round >= self.settings.rounds

    @property
    def absent(self) -> list[TournamentTeam]:
        return [t for t in self.teams if not t.present]

    def team(self, number: int) -> TournamentTeam:
        return next(t for t in self.teams if t.number == number)


def game_text(game: TournamentGame | None, teams: dict[int, TournamentTeam]) -> str:
    """A game's outcome in words: "Aces 7, Kings 4 (Aces won)"."""
    if game is None or not game.result:
        if game is not None and game.kind == TournamentGame.Kind.WITHDRAWN:
            return "No game: both teams have withdrawn"
        if game is not None and game.score:
            return score_text(game.score, teams, game.home, game.away)
        return ""
    result = GameResult.from_dict(game.result)
    home = teams[result.home].name
    if result.away is None:
        return f"{home}: a bye"
    away = teams[result.away].name
    text = f"{home} {result.points[0]}, {away} {result.points[1]}"
    if game.kind == TournamentGame.Kind.FORFEIT:
        return f"{text} (forfeit: {teams[result.winner].name if result.winner else ''} won)"
    if game.kind == TournamentGame.Kind.WITHDRAWN:
        return f"{text} (a withdrawn team's game)"
    if result.winner is None:
        return f"{text} (drawn)"
    return f"{text} ({teams[result.winner].name} won)"


def score_text(
    score: dict[str, Any], teams: dict[int, TournamentTeam], home: int, away: int | None
) -> str:
    if away is None:
        return ""
    return (
        f"{teams[home].name} {score.get('home_points', '?')}, "
        f"{teams[away].name} {score.get('away_points', '?')}"
    )


def tournament_state(tournament: Tournament) -> TournamentState:
    teams = list(TournamentTeam.objects.filter(tournament=tournament).order_by("number"))
    by_number = {t.number: t for t in teams}
    state = TournamentState(tournament, settings_of(tournament), teams)
    drawn = round_of(tournament, tournament.round) if tournament.round else None
    if drawn is not None:
        games = {
            g.table: g
            for g in TournamentGame.objects.filter(
                tournament=tournament, round=drawn.number, match=""
            )
        }
        state.tables = [
            TableView(
                p.table,
                by_number[p.home],
                by_number[p.away],
                games.get(p.table),
                game_text(games.get(p.table), by_number),
            )
            for p in drawn.tables
        ]
        state.byes = [by_number[b] for b in drawn.byes]
        state.done = sum(1 for t in state.tables if t.done)
    if tournament.round > 1:
        state.earlier = _earlier_rounds(tournament, by_number)
    if tournament.status != Tournament.Status.DRAFT:
        state.standings = engine_for(tournament).standings(counted_results(tournament))
    return state


def _earlier_rounds(
    tournament: Tournament, by_number: dict[int, TournamentTeam]
) -> list[EarlierRound]:
    """Every round before the current one with its tables' games (two queries in all)."""
    games = {
        (g.round, g.table): g
        for g in TournamentGame.objects.filter(
            tournament=tournament, round__lt=tournament.round, match=""
        )
    }
    out = []
    for drawn in rounds_of(tournament)[: tournament.round - 1]:
        tables = [
            TableView(
                p.table,
                by_number[p.home],
                by_number[p.away],
                games.get((drawn.number, p.table)),
                game_text(games.get((drawn.number, p.table)), by_number),
            )
            for p in drawn.tables
        ]
        out.append(EarlierRound(drawn.number, tables))
    return out


def games_of_team(tournament: Tournament, number: int) -> Sequence[TournamentGame]:
    """A team's games in round order, byes included (its page)."""
    return [
        g
        for g in TournamentGame.objects.filter(tournament=tournament).order_by("round", "table")
        if g.home == number or g.away == number
    ]


def shown_players(team: TournamentTeam) -> list[str]:
    """A team's players as a public page names them: a linked member by their chosen shown
    name (`shown_player`), a visitor as typed; players not given are left out."""
    return [
        shown_player(name, member)
        for name, member in ((team.player_one, team.member_one),
                             (team.player_two, team.member_two))
        if name
    ]  # fmt: skip
