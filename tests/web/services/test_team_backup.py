"""Bid Whist team tournaments and leagues in the backup and in their own JSON: a league of two
weeks (week 1 finished and published after a playoff played through the services, week 2
running with a forfeit, a withdrawal, a tablet game waiting and a disputed one), a league
without a week yet and a draft tournament on its own are written, deleted and restored with
every row as it was and the same standings and bracket; a tournament already here, or its
league's week, is refused; damaged documents are refused by name and change nothing; a backup
from before tournaments were in the format still restores."""

from __future__ import annotations

import copy
import datetime as dt
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models

from engine.teams import Bracket
from tests.web.services.test_backup import played_event, rows_of
from tournaments.drives.models import Drive
from tournaments.events.models import Event, Result
from tournaments.files import backup
from tournaments.files.exports import event_import
from tournaments.kernel.models import Club
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)
from tournaments.teams.selectors.room import playoff_view, table_state
from tournaments.teams.selectors.teams import league_standings, round_of, standings_of
from tournaments.teams.services import games as team_games
from tournaments.teams.services import playoff as team_playoff
from tournaments.teams.services import tablets as team_tablets
from tournaments.teams.services import teams as services

TEAMS = [
    {"name": "Aces", "city": "Detroit", "player_one": "Ann Archer", "player_two": "Bo Bryce"},
    {"name": "Kings", "city": "Detroit", "player_one": "Zoë Ångström"},
    {"name": "Queens", "city": "Chicago"},
    {"name": "Jacks", "city": "Chicago", "player_one": "Dan O'Neill"},
    {"name": "Jokers", "city": "Atlanta"},
    {"name": "Books & Co", "city": "Atlanta"},
    {"name": "Bostons", "city": ""},
]
#: Both teams' points at the end of a game to 7, home winning.
HOME_WINS = {"home_points": 7, "away_points": 3, "home_hands": 4, "away_hands": 2}
AWAY_WINS = {"home_points": 2, "away_points": 7}
#: Hands as the Bid Whist rules read them (N or S declaring is home): home reaches 8.
HANDS = [
    {"declarer": "N", "bid": 4, "kind": "uptown", "books": 11, "trumps": "S"},
    {"declarer": "E", "bid": 3, "kind": "uptown", "books": 7, "trumps": "H"},
    {"declarer": "S", "bid": 3, "kind": "uptown", "books": 9, "trumps": "D"},
]
TEAM_MODELS: tuple[type[models.Model], ...] = (
    League,
    Tournament,
    TournamentTeam,
    TournamentRound,
    TournamentGame,
    TournamentTableAccess,
    TournamentAudit,
)


# -- tournaments in every state, through the services ----------------------------------------


def _all_here(tournament: Tournament) -> None:
    for number in range(1, tournament.teams.count() + 1):
        services.team_arrive(
            tournament=tournament, number=number, paid_cents=2_000, in_pot=number % 2 == 1
        )


def _play_the_round(tournament: Tournament, director: User, *, first: str = "hands") -> None:
    """Every table of the round being played: the first from its hands (or the tablets'
    entry and confirmation), the others from their score sheets."""
    drawn = round_of(tournament, tournament.round)
    assert drawn is not None
    for pairing in drawn.tables:
        if pairing.table == 1 and first == "hands":
            team_games.game_enter(tournament=tournament, table=1, hands=HANDS, user=director)
        elif pairing.table == 1:
            team_tablets.tablet_enter(tournament=tournament, table=1, side="away", score=AWAY_WINS)
            team_tablets.tablet_confirm(tournament=tournament, table=1, side="home")
        else:
            score = HOME_WINS if pairing.table % 2 else AWAY_WINS
            team_games.game_enter(
                tournament=tournament, table=pairing.table, score=score, user=director
            )


