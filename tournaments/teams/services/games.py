"""A team tournament's games as the director runs them: the director's entry and correction,
forfeits for lateness, withdrawals, the end; and what the tablets' entries share with them (a
game checked by the engine, the table's game row, the draw after a round's last game).

A game comes in either hand by hand (each hand as the Bid Whist rules read it, so the engine
works out the running score, who won and the Bostons) or as the final score copied from a
paper score sheet. Nothing counts in the standings until it is confirmed; the director's entry
counts at once. The tablets' side is `team_tablets` (docs/directors/teams.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.teams import Bracket, GameResult, Pairing, TeamsError, TeamTournament
from tournaments.kernel import jobs
from tournaments.kernel.audit import User
from tournaments.teams.models import Tournament, TournamentGame, TournamentTeam
from tournaments.teams.selectors.table_reads import team_names_cities
from tournaments.teams.selectors.teams import engine_for, round_of, settings_of
from tournaments.teams.services.teams import TeamsRefused, audit, locked, round_complete, round_next


def running(tournament: Tournament, doing: str) -> None:
    if tournament.status != Tournament.Status.RUNNING:
        raise TeamsRefused(
            f"The tournament is {tournament.get_status_display().lower()}: {doing} is only "
            "possible while its rounds are played."
        )


def pairing_of(tournament: Tournament, round_: int, table: int) -> Pairing:
    if not 1 <= round_ <= tournament.round:
        raise TeamsRefused(
            f"Round {round_} has not been drawn: the rounds so far are 1 to {tournament.round}."
        )
    drawn = round_of(tournament, round_)
    assert drawn is not None
    for pairing in drawn.tables:
        if pairing.table == table:
            return pairing
    raise TeamsRefused(
        f"Round {round_} has no table {table}: its tables are 1 to {len(drawn.tables)}."
    )


def checked_game(
    tournament: Tournament,
    pairing: Pairing,
    round_: int,
    *,
    hands: Sequence[Mapping[str, Any]] | None,
    score: Mapping[str, Any] | None,
) -> GameResult:
    """The game as the engine reads it; refused (nothing written) if it cannot be right. A
    refusal names the two teams as the table's tablet shows them, never "home" and "away"."""
    if (hands is None) == (score is None):
        raise TeamsRefused(
            f"Table {pairing.table}: give the game's hands or its final score (one of them)."
        )
    try:
        # Reading a game needs the game's rules, not the teams: the whole engine would load
        # every team of the tournament (200 rows in a county Swiss) for each entry.
        return TeamTournament(settings_of(tournament), ()).played(
            round_,
            pairing.table,
            pairing.home,
            pairing.away,
            hands=hands,
            score=score,
            week=tournament.week,
            names=team_names(tournament, pairing.home, pairing.away),
        )
    except TeamsError as exc:
        raise TeamsRefused(f"Table {pairing.table}: {exc}") from None


def team_names(tournament: Tournament, home: int, away: int) -> tuple[str, str]:
    """The two teams' names as their table shows them (the number where a name is blank)."""
    names = {n: name for n, (name, _) in team_names_cities(tournament, (home, away)).items()}
    return (names.get(home) or f"Team {home}", names.get(away) or f"Team {away}")


def table_game(tournament: Tournament, round_: int, table: int) -> TournamentGame | None:
    return (
        TournamentGame.objects.select_for_update()
        .filter(tournament=tournament, round=round_, table=table, match="")
        .first()
    )


def game_or_new(
    tournament: Tournament, round_: int, pairing: Pairing, game: TournamentGame | None
) -> TournamentGame:
    """The table's game row (`table_game`), or a new, unsaved one for its pairing."""
    return game or TournamentGame(
        tournament=tournament,
        round=round_,
        table=pairing.table,
        home=pairing.home,
        away=pairing.away,
    )


