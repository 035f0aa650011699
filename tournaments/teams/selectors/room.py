"""A team tournament's tables as the tablets and the room see them: each table's link, the
state its tablet shows, and the playoff bracket as the pages draw it.

A tablet stays on its table all evening while the teams move, so its link is the table's. Its
state names the two teams of this round, where the game stands (nobody has entered it, one
team has and the other must confirm, it counts, it is disputed), how many tables are done, and
once the next round is drawn, where the teams of this table go. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from engine.teams import GameResult
from engine.teams.bracket import Bracket, Slot
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.teams.models import Tournament, TournamentGame, TournamentTableAccess
from tournaments.teams.selectors.documents import (
    GamePreview,
    PlayoffMatch,
    PlayoffRound,
    RoundLine,
    RoundTable,
    StandingsHead,
    TableTeam,
    TeamLine,
    TeamPublicStandings,
    TeamTableState,
    TournamentDocument,
    game_preview_document,
    table_game,
    team_standings,
    tournament_head,
)
from tournaments.teams.selectors.teams import TournamentState, engine_for, round_of, settings_of


class TeamLinkUnknown(LinkUnknown):
    """No such table link."""


class TeamLinkReplaced(LinkReplaced):
    """The link was replaced: the director gave the table a new one."""


@dataclass(frozen=True)
class TeamLink:
    table: int
    url: str


def team_links(tournament: Tournament, base_url: str) -> list[TeamLink]:
    rows = TournamentTableAccess.objects.filter(
        tournament=tournament, revoked_at__isnull=True
    ).order_by("table")
    return [TeamLink(row.table, f"{base_url}/tt/{row.token}/") for row in rows]


def team_link(token: str) -> tuple[Tournament, int]:
    row = TournamentTableAccess.objects.select_related("tournament").filter(token=token).first()
    if row is None:
        raise TeamLinkUnknown("This table link is not known: scan the table's code again.")
    if row.revoked_at is not None:
        raise TeamLinkReplaced(
            "This table link was replaced by the director: scan the table's new code."
        )
    return row.tournament, row.table


def _team(names: dict[int, tuple[str, str]], number: int | None) -> TableTeam | None:
    if number is None:
        return None
    name, city = names.get(number, (f"Team {number}", ""))
    return TableTeam(number, name, city)


def table_state(tournament: Tournament, table: int) -> dict[str, Any]:
    """What the table's tablet shows now (JSON, as the page embeds it and the API sends)."""
    return table_document(tournament, table).to_dict()


def table_document(tournament: Tournament, table: int) -> TeamTableState:
    """What the table's tablet shows now, as its typed document."""
    settings = settings_of(tournament)
    state = TeamTableState(
        tournament=tournament.name,
        status=tournament.status,
        round=tournament.round,
        rounds=settings.rounds,
        table=table,
        version=tournament.version,
        game_kind=settings.game.kind.value,
        game_value=settings.game.value,
        home=None,
        away=None,
        game=None,
        tables=0,
        done=0,
        server_time=timezone.now().isoformat(timespec="seconds"),
    )
    drawn = round_of(tournament, tournament.round) if tournament.round else None
    if drawn is None:
        return state
    pairing = next((p for p in drawn.tables if p.table == table), None)
    # Counted, not loaded: a poll of a 100-table room needs this table's game alone.
    games = TournamentGame.objects.filter(
        tournament=tournament, round=drawn.number, match="", table__gte=1
    )
    tables = len(drawn.tables)
    done = games.filter(status=TournamentGame.Status.CONFIRMED).count()
    if pairing is None:
        return replace(state, tables=tables, done=done, sitting_out=True)
    names = {
        n: (name, city)
        for n, name, city in tournament.teams.filter(number__in=pairing.teams).values_list(
            "number", "name", "city"
        )
    }
    game = games.filter(table=table).first()
    return replace(
        state,
        tables=tables,
        done=done,
        home=_team(names, pairing.home),
        away=_team(names, pairing.away),
        game=None if game is None else table_game(game),
    )


@dataclass(frozen=True)
class MatchView:
    """One playoff match as the pages draw it: team names, or where a team will come from."""

    id: int
    home: str
    away: str
    winner: str
    ready: bool
    third_place: bool


def champion_of(tournament: Tournament) -> str:
    """The playoff's winner by name, "" until there is one (or without a playoff)."""
    if not tournament.bracket:
        return ""
    champion = Bracket.from_dict(tournament.bracket).champion
    if champion is None:
        return ""
    return str(tournament.teams.filter(number=champion).values_list("name", flat=True).first())


def playoff_view(tournament: Tournament) -> list[tuple[str, list[MatchView]]]:
    """The bracket by round: [(round name, its matches)]; [] before the playoff."""
    if not tournament.bracket:
        return []
    bracket = Bracket.from_dict(tournament.bracket)
    names = dict(tournament.teams.values_list("number", "name"))

    def place(team: int | None, slot: Slot) -> str:
        if team is not None:
            return str(names.get(team, f"Team {team}"))
        return f"{'loser' if slot.loser else 'winner'} of match {slot.source}"

    return [
        (
            bracket_round.name,
            [
                MatchView(
                    m.id,
                    place(m.home_team, m.home),
                    place(m.away_team, m.away),
                    str(names.get(m.winner, "")) if m.winner is not None else "",
                    m.ready,
                    m.third_place,
                )
                for m in bracket_round.matches
            ],
        )
        for bracket_round in bracket.rounds
    ]


def game_preview(
    tournament: Tournament, hands: Any, names: tuple[str, str] = ("home", "away")
) -> GamePreview:
    """The score sheet of hands entered so far, as the tablet shows it before the game is
    sent: each hand in words with its points and the running totals, and whether (and how)
    the game is over. Raises TeamsError (the tablet shows its text) for a hand the rules
    refuse; nothing is stored. `names` word how the game ended with the table's teams."""
    return game_preview_document(engine_for(tournament).tally(hands, names))


def tournament_document(state: TournamentState) -> TournamentDocument:
    """The tournament as it stands: teams, this round's tables and games, the standings."""
    t = state.tournament
    return TournamentDocument(
        tournament=tournament_head(t),
        teams=tuple(
            TeamLine(
                team.number,
                team.name,
                team.city,
                (team.player_one, team.player_two),
                team.present,
                team.paid_cents,
                team.in_pot,
                team.withdrawn_after,
            )
            for team in state.teams
        ),
        round=None
        if not state.tables
        else RoundLine(
            t.round,
            tuple(
                RoundTable(
                    table.number,
                    table.home.number,
                    table.away.number,
                    table.game.status if table.game else None,
                    GameResult.from_dict(table.game.result)
                    if table.game and table.game.result
                    else None,
                    table.text,
                )
                for table in state.tables
            ),
            tuple(team.number for team in state.byes),
        ),
        tie_break=state.tie_break,
        standings=team_standings(state.standings),
        playoff=tuple(
            PlayoffRound(name, tuple(PlayoffMatch(m.id, m.home, m.away, m.winner) for m in matches))
            for name, matches in playoff_view(t)
        ),
    )


def public_standings(tournament: Tournament, state: TournamentState) -> TeamPublicStandings:
    """The standings as anyone may read them (the caller decides who may)."""
    return TeamPublicStandings(
        StandingsHead(tournament.pk, tournament.name, tournament.status, tournament.round),
        state.tie_break,
        team_standings(state.standings),
    )
