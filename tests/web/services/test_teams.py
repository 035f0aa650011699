"""A Bid Whist team tournament through its services: the door, the draw, the director's and
the tablets' games, forfeits for lateness, a withdrawal, the next rounds by result, the
playoff, and a league's standings through week N. Every refusal says why and changes
nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from engine.teams import Bracket, GameResult, Team, TeamTournament, TournamentSettings
from tournaments.kernel.models import Club
from tournaments.teams.models import (
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentTableAccess,
)
from tournaments.teams.selectors.room import table_state, team_link
from tournaments.teams.selectors.teams import (
    counted_results,
    league_standings,
    round_of,
    tournament_state,
    week_notes,
)
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import tablets as team_tablets
from tournaments.teams.services import teams as services
from tournaments.teams.services.tablets import TeamsDiffer
from tournaments.teams.services.teams import TeamsRefused

pytestmark = pytest.mark.django_db

TEAMS = [
    {"name": "Aces", "city": "Detroit"},
    {"name": "Kings", "city": "Detroit"},
    {"name": "Queens", "city": "Chicago"},
    {"name": "Jacks", "city": "Chicago"},
    {"name": "Jokers", "city": "Atlanta"},
    {"name": "Books", "city": "Atlanta"},
]


def made(club: Club, **settings: Any) -> Tournament:
    return services.tournament_create(
        club=club,
        name="Spring Bid Whist",
        settings={"rotation": "ladder", "rounds": 3, "playoff": 4} | settings,
        teams=TEAMS,
    )


def drawn(club: Club, **settings: Any) -> Tournament:
    tournament = made(club, **settings)
    for number in range(1, len(TEAMS) + 1):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=7)
    tournament.refresh_from_db()
    return tournament


def play_round(tournament: Tournament, home_wins: bool = True) -> None:
    drawn_round = round_of(tournament, tournament.round)
    assert drawn_round is not None
    done = set(
        TournamentGame.objects.filter(
            tournament=tournament, round=tournament.round, status="confirmed"
        ).values_list("table", flat=True)
    )
    for pairing in drawn_round.tables:
        if pairing.table in done:
            continue
        score = {"home_points": 7, "away_points": 3} if home_wins else {
            "home_points": 2, "away_points": 7}  # fmt: skip
        team_games.game_enter(tournament=tournament, table=pairing.table, score=score)


def test_the_draw_needs_every_team_here_and_refusing_changes_nothing(club: Club) -> None:
    tournament = made(club)
    services.team_arrive(tournament=tournament, number=1)
    audits = TournamentAudit.objects.count()
    with pytest.raises(TeamsRefused, match=r"Not here yet: 2 Kings, 3 Queens.*Tick each team"):
        services.tournament_start(tournament=tournament, seed=1)
    tournament.refresh_from_db()
    assert tournament.status == "draft" and tournament.round == 0
    assert not tournament.rounds.exists() and TournamentAudit.objects.count() == audits


def test_a_round_of_three_tables_and_its_links(club: Club) -> None:
    tournament = drawn(club)
    first = round_of(tournament, 1)
    assert first is not None and len(first.tables) == 3 and not first.byes
    assert sorted(t for p in first.tables for t in p.teams) == [1, 2, 3, 4, 5, 6]
    # The draw keeps teams of one city apart (three cities of two teams: always possible).
    city = {n: TEAMS[n - 1]["city"] for n in range(1, 7)}
    assert all(city[p.home] != city[p.away] for p in first.tables)
    links = TournamentTableAccess.objects.filter(tournament=tournament)
    assert sorted(links.values_list("table", flat=True)) == [1, 2, 3]
    assert team_link(links.first().token)[1] == links.first().table  # type: ignore[union-attr]


def test_the_next_round_waits_for_every_table_then_moves_by_result(club: Club) -> None:
    tournament = drawn(club)
    first = round_of(tournament, 1)
    assert first is not None
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 2}
    )
    with pytest.raises(TeamsRefused, match="2 of 3 tables of round 1 have no confirmed game"):
        services.round_next(tournament=tournament)
    play_round(tournament)
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    second = round_of(tournament, 2)
    assert second is not None and tournament.round == 2
    # The ladder: table 1's winner stays and meets table 2's winner, who came up.
    assert second.tables[0].teams == (first.tables[0].home, first.tables[1].home)


def test_a_bad_score_is_refused_and_nothing_is_stored(club: Club) -> None:
    tournament = drawn(club)
    with pytest.raises(TeamsRefused, match="Table 1:"):
        team_games.game_enter(
            tournament=tournament, table=1, score={"home_points": 5, "away_points": 3}
        )
    with pytest.raises(TeamsRefused, match="Round 1 has no table 9"):
        team_games.game_enter(
            tournament=tournament, table=9, score={"home_points": 7, "away_points": 3}
        )
    assert not TournamentGame.objects.filter(tournament=tournament, table__gte=1).exists()


def test_a_correction_needs_a_reason(club: Club) -> None:
    tournament = drawn(club)
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 3}
    )
    with pytest.raises(TeamsRefused, match="give a reason to correct it"):
        team_games.game_enter(
            tournament=tournament, table=1, score={"home_points": 3, "away_points": 7}
        )
    game = team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 3, "away_points": 7},
        reason="sheet misread",
    )  # fmt: skip
    assert GameResult.from_dict(game.result).winner == game.away  # type: ignore[arg-type]


def test_the_tablets_enter_confirm_agree_and_disagree(club: Club) -> None:
    tournament = drawn(club)
    score = {"home_points": 7, "away_points": 4}
    game, new = team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=score)
    assert game.status == "entered" and new
    # Sent again (its answer was lost): already stored, nothing written, no second audit row.
    audits = TournamentAudit.objects.count()
    again, new = team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=score)
    assert again.pk == game.pk and not new and TournamentAudit.objects.count() == audits
    state = table_state(tournament, 1)
    assert state["game"]["status"] == "entered" and state["game"]["points"] == [7, 4]
    with pytest.raises(TeamsRefused, match="The other team confirms"):
        team_tablets.tablet_confirm(tournament=tournament, table=1, side="home")
    team_tablets.tablet_confirm(tournament=tournament, table=1, side="away")
    assert TournamentGame.objects.get(tournament=tournament, table=1).status == "confirmed"
    # Table 2: both teams enter; the same figures count at once.
    team_tablets.tablet_enter(tournament=tournament, table=2, side="away", score=score)
    agreed, new = team_tablets.tablet_enter(
        tournament=tournament, table=2, side="home", score=score
    )
    assert agreed.status == "confirmed" and not new
    # Table 3: different figures are refused with the first team's, and nothing changes.
    team_tablets.tablet_enter(tournament=tournament, table=3, side="home", score=score)
    with pytest.raises(TeamsDiffer, match=r"entered .* 7, .* 4; yours says .* 7, .* 5"):
        team_tablets.tablet_enter(
            tournament=tournament, table=3, side="away",
            score={"home_points": 7, "away_points": 5},
        )  # fmt: skip
    stored = TournamentGame.objects.get(tournament=tournament, table=3)
    assert stored.status == "entered" and stored.result["points"] == [7, 4]  # type: ignore[index]
    team_tablets.tablet_dispute(tournament=tournament, table=3, side="away", note="we had 5")
    stored.refresh_from_db()
    assert stored.status == "disputed" and stored.note == "we had 5"
    assert tournament_state(tournament).done == 2


def test_a_team_replaces_what_it_sent_and_the_other_team_confirms_the_new_figures(
    club: Club,
) -> None:
    """The tablet's "change what we sent": the waiting entry is replaced whichever team is
    named now, the audit keeps the old and the new figures, and the entry still waits for the
    other team (the same figures sent as a change never count as agreed)."""
    tournament = drawn(club)
    first = {"home_points": 7, "away_points": 3}
    team_tablets.tablet_enter(tournament=tournament, table=1, side="home", score=first)
    changed, new = team_tablets.tablet_enter(
        tournament=tournament, table=1, side="away", score=first, replace=True
    )
    assert new and (changed.status, changed.entered_by) == ("entered", "away")
    second = {"home_points": 7, "away_points": 4}
    team_tablets.tablet_enter(
        tournament=tournament, table=1, side="away", score=second, replace=True
    )
    stored = TournamentGame.objects.get(tournament=tournament, table=1)
    assert stored.result["points"] == [7, 4] and stored.status == "entered"  # type: ignore[index]
    row = TournamentAudit.objects.filter(action="game-changed").latest("id")
    assert (row.before, row.after) == (
        {"by": "away", "points": [7, 3]},
        {"by": "away", "points": [7, 4]},
    )
    with pytest.raises(TeamsRefused, match="The other team confirms"):
        team_tablets.tablet_confirm(tournament=tournament, table=1, side="away")
    team_tablets.tablet_confirm(tournament=tournament, table=1, side="home")
    with pytest.raises(TeamsRefused, match="confirmed already: ask the director"):
        team_tablets.tablet_enter(
            tournament=tournament, table=1, side="home", score=first, replace=True
        )


def test_the_last_confirmation_draws_the_next_round_when_asked(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    """A tablet's confirmation locks only its game; once it has committed, the round is
    counted again under the tournament's lock and drawn (the callback runs on commit)."""
    tournament = drawn(club)
    team_games.moves_on_set(tournament=tournament, on=True)
    for table in (1, 2, 3):
        team_tablets.tablet_enter(
            tournament=tournament, table=table, side="home",
            score={"home_points": 7, "away_points": 1},
        )  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            team_tablets.tablet_confirm(tournament=tournament, table=table, side="away")
        # The round's count after the commit; once the last table's draws round 2, the
        # tablets' streams are woken with the new version after the commit. Here the test's
        # own transaction never commits, so the wake-up asked for by the first change still
        # waits, and the draw's joins it (asked once a commit: `after_commit`).
        assert len(callbacks) == 1
        tournament.refresh_from_db()
        assert tournament.round == (2 if table == 3 else 1)
        waiting = [
            func
            for _, func, _ in connection.run_on_commit
            if getattr(func, "key", None) == ("announce-tournament", tournament.pk)
        ]
        assert len(waiting) == 1