def week_one(club: Club, director: User, league: League) -> Tournament:
    """King of the hill, 2 rounds (7 teams: a bye each round), a game corrected, the playoff
    of 4 seeded and played to its champion, then finished and published."""
    tournament = services.tournament_create(
        club=club,
        name="Winter league, week 1",
        settings={"rotation": "ladder", "rounds": 2, "playoff": 4, "forfeit_points": [7, 2]},
        teams=TEAMS,
        date=dt.date(2026, 12, 1),
        league=league,
        user=director,
    )
    _all_here(tournament)
    services.tournament_start(tournament=tournament, seed=41, user=director)
    tournament.refresh_from_db()
    _play_the_round(tournament, director)
    # A correction with a reason, as a director makes one.
    team_games.game_enter(
        tournament=tournament, table=2, score=AWAY_WINS, user=director, reason="sheet misread"
    )
    services.round_next(tournament=tournament, user=director)
    tournament.refresh_from_db()
    _play_the_round(tournament, director, first="tablets")
    team_playoff.playoff_start(tournament=tournament, user=director)
    tournament.refresh_from_db()
    for match in (1, 2, 3):
        score = AWAY_WINS if match == 2 else HOME_WINS
        team_playoff.playoff_enter(tournament=tournament, match=match, score=score, user=director)
        tournament.refresh_from_db()
    team_games.tournament_finish(tournament=tournament, user=director)
    team_games.tournament_publish(tournament=tournament, user=director)
    return Tournament.objects.get(pk=tournament.pk)


def week_two(club: Club, director: User, league: League) -> Tournament:
    """A fixed schedule (round robin, 3 rounds), its teams copied from week 1: in round 1 a
    late team forfeits, a team withdraws, a game is entered; in round 2 the withdrawn team's
    opponents win by the withdrawal, one table's game waits for the other team's tablet and
    another's is disputed. Live on the public pages."""
    tournament = services.tournament_create(
        club=club,
        name="Winter league, week 2",
        settings={"rotation": "round_robin", "rounds": 3, "playoff": 0},
        date=dt.date(2026, 12, 8),
        league=league,
        user=director,
    )
    assert tournament.week == 2 and tournament.teams.count() == len(TEAMS)
    _all_here(tournament)
    services.tournament_start(tournament=tournament, seed=5, user=director)
    tournament.refresh_from_db()
    first = round_of(tournament, 1)
    assert first is not None and len(first.tables) == 3 and first.byes
    started = tournament.round_started_at
    assert started is not None
    team_games.game_forfeit(
        tournament=tournament,
        table=1,
        late=first.tables[0].away,
        user=director,
        now=started + dt.timedelta(minutes=11),
    )
    gone = first.tables[1].home
    team_games.team_withdraw(tournament=tournament, number=gone, user=director, reason="flu")
    team_games.game_enter(tournament=tournament, table=3, score=HOME_WINS, user=director)
    services.round_next(tournament=tournament, user=director)
    tournament.refresh_from_db()
    second = round_of(tournament, 2)
    assert second is not None
    open_tables = [
        p.table
        for p in second.tables
        if not TournamentGame.objects.filter(tournament=tournament, round=2, table=p.table).exists()
    ]
    assert len(open_tables) >= 2
    team_tablets.tablet_enter(
        tournament=tournament, table=open_tables[0], side="home", score=HOME_WINS
    )
    team_tablets.tablet_enter(tournament=tournament, table=open_tables[1], side="away", hands=HANDS)
    team_tablets.tablet_dispute(
        tournament=tournament, table=open_tables[1], side="home", note="we had 5 books"
    )
    for table in open_tables[2:]:
        team_games.game_enter(tournament=tournament, table=table, score=AWAY_WINS)
    team_games.tournament_live(tournament=tournament, live=True, user=director)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def league(club: Club, director: User) -> League:
    return services.league_create(club=club, name="Winter league", user=director)


@pytest.fixture
def tournaments(club: Club, director: User, league: League) -> list[Tournament]:
    """The league's two weeks, a league without a week yet and a draft on its own."""
    services.league_create(club=club, name="Summer league", user=director)
    draft = services.tournament_create(
        club=club,
        name="Friday pairs",
        settings={"rotation": "swiss", "rounds": 4},
        teams=TEAMS[:3],
        date=dt.date(2026, 12, 11),
    )
    return [week_one(club, director, league), week_two(club, director, league), draft]


