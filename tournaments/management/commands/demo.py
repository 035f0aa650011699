"""`python manage.py demo [--json]`: the demo club, idempotent (run it as often as you like).

It makes a director login, a running Classic whist event with part of the evening played, a
Bid Whist event, a progressive whist drive three hands in (eleven players and a dummy, and a
late arrival who took the dummy's seat at hand 3), and a Bid Whist
team tournament of eight teams (Swiss, round 2 being played), all reproducible, so a new user
sees a real evening at once.
"""

import datetime as dt
import json
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandParser
from django.db import transaction
from django.utils import timezone

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.services import comings as drive_comings
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Event
from tournaments.events.services.events import (
    event_create,
    event_start,
    pairs_register,
)
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.members import member_add
from tournaments.kernel.models import Club, Member, PublicName
from tournaments.management.commands._oneline import OneLineCommand
from tournaments.seasons.models import Season, SeasonLine
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import (
    competition_add,
    competitions_recompute,
    season_create,
)
from tournaments.seasons.services.simulation import people, season_play
from tournaments.teams.models import League, Tournament
from tournaments.teams.selectors.teams import round_of
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as team_services

DEMO_CLUB = "Demo Whist Club"
DEMO_USERNAME = "director"
DEMO_PASSWORD = "whist-demo"

DEMO_EVENTS: list[dict[str, Any]] = [
    {
        "name": "Tuesday whist drive (demo)",
        "game": "classic",
        "movement_kind": "mitchell",
        "movement_params": {"tables": 7, "boards_per_round": 3},
        "rounds_played": 3,
        "seed": 2024,
    },
    {
        "name": "Bid Whist pairs (demo)",
        "game": "bidwhist",
        "movement_kind": "howell",
        "movement_params": {"tables": 4, "boards_per_round": 2},
        "rounds_played": 2,
        "seed": 7,
    },
]


DEMO_DRIVE: dict[str, Any] = {
    "name": "Progressive whist drive (demo)",
    "players": 11,
    "settings": {"hands": 8, "short_table": "dummy"},
    "hands_played": 3,
    "seed": 12,
    # Comes in at hand 3, before any table has played it, and takes the dummy's seat.
    "late": (3, "Nell Newcomer"),
}


class Command(OneLineCommand):
    help = "Create the demo club, its director login and demo events (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the events as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        club = club_get_or_create(name=DEMO_CLUB)
        events = []
        for spec in DEMO_EVENTS:
            event = Event.objects.filter(club=club, name=spec["name"]).first()
            if event is None:
                with transaction.atomic():
                    event = event_create(
                        club=club,
                        name=spec["name"],
                        game=spec["game"],
                        movement_kind=spec["movement_kind"],
                        movement_params=spec["movement_params"],
                        seed=spec["seed"],
                        user=user,
                    )
                    _name_pairs(event)
                    event = event_start(event=event, user=user)
                event_simulate(
                    event=event, rounds=spec["rounds_played"], seed=spec["seed"], batch=True
                )
            events.append({"id": event.pk, "name": event.name, "game": event.game})
        drive = _demo_drive(club, user)
        drives = [{"id": drive.pk, "name": drive.name}]
        tournament = _demo_tournament(club, user)
        league = _demo_league(club, user)
        season = _demo_season(club, user)
        if options["json"]:
            teams = [{"id": tournament.pk, "name": tournament.name}]
            leagues = [{"id": league.pk, "name": league.name}]
            shown = {
                "events": events, "drives": drives, "tournaments": teams, "leagues": leagues,
                "members": season.members,
            }  # fmt: skip
            self.stdout.write(json.dumps(shown))
            return
        for e in events:
            self.stdout.write(f"Demo event {e['id']}: {e['name']} ({e['game']})")
        self.stdout.write(f"Demo drive {drive.pk}: {drive.name}")
        self.stdout.write(f"Demo Bid Whist tournament {tournament.pk}: {tournament.name}")
        self.stdout.write(f"Demo Bid Whist league {league.pk}: {league.name}")
        self.stdout.write(
            f"Demo season: {season.members} members, {season.evenings} evenings published"
        )
        self.stdout.write(f"Demo director login: {DEMO_USERNAME} / {DEMO_PASSWORD}")


FIRST = [
    "Ann",
    "Bill",
    "Carol",
    "Dev",
    "Edith",
    "Frank",
    "Grace",
    "Hugh",
    "Ida",
    "Jack",
    "Kath",
    "Len",
    "Mavis",
    "Norm",
    "Olive",
    "Pete",
    "Queenie",
    "Ron",
    "Sue",
    "Ted",
]
LAST = [
    "Archer",
    "Bennett",
    "Clarke",
    "Dawson",
    "Ellis",
    "Fletcher",
    "Gray",
    "Hughes",
    "Irwin",
    "Jones",
    "Kaur",
    "Lamb",
    "Moss",
    "Nash",
    "Owen",
    "Price",
]