def test_a_forfeit_waits_for_the_grace_minutes(club: Club) -> None:
    tournament = drawn(club, grace_minutes=10)
    first = round_of(tournament, 1)
    assert first is not None
    late = first.tables[0].away
    started = tournament.round_started_at
    assert started is not None
    with pytest.raises(TeamsRefused, match=r"still has 6 minutes of the 10 minutes' grace"):
        team_games.game_forfeit(
            tournament=tournament,
            table=1,
            late=late,
            now=started + dt.timedelta(minutes=4, seconds=30),
        )
    assert not TournamentGame.objects.filter(tournament=tournament, table=1).exists()
    with pytest.raises(TeamsRefused, match="is not at table 1"):
        team_games.game_forfeit(
            tournament=tournament, table=1, late=first.tables[1].home,
            now=started + dt.timedelta(minutes=11),
        )  # fmt: skip
    game = team_games.game_forfeit(
        tournament=tournament, table=1, late=late, now=started + dt.timedelta(minutes=11)
    )
    result = GameResult.from_dict(game.result)  # type: ignore[arg-type]
    assert game.kind == "forfeit" and result.winner == first.tables[0].home
    assert result.home == first.tables[0].home and result.points == (7, 0)


def test_a_withdrawn_team_is_left_out_of_the_next_draw(club: Club) -> None:
    tournament = drawn(club, rotation="swiss")
    first = round_of(tournament, 1)
    assert first is not None
    gone = first.tables[2].away
    play_round(tournament)
    team_games.team_withdraw(tournament=tournament, number=gone, reason="flight home")
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    second = round_of(tournament, 2)
    assert second is not None
    assert gone not in second.teams() and len(second.tables) == 2 and len(second.byes) == 1
    # Its game of round 1 still counts.
    assert any(gone in r.teams for r in counted_results(tournament) if r.round == 1)