# -- reading them back ----------------------------------------------------------------------


def team_rows(*, ids: bool = True) -> dict[str, list[dict[str, Any]]]:
    """Every row of every league and tournament, column by column, users by username and the
    club by its web address; without `ids`, every id and link by id left out."""
    names = dict(User.objects.values_list("pk", "username"))
    slugs = dict(Club.objects.values_list("pk", "slug"))
    leagues = dict(League.objects.values_list("pk", "name"))
    out: dict[str, list[dict[str, Any]]] = {}
    for model in TEAM_MODELS:
        rows = []
        for row in model._default_manager.order_by("pk").values():
            for key in ("created_by_id", "user_id"):
                if row.get(key) is not None:
                    row[key] = names[row[key]]
            if "club_id" in row:
                row["club_id"] = slugs[row["club_id"]]
            if row.get("league_id") is not None:
                row["league_id"] = leagues[row["league_id"]]
            rows.append({k: v for k, v in row.items() if ids or k not in ("id", "tournament_id")})
        if not ids:
            rows.sort(key=lambda r: json.dumps(r, sort_keys=True, default=str))
        out[model.__name__] = rows
    return out


def figures(tournaments: list[Tournament]) -> dict[str, Any]:
    """What the pages show: each tournament's standings, bracket and tablets, the league's
    table through week 1 and through week 2."""
    out: dict[str, Any] = {}
    for t in tournaments:
        t = Tournament.objects.get(name=t.name, date=t.date)
        drawn = round_of(t, t.round) if t.round else None
        tables = [] if drawn is None else [p.table for p in drawn.tables]
        out[t.name] = (
            standings_of(t),
            Bracket.from_dict(t.bracket).champion if t.bracket else None,
            playoff_view(t),
            [{**table_state(t, n), "server_time": None} for n in tables],
        )
    league = League.objects.get(name="Winter league")
    out["league"] = (league_standings(league, through_week=1), league_standings(league))
    return out


def delete_everything() -> None:
    Tournament.objects.all().delete()
    League.objects.all().delete()
    Drive.objects.all().delete()
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()


def counts() -> dict[str, int]:
    every: tuple[type[models.Model], ...] = (User, Club, *TEAM_MODELS)
    return {m.__name__: m._default_manager.count() for m in every}


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def document_of(tournament: Tournament) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(backup.dumps(backup.tournament_document(tournament)))
    return document