@transaction.atomic
def game_enter(
    *,
    tournament: Tournament,
    table: int,
    hands: Sequence[Mapping[str, Any]] | None = None,
    score: Mapping[str, Any] | None = None,
    round: int | None = None,
    user: User = None,
    reason: str = "",
) -> TournamentGame:
    """The director's entry (from a score sheet, or settling a dispute): it counts at once.
    A game that already counts is corrected only with a reason; a correction of an earlier
    round changes the standings, never a round already drawn from them."""
    tournament = locked(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PLAYOFF):
        running(tournament, "entering a game")
    round_ = tournament.round if round is None else round
    pairing = pairing_of(tournament, round_, table)
    result = checked_game(tournament, pairing, round_, hands=hands, score=score)
    game = table_game(tournament, round_, table)
    before = None if game is None else _described(game)
    confirmed = game is not None and game.status == TournamentGame.Status.CONFIRMED
    if confirmed and not reason.strip():
        raise TeamsRefused(
            f"Round {round_}, table {table} already has a confirmed game: give a reason to "
            "correct it."
        )
    game = game_or_new(tournament, round_, pairing, game)
    game.kind = TournamentGame.Kind.PLAYED
    game.hands = list(hands or [])
    game.score = dict(score or {})
    game.result = result.to_dict()
    game.status = TournamentGame.Status.CONFIRMED
    game.source = "director"
    game.entered_by = ""
    game.confirmed_at = timezone.now()
    game.save()
    later = (
        " (a later round was drawn before: it stays as drawn)" if round_ < tournament.round else ""
    )
    audit(
        tournament,
        user,
        "game" if before is None else "game-correct",
        f"round {round_} table {table}",
        before=before,
        after=_described(game),
        reason=(reason.strip() + later).strip(),
    )
    if round_ == tournament.round and tournament.status == Tournament.Status.RUNNING:
        after_confirm(tournament)
    return game


def _described(game: TournamentGame) -> dict[str, Any]:
    return {
        "kind": game.kind,
        "status": game.status,
        "hands": game.hands,
        "score": game.score,
        "result": game.result,
    }