def test_a_withdrawal_mid_round_gives_the_opponents_the_forfeit(club: Club) -> None:
    tournament = drawn(club, rotation="round_robin", rounds=3)
    first = round_of(tournament, 1)
    assert first is not None
    pairing = first.tables[0]
    team_games.team_withdraw(tournament=tournament, number=pairing.home)
    game = TournamentGame.objects.get(tournament=tournament, round=1, table=1)
    assert game.kind == "withdrawn" and game.result["winner"] == pairing.away  # type: ignore[index]
    for p in first.tables[1:]:
        team_games.game_enter(
            tournament=tournament, table=p.table, score={"home_points": 7, "away_points": 0}
        )
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    # A fixed schedule keeps the withdrawn team: its next opponents win by the forfeit result.
    second = round_of(tournament, 2)
    assert second is not None
    table = next(p for p in second.tables if pairing.home in p.teams)
    game = TournamentGame.objects.get(tournament=tournament, round=2, table=table.table)
    assert game.kind == "withdrawn" and game.status == "confirmed"


def test_standings_equal_a_recomputation_and_the_playoff_crowns_a_champion(club: Club) -> None:
    tournament = drawn(club)
    for round_number in (1, 2, 3):
        play_round(tournament, home_wins=round_number != 2)
        if round_number < 3:
            services.round_next(tournament=tournament)
            tournament.refresh_from_db()
    with pytest.raises(TeamsRefused, match="Round 3 was the last of 3: seed the playoff"):
        services.round_next(tournament=tournament)
    state = tournament_state(tournament)
    engine = TeamTournament(
        TournamentSettings.from_dict(tournament.settings),
        [Team(t.number, t.name, t.city) for t in tournament.teams.all()],
    )
    again = engine.standings(counted_results(tournament))
    assert [(r.team.number, r.won, r.points_for) for r in state.standings] == [
        (r.team.number, r.won, r.points_for) for r in again
    ]
    bracket = team_playoff.playoff_start(tournament=tournament)
    assert [m.teams for m in bracket.rounds[0].matches] == [
        (state.standings[0].team.number, state.standings[3].team.number),
        (state.standings[1].team.number, state.standings[2].team.number),
    ]
    tournament.refresh_from_db()
    with pytest.raises(TeamsRefused, match="Match 3 waits for"):
        team_playoff.playoff_enter(
            tournament=tournament, match=3, score={"home_points": 7, "away_points": 1}
        )
    with pytest.raises(TeamsRefused, match="The playoff has no champion yet: enter match 1, 2"):
        team_games.tournament_finish(tournament=tournament)
    for match in (1, 2, 3):
        bracket = team_playoff.playoff_enter(
            tournament=tournament, match=match, score={"home_points": 7, "away_points": 1}
        )
        tournament.refresh_from_db()
    assert bracket.champion == state.standings[0].team.number
    # The playoff's games never change the standings.
    assert [r.won for r in tournament_state(tournament).standings] == [r.won for r in again]
    team_games.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_a_league_shows_standings_through_week_two(club: Club) -> None:
    league = services.league_create(club=club, name="Winter league")
    weeks = []
    for week in (1, 2, 3):
        tournament = services.tournament_create(
            club=club, name=f"Week {week}", settings={"rotation": "round_robin", "rounds": 1},
            teams=TEAMS if week == 1 else (), league=league,
        )  # fmt: skip
        assert tournament.week == week and tournament.teams.count() == 6
        for number in range(1, 7):
            services.team_arrive(tournament=tournament, number=number)
        services.tournament_start(tournament=tournament, seed=week)
        tournament.refresh_from_db()
        play_round(tournament, home_wins=week != 3)
        team_games.tournament_finish(tournament=tournament)
        weeks.append(tournament)
    two = league_standings(league, through_week=2)
    final = league_standings(league)
    assert sum(r.played for r in two) == 12 and sum(r.played for r in final) == 18
    assert sum(r.won for r in two) == 6 and sum(r.won for r in final) == 9
    assert timezone.now()


