"""A published Bid Whist team tournament (or league week) as the season counts it: each of a
team's two players with the team's place, games won (a draw half) and points scored
(`engine.season.Appearance`). An evening not published gives nothing.
"""

from __future__ import annotations

from fractions import Fraction

from engine.season import Appearance
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.selectors.teams import standings_of


def published_tournaments(club_id: int) -> list[int]:
    """The club's published tournaments and league weeks, by id."""
    return list(
        Tournament.objects.filter(club_id=club_id, status=Tournament.Status.PUBLISHED)
        .order_by("date", "pk")
        .values_list("pk", flat=True)
    )


def tournament_appearances(tournament_id: int) -> tuple[int | None, list[Appearance]]:
    """The tournament's club and its players' appearances; (None, []) for no such tournament,
    and (club, []) for one not published."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None, []
    if tournament.status != Tournament.Status.PUBLISHED:
        return tournament.club_id, []
    teams = {team.number: team for team in TournamentTeam.objects.filter(tournament=tournament)}
    rows = standings_of(tournament)
    ranks: dict[int, int] = {}
    for row in rows:
        ranks[row.rank] = ranks.get(row.rank, 0) + 1
    found: list[Appearance] = []
    for row in rows:
        team = teams.get(row.team.number)
        if team is None:
            continue
        for name, member in (
            (team.player_one, team.member_one_id),
            (team.player_two, team.member_two_id),
        ):
            if not name:
                continue
            found.append(
                Appearance(
                    format="tournament",
                    play_id=tournament.pk,
                    play_name=tournament.name,
                    date=tournament.date,
                    entrant=f"T{team.league_team or team.number}",
                    member_id=member,
                    name=name,
                    rank=f"{row.rank}{'=' if ranks[row.rank] > 1 else ''}",
                    field_size=len(rows),
                    points=Fraction(row.points_for),
                    wins=row.wins,
                )
            )
    return tournament.club_id, found
