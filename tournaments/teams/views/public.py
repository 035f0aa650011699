"""The public pages of team tournaments and leagues: the standings with the tie-break rule,
the round's tables, each team's games, the playoff bracket, and a league's table through
week N.

A tournament is readable by anyone once published, or while it runs with live standings on;
its director reads it always. Games hold no cards, so nothing here can give a hand away.
"""

from __future__ import annotations

import csv
import io

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from engine.exports.csv import safe_row
from engine.teams import GameResult
from engine.teams.ranking import tie_break_text
from tournaments.kernel.downloads import table_response
from tournaments.kernel.numbers import NumberRefused, optional_whole, refused_page
from tournaments.teams.access import tournament_readable, tournaments_for
from tournaments.teams.models import League, Tournament
from tournaments.teams.selectors.room import champion_of, playoff_view
from tournaments.teams.selectors.teams import (
    counted_results,
    game_text,
    games_of_team,
    league_standings,
    settings_of,
    shown_players,
    tournament_state,
    week_notes,
)

#: How often a running tournament's public page looks for new games (a round takes 15-30
#: minutes; results come in over a few).
LIVE_SECONDS = 20


@require_GET
def tournament_public(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_readable(request.user, pk)
    state = tournament_state(tournament)
    live = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PLAYOFF)
    context = {
        "tournament": tournament,
        "state": state,
        "playoff": playoff_view(tournament),
        "champion": champion_of(tournament),
        # While games come in, the standings part is fetched again (`static/js/drive-live.js`).
        "refresh": LIVE_SECONDS if live else 0,
    }
    if request.GET.get("part"):
        response = render(request, "tournaments/public/_tournament_live.html", context)
        response["Cache-Control"] = "no-cache"
        return response
    return render(request, "tournaments/public/tournament.html", context)


@require_GET
def tournament_team(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = tournament_readable(request.user, pk)
    team = tournament.teams.filter(number=number).first()
    if team is None:
        raise Http404("No such team.")
    teams = {t.number: t for t in tournament.teams.all()}
    games = [(g, game_text(g, teams)) for g in games_of_team(tournament, number)]
    return render(
        request,
        "tournaments/public/tournament_team.html",
        {
            "tournament": tournament,
            "team": team,
            "games": games,
            "players": shown_players(team),
        },
    )


@require_GET
def league_public(request: HttpRequest, pk: int) -> HttpResponse:
    """The league table through week N (?week=N; all weeks played so far by default)."""
    league = get_object_or_404(League, pk=pk)
    weeks = list(league.weeks.exclude(status=Tournament.Status.DRAFT).order_by("week"))
    directs = tournaments_for(request.user).filter(league=league).exists()
    if not directs:
        # Readers see the table through the last week before one that is not public yet:
        # a week's games count only once anyone may read them.
        public = []
        for week in weeks:
            if not week.is_public:
                break
            public.append(week)
        weeks = public
    if not weeks and not directs:
        raise Http404("No week of this league is public yet.")
    try:
        asked = optional_whole(request.GET.get("week"), "Week", low=1)
    except NumberRefused as refused:
        return refused_page(refused)
    through = asked if asked is not None else (weeks[-1].week if weeks else None)
    if through is not None and weeks and through > weeks[-1].week:
        through = weeks[-1].week
    rows = league_standings(league, through) if weeks else []
    keys = settings_of(weeks[0]).keys if weeks else ()
    return render(
        request,
        "tournaments/public/league.html",
        {
            "league": league,
            "weeks": weeks,
            "through": through,
            "final": bool(weeks) and through == weeks[-1].week
            and all(w.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED)
                    for w in weeks),
            "rows": rows,
            "tie_break": tie_break_text(keys) if keys else "",
            "notes": week_notes(league, weeks),
        },
    )  # fmt: skip


STANDINGS_HEADER = [
    "rank", "tied", "team", "name", "city", "played", "won", "lost", "drawn", "points_for",
    "points_against", "hands", "bostons", "byes", "forfeits", "decided_by",
]  # fmt: skip
GAMES_HEADER = [
    "round", "table", "home", "home_name", "away", "away_name", "winner", "home_points",
    "away_points", "home_hands", "away_hands", "home_bostons", "away_bostons", "kind", "week",
    "playoff",
]  # fmt: skip


@require_GET
def tournament_csv(request: HttpRequest, pk: int, what: str, fmt: str = "csv") -> HttpResponse:
    """CSV or XLSX (`fmt`) for spreadsheets and other programs: the standings (`standings`)
    or every game that counts (`games`, playoff included). Names are typed by people: every
    cell goes through the formula rule (`safe_row`)."""
    tournament = tournament_readable(request.user, pk)
    out = io.StringIO()
    sheet = csv.writer(out)
    names = dict(tournament.teams.values_list("number", "name"))
    if what == "standings":
        sheet.writerow(STANDINGS_HEADER)
        for row in tournament_state(tournament).standings:
            sheet.writerow(safe_row((
                row.rank, "yes" if row.tied else "", row.team.number, row.team.name,
                row.team.city, row.played, row.won, row.lost, row.drawn, row.points_for,
                row.points_against, row.hands, row.bostons, row.byes, row.forfeits,
                row.decided_by or "",
            )))  # fmt: skip
    elif what == "games":
        sheet.writerow(GAMES_HEADER)
        for result in counted_results(tournament, playoff=True):
            sheet.writerow(safe_row(_game_cells(result, names)))
    else:
        raise Http404("The tables are standings and games.")
    title = "Standings" if what == "standings" else "Games"
    return table_response(
        out.getvalue(), f"tournament-{tournament.pk}-{what}", title=title, fmt=fmt
    )


def _game_cells(result: GameResult, names: dict[int, str]) -> tuple[object, ...]:
    away = result.away
    return (
        result.round, result.table, result.home, names.get(result.home, ""),
        "" if away is None else away, "" if away is None else names.get(away, ""),
        "" if result.winner is None else result.winner, *result.points, *result.hands,
        *result.bostons, result.kind.value, result.week, "yes" if result.playoff else "",
    )  # fmt: skip
