"""A table link changes nothing once play is over: after an event, a drive or a team
tournament has finished (and after its results are published), every write a tablet can send
through its API is refused with the reason, and leaves the rows, the versions and the stored
standings exactly as they were. A tablet left on the last round's screen, or an old link
kept on a phone, must never move the final results behind the director's back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tournaments.drives.models import Drive, DriveAudit, DriveResult, DriveSeating, DriveTableAccess
from tournaments.drives.selectors.drives import drive_state
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import AuditEntry, DirectorCall, Event, Result, Standings
from tournaments.events.services import tablets
from tournaments.events.services.events import event_finish, event_publish
from tournaments.kernel.models import Club
from tournaments.teams.models import (
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentTableAccess,
)
from tournaments.teams.selectors.teams import standings_of
from tournaments.teams.services import games as team_games
from tournaments.teams.services import teams as team_services

# Real commits: the standings are scored, and the tablets' cached copies retired, on commit.
pytestmark = pytest.mark.django_db(transaction=True)

REASON = "has finished: results can no longer be changed from a table. Ask the director."
STATES = ["finished", "published"]


@dataclass(frozen=True)
class Write:
    """One request a table link can send: its method, its path under the link's API, its body."""

    method: str
    path: str
    body: dict[str, Any]


def _send(client: Client, base: str, write: Write) -> Any:
    if write.method == "DELETE":
        return client.delete(base + write.path)
    return client.post(base + write.path, write.body, content_type="application/json")


def _ok(answer: Any, *codes: int) -> dict[str, Any]:
    assert answer.status_code in codes, (answer.status_code, answer.content[:300])
    found: dict[str, Any] = answer.json()
    return found


def _assert_refused(answer: Any, noun: str) -> None:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.content[:300])
    assert answer.status_code == 409, answer.content[:300]
    assert answer.json()["detail"] == f"The {noun} {REASON}"


# ---- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventNight:
    """An event closed while table 1 is still on round 1: one board confirmed, one waiting
    for the other pair, one not entered, and the table's call to the director still open."""

    event: Event
    token: str
    confirmed: int  # result ids
    waiting: int
    confirmed_board: int
    empty_board: int
    confirmed_entry: dict[str, Any]


def _event_night(club: Club, director: Any, state: str) -> EventNight:
    event = make_event(club, params={"tables": 3, "boards_per_round": 3}, user=director)
    links = {a.table: a.token for a in tablets.table_links_ensure(event=event)}
    client = Client()
    # Tables 2 and 3 play round 1 through, so the standings hold more than table 1's board.
    for table in (2, 3):
        base = f"/api/t/{links[table]}/"
        boards = [b["number"] for b in client.get(base).json()["current"]["boards"]]
        for n, board in enumerate(boards):
            entry = {"ns_tricks": 6 + n + table}
            made = _ok(
                _send(client, base, Write("POST", "results/", _submission(board, entry, table))),
                201,
            )
            _ok(_send(client, base, Write("POST", f"results/{made['id']}/confirm/", {})), 200)
    base = f"/api/t/{links[1]}/"
    first, second, third = [b["number"] for b in client.get(base).json()["current"]["boards"]]
    entry = {"ns_tricks": 9}
    confirmed = _ok(_send(client, base, Write("POST", "results/", _submission(first, entry))), 201)
    _ok(_send(client, base, Write("POST", f"results/{confirmed['id']}/confirm/", {})), 200)
    waiting = _ok(
        _send(client, base, Write("POST", "results/", _submission(second, {"ns_tricks": 5}))),
        201,
    )
    _ok(_send(client, base, Write("POST", "call-director/", {"reason": "other"})), 201)
    event_finish(event=Event.objects.get(pk=event.pk), user=director)
    if state == "published":
        event_publish(event=Event.objects.get(pk=event.pk), user=director)
    closed = Event.objects.get(pk=event.pk)
    assert closed.status == state
    assert Standings.objects.filter(event=closed).exists()
    # The table is still on round 1 (a board waits): its link reaches those results.
    assert client.get(base).json()["current"]["round"] == 1
    return EventNight(
        event=closed,
        token=links[1],
        confirmed=confirmed["id"],
        waiting=waiting["id"],
        confirmed_board=first,
        empty_board=third,
        confirmed_entry=entry,
    )


def _submission(board: int, entry: dict[str, Any], table: int = 1) -> dict[str, Any]:
    return {"board": board, "entry": entry, "idempotency_key": f"key-t{table}-b{board}-late"}