def test_a_league_keeps_week_ones_teams(club: Club) -> None:
    league = services.league_create(club=club, name="Summer league")
    services.tournament_create(
        club=club, name="Week 1", settings={"rotation": "swiss"}, teams=TEAMS, league=league
    )
    with pytest.raises(TeamsRefused, match="A league keeps week 1's teams"):
        services.tournament_create(
            club=club, name="Week 2", settings={"rotation": "swiss"}, teams=TEAMS[:4],
            league=league,
        )  # fmt: skip
    assert league.weeks.count() == 1


def test_games_of_a_fixed_number_of_hands_need_a_stated_walkover(club: Club) -> None:
    hands = {"game": {"kind": "hands", "value": 6}}
    with pytest.raises(TeamsRefused, match=r"forfeit_points: .* no natural walkover score"):
        made(club, **hands)
    assert not Tournament.objects.exists()
    tournament = services.tournament_create(
        club=club, name="Six hands", teams=TEAMS[:5],
        settings={"rotation": "swiss", "rounds": 2, "forfeit_points": [20, 0]} | hands,
    )  # fmt: skip
    for number in range(1, 6):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=1)
    bye = TournamentGame.objects.get(tournament=tournament, kind="bye")
    assert bye.result["points"] == [20, 0]  # type: ignore[index]


def test_the_directors_last_entry_draws_the_next_round_by_itself(club: Club) -> None:
    tournament = drawn(club)
    team_games.moves_on_set(tournament=tournament, on=True)
    play_round(tournament)
    tournament.refresh_from_db()
    assert tournament.round == 2


