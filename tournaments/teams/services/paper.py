"""A team tournament's paper as PDF: the team list, the tables, score sheets, the bracket and
the standings with the prize sheet.

The layouts are the engine's (`engine.printing.teams`); this reads what the tournament has
stored and lays it out on the club's paper. Nothing is written, so a director may print as
often as they like: the team list at any time (for the door: a box for "here" and one for
"paid"), the tables and score sheets once a round is drawn (the round being played; the whole
night at once for a schedule fixed before play, round robin or moving team), the bracket once
the playoff is seeded, the standings (with the prizes and the Boston pot, as they stand or
final) at any time after the draw. A refusal is a `TeamsRefused` saying what to do first.
"""

from __future__ import annotations

from engine.printing.teams import (
    HAND_ROWS,
    PrizeLine,
    RoundLines,
    StandingLine,
    TableLine,
    TeamLine,
    bracket_pdf,
    round_tables_pdf,
    score_sheets_pdf,
    standings_pdf,
    team_list_pdf,
)
from engine.teams import GameKind, Round, TeamsError
from engine.teams.bracket import Bracket
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.selectors.money import cents_text, money_view
from tournaments.teams.selectors.teams import (
    TournamentState,
    engine_for,
    round_of,
    tournament_state,
)
from tournaments.teams.services.teams import TeamsRefused

#: The documents, by the name in their address.
DOCUMENTS = ("team-list", "tables", "score-sheets", "bracket", "standings")

#: Rotations whose rounds are all fixed at the draw: their tables print for the whole night.
FIXED_ROTATIONS = ("round_robin", "moving")


def team_line(team: TournamentTeam) -> TeamLine:
    return TeamLine(
        number=team.number,
        name=team.name,
        city=team.city,
        players=(team.player_one, team.player_two),
        here=team.present,
        paid=team.paid_cents > 0,
    )


def _round_lines(drawn: Round, teams: dict[int, TeamLine]) -> RoundLines:
    def line(number: int) -> TeamLine:
        return teams.get(number) or TeamLine(number, f"Team {number}")

    return RoundLines(
        drawn.number,
        tuple(TableLine(p.table, line(p.home), line(p.away)) for p in drawn.tables),
        tuple(line(team) for team in drawn.byes),
    )


def tournament_pdf(*, tournament: Tournament, what: str, paper: str | None = None) -> bytes:
    """The PDF bytes of one of the tournament's `DOCUMENTS`, on `paper` (a4 or letter) or
    else the club's."""
    if what not in DOCUMENTS:
        raise TeamsRefused(
            f"There is no {what!r} to print for a tournament: choose one of {', '.join(DOCUMENTS)}."
        )
    paper = paper or tournament.club.paper
    state = tournament_state(tournament)
    teams = {team.number: team_line(team) for team in state.teams}
    title, date = tournament.name, tournament.date
    if what == "team-list":
        if not teams:
            raise TeamsRefused(
                "The tournament has no teams yet: add them on its page, then print the list."
            )
        return team_list_pdf(title, date, list(teams.values()), paper=paper)
    if what == "bracket":
        return _bracket(tournament, state, paper)
    if what == "standings":
        return _standings(tournament, state, paper)
    drawn = round_of(tournament, tournament.round) if tournament.round else None
    if drawn is None:
        raise TeamsRefused(
            f"No round has been drawn yet, so there are no tables to print the "
            f"{'score sheets' if what == 'score-sheets' else 'tables'} for: tick each team "
            "in as it arrives, make the draw, then print."
        )
    total = state.settings.rounds
    if what == "tables":
        rounds = [drawn]
        if state.settings.rotation in FIXED_ROTATIONS and tournament.seed is not None:
            try:
                rounds = engine_for(tournament).schedule(tournament.seed)
            except TeamsError as exc:
                raise TeamsRefused(str(exc)) from None
        lines = [_round_lines(r, teams) for r in rounds]
        return round_tables_pdf(title, date, lines, total, paper=paper)
    game = state.settings.game
    rows = HAND_ROWS if game.kind is GameKind.TARGET else max(8, game.value + 2)
    sheets = _round_lines(drawn, teams).tables
    if not sheets:
        raise TeamsRefused(f"Round {drawn.number} has no tables: there is no game to score.")
    return score_sheets_pdf(title, date, drawn.number, sheets, game.text, rows=rows, paper=paper)


def _bracket(tournament: Tournament, state: TournamentState, paper: str) -> bytes:
    if not tournament.bracket:
        if not state.settings.playoff:
            raise TeamsRefused(
                "This tournament has no playoff, so there is no bracket to print: the "
                "standings decide the places."
            )
        raise TeamsRefused(
            "The playoff is not seeded yet: seed it from the standings once the last round's "
            "games all count, then print the bracket."
        )
    try:
        bracket = Bracket.from_dict(tournament.bracket)
    except TeamsError as exc:
        raise TeamsRefused(f"The stored bracket cannot be read: {exc}") from None
    names = {team.number: team.name for team in state.teams}
    return bracket_pdf(
        tournament.name, tournament.date, bracket.rounds, names, seeds=bracket.seeds, paper=paper
    )


def _standings(tournament: Tournament, state: TournamentState, paper: str) -> bytes:
    """The standings as they stand (final once the tournament is over), the prizes the places
    pay and the Boston pot: what the prize-giving reads out."""
    if tournament.status == Tournament.Status.DRAFT:
        raise TeamsRefused(
            "Nothing is played before the draw: make the draw, then print the standings."
        )
    over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED)
    # Until a game counts every team is level on nothing: no table, no prize "as it stands".
    rows = state.standings if any(row.played for row in state.standings) else []
    lines = [
        StandingLine(
            f"{row.rank}=" if row.tied else str(row.rank), row.team.name, row.team.city,
            row.played, row.won, row.lost, row.drawn, row.points_for, row.points_against,
            row.bostons,
        )
        for row in rows
    ]  # fmt: skip
    money = money_view(tournament, rows)
    prizes = [PrizeLine(p.place, p.team, cents_text(p.cents)) for p in money.prizes if rows]
    pot = ""
    if money.pot is not None:
        so_far = "" if money.pot_final else "So far: "
        pot = f"Boston pot: {cents_text(money.pot.pot_cents)}. {so_far}{money.pot_text}"
    status = "final standings" if over else f"after round {tournament.round}"
    return standings_pdf(
        tournament.name, tournament.date, lines, status=status, tie_break=state.tie_break,
        prizes=prizes, pot=pot, paper=paper,
    )  # fmt: skip