@transaction.atomic
def game_forfeit(
    *,
    tournament: Tournament,
    table: int,
    late: int,
    user: User = None,
    now: dt.datetime | None = None,
) -> TournamentGame:
    """A team not at its table when the grace minutes have run out forfeits the game: the
    opponents get the win and the stated points (`forfeit_points`, or the target to 0)."""
    tournament = locked(tournament)
    running(tournament, "a forfeit")
    pairing = pairing_of(tournament, tournament.round, table)
    if late not in pairing.teams:
        raise TeamsRefused(
            f"Team {late} is not at table {table} this round: teams {pairing.home} and "
            f"{pairing.away} are."
        )
    settings = engine_for(tournament).settings
    started = tournament.round_started_at or timezone.now()
    deadline = started + dt.timedelta(minutes=settings.grace_minutes)
    moment = now or timezone.now()
    if moment < deadline:
        left = int((deadline - moment).total_seconds() // 60) + 1
        raise TeamsRefused(
            f"Team {late} still has {left} minute{'s' if left != 1 else ''} of the "
            f"{settings.grace_minutes} minutes' grace (round {tournament.round} began at "
            f"{timezone.localtime(started):%H:%M}): wait, then record the forfeit."
        )
    game = table_game(tournament, tournament.round, table)
    if game is not None and game.status == TournamentGame.Status.CONFIRMED:
        raise TeamsRefused(
            f"Table {table}'s game is already confirmed: correct it instead of a forfeit."
        )
    winner = pairing.away if late == pairing.home else pairing.home
    try:
        result = engine_for(tournament).forfeit(
            tournament.round, table, winner, late, home=pairing.home, week=tournament.week
        )
    except TeamsError as exc:
        raise TeamsRefused(str(exc)) from None
    game = game_or_new(tournament, tournament.round, pairing, game)
    game.kind = TournamentGame.Kind.FORFEIT
    game.hands, game.score = [], {}
    game.result = result.to_dict()
    game.status = TournamentGame.Status.CONFIRMED
    game.source = "director"
    game.confirmed_at = timezone.now()
    game.save()
    audit(
        tournament,
        user,
        "forfeit",
        f"round {tournament.round} table {table}",
        after={"late": late, "result": game.result},
        reason=f"team {late} late after {settings.grace_minutes} minutes' grace",
    )
    after_confirm(tournament)
    return game


@transaction.atomic
def team_withdraw(
    *, tournament: Tournament, number: int, user: User = None, reason: str = ""
) -> TournamentTeam:
    """A team leaves for good. Its game of this round, if not played, goes to its opponents
    as a forfeit; in a fixed schedule its later opponents get the same result; a drawn
    rotation leaves it out from the next round. Its games so far still count."""
    tournament = locked(tournament)
    running(tournament, "a withdrawal")
    team = tournament.teams.filter(number=number).first()
    if team is None:
        raise TeamsRefused(f"There is no team {number}.")
    if team.withdrawn_after is not None:
        raise TeamsRefused(f"Team {number} withdrew after round {team.withdrawn_after} already.")
    drawn = round_of(tournament, tournament.round)
    assert drawn is not None
    pairing = next((p for p in drawn.tables if number in p.teams), None)
    team.withdrawn_after = tournament.round
    team.save(update_fields=["withdrawn_after"])
    if pairing is not None:
        game = table_game(tournament, tournament.round, pairing.table)
        if game is None or game.status != TournamentGame.Status.CONFIRMED:
            winner = pairing.away if number == pairing.home else pairing.home
            result = engine_for(tournament).forfeit(
                tournament.round,
                pairing.table,
                winner,
                number,
                home=pairing.home,
                withdrawn=True,
                week=tournament.week,
            )
            game = game_or_new(tournament, tournament.round, pairing, game)
            game.kind = TournamentGame.Kind.WITHDRAWN
            game.result = result.to_dict()
            game.status = TournamentGame.Status.CONFIRMED
            game.source = "director"
            game.confirmed_at = timezone.now()
            game.save()
    audit(
        tournament,
        user,
        "withdraw",
        f"team {number}",
        after={"withdrawn_after": tournament.round},
        reason=reason,
    )
    after_confirm(tournament)
    return team


def after_confirm(tournament: Tournament) -> None:
    """The round's last game counts: the next round is drawn by itself where the director
    asked for that (`moves_on`) and there is one. A draw the tournament refuses (too few teams
    left, say) leaves the game counted and the round waiting for the director, whose page says
    why when they draw."""
    if not tournament.moves_on:
        return
    done, tables = round_complete(tournament)
    if done == tables and tournament.round < settings_of(tournament).rounds:
        try:
            with transaction.atomic():
                round_next(tournament=tournament)
        except TeamsRefused:
            pass


# ---- the end ----------------------------------------------------------------------------------


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: User = None) -> Tournament:
    tournament = locked(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PLAYOFF):
        raise TeamsRefused(
            f"The tournament is {tournament.get_status_display().lower()}: only one that is "
            "running can finish."
        )
    if tournament.status == Tournament.Status.PLAYOFF:
        bracket = Bracket.from_dict(tournament.bracket)
        if bracket.champion is None:
            waiting = ", ".join(str(m.id) for m in bracket.next_matches())
            raise TeamsRefused(f"The playoff has no champion yet: enter match {waiting} first.")
    done, tables = round_complete(tournament)
    if tournament.status == Tournament.Status.RUNNING and done < tables:
        raise TeamsRefused(
            f"{tables - done} table{'s' if tables - done != 1 else ''} of round "
            f"{tournament.round} have no confirmed game: enter them (or a forfeit) first."
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    audit(tournament, user, "finish", "tournament")
    return tournament


@transaction.atomic
def tournament_publish(*, tournament: Tournament, user: User = None) -> Tournament:
    tournament = locked(tournament)
    if tournament.status != Tournament.Status.FINISHED:
        raise TeamsRefused("Finish the tournament first, then publish its results.")
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save(update_fields=["status"])
    audit(tournament, user, "publish", "tournament")
    jobs.season_play_changed("tournament", tournament.pk)
    return tournament


def tournament_live(*, tournament: Tournament, live: bool, user: User = None) -> Tournament:
    """Anyone with the public page's address follows the standings while it runs (on)."""
    return _switch(tournament, "live_public", live, user, "live")


def moves_on_set(*, tournament: Tournament, on: bool, user: User = None) -> Tournament:
    """The next round is drawn by itself when the round's last game counts (on)."""
    return _switch(tournament, "moves_on", on, user, "moves-on")


@transaction.atomic
def _switch(
    tournament: Tournament, column: str, value: bool, user: User, action: str
) -> Tournament:
    tournament = locked(tournament)
    setattr(tournament, column, value)
    tournament.save(update_fields=[column])
    audit(tournament, user, action, "tournament", after={column: value})
    return tournament