def test_a_refused_automatic_draw_keeps_the_game(club: Club) -> None:
    tournament = services.tournament_create(
        club=club, name="Two teams", settings={"rotation": "swiss", "rounds": 2},
        teams=TEAMS[:2],
    )  # fmt: skip
    for number in (1, 2):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=1)
    tournament.refresh_from_db()
    team_games.moves_on_set(tournament=tournament, on=True)
    team_games.team_withdraw(tournament=tournament, number=2)
    tournament.refresh_from_db()
    # The withdrawal's forfeit completed round 1; one team is left: no round 2, the game stays.
    assert tournament.round == 1
    assert TournamentGame.objects.get(tournament=tournament, round=1, table=1).status == "confirmed"


def test_withdrawn_teams_in_a_fixed_schedule_get_no_bye_and_no_win(club: Club) -> None:
    tournament = services.tournament_create(
        club=club, name="Seven teams", settings={"rotation": "round_robin", "rounds": 7},
        teams=[*TEAMS, {"name": "Kitty", "city": "Memphis"}],
    )  # fmt: skip
    for number in range(1, 8):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=2)
    tournament.refresh_from_db()
    schedule = TeamTournament(
        TournamentSettings.from_dict(tournament.settings),
        [Team(n) for n in range(1, 8)],
    ).schedule(tournament.seed or 0)
    # Two teams who meet in round 3 both leave after round 1.
    pair = schedule[2].tables[0]
    play_round(tournament)
    for team in pair.teams:
        team_games.team_withdraw(tournament=tournament, number=team)
    for _ in range(2, 8):
        services.round_next(tournament=tournament)
        tournament.refresh_from_db()
        play_round(tournament)
    byes = TournamentGame.objects.filter(tournament=tournament, kind="bye")
    assert not byes.filter(home__in=pair.teams, round__gt=1).exists()
    both = TournamentGame.objects.get(tournament=tournament, round=3, table=pair.table)
    assert both.kind == "withdrawn" and both.result is None and both.status == "confirmed"
    # After round 1 they win nothing more: no bye, no forfeit from each other.
    rows = {r.team.number: r for r in tournament_state(tournament).standings}
    first = [r for r in counted_results(tournament) if r.round == 1]
    for team in pair.teams:
        assert rows[team].won == sum(1 for r in first if r.winner == team)


def test_a_league_with_an_absence_a_substitute_and_a_withdrawal_counts_each_game_for_its_team(
    club: Club,
) -> None:
    """Three weeks of six teams. Week 2: Kings do not come (taken off: the teams after them
    play under the next number up that night) and Jacks field a substitute; week 3: Tens
    withdraw after round 1. The league table equals a recount made here from the stored games,
    each side named by the team's name on its night: every game is credited to the team that
    played it (taking Kings off once credited week 2's games to the wrong teams)."""
    names = ["Aces", "Kings", "Queens", "Jacks", "Tens", "Nines"]
    league = services.league_create(club=club, name="Spring league")
    settings = {"rotation": "round_robin", "rounds": 3}
    weeks = []
    for week in (1, 2, 3):
        roster = [{"name": n, "player_one": f"{n} A", "player_two": f"{n} B"} for n in names]
        tournament = services.tournament_create(
            club=club, name=f"Week {week}", settings=settings,
            teams=roster if week == 1 else (), league=league,
        )  # fmt: skip
        if week == 2:
            services.team_remove(tournament=tournament, number=2)  # Kings: absent
            jacks = tournament.teams.get(name="Jacks")
            substitute = {"name": "Jacks", "player_one": "Sam Sub", "player_two": "Jacks B"}
            services.team_change(tournament=tournament, number=jacks.number, data=substitute)
        for number in tournament.teams.values_list("number", flat=True):
            services.team_arrive(tournament=tournament, number=number)
        services.tournament_start(tournament=tournament, seed=week)
        tournament.refresh_from_db()
        for round_ in (1, 2, 3):
            play_round(tournament, home_wins=(week + round_) % 2 == 0)
            if week == 3 and round_ == 1:
                tens = tournament.teams.get(name="Tens").number
                team_games.team_withdraw(tournament=tournament, number=tens, reason="gone home")
            if round_ < 3:
                services.round_next(tournament=tournament)
                tournament.refresh_from_db()
        team_games.tournament_finish(tournament=tournament)
        weeks.append(tournament)
    # The week 2 rows say who was absent and who stood in, and keep every league number.
    second = {t.name: t for t in weeks[1].teams.all()}
    assert "Kings" not in second and second["Jacks"].player_one == "Sam Sub"
    assert weeks[2].teams.get(name="Jacks").player_one == "Jacks A"  # back to the regular
    assert {t.name: t.league_team for t in second.values()} == {
        n: names.index(n) + 1 for n in names if n != "Kings"
    }

    # The recount: each week's stored games, sides renamed to the league's week-1 numbers
    # by name (not by any stored league number), ranked by the engine on its own.
    by_name = {n: i for i, n in enumerate(names, start=1)}
    results = []
    for week in weeks:
        name_of = dict(week.teams.values_list("number", "name"))
        for game in TournamentGame.objects.filter(tournament=week, status="confirmed"):
            result = GameResult.from_dict(game.result)

            def renamed(number: int | None, name_of: dict[int, str] = name_of) -> int | None:
                return None if number is None else by_name[name_of[number]]

            results.append(
                GameResult.from_dict(
                    result.to_dict()
                    | {"home": renamed(result.home), "away": renamed(result.away)}
                    | {"winner": renamed(result.winner)}
                )
            )
    engine = TeamTournament(
        TournamentSettings.from_dict(weeks[0].settings), [Team(i, n) for n, i in by_name.items()]
    )
    recount = engine.standings(results)
    table = league_standings(league)

    def lines(rows: Any) -> list[tuple[Any, ...]]:
        figures = ("played", "won", "lost", "points_for", "points_against", "byes", "forfeits")
        return [(r.rank, r.team.name, *(getattr(r, f) for f in figures)) for r in rows]

    assert lines(table) == lines(recount)
    kings = next(r for r in table if r.team.name == "Kings")
    assert kings.played == 6  # weeks 1 and 3 only (6 teams, 3 rounds each)
    notes = week_notes(league, weeks)
    assert notes[weeks[0].pk] == "" and notes[weeks[2].pk] == ""
    assert notes[weeks[1].pk] == "absent: Kings; Jacks with Sam Sub standing in"


