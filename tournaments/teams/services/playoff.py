"""A team tournament's playoff: a single-elimination bracket seeded from the final standings
of the rounds (with a third-place game when the settings ask for one), each match played at
its table's tablet (one team enters, the other confirms, as in the rounds:
`teams.services.tablets`) or entered by the director, until there is a champion.

A playoff match is one game, or a series (`playoff_best_of`: the best of three, the first
team to win two): each game is a row of its own, the match's number as its `match` ("5"), then
"5.2", "5.3" (`game_tag`); the winner goes on in the bracket once it has won the series. A
playoff game is a game like any other (to the event's target, best of N, or N hands) and must
have a winner: a drawn game of a fixed number of hands is refused, and the table plays on (the
director enters the deciding figures). Its games are kept apart from the rounds' and never
count in the standings. A match is played at its table (`Bracket.table_of`: its place in its
round, the third-place game at table 2 beside the final).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.teams import GameResult, Pairing, TeamsError
from engine.teams.bracket import Bracket, Match, Series
from tournaments.kernel.audit import User
from tournaments.teams.models import Tournament, TournamentGame
from tournaments.teams.selectors.room import game_tag, match_series
from tournaments.teams.selectors.teams import (
    counted_results,
    engine_for,
    settings_of,
    tie_game_tag,
)
from tournaments.teams.services.games import team_names
from tournaments.teams.services.teams import TeamsRefused, audit, locked, round_complete


@transaction.atomic
def playoff_start(*, tournament: Tournament, user: User = None) -> Bracket:
    """Seed the bracket from the standings once the last round's games all count."""
    tournament = locked(tournament)
    engine = engine_for(tournament)
    settings = engine.settings
    if tournament.status != Tournament.Status.RUNNING:
        raise TeamsRefused(
            f"The tournament is {tournament.get_status_display().lower()}: the playoff is "
            "seeded when the last round is over."
        )
    if not settings.playoff:
        raise TeamsRefused("This tournament has no playoff: finish it instead.")
    if tournament.round < settings.rounds:
        raise TeamsRefused(
            f"Round {tournament.round} of {settings.rounds} is being played: the playoff is "
            "seeded after the last round."
        )
    done, tables = round_complete(tournament)
    if done < tables:
        raise TeamsRefused(
            f"{tables - done} table(s) of the last round have no confirmed game: enter them "
            "first, so the seeding is final."
        )
    withdrawn = set(
        tournament.teams.filter(withdrawn_after__isnull=False).values_list("number", flat=True)
    )
    rows = [
        r for r in engine.standings(counted_results(tournament)) if r.team.number not in withdrawn
    ]
    try:
        bracket = engine.bracket(rows)
    except TeamsError as exc:
        raise TeamsRefused(str(exc)) from None
    tournament.bracket = bracket.to_dict()
    tournament.status = Tournament.Status.PLAYOFF
    tournament.save(update_fields=["bracket", "status"])
    audit(tournament, user, "playoff", "bracket", after=tournament.bracket)
    return bracket


def _series(tournament: Tournament, match: Match) -> Series:
    try:
        return match_series(tournament, match)
    except TeamsError as exc:
        raise TeamsRefused(f"Match {match.id}: {exc}") from None


@dataclass(frozen=True)
class PlayoffPlace:
    """Where the next game of a playoff match is stored and how it is named: its row's round
    (the rounds', then the bracket's round), its row's table (the match's number), its tag
    (`game_tag`), the two teams, the table it is played at, and its series so far."""

    match: Match
    round: int
    tag: str
    table: int
    series: Series

    @property
    def pairing(self) -> Pairing:
        home, away = self.match.teams or (0, 0)
        return Pairing(self.match.id, home, away)


