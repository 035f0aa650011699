"""A Bid Whist team tournament for its director: set-up, the door, the draw, each round's
games, forfeits, withdrawals, the next round, the playoff, the end.

Each view reads with `teams.selectors.teams` or calls one service, then renders or redirects; a
refusal's text is shown on the next page and nothing is changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubwhist.lan import loopback_warning
from tournaments.kernel.access import clubs_for, is_admin
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.member_links import member_suggestions
from tournaments.kernel.numbers import NumberRefused, optional_whole
from tournaments.kernel.pages import FIRST_CLUB, act, base_url, no_club
from tournaments.teams.access import tournament_for, tournament_for_scoring
from tournaments.teams.models import League, Tournament
from tournaments.teams.selectors.money import money_view
from tournaments.teams.selectors.room import playoff_view, team_links
from tournaments.teams.selectors.teams import tournament_state
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import teams as team_services
from tournaments.teams.views.forms import (
    SettingsForm,
    TournamentForm,
    cents,
    initial_of,
)


def tournament_for_director(request: HttpRequest, pk: int) -> Tournament:
    return tournament_for(request.user, pk, Tournament.objects.select_related("club"))


def tournament_for_scorer(request: HttpRequest, pk: int) -> Tournament:
    """The tournament if the account may enter and correct its games (its club's directors
    and scorers): its page and a table's score entered or corrected."""
    return tournament_for_scoring(request.user, pk, Tournament.objects.select_related("club"))


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The settings and (if known) the teams, in one form."""
    clubs = clubs_for(request.user)
    if not clubs.exists() and not is_admin(request.user):
        return no_club(request)
    form = TournamentForm(request.POST or None, clubs=clubs)
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        club = data["club"] or clubs.first() or club_get_or_create(name=FIRST_CLUB)
        try:
            # One transaction: a new league is kept only with its first week, so a refused
            # tournament (a date out of range, a team's name) leaves no league behind.
            with transaction.atomic():
                league: League | None = data["league"]
                if league is None and data["new_league"].strip():
                    league = team_services.league_create(
                        club=club, name=data["new_league"], user=request.user
                    )
                tournament = team_services.tournament_create(
                    club=club,
                    name=data["name"],
                    date=data["date"],
                    settings=form.settings(),
                    teams=form.team_list(),
                    league=league,
                    user=request.user,
                )
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(
                request,
                f"Tournament created: {tournament.name}. Tick each team in as it arrives, "
                "then make the draw.",
            )
            return redirect("tournament-detail", tournament.pk)
    return render(request, "tournaments/director/team_new.html", {"form": form, "error": error})


@never_cache  # it shows the tables' links and QR codes, which are credentials: never kept
@login_required
@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_scorer(request, pk)
    state = tournament_state(tournament)
    running = tournament.status == Tournament.Status.RUNNING
    return render(
        request,
        "tournaments/director/team_detail.html",
        {
            "tournament": tournament,
            "state": state,
            "playoff": playoff_view(tournament),
            "money": money_view(tournament, state.standings),
            "tie_pairs": _tie_pairs(state) if state.settings.tie_games else [],
            "member_names": member_suggestions(tournament.club),
            "links": team_links(tournament, base_url(request)) if running else [],
            "links_warning": loopback_warning(base_url(request)) if running else None,
        },
    )


def _number(raw: Any, field: str) -> int | None:
    """A team's, table's, round's or match's number from the form, None when left empty:
    they count from 1, and anything else is refused by the one rule for numbers, naming
    `field`, rather than read as "not given"."""
    return optional_whole(raw, field, low=1)


def _team_data(request: HttpRequest) -> dict[str, str]:
    return {
        key: request.POST.get(key, "")
        for key in ("name", "city", "player_one", "player_two")
        if key in request.POST
    }


@login_required
@require_POST
def tournament_teams(request: HttpRequest, pk: int) -> HttpResponse:
    """Add, correct and take off teams; tick them in at the door."""
    tournament = tournament_for_director(request, pk)
    action = request.POST.get("action", "")
    try:
        number = _number(request.POST.get("number"), "The team's number")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect(f"{tournament.get_absolute_url()}#teams")
    if action == "add":
        act(request, team_services.team_add, "Team added.", tournament=tournament,
            data=_team_data(request))  # fmt: skip
    elif action == "change" and number is not None:
        act(request, team_services.team_change, f"Team {number} changed.",
            tournament=tournament, number=number, data=_team_data(request))  # fmt: skip
    elif action == "remove" and number is not None:
        act(request, team_services.team_remove,
            f"Team {number} taken off; those after it moved up a number.",
            tournament=tournament, number=number)  # fmt: skip
    elif action == "arrive" and number is not None:
        try:
            paid = cents(request.POST.get("paid"), "paid") if "paid" in request.POST else None
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            act(request, team_services.team_arrive, f"Team {number}: saved.",
                tournament=tournament, number=number,
                present=request.POST.get("present") == "yes", paid_cents=paid,
                in_pot=request.POST.get("in_pot") == "yes")  # fmt: skip
    else:
        messages.error(request, "Say what to do: add a team, or change, tick in or take off one.")
    return redirect(f"{tournament.get_absolute_url()}#teams")


@login_required
@require_POST
def tournament_start(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    try:
        seed = optional_whole(request.POST.get("seed"), "The seed")
    except NumberRefused as refused:
        messages.error(request, f"{refused} Or leave it empty.")
        return redirect(tournament.get_absolute_url())
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm the draw: the teams are then fixed.")
    else:
        act(request, team_services.tournament_start,
            "Round 1 is drawn: call out each table's teams.", tournament=tournament,
            seed=seed)  # fmt: skip
    return redirect(tournament.get_absolute_url())


def _tie_pairs(state: Any) -> list[tuple[Any, Any]]:
    """Two teams sharing a place once the rounds are over: each pair may play its tie off."""
    t = state.tournament
    over = t.status in (Tournament.Status.PLAYOFF, Tournament.Status.FINISHED) or (
        t.status == Tournament.Status.RUNNING
        and t.round == state.settings.rounds
        and state.complete
    )
    if not over:
        return []
    by_rank: dict[int, list[Any]] = {}
    for row in state.standings:
        by_rank.setdefault(row.rank, []).append(row)
    return [(rows[0], rows[1]) for rows in by_rank.values() if len(rows) == 2]


@login_required
@require_POST
def tournament_tie(request: HttpRequest, pk: int) -> HttpResponse:
    """A tie for a place played off in one game: its final score."""
    tournament = tournament_for_scorer(request, pk)
    try:
        home = _number(request.POST.get("home"), "The first team")
        away = _number(request.POST.get("away"), "The second team")
        score = score_from_post(request)
    except NumberRefused as exc:
        messages.error(request, str(exc))
        return redirect(f"{tournament.get_absolute_url()}#standings")
    if home is None or away is None:
        messages.error(request, "Name the two teams whose tie is played off.")
    else:
        saved = "The tie's game is saved: the standings follow it."
        act(request, team_playoff.tie_game_enter, saved,
            tournament=tournament, teams=(home, away), score=score)  # fmt: skip
    return redirect(f"{tournament.get_absolute_url()}#standings")


def score_from_post(request: HttpRequest) -> dict[str, Any]:
    """The final score typed from the score sheet: blanks left out (the engine says what a
    game of this kind needs)."""
    score: dict[str, Any] = {}
    for key in ("home_points", "away_points", "home_hands", "away_hands", "home_bostons",
                "away_bostons", "home_sets", "away_sets"):  # fmt: skip
        figure = optional_whole(request.POST.get(key), key.replace("_", " ").capitalize(), low=None)
        if figure is not None:
            score[key] = figure
    return score


@login_required
@require_POST
def tournament_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's final score from its score sheet (or a correction, with a reason)."""
    tournament = tournament_for_scorer(request, pk)
    try:
        table = _number(request.POST.get("table"), "The table")
        round_ = _number(request.POST.get("round"), "The round")
        score = score_from_post(request)
    except NumberRefused as exc:
        messages.error(request, str(exc))
        return redirect(tournament.get_absolute_url())
    earlier = round_ is not None and round_ < tournament.round
    if table is None:
        messages.error(request, "Say which table.")
    else:
        said = f"Round {round_}, table {table}: corrected." if earlier else f"Table {table}: saved."
        act(request, team_games.game_enter, said, tournament=tournament,
            table=table, round=round_, score=score,
            reason=request.POST.get("reason", ""))  # fmt: skip
    where = f"earlier-{round_}" if earlier else f"table-{table or ''}"
    return redirect(f"{tournament.get_absolute_url()}#{where}")