# -- the document ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_tournament_document_has_every_field_it_says_it_carries(
    tournaments: list[Tournament],
) -> None:
    one, two, _ = tournaments
    doc = document_of(two)
    assert doc["format"] == "clubwhist-tournament" and doc["version"] == 2
    assert set(backup.FIELDS[League]) == set(doc["league"]) and doc["league"]["created_by"] == "td"
    assert set(backup.FIELDS[Tournament]) == set(doc["tournament"])
    assert doc["tournament"]["week"] == 2 and doc["club"]["slug"] == two.club.slug
    for key, model in backup.TOURNAMENT_CHILDREN:
        assert doc[key], key
        for row in doc[key]:
            assert set(backup.FIELDS[model]) == set(row), model.__name__
    kinds = {(g["kind"], g["status"]) for g in doc["games"]}
    assert {
        ("forfeit", "confirmed"),
        ("withdrawn", "confirmed"),
        ("bye", "confirmed"),
        ("played", "entered"),
        ("played", "disputed"),
    } <= kinds
    assert any(t["withdrawn_after"] == 1 for t in doc["teams"])
    playoff = document_of(one)
    assert playoff["tournament"]["bracket"]["winners"] and playoff["tournament"]["status"] == (
        "published"
    )
    assert sum(g["match"].isdigit() for g in playoff["games"]) == 3
    assert document_of(tournaments[2])["league"] is None
    for model in TEAM_MODELS:
        assert model not in backup.OMITTED_MODELS


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_league_and_its_weeks_restore_into_an_empty_database_row_for_row(
    club: Club, director: User, tournaments: list[Tournament], tmp_path: Path
) -> None:
    before = team_rows()
    shown = figures(tournaments)
    assert shown["Winter league, week 1"][1] is not None and shown["Winter league, week 1"][2]
    out = tmp_path / "night.json.gz"
    run("backup", "-o", str(out))
    delete_everything()
    assert counts() == dict.fromkeys(counts(), 0)

    said = run("restore", str(out))

    assert said.count("Restored tournament") == 3
    assert "Restored 2 league(s): Winter league (test-whist-club), Summer league (test-" in said
    assert team_rows() == before  # ids kept too
    assert figures(tournaments) == shown
    # Ids were kept, and new rows still get fresh ones (PostgreSQL's sequences moved on).
    highest = {m: m._default_manager.order_by("-pk")[0].pk for m in TEAM_MODELS}
    restored_club = Club.objects.get()
    later = services.tournament_create(
        club=restored_club,
        name="Later",
        settings={"rotation": "swiss", "rounds": 1},
        teams=TEAMS[:2],
        league=services.league_create(club=restored_club, name="Later league"),
    )
    services.team_add(tournament=later, data={"name": "Third"})
    assert later.league is not None and later.league.pk > highest[League]
    assert later.pk > highest[Tournament]
    assert later.teams.order_by("pk")[0].pk > highest[TournamentTeam]
    # The running week carries on where it stopped: the waiting game is confirmed at its
    # tablet, the disputed one settled by the director, and the round is over.
    two = Tournament.objects.get(name="Winter league, week 2")
    waiting = TournamentGame.objects.get(tournament=two, round=2, status="entered")
    side = "away" if waiting.entered_by == "home" else "home"
    team_tablets.tablet_confirm(tournament=two, table=waiting.table, side=side)
    disputed = TournamentGame.objects.get(tournament=two, round=2, status="disputed")
    team_games.game_enter(tournament=two, table=disputed.table, score=HOME_WINS)
    services.round_next(tournament=two)
    assert Tournament.objects.get(pk=two.pk).round == 3


@pytest.mark.django_db
def test_each_tournament_document_restores_into_the_club_and_league_already_here(
    club: Club, tournaments: list[Tournament]
) -> None:
    documents = [document_of(t) for t in tournaments]
    before = team_rows()
    shown = figures(tournaments)
    Tournament.objects.all().delete()
    League.objects.filter(name="Winter league").delete()

    reports = [backup.restore(document) for document in documents]

    assert [r.of("tournaments")[0].tournament.pk for r in reports] == [t.pk for t in tournaments]
    assert reports[0].of("leagues") == ["Winter league (test-whist-club)"]  # made by week 1
    assert not reports[1].of("leagues") and not any(
        r.of("clubs") for r in reports
    )  # matched by week 2
    assert "week 2 of the league 'Winter league'" in reports[1].lines()[0]
    assert team_rows() == before
    assert figures(tournaments) == shown


@pytest.mark.django_db
def test_a_tournament_whose_ids_are_taken_comes_back_under_new_ids_row_for_row(
    club: Club, tournaments: list[Tournament]
) -> None:
    one, two = tournaments[:2]
    document = document_of(two)
    before, shown = team_rows(ids=False), figures(tournaments)
    Tournament.objects.filter(pk=two.pk).delete()
    document["tournament"]["id"] = one.pk  # taken here: every row gets a new id

    restored = backup.restore(document).of("tournaments")[0]

    assert restored.tournament.pk not in (one.pk, two.pk)
    assert f"(its id {one.pk} is taken here)" in restored.describe()
    assert team_rows(ids=False) == before
    assert figures(tournaments) == shown