def test_the_playoff_at_the_tablets_best_of_three_with_a_third_place_game(club: Club) -> None:
    """The top four: the semi-finals at tables 1 and 2, then the final at table 1 and the
    third-place game at table 2, each the best of three, entered at the tablets (one team
    enters, the other confirms) except one game the director enters after a dispute. The
    bracket follows the series: a match goes on only when a team has won two games."""
    tournament = drawn(club, playoff_third_place=True, playoff_best_of=3)
    for round_number in (1, 2, 3):
        play_round(tournament, home_wins=round_number != 2)
        if round_number < 3:
            services.round_next(tournament=tournament)
            tournament.refresh_from_db()
    seeds = [r.team.number for r in tournament_state(tournament).standings]
    team_playoff.playoff_start(tournament=tournament)
    tournament.refresh_from_db()
    names = dict(tournament.teams.values_list("number", "name"))

    def game(table: int, home: int, away: int) -> None:
        score = {"home_points": home, "away_points": away}
        team_tablets.tablet_enter(tournament=tournament, table=table, side="home", score=score)
        team_tablets.tablet_confirm(tournament=tournament, table=table, side="away")
        tournament.refresh_from_db()

    state = table_state(tournament, 1)
    assert (state["home"]["number"], state["away"]["number"]) == (seeds[0], seeds[3])
    assert state["match"] == "Semi-finals, match 1: game 1 of up to 3: level 0-0"
    game(1, 7, 2)  # seed 1 leads
    state = table_state(tournament, 1)
    assert state["game"] is None
    assert state["match"].endswith(f"game 2 of up to 3: {names[seeds[0]]} lead 1-0")
    game(1, 3, 7)  # level
    bracket = Bracket.from_dict(tournament.bracket)
    assert bracket.match(1).winner is None
    game(1, 7, 0)  # seed 1 wins the series 2-1
    bracket = Bracket.from_dict(tournament.bracket)
    assert bracket.match(1).winner == seeds[0]
    # Table 1 has nothing ready until the other semi-final is over.
    assert table_state(tournament, 1)["match"] == "" and table_state(tournament, 1)["home"] is None
    with pytest.raises(TeamsRefused, match="No playoff match is to be played at table 1 now"):
        team_tablets.tablet_enter(
            tournament=tournament, table=1, side="home",
            score={"home_points": 7, "away_points": 0},
        )  # fmt: skip
    # Table 2: seed 3 wins game 1; game 2 is disputed and the director enters it.
    game(2, 2, 7)
    team_tablets.tablet_enter(
        tournament=tournament, table=2, side="away", score={"home_points": 1, "away_points": 7}
    )
    team_tablets.tablet_dispute(tournament=tournament, table=2, side="home", note="we had 3")
    team_playoff.playoff_enter(
        tournament=tournament, match=2, score={"home_points": 3, "away_points": 7}
    )
    tournament.refresh_from_db()
    bracket = Bracket.from_dict(tournament.bracket)
    assert bracket.match(2).winner == seeds[2]
    rows = TournamentGame.objects.filter(tournament=tournament, table=2).exclude(match="")
    assert sorted(rows.values_list("match", "status")) == [("2", "confirmed"), ("2.2", "confirmed")]
    # The final at table 1, the third-place game at table 2, both ready at once.
    assert table_state(tournament, 1)["match"].startswith("Final, match 3: game 1 of up to 3")
    assert table_state(tournament, 2)["match"].startswith("Third-place game: game 1")
    game(1, 7, 1)
    game(1, 7, 4)
    game(2, 0, 7)
    game(2, 6, 7)
    bracket = Bracket.from_dict(tournament.bracket)
    assert (bracket.champion, bracket.match(4).winner) == (seeds[0], seeds[1])
    # Playoff games never count in the standings.
    assert [r.team.number for r in tournament_state(tournament).standings] == seeds
    team_games.tournament_finish(tournament=tournament)
    audits = list(
        TournamentAudit.objects.filter(action="playoff-winner")
        .order_by("id")
        .values_list("target", flat=True)
    )
    assert audits == ["match 1", "match 2", "match 3", "match 4"]