@login_required
@require_POST
def tournament_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    try:
        table = _number(request.POST.get("table"), "The table")
        late = _number(request.POST.get("late"), "The late team's number")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect(tournament.get_absolute_url())
    if table is None or late is None:
        messages.error(request, "Say which table and which team is late.")
    else:
        act(request, team_games.game_forfeit, f"Table {table}: team {late} forfeits.",
            tournament=tournament, table=table, late=late)  # fmt: skip
    return redirect(tournament.get_absolute_url())


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    try:
        number = _number(request.POST.get("number"), "The team's number")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect(tournament.get_absolute_url())
    if number is None:
        messages.error(request, "Say which team withdraws.")
    else:
        act(request, team_games.team_withdraw,
            f"Team {number} withdrew: it is left out of the rounds to come.",
            tournament=tournament, number=number,
            reason=request.POST.get("reason", ""))  # fmt: skip
    return redirect(tournament.get_absolute_url())


@login_required
@require_POST
def tournament_next(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    act(request, team_services.round_next, "The next round is drawn: call out the tables.",
        tournament=tournament)  # fmt: skip
    return redirect(tournament.get_absolute_url())


@login_required
@require_POST
def tournament_playoff(request: HttpRequest, pk: int) -> HttpResponse:
    """Seed the playoff from the standings, or enter a playoff match's winner."""
    tournament = tournament_for_director(request, pk)
    try:
        match = _number(request.POST.get("match"), "The match")
    except NumberRefused as refused:
        messages.error(request, str(refused))
        return redirect(f"{tournament.get_absolute_url()}#playoff")
    if match is None:
        act(request, team_playoff.playoff_start, "The playoff is seeded from the standings.",
            tournament=tournament)  # fmt: skip
    else:
        try:
            score = score_from_post(request)
        except NumberRefused as exc:
            messages.error(request, str(exc))
        else:
            act(request, team_playoff.playoff_enter, f"Match {match}: saved.",
                tournament=tournament, match=match, score=score)  # fmt: skip
    return redirect(f"{tournament.get_absolute_url()}#playoff")


STATUS_ACTIONS = {
    "finish": (team_games.tournament_finish, "Finished: the standings are final."),
    "publish": (team_games.tournament_publish, "Published: anyone can read the results."),
}


@login_required
@require_POST
def tournament_status(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    if action in STATUS_ACTIONS:
        service, text = STATUS_ACTIONS[action]
        act(request, service, text, tournament=tournament)
    elif action in ("live-on", "live-off"):
        on = action == "live-on"
        act(request, team_games.tournament_live,
            "Live standings are on." if on else "Live standings are off.",
            tournament=tournament, live=on)  # fmt: skip
    elif action in ("moves-on", "moves-off"):
        on = action == "moves-on"
        act(request, team_games.moves_on_set,
            "The next round is drawn by itself when the last game is confirmed." if on
            else "The next round waits for you.", tournament=tournament, on=on)  # fmt: skip
    else:
        messages.error(request, f"Unknown action {action!r}.")
    return redirect(tournament.get_absolute_url())


@login_required
@require_POST
def tournament_link_replace(request: HttpRequest, pk: int, table: int) -> HttpResponse:
    tournament = tournament_for_director(request, pk)
    act(request, team_services.link_replace,
        f"Table {table} has a new link: scan its new code; the old one no longer works.",
        tournament=tournament, table=table)  # fmt: skip
    return redirect(f"{tournament.get_absolute_url()}#tablets")


@login_required
def tournament_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """A draft's settings, in the set-up form, until the draw."""
    tournament = tournament_for_director(request, pk)
    clubs = clubs_for(request.user)
    form = SettingsForm(request.POST or None, clubs=clubs, initial=initial_of(tournament.settings))
    error = ""
    if tournament.status != Tournament.Status.DRAFT:
        error = "The draw is made: the settings are fixed."
    elif request.method == "POST" and form.is_valid():
        try:
            team_services.settings_change(
                tournament=tournament, settings=form.settings(), user=request.user
            )
        except ValueError as exc:
            error = str(exc)
        else:
            messages.success(request, "Settings saved.")
            return redirect("tournament-detail", tournament.pk)
    return render(
        request,
        "tournaments/director/team_new.html",
        {"form": form, "error": error, "tournament": tournament},
    )


@login_required
@require_GET
def tournament_room(request: HttpRequest, pk: int) -> HttpResponse:
    """The room display for a projector: the round's tables (which are done), the byes, and
    the standings once the rounds are over; its part (`?part=1`) every 3 seconds."""
    tournament = tournament_for_director(request, pk)
    context = {"tournament": tournament, "state": tournament_state(tournament)}
    if request.GET.get("part"):
        return render(request, "tournaments/director/_team_room.html", context)
    return render(request, "tournaments/director/team_room.html", context)