def _name_pairs(event: Event) -> None:
    names = {}
    for i, pair in enumerate(event.section.pairs.filter(is_phantom=False)):
        names[pair.pk] = (
            f"{FIRST[(2 * i) % len(FIRST)]} {LAST[i % len(LAST)]}",
            f"{FIRST[(2 * i + 1) % len(FIRST)]} {LAST[(i + 5) % len(LAST)]}",
        )
    pairs_register(event=event, names=names)


def _demo_drive(club: Club, user: Any) -> Drive:
    """The demo drive, made once: eleven players (three tables, one with a dummy), its first
    hands played with tricks drawn from a fixed seed, a late arrival seated at hand 3 in the
    dummy's place, the next hand seated and waiting for its results."""
    spec = DEMO_DRIVE
    drive = Drive.objects.filter(club=club, name=spec["name"]).first()
    if drive is not None:
        return drive
    tricks = random.Random(spec["seed"])
    players = [
        f"{FIRST[i % len(FIRST)]} {LAST[(3 * i) % len(LAST)]}" for i in range(spec["players"])
    ]
    with transaction.atomic():
        drive = drive_services.drive_create(
            club=club, name=spec["name"], settings=spec["settings"], players=players, user=user
        )
        drive_services.drive_start(drive=drive, seed=spec["seed"], user=user)
        late_hand, late_name = spec["late"]
        for _ in range(spec["hands_played"]):
            hand = drive_state(drive).current
            assert hand is not None
            if hand.hand == late_hand:
                drive_comings.player_arrive(drive=drive, name=late_name, user=user)
                hand = drive_state(drive).current
                assert hand is not None
            for table in hand.tables:
                entry = {"ns_tricks": tricks.randint(3, 10)}
                drive_services.result_enter(drive=drive, table=table.number, entry=entry, user=user)
            drive_services.hand_next(drive=drive, hand=hand.hand, user=user)
    return drive


DEMO_TEAMS = [
    ("Big Jokers", "Detroit"), ("Uptown Kings", "Detroit"), ("Boston Bound", "Chicago"),
    ("Downtown Aces", "Chicago"), ("Kitty Cats", "Atlanta"), ("Book Keepers", "Atlanta"),
    ("Trump Tight", "Memphis"), ("No Trump Two", "Memphis"),
]  # fmt: skip
DEMO_TOURNAMENT = "Saturday Bid Whist teams (demo)"


