"""A team tournament's playoff: a single-elimination bracket seeded from the final standings
of the rounds, each match entered by the director (or its table) until there is a champion.

A playoff match is a game like any other (to the event's target, best of N, or N hands) and
must have a winner: a drawn game of a fixed number of hands is refused, and the table plays on
(the director enters the deciding figures). Its games are kept apart from the rounds' and never
count in the standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.teams import TeamsError
from engine.teams.bracket import Bracket
from tournaments.kernel.audit import User
from tournaments.teams.models import Tournament, TournamentGame
from tournaments.teams.selectors.teams import counted_results, engine_for
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


@transaction.atomic
def playoff_enter(
    *,
    tournament: Tournament,
    match: str | int,
    hands: Sequence[Mapping[str, Any]] | None = None,
    score: Mapping[str, Any] | None = None,
    user: User = None,
) -> Bracket:
    """A playoff match's game: the winner goes on in the bracket."""
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
    if found.teams is None:
        raise TeamsRefused(
            f"Match {number} waits for {found.home if found.home_team is None else found.away}: "
            "enter that match first."
        )
    if found.winner is not None:
        raise TeamsRefused(f"Match {number} is decided already.")
    home, away = found.teams
    engine = engine_for(tournament)
    rounds = engine.settings.rounds
    try:
        result = engine.played(
            rounds + found.round, number, home, away, hands=hands, score=score,
            week=tournament.week,
        )  # fmt: skip
    except TeamsError as exc:
        raise TeamsRefused(f"Match {number}: {exc}") from None
    winner = result.winner
    if winner is None:
        raise TeamsRefused(
            f"Match {number}: a playoff game needs a winner, and this one is level. Play on "
            "and enter the deciding figures."
        )
    result = replace(result, playoff=True)
    bracket = bracket.record(number, winner)
    TournamentGame.objects.create(
        tournament=tournament,
        round=result.round,
        table=number,
        match=str(number),
        home=home,
        away=away,
        hands=list(hands or []),
        score=dict(score or {}),
        result=result.to_dict(),
        source="director",
        confirmed_at=timezone.now(),
    )
    tournament.bracket = bracket.to_dict()
    tournament.save(update_fields=["bracket"])
    audit(tournament, user, "playoff-game", f"match {number}", after={"winner": result.winner})
    return bracket