@pytest.mark.django_db
def test_a_tournament_or_its_leagues_week_already_here_is_refused_naming_it(
    club: Club, tournaments: list[Tournament]
) -> None:
    two = tournaments[1]
    document = document_of(two)
    before = counts()
    with pytest.raises(
        backup.RestoreRefused,
        match=f"already holds the tournament 'Winter league, week 2' .* \\(tournament {two.pk}",
    ):
        backup.restore(document)
    copied = copy.deepcopy(document)
    copied["tournament"]["name"] = "A copy"
    with pytest.raises(backup.RestoreRefused, match="already used here by tournament"):
        backup.restore(copied)
    for link in copied["table_access"]:
        link["token"] = link["token"][::-1]
    with pytest.raises(
        backup.RestoreRefused,
        match=f"league 'Winter league' here already has a week 2 \\('Winter league, week 2', "
        f"tournament {two.pk}\\)",
    ):
        backup.restore(copied)
    assert counts() == before
    # A dry run of what can be restored checks everything and changes nothing.
    Tournament.objects.filter(pk=two.pk).delete()
    before = counts()
    report = backup.restore(document, dry_run=True)
    assert report.dry_run and "Would restore tournament" in " ".join(report.lines())
    assert counts() == before


# -- refusals -------------------------------------------------------------------------------


def _refused(document: Any, match: str) -> None:
    before = counts()
    with pytest.raises(backup.RestoreRefused, match=match):
        backup.restore(document)
    assert counts() == before


def _edited(source: dict[str, Any], change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(source)
    change(doc)
    return doc


@pytest.mark.django_db
def test_damaged_tournament_documents_are_refused_by_name_and_change_nothing(
    tournaments: list[Tournament],
) -> None:
    one, two = document_of(tournaments[0]), document_of(tournaments[1])
    delete_everything()

    def seat_twice(doc: dict[str, Any]) -> None:
        tables = doc["rounds"][0]["tables"]["tables"]
        tables[0][2] = tables[1][1]

    _refused(
        _edited(two, seat_twice),
        r"The tournament's round 1 is not one the tournament can have: round 1: team \d+ is "
        r"at table 2 and table 1",
    )
    _refused(
        _edited(two, lambda d: d["tournament"]["settings"].update(rotation="carousel")),
        "The tournament: its settings are refused: rotation: one of round_robin, .* not 'carousel'",
    )
    played = next(
        i for i, g in enumerate(two["games"]) if g["match"] == "" and g["kind"] == "played"
    )
    game = two["games"][played]
    stranger = next(n for n in range(1, 8) if n not in (game["home"], game["away"]))

    def name_a_stranger(doc: dict[str, Any]) -> None:
        doc["games"][played]["result"]["winner"] = stranger

    _refused(
        _edited(two, name_a_stranger),
        f"The tournament's game {played + 1} \\(round {game['round']}, table {game['table']}\\): "
        f"its result names team {stranger}, who is not in that game",
    )

    def wrong_score(doc: dict[str, Any]) -> None:
        doc["games"][played]["result"]["points"] = [7, 6]

    _refused(_edited(two, wrong_score), "its result is not what its .* make: points")
    _refused(_edited(two, lambda d: d.update(version=3)), "reads version 1, 2 only")
    _refused(
        _edited(two, lambda d: d["teams"][0].update(colour="blue")),
        "'colour', which version 2 of the format does not have",
    )
    _refused(
        _edited(two, lambda d: d["rounds"].pop()),
        "at round 2, so rounds 1-2 are drawn; the document has rounds 1",
    )
    _refused(
        _edited(two, lambda d: d["teams"][1].update(name=d["teams"][0]["name"].upper())),
        "teams 1 and 2 are both called",
    )
    _refused(
        _edited(one, lambda d: d["tournament"]["bracket"]["winners"].update({"3": 99})),
        "The tournament's bracket is refused: match 3: team 99 is not in it",
    )
    _refused(
        _edited(one, lambda d: d["games"].pop()),
        "bracket says match 3 was won by team \\d+, but the document has no game for it",
    )
    _refused(
        _edited(two, lambda d: d["table_access"][0].update(token="no spaces here")),
        "is not a tablet token",
    )
    _refused(
        _edited(two, lambda d: d["audit"][0].update(user=7)),
        "The tournament's audit entry 1: the user should be a username, not 7",
    )
    # In a backup, the refusal names the tournament's place in it.
    whole = {
        "format": "clubwhist-backup",
        "version": 3,
        "created_at": "2026-12-09T21:40:00+00:00",
        "users": [],
        "clubs": [two["club"]],
        "events": [],
        "drives": [],
        "leagues": [{"club": two["club"]["slug"], "league": two["league"]}],
        "tournaments": [_edited(two, name_a_stranger)],
    }
    _refused(whole, "Tournament 1 of the backup \\('Winter league, week 2'\\): The tournament's")
    assert counts() == dict.fromkeys(counts(), 0)


@pytest.mark.django_db
def test_a_tournament_json_given_to_the_events_own_reader_is_refused_pointing_to_the_import(
    club: Club, tournaments: list[Tournament]
) -> None:
    text = backup.dumps(backup.tournament_document(tournaments[0]))
    before = counts()
    with pytest.raises(
        backup.RestoreRefused, match="team tournament's JSON, not an event's: the import page"
    ):
        event_import(text=text, club=club)
    assert counts() == before


# -- older backups --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_backup_written_before_tournaments_were_in_it_still_restores(
    club: Club, director: User
) -> None:
    event = played_event(club, director, "classic", "mitchell", "finished")
    before = rows_of(event.pk)
    old = json.loads(backup.dumps(backup.backup_document()))
    assert old["version"] == 7 and old["tournaments"] == [] and old["leagues"] == []
    # What clubwhist wrote before tournaments were backed up: version 2, neither list.
    old["version"] = 2
    del old["tournaments"], old["leagues"]
    delete_everything()

    report = backup.restore(copy.deepcopy(old))

    assert [e.event.pk for e in report.of("events")] == [event.pk] and not report.of("tournaments")
    assert rows_of(event.pk) == before and Tournament.objects.count() == 0
    # A version 2 backup listing tournaments was edited: refused, not dropped without a word.
    delete_everything()
    old["tournaments"] = [{"format": "clubwhist-tournament"}]
    with pytest.raises(backup.RestoreRefused, match="version 2 of the format, which has no tour"):
        backup.restore(old)