def playoff_place(tournament: Tournament, match: Match, bracket: Bracket) -> PlayoffPlace:
    if match.teams is None:
        raise TeamsRefused(
            f"Match {match.id} waits for {match.home if match.home_team is None else match.away}"
            ": enter that match first."
        )
    if match.winner is not None:
        raise TeamsRefused(f"Match {match.id} is decided already.")
    now = _series(tournament, match)
    rounds = settings_of(tournament).rounds
    return PlayoffPlace(
        match,
        rounds + match.round,
        game_tag(match.id, now.next_game),
        bracket.table_of(match.id),
        now,
    )


def playoff_table_place(tournament: Tournament, table: int) -> PlayoffPlace:
    """The playoff game to play at `table` now, or a refusal saying there is none."""
    bracket = Bracket.from_dict(tournament.bracket)
    match = bracket.match_at(table)
    if match is None:
        raise TeamsRefused(
            f"No playoff match is to be played at table {table} now: the teams still playing "
            "are called to their tables by the director."
        )
    return playoff_place(tournament, match, bracket)


def playoff_result(
    tournament: Tournament,
    place: PlayoffPlace,
    *,
    hands: Sequence[Mapping[str, Any]] | None,
    score: Mapping[str, Any] | None,
) -> GameResult:
    """A playoff game as the engine reads it, with a winner (refused otherwise)."""
    number = place.match.id
    if (hands is None) == (score is None):
        raise TeamsRefused(f"Match {number}: give the game's hands or its final score (one).")
    home, away = place.pairing.teams
    try:
        result = engine_for(tournament).played(
            place.round, number, home, away, hands=hands, score=score, week=tournament.week,
            names=team_names(tournament, home, away),
        )  # fmt: skip
    except TeamsError as exc:
        raise TeamsRefused(f"Match {number}: {exc}") from None
    if result.winner is None:
        raise TeamsRefused(
            f"Match {number}: a playoff game needs a winner, and this one is level. Play on "
            "and enter the deciding figures."
        )
    return replace(result, playoff=True)


def after_playoff_game(tournament: Tournament, match_id: int, user: User = None) -> Bracket:
    """A playoff game has counted: once a team has won the match's series, it goes on in the
    bracket (the tournament locked: two tables finishing at once each see the other)."""
    tournament = locked(tournament)
    bracket = Bracket.from_dict(tournament.bracket)
    match = bracket.match(match_id)
    if match.winner is not None:
        return bracket
    now = _series(tournament, match)
    if now.winner is None:
        audit(tournament, user, "playoff-series", f"match {match_id}",
              after={"home_wins": now.home_wins, "away_wins": now.away_wins})  # fmt: skip
        return bracket
    bracket = bracket.record(match_id, now.winner)
    tournament.bracket = bracket.to_dict()
    tournament.save(update_fields=["bracket"])
    audit(tournament, user, "playoff-winner", f"match {match_id}", after={"winner": now.winner})
    return bracket


@transaction.atomic
def playoff_enter(
    *,
    tournament: Tournament,
    match: str | int,
    hands: Sequence[Mapping[str, Any]] | None = None,
    score: Mapping[str, Any] | None = None,
    user: User = None,
) -> Bracket:
    """The director's entry of a playoff match's next game (from a score sheet, or settling
    a table's disputed or waiting entry): it counts at once, and the match's winner goes on in
    the bracket once it has won the series (one game, or the best of three)."""
    tournament = locked(tournament)
    if tournament.status != Tournament.Status.PLAYOFF:
        raise TeamsRefused("There is no playoff being played: seed it first.")
    bracket = Bracket.from_dict(tournament.bracket)
    try:
        number = int(match)
        found = bracket.match(number)
    except (TypeError, ValueError, TeamsError):
        ids = ", ".join(str(m.id) for m in bracket.matches)
        raise TeamsRefused(f"There is no match {match!r}: the matches are {ids}.") from None
    place = playoff_place(tournament, found, bracket)
    result = playoff_result(tournament, place, hands=hands, score=score)
    game = (
        TournamentGame.objects.select_for_update()
        .filter(tournament=tournament, table=number, match=place.tag)
        .first()
    )
    before = None if game is None else {"status": game.status, "result": game.result}
    game = game or TournamentGame(tournament=tournament, round=place.round, table=number)
    game.match = place.tag
    game.home, game.away = place.pairing.teams
    game.kind = TournamentGame.Kind.PLAYED
    game.hands = list(hands or [])
    game.score = dict(score or {})
    game.result = result.to_dict()
    game.status = TournamentGame.Status.CONFIRMED
    game.entered_by = ""
    game.source = "director"
    game.confirmed_at = timezone.now()
    game.save()
    audit(tournament, user, "playoff-game", f"match {number} game {place.series.next_game}",
          before=before, after={"winner": result.winner})  # fmt: skip
    return after_playoff_game(tournament, number, user)