def test_a_phone_shows_the_standings_of_finished_rounds_only_and_where_its_teams_go(
    club: Club,
) -> None:
    """Card secrecy: while any table still plays round 1 no phone shows standings; once all
    have finished, every phone shows them (a recomputation of round 1's games). When round 2
    is drawn, each table's phone says where last round's teams play."""
    tournament = drawn(club)
    first = round_of(tournament, 1)
    assert first is not None
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 2}
    )
    for table in (1, 2, 3):
        state = table_state(tournament, table)
        assert (state["standings_round"], state["standings"], state["moves"]) == (0, [], [])
    for table in (2, 3):
        team_games.game_enter(
            tournament=tournament, table=table, score={"home_points": 3, "away_points": 7}
        )
    state = table_state(tournament, 1)
    names = dict(tournament.teams.values_list("number", "name"))
    again = TeamTournament(
        TournamentSettings.from_dict(tournament.settings),
        [Team(t.number, t.name) for t in tournament.teams.all()],
    ).standings(counted_results(tournament))
    assert state["standings_round"] == 1
    assert [(r["name"], r["won"], r["points"]) for r in state["standings"]] == [
        (r.team.name, r.won, r.points_for) for r in again
    ]
    services.round_next(tournament=tournament)
    tournament.refresh_from_db()
    second = round_of(tournament, 2)
    assert second is not None
    where = {team: p for p in second.tables for team in p.teams}
    for pairing in first.tables:
        moves = table_state(tournament, pairing.table)["moves"]
        expected = []
        for team in pairing.teams:
            now = where[team]
            other = now.away if now.home == team else now.home
            expected.append({"team": names[team], "table": now.table, "opponent": names[other]})
        assert moves == expected
    # Round 2 under way: still round 1's standings only.
    team_games.game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 0}
    )
    assert table_state(tournament, 2)["standings_round"] == 1