@pytest.mark.django_db
def test_a_clubs_backup_takes_its_leagues_and_tournaments_and_chosen_events_take_none(
    club: Club, director: User, tournaments: list[Tournament]
) -> None:
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    theirs = services.tournament_create(
        club=other, name="Theirs", settings={"rotation": "swiss", "rounds": 1}
    )
    event = played_event(club, director, "classic", "mitchell", "finished")

    mine = backup.backup_document(clubs=[club])
    assert [d["tournament"]["id"] for d in mine["tournaments"]] == sorted(t.pk for t in tournaments)
    assert [e["league"]["name"] for e in mine["leagues"]] == ["Winter league", "Summer league"]
    assert [u["username"] for u in mine["users"]] == ["td"]
    assert backup.backup_document(events=[event])["tournaments"] == []
    chosen = backup.backup_document(tournaments=[theirs])
    assert [c["slug"] for c in chosen["clubs"]] == ["elsewhere"] and chosen["leagues"] == []
    whole = backup.backup_document()
    assert len(whole["tournaments"]) == 4 and len(whole["leagues"]) == 2


@pytest.mark.django_db
def test_the_backup_command_takes_one_tournament_with_its_league(
    tournaments: list[Tournament], tmp_path: Path
) -> None:
    out = tmp_path / "one.json"
    said = run("backup", "-o", str(out), "--tournament", str(tournaments[1].pk))
    assert "1 league, 1 tournament" in said and "0 events" in said
    data = json.loads(out.read_text())
    assert [t["tournament"]["week"] for t in data["tournaments"]] == [2]
    league = tournaments[1].league
    assert league is not None
    assert [entry["league"]["name"] for entry in data["leagues"]] == [league.name]
    with pytest.raises(CommandError, match="There is no tournament 9999"):
        run("backup", "-o", str(out), "--tournament", "9999")


