"""Whole evenings of every format played and published, for rehearsals, the demo's season,
the season's tests and its benchmark.

Each evening goes through the formats' own services, the ones a director's screens and the
tablets call (an event's results through `event_simulate`, a drive's hands through
`result_enter`, a tournament's games through `game_enter`), then is finished and published:
so the season's ledger is filled by the same job a real publish sends, and a table recomputed
from the ledger can be checked against the formats' own results.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import Event
from tournaments.events.services.events import (
    event_create,
    event_finish,
    event_publish,
    event_start,
    pairs_register,
)
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.audit import User
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament
from tournaments.teams.selectors.teams import round_of
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as team_services


def pairs_evening(
    *,
    club: Club,
    name: str,
    date: dt.date,
    pairs: Sequence[tuple[str, str]],
    seed: int,
    game: str = "classic",
    boards_per_round: int = 2,
    user: User = None,
) -> Event:
    """A Mitchell of `pairs` (an even number of them: the first half North-South, the rest
    East-West), every board played, finished and published."""
    if len(pairs) < 6 or len(pairs) % 2:
        raise ValueError(f"A Mitchell here needs an even number of pairs, 6 or more: {len(pairs)}.")
    event = event_create(
        club=club,
        name=name,
        date=date,
        game=game,
        movement_kind="mitchell",
        movement_params={"tables": len(pairs) // 2, "boards_per_round": boards_per_round},
        seed=seed,
        user=user,
    )
    slots = list(event.section.pairs.order_by("-direction", "number"))  # NS first, then EW
    pairs_register(
        event=event, names={slot.pk: pair for slot, pair in zip(slots, pairs, strict=True)},
        user=user,
    )  # fmt: skip
    event = event_start(event=event, user=user)
    event_simulate(event=event, seed=seed, batch=True)
    event.refresh_from_db()
    event = event_finish(event=event, user=user)
    return event_publish(event=event, user=user)


def drive_evening(
    *,
    club: Club,
    name: str,
    date: dt.date,
    players: Sequence[str],
    seed: int,
    hands: int = 6,
    user: User = None,
) -> Drive:
    """A progressive drive of `players`, `hands` hands with tricks drawn from `seed`, every
    result entered, finished and published."""
    tricks = random.Random(seed)
    drive = drive_services.drive_create(
        club=club, name=name, date=date, settings={"hands": hands}, players=players, user=user
    )
    drive_services.drive_start(drive=drive, seed=seed, user=user)
    for _ in range(hands):
        hand = drive_state(drive).current
        assert hand is not None
        for table in hand.tables:
            entry = {"ns_tricks": tricks.randint(3, 10)}
            drive_services.result_enter(drive=drive, table=table.number, entry=entry, user=user)
        drive.refresh_from_db()
        if drive.hand < hands and drive.hand == hand.hand:
            drive_services.hand_next(drive=drive, hand=hand.hand, user=user)
    drive.refresh_from_db()
    drive = drive_services.drive_finish(drive=drive, user=user)
    return drive_services.drive_publish(drive=drive, user=user)


@dataclass(frozen=True)
class TeamEntry:
    """A team as a league or tournament enters it."""

    name: str
    player_one: str
    player_two: str

    def as_data(self) -> dict[str, Any]:
        return {"name": self.name, "player_one": self.player_one, "player_two": self.player_two}


def teams_evening(
    *,
    club: Club,
    name: str,
    date: dt.date,
    teams: Sequence[TeamEntry],
    seed: int,
    rounds: int = 3,
    league: League | None = None,
    user: User = None,
) -> Tournament:
    """A Bid Whist round robin of `teams` (a league's next week when `league` is given: the
    league's teams, numbered as before), every game played with scores from `seed`,
    finished and published."""
    scores = random.Random(seed)
    first_week = league is None or not league.weeks.exists()
    tournament = team_services.tournament_create(
        club=club,
        name=name,
        date=date,
        settings={"rotation": "round_robin", "rounds": rounds},
        teams=[team.as_data() for team in teams] if first_week else (),
        league=league,
        user=user,
    )
    for number in tournament.teams.values_list("number", flat=True):
        team_services.team_arrive(tournament=tournament, number=number, user=user)
    team_services.tournament_start(tournament=tournament, seed=seed % 1000, user=user)
    tournament.refresh_from_db()
    for round_ in range(1, rounds + 1):
        drawn = round_of(tournament, round_)
        assert drawn is not None
        for table in (pairing.table for pairing in drawn.tables):  # a bye has no table
            loser = scores.randint(-2, 6)
            score = (
                {"home_points": 7, "away_points": loser}
                if scores.random() < 0.5
                else {"home_points": loser, "away_points": 7}
            )
            team_games.game_enter(tournament=tournament, table=table, score=score, user=user)
        tournament.refresh_from_db()
        if round_ < rounds and tournament.round < round_ + 1:
            team_services.round_next(tournament=tournament, user=user)
            tournament.refresh_from_db()
    team_games.tournament_finish(tournament=tournament, user=user)
    return team_games.tournament_publish(tournament=tournament, user=user)


#: Given names and surnames the simulated members are made from (each pair once).
GIVEN = (
    "Ann", "Bill", "Carol", "Dev", "Edith", "Frank", "Grace", "Hugh", "Ida", "Jack", "Kath",
    "Len", "Mavis", "Norm", "Olive", "Pete", "Queenie", "Ron", "Siân", "Ted", "Una", "Vic",
    "Wendy", "Xavier", "Yvonne", "Zoë",
)  # fmt: skip
SURNAMES = (
    "Archer", "Bennett", "Clarke", "Dawson", "Ellis", "Fletcher", "Gray", "Hughes", "Irwin",
    "Jones", "Kaur", "Lamb", "Moss", "Nash", "O'Neil", "Price", "Quinn", "Rees", "Singh",
    "Turner",
)  # fmt: skip


def people(count: int, *, skip: int = 0) -> list[str]:
    """`count` different names ("Ann Archer", "Bill Bennett", ...), after the first `skip`."""
    names = [f"{g} {s}" for s in SURNAMES for g in GIVEN]
    if skip + count > len(names):
        raise ValueError(f"At most {len(names) - skip} names after the first {skip}.")
    step = 7  # coprime with the number of names: neighbours differ in both names
    return [names[(i * step) % len(names)] for i in range(skip, skip + count)]


@dataclass(frozen=True)
class SimulatedSeason:
    """What `season_play` made: the members' and visitors' names and each format's evenings."""

    members: tuple[str, ...]
    visitors: tuple[str, ...]
    events: tuple[int, ...]
    drives: tuple[int, ...]
    tournaments: tuple[int, ...]
    league: int | None


def season_play(
    *,
    club: Club,
    starts: dt.date,
    weeks: int,
    members: Sequence[str],
    visitors: Sequence[str] = (),
    seed: int = 1,
    pairs: int = 10,
    drive_players: int = 12,
    drive_hands: int = 6,
    league_teams: int = 6,
    user: User = None,
) -> SimulatedSeason:
    """`weeks` weeks of club nights from `starts`: each week a pairs event on the first day,
    a drive the day after and a Bid Whist league week the day after that, each played and
    published. Who comes is drawn from `members` and `visitors` with `seed` (a visitor in
    about one seat in eight); the league's teams are the same players all season."""
    rng = random.Random(seed)
    league_players = list(members[: 2 * league_teams])
    teams = [
        TeamEntry(f"Team {n + 1}", league_players[2 * n], league_players[2 * n + 1])
        for n in range(league_teams)
    ]
    league = team_services.league_create(
        club=club, name=f"Bid Whist league from {starts:%-d %B %Y}", user=user
    )
    events, drives, nights = [], [], []
    for week in range(weeks):
        day = starts + dt.timedelta(days=7 * week)
        seated = _come(rng, members, visitors, 2 * pairs)
        couples = [(seated[2 * i], seated[2 * i + 1]) for i in range(pairs)]
        events.append(
            pairs_evening(
                club=club, name=f"Pairs, week {week + 1}", date=day, pairs=couples,
                seed=seed * 1000 + week, user=user,
            ).pk
        )  # fmt: skip
        drives.append(
            drive_evening(
                club=club, name=f"Drive, week {week + 1}", date=day + dt.timedelta(days=1),
                players=_come(rng, members, visitors, drive_players), seed=seed * 1000 + week,
                hands=drive_hands, user=user,
            ).pk
        )  # fmt: skip
        nights.append(
            teams_evening(
                club=club, name=f"League, week {week + 1}", date=day + dt.timedelta(days=2),
                teams=teams, seed=seed * 1000 + week, league=league, user=user,
            ).pk
        )  # fmt: skip
    return SimulatedSeason(
        tuple(members), tuple(visitors), tuple(events), tuple(drives), tuple(nights), league.pk
    )


def _come(
    rng: random.Random, members: Sequence[str], visitors: Sequence[str], seats: int
) -> list[str]:
    """Who comes tonight: `seats` different people, about one in eight a visitor."""
    guests = min(len(visitors), sum(1 for _ in range(seats) if rng.random() < 0.125))
    chosen = rng.sample(list(visitors), guests) + rng.sample(list(members), seats - guests)
    rng.shuffle(chosen)
    return chosen
