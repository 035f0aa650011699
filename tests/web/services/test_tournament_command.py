"""`manage.py tournament`: a Bid Whist team tournament from a JSON file, played from the command
line through the same services as the pages; a refusal is one line and changes nothing."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentTableAccess,
)
from tournaments.teams.selectors.teams import round_of, standings_of

pytestmark = pytest.mark.django_db

TEAMS = [
    {"name": "Aces", "city": "Detroit", "player_one": "Ann Lee", "player_two": "Bob Lee"},
    {"name": "Kings", "city": "Detroit"},
    {"name": "Queens", "city": "Chicago"},
    {"name": "Jacks", "city": "Chicago"},
]


def run(*args: object) -> str:
    out = io.StringIO()
    call_command("tournament", *[str(a) for a in args], stdout=out)
    return out.getvalue()


def spec(tmp_path: Path, name: str, **fields: Any) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"club": "Village Hall", "name": name, **fields}))
    return path


def changes(tournament: Tournament) -> tuple[Any, ...]:
    """What a refusal must leave alone: the row, its games, its audit trail."""
    tournament.refresh_from_db()
    games = list(TournamentGame.objects.filter(tournament=tournament).values_list("result"))
    present = list(tournament.teams.values_list("present", "paid_cents", "in_pot"))
    audits = TournamentAudit.objects.filter(tournament=tournament).count()
    return (tournament.status, tournament.round, tournament.version, games, present, audits)


def test_a_tournament_from_the_command_line(tmp_path: Path) -> None:
    settings = {"rotation": "swiss", "rounds": 2, "playoff": 2}
    created = run("create", spec(tmp_path, "Spring Bid Whist", settings=settings, teams=TEAMS))
    assert "Spring Bid Whist, 4 teams" in created
    tournament = Tournament.objects.get()
    assert str(tournament.pk) in run("list")

    # The door: several teams at once, what they paid, the pot; a refusal marks none of them.
    door = run("arrive", tournament.pk, 1, 2, "--paid", "12.50", "--pot")
    assert "1 Aces (Detroit; Ann Lee & Bob Lee): here, paid 12.50, in the pot" in door
    assert "Not here yet: 3 Queens, 4 Jacks" in door
    before = changes(tournament)
    with pytest.raises(CommandError, match=r"^There is no team 9: the teams are 1 to 4\.$"):
        run("arrive", tournament.pk, 3, 9)
    with pytest.raises(CommandError, match=r"Not here yet: 3 Queens, 4 Jacks\. Tick each team"):
        run("start", tournament.pk, "--seed", 5)
    with pytest.raises(CommandError, match="an amount in whole cents"):
        run("arrive", tournament.pk, 3, "--paid", "1.005")
    assert changes(tournament) == before
    run("arrive", tournament.pk, 3, 4)

    shown = run("start", tournament.pk, "--seed", 5)
    assert "round 1 of 2: 0 of 2 tables done" in shown
    first = round_of(tournament, 1)
    assert first is not None
    names = {n: team["name"] for n, team in enumerate(TEAMS, start=1)}
    for p in first.tables:
        assert f"table {p.table}: {names[p.home]} (NS) v {names[p.away]} (EW)" in shown
    links = run("links", tournament.pk).splitlines()
    tokens = TournamentTableAccess.objects.filter(tournament=tournament).order_by("table")
    assert links == [f"table {a.table}\thttp://127.0.0.1:8000/tt/{a.token}/" for a in tokens]

    # A score the rules cannot give, the next round before every table counts, a forfeit
    # inside the grace minutes: one line each, and nothing changed.
    run("enter", tournament.pk, 1, 7, 3)
    before = changes(tournament)
    # The refusal names the table's teams as its tablet shows them, not home and away.
    home2, away2 = names[first.tables[1].home], names[first.tables[1].away]
    with pytest.raises(
        CommandError, match=rf"^Table 2: 7 to 9: {home2} reached 7 and {away2} reached 7"
    ):
        run("enter", tournament.pk, 2, 7, 9)
    with pytest.raises(CommandError, match=r"^1 of 2 tables of round 1 have no confirmed game"):
        run("next", tournament.pk)
    with pytest.raises(CommandError, match="minutes of the 10 minutes' grace"):
        run("forfeit", tournament.pk, 2, first.tables[1].home)
    with pytest.raises(CommandError, match="already has a confirmed game: give a reason"):
        run("enter", tournament.pk, 1, 7, 4)
    assert changes(tournament) == before

    saved = run("enter", tournament.pk, 2, 5, 7, "--bostons", 0, 1)
    assert f"Round 1, table 2: {names[first.tables[1].home]} 5, " in saved
    assert "2 of 2 tables done" in saved
    corrected = run("enter", tournament.pk, 1, 7, 4, "--reason", "typo on the sheet")
    assert f"{names[first.tables[0].away]} 4 ({names[first.tables[0].home]} won)" in corrected
    assert "round 2 of 2" in run("next", tournament.pk)
    second = round_of(tournament, 2)
    assert second is not None
    run("enter", tournament.pk, 1, 7, 2)
    run("enter", tournament.pk, 2, -7, 3)  # driven to -7 in the hole: the away team won

    table = run("standings", tournament.pk)
    rows = standings_of(tournament)
    lines = table.splitlines()
    assert lines[0] == "Spring Bid Whist (running): standings so far, after round 2 of 2"
    assert lines[2].split()[:4] == ["1", rows[0].team.name, "2", "2"]
    for row in rows:
        line = next(line for line in lines if f" {row.team.name} " in line)
        assert f" {row.points_for} " in line and f" {row.points_against} " in line
        if row.decided_by:
            assert line.endswith(f"({row.decided_by})")
    assert any(row.decided_by for row in rows)
    assert lines[-1] == (
        "Ranked by games won, then points scored, then hands won, then Bostons, then head to head."
    )

    with pytest.raises(CommandError, match="Round 2 was the last of 2: seed the playoff"):
        run("next", tournament.pk)
    bracket = run("playoff", tournament.pk)
    final = f"Final, match 1: {rows[0].team.name} v {rows[1].team.name}"
    assert final in bracket
    with pytest.raises(CommandError, match="Give the match and both teams' points"):
        run("playoff", tournament.pk, 1, 7)
    assert f"{final} -- {rows[1].team.name} won" in run("playoff", tournament.pk, 1, 3, 7)
    finished = run("finish", tournament.pk)
    assert "(finished): standings final" in finished and f"{rows[1].team.name} won" in finished
    assert "(published)" in run("publish", tournament.pk)


def test_a_withdrawal_and_a_forfeit_after_the_grace(tmp_path: Path) -> None:
    settings = {"rotation": "round_robin", "rounds": 3, "grace_minutes": 5}
    run("create", spec(tmp_path, "Round robin", settings=settings, teams=TEAMS))
    tournament = Tournament.objects.get()
    run("arrive", tournament.pk, 1, 2, 3, 4)
    run("start", tournament.pk, "--seed", 1)
    first = round_of(tournament, 1)
    assert first is not None
    late = first.tables[0].away
    Tournament.objects.filter(pk=tournament.pk).update(
        round_started_at=tournament.rounds.get().drawn_at - dt.timedelta(minutes=6)
    )
    forfeit = run("forfeit", tournament.pk, 1, late)
    assert (
        "(forfeit: " in forfeit
        and f"Round 1, table 1: {TEAMS[first.tables[0].home - 1]['name']} 7, " in forfeit
    )
    gone = first.tables[1].home
    shown = run("withdraw", tournament.pk, gone, "--reason", "a player was taken ill")
    assert f"Team {gone} withdrew" in shown and "(a withdrawn team's game)" in shown
    assert f"withdrawn: {TEAMS[gone - 1]['name']}, after round 1" in shown
    # In a fixed schedule the withdrawn team's later opponents get the forfeit result.
    second = run("next", tournament.pk)
    assert "round 2 of 3: 1 of 2 tables done" in second
    table = run("standings", tournament.pk)
    assert "withdrew after round 1" in table


def test_a_league_of_two_weeks_through_week_1(tmp_path: Path) -> None:
    settings = {"rotation": "round_robin", "rounds": 1}
    two = TEAMS[:2]
    week_one = run(
        "create", spec(tmp_path, "Week 1", league="Winter League", settings=settings, teams=two)
    )
    league = League.objects.get()
    assert f"(league {league.pk}, Winter League, week 1)" in week_one
    assert "no week has been drawn yet" in run("league", league.pk)
    for week, (home, away) in ((1, (7, 1)), (2, (7, 5))):
        if week == 2:
            made = run(
                "create", spec(tmp_path, "Week 2", league="Winter League", settings=settings)
            )
            assert "week 2): Week 2, 2 teams" in made  # the league's teams, copied
        tournament = Tournament.objects.get(league=league, week=week)
        run("arrive", tournament.pk, 1, 2)
        run("start", tournament.pk, "--seed", 1)
        run("enter", tournament.pk, 1, home, away)
        run("finish", tournament.pk)
    through_one = run("league", league.pk, "--week", 1).splitlines()
    assert (
        through_one[0]
        == "Winter League: standings through week 1 (week 1 finished, week 2 finished)"
    )
    assert through_one[2].split() == ["1", "Aces", "1", "1", "0", "7", "1", "0", "0"]
    both = run("league", league.pk).splitlines()
    assert both[2].split() == ["1", "Aces", "2", "2", "0", "14", "6", "0", "0"]
    assert f"league {league.pk} Winter League, week 2" in run("list")
    with pytest.raises(CommandError, match=r"played weeks 1 to 2: not week 3"):
        run("league", league.pk, "--week", 3)


def test_a_bad_file_and_an_unknown_tournament_are_one_line(tmp_path: Path) -> None:
    bad = spec(tmp_path, "Bad", colour="red")
    with pytest.raises(CommandError, match="no field 'colour'"):
        run("create", bad)
    wrong = spec(tmp_path, "Wrong", settings={"rounds": 0}, league="Never made")
    with pytest.raises(CommandError, match=r"^rounds: a whole number from 1 to 60, not 0$"):
        run("create", wrong)
    assert not Tournament.objects.exists() and not League.objects.exists()
    with pytest.raises(CommandError, match="There is no tournament 999"):
        run("show", 999)
    run("create", spec(tmp_path, "Draft", teams=TEAMS))
    draft = Tournament.objects.get()
    with pytest.raises(CommandError, match="made at the draw"):
        run("links", draft.pk)
    assert "is a draft: the standings begin with the draw" in run("standings", draft.pk)