@pytest.mark.django_db
def test_a_playoff_of_best_of_three_series_in_progress_restores_row_for_row(club: Club) -> None:
    """Semi-final 1 won 2-1, semi-final 2 at 1-0 with its second game waiting at the tablet
    for the other team: the document restores row for row, and a series game out of place
    is refused by name."""
    tournament = services.tournament_create(
        club=club, name="Series", teams=[{"name": n} for n in "ABCDEF"],
        settings={"rotation": "ladder", "rounds": 1, "playoff": 4, "playoff_best_of": 3,
                  "playoff_third_place": True},
    )  # fmt: skip
    _all_here(tournament)
    services.tournament_start(tournament=tournament, seed=3)
    tournament.refresh_from_db()
    for pairing in round_of(tournament, 1).tables:  # type: ignore[union-attr]
        team_games.game_enter(tournament=tournament, table=pairing.table, score=HOME_WINS)
    team_playoff.playoff_start(tournament=tournament)
    tournament.refresh_from_db()
    for score in (HOME_WINS, AWAY_WINS, HOME_WINS):
        team_playoff.playoff_enter(tournament=tournament, match=1, score=score)
    team_playoff.playoff_enter(tournament=tournament, match=2, score=AWAY_WINS)
    team_tablets.tablet_enter(tournament=tournament, table=2, side="home", score=HOME_WINS)
    tournament.refresh_from_db()
    document = document_of(tournament)
    assert sorted(g["match"] for g in document["games"] if g["match"][:1].isdigit()) == [
        "1", "1.2", "1.3", "2", "2.2",
    ]  # fmt: skip
    before, view = team_rows(ids=False), playoff_view(tournament)
    Tournament.objects.filter(pk=tournament.pk).delete()
    backup.restore(copy.deepcopy(document))
    assert team_rows(ids=False) == before
    assert playoff_view(Tournament.objects.get(name="Series")) == view
    Tournament.objects.filter(name="Series").delete()
    late = copy.deepcopy(document)
    for game in late["games"]:
        if game["match"] == "1.3":
            game["match"] = "1.4"
    with pytest.raises(
        backup.RestoreRefused, match=r"\(playoff match 1, game 4\): a playoff match is 3 game"
    ):
        backup.restore(late)


@pytest.mark.django_db
def test_a_tie_played_off_restores_and_a_tie_game_the_settings_do_not_allow_is_refused(
    club: Club,
) -> None:
    tournament = services.tournament_create(
        club=club, name="Ties", teams=[{"name": n} for n in "ABCD"],
        settings={"rotation": "swiss", "rounds": 1, "keys": ["wins", "points"],
                  "tie_games": True},
    )  # fmt: skip
    _all_here(tournament)
    services.tournament_start(tournament=tournament, seed=4)
    tournament.refresh_from_db()
    first = round_of(tournament, 1)
    assert first is not None
    for pairing in first.tables:
        team_games.game_enter(tournament=tournament, table=pairing.table, score=HOME_WINS)
    team_playoff.tie_game_enter(
        tournament=tournament, teams=(first.tables[0].home, first.tables[1].home), score=AWAY_WINS
    )
    team_games.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    document = document_of(tournament)
    before, order = team_rows(ids=False), [r.team.number for r in standings_of(tournament)]
    Tournament.objects.filter(pk=tournament.pk).delete()
    backup.restore(copy.deepcopy(document))
    assert team_rows(ids=False) == before
    assert [r.team.number for r in standings_of(Tournament.objects.get(name="Ties"))] == order
    Tournament.objects.filter(name="Ties").delete()
    document["tournament"]["settings"]["tie_games"] = False
    with pytest.raises(backup.RestoreRefused, match=r"played off\): the tournament's settings"):
        backup.restore(document)