EVENT_WRITES: dict[str, Callable[[EventNight], Write]] = {
    "enter": lambda n: Write(
        "POST",
        "results/",
        _submission(n.empty_board, {"ns_tricks": 7}) | {"idempotency_key": "k-late-new"},
    ),
    "enter-again": lambda n: Write(
        "POST", "results/", _submission(n.confirmed_board, n.confirmed_entry)
    ),
    "preview": lambda n: Write(
        "POST", "preview/", {"board": n.empty_board, "entry": {"ns_tricks": 7}}
    ),
    "confirm": lambda n: Write("POST", f"results/{n.waiting}/confirm/", {}),
    "confirm-again": lambda n: Write("POST", f"results/{n.confirmed}/confirm/", {}),
    "dispute-confirmed": lambda n: Write(
        "POST", f"results/{n.confirmed}/dispute/", {"note": "not what we played"}
    ),
    "dispute-waiting": lambda n: Write("POST", f"results/{n.waiting}/dispute/", {"note": "no"}),
    "call-director": lambda n: Write("POST", "call-director/", {"reason": "other", "note": "hi"}),
    "take-back-call": lambda n: Write("DELETE", "call-director/", {}),
}


def _event_fingerprint(event: Event) -> tuple[Any, ...]:
    fresh = Event.objects.get(pk=event.pk)
    return (
        (fresh.status, fresh.results_version, fresh.scored_version),
        tuple(
            Result.objects.filter(section__event=event)
            .order_by("pk")
            .values_list("pk", "status", "entry", "ns_score", "confirmed_at", "updated_at")
        ),
        tuple(
            DirectorCall.objects.filter(section__event=event)
            .order_by("pk")
            .values_list("pk", "note", "handled_at", "cancelled", "board_number")
        ),
        tuple(
            AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", "target")
        ),
        tuple(
            Standings.objects.filter(event=event).order_by("version").values_list("version", "data")
        ),
    )


@pytest.mark.parametrize("write", sorted(EVENT_WRITES))
@pytest.mark.parametrize("state", STATES)
def test_an_event_table_link_changes_nothing_once_the_event_is_over(
    club: Club, director: Any, state: str, write: str
) -> None:
    night = _event_night(club, director, state)
    before = _event_fingerprint(night.event)
    answer = _send(Client(), f"/api/t/{night.token}/", EVENT_WRITES[write](night))
    _assert_refused(answer, "event")
    assert _event_fingerprint(night.event) == before


# ---- drives ---------------------------------------------------------------------------------

DRIVE_PLAYERS = [f"Player {chr(65 + n)}" for n in range(12)]
DRIVE_HANDS = 2


def _drive_night(club: Club, director: Any, state: str) -> tuple[Drive, str]:
    """A drive of two hands played through on its tablets, then finished (and published)."""
    drive = drive_services.drive_create(
        club=club,
        name="Late drive",
        settings={"hands": DRIVE_HANDS, "half_time": 1, "scoring": "tricks"},
        players=DRIVE_PLAYERS,
    )
    drive = drive_services.drive_start(drive=drive, seed=5)
    links = dict(
        DriveTableAccess.objects.filter(drive=drive, revoked_at__isnull=True).values_list(
            "table", "token"
        )
    )
    client = Client()
    for hand in range(1, DRIVE_HANDS + 1):
        for table, token in sorted(links.items()):
            base = f"/api/d/{token}/"
            body = {"hand": hand, "entry": {"ns_tricks": 6 + table}}
            _ok(_send(client, base, Write("POST", "enter/", body)), 201)
            _ok(_send(client, base, Write("POST", "confirm/", body)), 200)
    drive_services.drive_finish(drive=Drive.objects.get(pk=drive.pk), user=director)
    if state == "published":
        drive_services.drive_publish(drive=Drive.objects.get(pk=drive.pk), user=director)
    closed = Drive.objects.get(pk=drive.pk)
    assert closed.status == state and closed.hand == DRIVE_HANDS
    return closed, links[1]


DRIVE_WRITES: dict[str, Write] = {
    "enter": Write("POST", "enter/", {"hand": DRIVE_HANDS, "entry": {"ns_tricks": 3}}),
    "enter-again": Write("POST", "enter/", {"hand": DRIVE_HANDS, "entry": {"ns_tricks": 7}}),
    "confirm-again": Write("POST", "confirm/", {"hand": DRIVE_HANDS, "entry": {"ns_tricks": 7}}),
    "wrong": Write("POST", "wrong/", {"hand": DRIVE_HANDS}),
}


def _drive_fingerprint(drive: Drive) -> tuple[Any, ...]:
    fresh = Drive.objects.get(pk=drive.pk)
    return (
        (fresh.status, fresh.hand, fresh.version),
        tuple(
            DriveSeating.objects.filter(drive=drive).order_by("pk").values_list("hand", "seating")
        ),
        tuple(
            DriveResult.objects.filter(drive=drive)
            .order_by("pk")
            .values_list("hand", "table", "entry", "status", "confirmed_at")
        ),
        tuple(
            DriveAudit.objects.filter(drive=drive).order_by("pk").values_list("action", "target")
        ),
        repr(drive_state(fresh).lines),
    )