def test_a_team_that_withdraws_leaves_the_league_its_games_standing(club: Club) -> None:
    """Week 1: Tens withdraw after round 1 (their round-1 game stands, round 2 leaves them
    out). Week 2 is made without them, the others under their league numbers; the league
    table, Tens included with their one game, equals a recount from the stored games."""
    names = ["Aces", "Kings", "Queens", "Jacks", "Tens"]
    league = services.league_create(club=club, name="Autumn league")
    settings = {"rotation": "swiss", "rounds": 2}
    first = services.tournament_create(
        club=club, name="Week 1", settings=settings, league=league,
        teams=[{"name": n} for n in names],
    )  # fmt: skip
    for number in range(1, 6):
        services.team_arrive(tournament=first, number=number)
    services.tournament_start(tournament=first, seed=2)
    first.refresh_from_db()
    play_round(first)
    team_games.team_withdraw(tournament=first, number=5, reason="moved away")
    services.round_next(tournament=first)
    first.refresh_from_db()
    assert 5 not in round_of(first, 2).teams()  # type: ignore[union-attr]
    play_round(first)
    team_games.tournament_finish(tournament=first)
    second = services.tournament_create(club=club, name="Week 2", settings=settings, league=league)
    assert list(second.teams.values_list("number", "name", "league_team")) == [
        (1, "Aces", 1), (2, "Kings", 2), (3, "Queens", 3), (4, "Jacks", 4),
    ]  # fmt: skip
    for number in range(1, 5):
        services.team_arrive(tournament=second, number=number)
    services.tournament_start(tournament=second, seed=3)
    second.refresh_from_db()
    play_round(second, home_wins=False)
    services.round_next(tournament=second)
    second.refresh_from_db()
    play_round(second)
    team_games.tournament_finish(tournament=second)
    results = [
        GameResult.from_dict(g.result)  # type: ignore[arg-type]
        for g in TournamentGame.objects.filter(tournament__league=league, status="confirmed")
    ]
    engine = TeamTournament(
        TournamentSettings.from_dict(settings), [Team(n, names[n - 1]) for n in range(1, 6)]
    )
    recount = [
        (r.rank, r.team.name, r.played, r.won, r.points_for) for r in engine.standings(results)
    ]
    table = league_standings(league)
    assert [(r.rank, r.team.name, r.played, r.won, r.points_for) for r in table] == recount
    tens = next(r for r in table if r.team.name == "Tens")
    assert tens.played == 1


def test_a_tie_for_a_place_is_played_off_in_one_game_once_the_rounds_are_over(
    club: Club,
) -> None:
    """Four teams, one round, home teams winning 7-3: the two winners share place 1 and the
    two losers place 3. Before the rounds are over, between teams not tied, or with the
    setting off, the tie's game is refused and nothing changes; played, it ranks the two."""
    tournament = services.tournament_create(
        club=club, name="Ties", teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
        settings={"rotation": "swiss", "rounds": 1, "keys": ["wins", "points"],
                  "tie_games": True},
    )  # fmt: skip
    for number in range(1, 5):
        services.team_arrive(tournament=tournament, number=number)
    services.tournament_start(tournament=tournament, seed=4)
    tournament.refresh_from_db()
    drawn_round = round_of(tournament, 1)
    assert drawn_round is not None
    winners = [p.home for p in drawn_round.tables]
    losers = [p.away for p in drawn_round.tables]
    score = {"home_points": 7, "away_points": 3}
    with pytest.raises(TeamsRefused, match="once the rounds are over"):
        team_playoff.tie_game_enter(tournament=tournament, teams=tuple(winners), score=score)
    play_round(tournament)
    with pytest.raises(TeamsRefused, match=r"are not tied for a place"):
        team_playoff.tie_game_enter(
            tournament=tournament, teams=(winners[0], losers[0]), score=score
        )
    with pytest.raises(TeamsRefused, match=r"The tie's game: 7 to 9: .* reached 7 and"):
        team_playoff.tie_game_enter(
            tournament=tournament, teams=tuple(winners), score={"home_points": 7, "away_points": 9}
        )
    assert not TournamentGame.objects.filter(tournament=tournament, match__startswith="tie-")
    before = [(r.rank, r.team.number) for r in tournament_state(tournament).standings]
    team_playoff.tie_game_enter(
        tournament=tournament, teams=(winners[0], winners[1]),
        score={"home_points": 2, "away_points": 7},
    )  # fmt: skip
    rows = tournament_state(tournament).standings
    assert [(r.rank, r.team.number) for r in rows][:2] == [(1, winners[1]), (2, winners[0])]
    assert rows[1].decided_by == "play-off game"
    # Its figures never count: the points and wins are as before the tie's game.
    assert sorted((r.team.number, r.won, r.points_for) for r in rows) == sorted(
        (t, 1 if t in winners else 0, 7 if t in winners else 3) for t in range(1, 5)
    )
    assert [n for _, n in before][2:] == [n for _, n in [(r.rank, r.team.number) for r in rows]][2:]
    assert "then a game between two teams still level" in tournament_state(tournament).tie_break
    off = drawn(club)
    with pytest.raises(TeamsRefused, match="does not play ties off"):
        team_playoff.tie_game_enter(tournament=off, teams=(1, 2), score=score)