def _demo_tournament(club: Club, user: Any) -> Tournament:
    """The demo tournament, made once: eight teams from four cities, Swiss over four rounds,
    round 1 played with scores from a fixed seed, round 2 drawn and waiting for its games."""
    tournament = Tournament.objects.filter(club=club, name=DEMO_TOURNAMENT).first()
    if tournament is not None:
        return tournament
    scores = random.Random(27)
    teams = [
        {"name": name, "city": city, "player_one": FIRST[2 * i], "player_two": FIRST[2 * i + 1]}
        for i, (name, city) in enumerate(DEMO_TEAMS)
    ]
    with transaction.atomic():
        tournament = team_services.tournament_create(
            club=club,
            name=DEMO_TOURNAMENT,
            settings={"rotation": "swiss", "rounds": 4, "playoff": 4},
            teams=teams,
            user=user,
        )
        for number in range(1, len(teams) + 1):
            team_services.team_arrive(tournament=tournament, number=number, user=user)
        team_services.tournament_start(tournament=tournament, seed=27, user=user)
        for table in range(1, len(teams) // 2 + 1):
            loser = scores.randint(-3, 6)
            score = (
                {"home_points": 7, "away_points": loser}
                if scores.random() < 0.5
                else {"home_points": loser, "away_points": 7}
            )
            team_games.game_enter(tournament=tournament, table=table, score=score, user=user)
        team_services.round_next(tournament=tournament, user=user)
        team_games.tournament_live(tournament=tournament, live=True, user=user)
    tournament.refresh_from_db()
    return tournament


DEMO_LEAGUE = "Tuesday Bid Whist league (demo)"


def _demo_league(club: Club, user: Any) -> League:
    """The demo league, made once: six teams; week 1 played and published; week 2 running,
    its round 1 played, with Kitty Cats absent (taken off that night, kept by the league) and
    a substitute standing in for Book Keepers, so the league page shows both."""
    league = League.objects.filter(club=club, name=DEMO_LEAGUE).first()
    if league is not None:
        return league
    scores = random.Random(44)
    teams = [
        {"name": name, "city": city, "player_one": FIRST[2 * i], "player_two": FIRST[2 * i + 1]}
        for i, (name, city) in enumerate(DEMO_TEAMS[:6])
    ]
    with transaction.atomic():
        league = team_services.league_create(club=club, name=DEMO_LEAGUE, user=user)
        for week in (1, 2):
            night = team_services.tournament_create(
                club=club, name=f"League week {week}",
                settings={"rotation": "round_robin", "rounds": 3},
                teams=teams if week == 1 else (), league=league, user=user,
            )  # fmt: skip
            if week == 2:
                absent = night.teams.get(name="Kitty Cats").number
                team_services.team_remove(tournament=night, number=absent, user=user)
                keepers = night.teams.get(name="Book Keepers")
                stand_in = {"name": keepers.name, "city": keepers.city}
                stand_in |= {"player_one": keepers.player_one, "player_two": "Sally (sub)"}
                team_services.team_change(
                    tournament=night, number=keepers.number, data=stand_in, user=user
                )
            for number in night.teams.values_list("number", flat=True):
                team_services.team_arrive(tournament=night, number=number, user=user)
            team_services.tournament_start(tournament=night, seed=44 + week, user=user)
            night.refresh_from_db()
            for round_ in range(1, 4 if week == 1 else 2):
                drawn = round_of(night, round_)
                assert drawn is not None
                for table in (pairing.table for pairing in drawn.tables):  # a bye has none
                    loser = scores.randint(-2, 6)
                    score = (
                        {"home_points": 7, "away_points": loser}
                        if scores.random() < 0.5
                        else {"home_points": loser, "away_points": 7}
                    )
                    team_games.game_enter(tournament=night, table=table, score=score, user=user)
                if round_ < 3 and week == 1:
                    team_services.round_next(tournament=night, user=user)
                    night.refresh_from_db()
            if week == 1:
                team_games.tournament_finish(tournament=night, user=user)
                team_games.tournament_publish(tournament=night, user=user)
            else:
                team_games.tournament_live(tournament=night, live=True, user=user)
    return league


#: The demo season: weeks of club nights played and published before today, by this many
#: members (a few of them shown on public pages by their initials or not at all) and visitors.
DEMO_SEASON = {"weeks": 6, "members": 30, "visitors": 6, "seed": 2026}
#: The demo season's competitions: one of each kind a club runs.
DEMO_COMPETITIONS: list[dict[str, Any]] = [
    {"name": "Pairs ladder", "kind": "ladder", "best_of": 4, "min_sessions": 2},
    {
        "name": "Handicapped ladder", "kind": "ladder", "best_of": 4, "min_sessions": 2,
        "handicapped": True,
    },
    {
        "name": "Drive of the season", "kind": "total", "count_events": False,
        "count_drives": True, "best_of": 4, "ties": "sessions",
    },
    {
        "name": "Bid Whist league", "kind": "league", "count_events": False,
        "count_teams": True,
    },
    {
        "name": "Most evenings", "kind": "attendance", "count_drives": True,
        "count_teams": True,
    },
]  # fmt: skip


@dataclass(frozen=True)
class DemoSeason:
    members: int
    evenings: int


def _demo_season(club: Club, user: Any) -> DemoSeason:
    """The demo season, made once: the club's member register and six weeks of a pairs event,
    a drive and a Bid Whist league week, each played and published, so the season's pages,
    the members' pages and the ledger have something to show."""
    if not Member.objects.filter(club=club).exists():
        spec = DEMO_SEASON
        names = people(spec["members"])
        with transaction.atomic():
            for i, name in enumerate(names):
                choice = (
                    PublicName.INITIALS if i % 10 == 7 else
                    PublicName.HIDDEN if i % 10 == 9 else PublicName.FULL
                )  # fmt: skip
                member_add(
                    club=club, name=name, number=f"D{i + 1:03d}", public_name=choice.value,
                    user=user,
                )  # fmt: skip
            today = timezone.localdate()
            starts = today - dt.timedelta(days=7 * spec["weeks"])
            season_play(
                club=club,
                starts=starts,
                weeks=spec["weeks"],
                members=names,
                visitors=people(spec["visitors"], skip=spec["members"]),
                seed=spec["seed"],
                pairs=8,
                drive_players=8,
                drive_hands=4,
                league_teams=4,
                user=user,
            )
            season = season_create(
                club=club, name="Demo season", starts=starts, ends=today + dt.timedelta(days=90),
                handicap_basis=Season.Basis.FLUCTUATING.value, handicap_window=6,
                handicap_min_sessions=2, user=user,
            )  # fmt: skip
            for spec_line in DEMO_COMPETITIONS:
                competition_add(season=season, user=user, **spec_line)
        # The ledger is filled by the publishes' job; taken here too (and the tables computed
        # from it), so the demo stands whether or not a worker is running.
        club_rebuild(club=club)
        competitions_recompute(club_id=club.pk, force=True)
    evenings = SeasonLine.objects.filter(club=club).values("format", "play_id").distinct()
    return DemoSeason(Member.objects.filter(club=club).count(), evenings.count())