@pytest.mark.parametrize("write", sorted(DRIVE_WRITES))
@pytest.mark.parametrize("state", STATES)
def test_a_drive_table_link_changes_nothing_once_the_drive_is_over(
    club: Club, director: Any, state: str, write: str
) -> None:
    drive, token = _drive_night(club, director, state)
    before = _drive_fingerprint(drive)
    answer = _send(Client(), f"/api/d/{token}/", DRIVE_WRITES[write])
    _assert_refused(answer, "drive")
    assert _drive_fingerprint(drive) == before


# ---- team tournaments -----------------------------------------------------------------------

TEAM_SCORE = {"home_points": 7, "away_points": 3}
HAND = {"declarer": "N", "bid": 4, "kind": "uptown", "trumps": "S", "books": 10}


def _team_night(club: Club, director: Any, state: str) -> tuple[Tournament, str]:
    """A one-round tournament whose games were entered and confirmed on the tablets, then
    finished (and published)."""
    tournament = team_services.tournament_create(
        club=club,
        name="Late teams",
        settings={"rotation": "round_robin", "rounds": 1},
        teams=[{"name": n} for n in ("Aces", "Kings", "Queens", "Jacks")],
    )
    for number in (1, 2, 3, 4):
        team_services.team_arrive(tournament=tournament, number=number)
    team_services.tournament_start(tournament=tournament, seed=1)
    links = dict(
        TournamentTableAccess.objects.filter(tournament=tournament).values_list("table", "token")
    )
    client = Client()
    for token in links.values():
        base = f"/api/tt/{token}/"
        _ok(
            _send(client, base, Write("POST", "enter/", {"side": "home", "score": TEAM_SCORE})), 201
        )
        _ok(_send(client, base, Write("POST", "confirm/", {"side": "away"})), 200)
    team_games.tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk), user=director)
    if state == "published":
        team_games.tournament_publish(
            tournament=Tournament.objects.get(pk=tournament.pk), user=director
        )
    closed = Tournament.objects.get(pk=tournament.pk)
    assert closed.status == state
    return closed, links[1]


TEAM_WRITES: dict[str, Write] = {
    "enter": Write(
        "POST", "enter/", {"side": "home", "score": {"home_points": 7, "away_points": 1}}
    ),
    "enter-again": Write("POST", "enter/", {"side": "home", "score": TEAM_SCORE}),
    "enter-other-side": Write("POST", "enter/", {"side": "away", "score": TEAM_SCORE}),
    "preview": Write("POST", "preview/", {"hands": [HAND]}),
    "confirm": Write("POST", "confirm/", {"side": "away"}),
    "dispute": Write("POST", "dispute/", {"side": "away", "note": "late"}),
}


def _team_fingerprint(tournament: Tournament) -> tuple[Any, ...]:
    fresh = Tournament.objects.get(pk=tournament.pk)
    return (
        (fresh.status, fresh.round, fresh.version, fresh.bracket),
        tuple(
            TournamentGame.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("round", "table", "status", "result", "note", "entered_by", "confirmed_at")
        ),
        tuple(
            TournamentAudit.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("action", "target")
        ),
        repr(standings_of(fresh)),
    )


@pytest.mark.parametrize("write", sorted(TEAM_WRITES))
@pytest.mark.parametrize("state", STATES)
def test_a_team_table_link_changes_nothing_once_the_tournament_is_over(
    club: Club, director: Any, state: str, write: str
) -> None:
    tournament, token = _team_night(club, director, state)
    before = _team_fingerprint(tournament)
    answer = _send(Client(), f"/api/tt/{token}/", TEAM_WRITES[write])
    _assert_refused(answer, "tournament")
    assert _team_fingerprint(tournament) == before


# ---- the tablet pages -----------------------------------------------------------------------


def test_the_tablet_pages_take_no_form_posts(club: Club, director: Any) -> None:
    """The pages themselves only show: every write goes through the API above."""
    night = _event_night(club, director, "finished")
    drive, drive_token = _drive_night(club, director, "finished")
    tournament, team_token = _team_night(club, director, "finished")
    before = (
        _event_fingerprint(night.event),
        _drive_fingerprint(drive),
        _team_fingerprint(tournament),
    )
    client = Client()
    for page in (f"/t/{night.token}/", f"/d/{drive_token}/", f"/tt/{team_token}/"):
        assert client.post(page, {"board": "1", "ns_tricks": "7"}).status_code == 405
    after = (
        _event_fingerprint(night.event),
        _drive_fingerprint(drive),
        _team_fingerprint(tournament),
    )
    assert after == before