@transaction.atomic
def tie_game_enter(
    *,
    tournament: Tournament,
    teams: tuple[int, int],
    hands: Sequence[Mapping[str, Any]] | None = None,
    score: Mapping[str, Any] | None = None,
    user: User = None,
) -> GameResult:
    """A tie for a place played off in one game (where the settings allow it): the two teams
    must be level on every ranking key once the rounds are over; the winner is ranked above
    the loser. The game never counts in the standings' figures (it is kept as a playoff
    game); entered again, it replaces the one before, with the audit keeping both."""
    tournament = locked(tournament)
    settings = settings_of(tournament)
    if not settings.tie_games:
        raise TeamsRefused(
            "This tournament does not play ties off: tied teams share their place. Set "
            '"A tie may be played off in one game" before the draw to allow it.'
        )
    rounds_over = tournament.status in (Tournament.Status.PLAYOFF, Tournament.Status.FINISHED)
    if tournament.status == Tournament.Status.RUNNING and tournament.round == settings.rounds:
        done, tables = round_complete(tournament)
        rounds_over = done == tables
    if not rounds_over:
        raise TeamsRefused(
            "A tie is played off once the rounds are over, when the places are final: enter "
            "the last round's games first."
        )
    home, away = teams
    engine = engine_for(tournament)
    engine.tie_games = {}
    rows = {r.team.number: r for r in engine.standings(counted_results(tournament))}
    if home == away or home not in rows or away not in rows:
        raise TeamsRefused(f"Teams {home} and {away}: name two different teams of the event.")
    if not (rows[home].tied and rows[home].rank == rows[away].rank):
        raise TeamsRefused(
            f"{rows[home].team.name} ({rows[home].rank}) and {rows[away].team.name} "
            f"({rows[away].rank}) are not tied for a place: only teams level on every ranking "
            "key play their tie off."
        )
    level = [n for n, r in rows.items() if r.rank == rows[home].rank]
    if len(level) != 2:
        raise TeamsRefused(
            f"{len(level)} teams share place {rows[home].rank}: a play-off game decides a tie "
            "between two teams; the others keep sharing it."
        )
    if (hands is None) == (score is None):
        raise TeamsRefused("The tie's game: give its hands or its final score (one of them).")
    try:
        result = engine.played(
            settings.rounds, 1, home, away, hands=hands, score=score, week=tournament.week,
            names=team_names(tournament, home, away),
        )  # fmt: skip
    except TeamsError as exc:
        raise TeamsRefused(f"The tie's game: {exc}") from None
    if result.winner is None:
        raise TeamsRefused("The tie's game needs a winner, and this one is level: play on.")
    result = replace(result, playoff=True)
    tag = tie_game_tag((home, away))
    game = TournamentGame.objects.filter(tournament=tournament, match=tag).first()
    before = None if game is None else game.result
    game = game or TournamentGame(tournament=tournament, round=settings.rounds, table=1, match=tag)
    game.home, game.away = home, away
    game.kind = TournamentGame.Kind.PLAYED
    game.hands = list(hands or [])
    game.score = dict(score or {})
    game.result = result.to_dict()
    game.status = TournamentGame.Status.CONFIRMED
    game.source = "director"
    game.confirmed_at = timezone.now()
    game.save()
    audit(tournament, user, "tie-game", tag, before=before, after=result.to_dict())
    return result
