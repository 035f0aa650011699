"""Who may do what, cell by cell: every route of the URL conf and every operation of the OpenAPI
schema, asked by each kind of caller.

The routes come from the URL conf and the schema themselves, and each must be sorted into one of
the audiences below, so an endpoint added later without a decision about who may use it fails
here. Each caller's run also checks that nothing it was refused changed anything.

Callers: anonymous; a table's tablet (holding table 1's link, no session); the club's director
(not an administrator); a director of another club; an administrator (a superuser); the club's
scorer, who reaches the result entry and correction routes of every format (`SCORER_ROUTES`)
and is refused, with a 403 saying why, every other director's route of the club.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from tests.web.conftest import make_director, make_drive, make_event, make_tournament
from tournaments.drives.models import (
    Drive,
    DriveAudit,
    DrivePlayer,
    DriveResult,
    DriveSeating,
    DriveTableAccess,
)
from tournaments.drives.services.drives import (
    drive_create,
    drive_finish,
    drive_publish,
    drive_start,
    hand_next,
    result_enter,
)
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    PrintJob,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors import table_round
from tournaments.events.services.events import (
    event_finish,
    event_publish,
)
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import director_call, table_links_ensure_for, tablet_submit
from tournaments.kernel import people
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Invitation, Member, PeopleAudit
from tournaments.seasons.models import Competition, Season
from tournaments.seasons.services.seasons import competition_add, season_create
from tournaments.teams.models import (
    League,
    Tournament,
    TournamentAudit,
    TournamentGame,
    TournamentRound,
    TournamentTableAccess,
    TournamentTeam,
)
from tournaments.teams.services.games import game_enter
from tournaments.teams.services.teams import (
    league_create,
)

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]  # every route by every caller

ROLES = ("anonymous", "tablet", "director", "other_director", "admin", "scorer")

# ---- every route, sorted by who it is for ----------------------------------------------------

#: Pages for a signed-in account, about one of its clubs' events.
DIRECTOR_EVENT_PAGES = {
    "event-detail", "event-pairs", "event-move-pair", "event-import", "event-boards-pbn",
    "event-status", "event-close", "event-analyse", "event-analysis-progress", "event-room",
    "event-print", "event-print-paper", "event-print-pack", "event-print-pack-state",
    "event-print-pack-pdf", "event-print-document", "event-live-public", "event-tablet-links",
    "event-tablet-replace", "event-round-start", "event-round-clock", "call-handled",
    "event-enter", "event-traveller", "board-preview", "board-fouled", "result-artificial",
    "result-correct", "event-audit", "event-export", "event-standings", "event-pair-leave",
    "event-pair-arrive", "event-pair-presence-undo",
    # A drive's, for its club's directors.
    "drive-detail", "drive-players", "drive-start", "drive-enter", "drive-next", "drive-correct",
    "drive-status", "drive-totals", "drive-export", "drive-export-xlsx", "drive-export-json",
    "drive-print",
    "drive-room", "drive-room-part", "drive-moves-on", "drive-link-replace", "drive-cards",
    "drive-comes-goes",
    # A team tournament's, likewise.
    "tournament-detail", "tournament-teams", "tournament-start", "tournament-enter",
    "tournament-forfeit", "tournament-withdraw", "tournament-next", "tournament-playoff",
    "tournament-tie",
    "tournament-status", "tournament-link-replace", "tournament-print",
    "tournament-export-json", "tournament-settings", "tournament-room",
}  # fmt: skip
#: Pages for any signed-in account, acting on its own clubs.
SIGNED_IN_PAGES = {
    "event-new", "event-import-file", "drive-new", "tournament-new",
    # one's own password
    "password_change", "password_change_done",
}  # fmt: skip
#: A running event's public pages: its directors only, until it is published or followed live.
PUBLIC_EVENT_PAGES = {
    "public-results", "public-board", "public-pair", "public-display", "public-version",
    "public-stream", "public-export", "drive-public", "drive-display", "drive-player",
    "tournament-public", "tournament-team", "tournament-csv", "tournament-xlsx", "league-detail",
}  # fmt: skip
#: A club's public pages (published results only, for everyone).
PUBLIC_CLUB_PAGES = {
    "public-club", "public-players", "public-player",
    # the club's seasons: stored tables of published evenings only
    "public-seasons", "public-season", "public-competition", "season-pdf", "season-csv",
    "season-xlsx", "competition-csv", "competition-xlsx",
}  # fmt: skip
#: A member's page, its PDF and CSV: everyone, unless the member chose to be hidden or was
#: erased (then the club's directors only; the matrix's member chose their full name).
PUBLIC_CLUB_PAGES |= {"member-page", "member-page-pdf", "member-page-csv", "member-page-xlsx"}
#: For everyone.
OPEN_PAGES = {
    "home", "health", "login", "logout", "table-sw", "drive-table-sw", "team-table-sw",
    "api-schema",
    # a forgotten password: the form, "check your email", the emailed link's page, "done"
    "password_reset", "password_reset_done", "password_reset_confirm", "password_reset_complete",
}  # fmt: skip
#: An invitation's link: for whoever holds it; any other token is a 404 for everyone.
INVITATION_PAGES = {"invitation-accept"}
#: For administrators only: a new club, with its first director invited.
ADMIN_PAGES = {"club-new"}
#: A table's own link.
TABLE_ROUTES = {
    "table-page", "api-table", "api-table-preview", "api-table-results", "api-table-confirm",
    "api-table-dispute", "api-table-call",
}  # fmt: skip
#: A drive table's own link (its tablet stays on the table while the players move).
DRIVE_TABLE_ROUTES = {
    "drive-table-page", "drive-table-stream", "api-drive-table", "api-drive-table-enter",
    "api-drive-table-confirm", "api-drive-table-wrong",
}  # fmt: skip
#: A team tournament table's own link, likewise.
TEAM_TABLE_ROUTES = {
    "team-table-page", "team-table-stream", "api-team-table", "api-team-table-enter",
    "api-team-table-confirm", "api-team-table-dispute", "api-team-table-preview",
}  # fmt: skip
TABLE_ROUTES |= DRIVE_TABLE_ROUTES | TEAM_TABLE_ROUTES
#: The director's API about one event.
DIRECTOR_EVENT_API = {
    "api-event", "api-event-start", "api-event-finish", "api-event-publish", "api-event-reopen",
    "api-pairs", "api-import", "api-board-fouled", "api-results", "api-result-confirm",
    "api-result-dispute", "api-result-correct", "api-artificial", "api-room",
    "api-print-documents", "api-print-document", "api-print-pack", "api-print-pack-state",
    "api-print-pack-pdf", "api-event-export", "api-pair-arrive", "api-pair-leave",
    "api-pair-presence-undo", "api-round-start",
    "api-drive", "api-drive-players", "api-drive-start", "api-drive-results", "api-drive-correct",
    "api-drive-next", "api-drive-finish", "api-drive-publish", "api-drive-totals",
    "api-drive-print", "api-drive-export", "api-drive-tablets",
    "api-drive-cards", "api-drive-arrive", "api-drive-leave",
    "api-tournament", "api-tournament-teams", "api-tournament-arrive", "api-tournament-start",
    "api-tournament-next", "api-tournament-games", "api-tournament-forfeit",
    "api-tournament-withdraw", "api-tournament-playoff", "api-tournament-tie",
    "api-tournament-finish",
    "api-tournament-tablets", "api-tournament-publish", "api-tournament-live",
    "api-tournament-moves-on", "api-tournament-export",
}  # fmt: skip
#: The director's API about a club, or any signed-in account's own clubs.
CLUB_API = {
    "api-club-settings", "api-import-event",
    # the club's member register, for its directors only
    "api-members", "api-member", "api-members-import-preview", "api-members-import-confirm",
    "api-members-export", "api-members-link", "api-member-merge", "api-member-erase",
    "api-member-data",
    # the club's seasons, for its directors only
    "api-seasons", "api-season", "api-competitions", "api-competition", "api-season-recompute",
    # the club's people: its directors, invitations and trail
    "api-people", "api-person", "api-invitation",
}  # fmt: skip
#: The director's pages about one of their clubs (another club's: 404).
CLUB_PAGES = {
    "members", "member-new", "member-edit", "members-import", "members-export",
    "members-export-xlsx",
    "member-merge", "member-erase", "member-data",
    "seasons", "season-new", "season-detail", "season-edit", "competition-new", "competition-edit",
    "people", "person-remove", "invitation-revoke",
}  # fmt: skip
SIGNED_IN_API = {"api-events", "api-advice", "api-drives", "api-tournaments"}
#: Public reading, through the API.
PUBLIC_EVENT_API = {"api-public", "api-public-board", "api-public-pair", "api-public-export"}
PUBLIC_CLUB_API = {"api-club", "api-member-history", "api-public-seasons", "api-public-season"}
#: Live results before publishing: the club's directors, or anyone once published.
STANDINGS_API = {"api-standings", "api-tournament-standings"}

#: What the club's scorer reaches of the director's routes: entering and correcting results
#: (an event's travellers, artificial scores and corrections; a drive's hands, corrections and
#: score cards; a tournament's games and tie games), and the pages those forms live on.
SCORER_ROUTES = {
    "event-enter", "event-traveller", "result-correct", "result-artificial",
    "api-results", "api-result-correct", "api-artificial",
    "drive-detail", "drive-enter", "drive-correct", "drive-cards",
    "api-drive-results", "api-drive-correct", "api-drive-cards",
    "tournament-detail", "tournament-enter", "tournament-tie",
    "api-tournament-games", "api-tournament-tie",
}  # fmt: skip
#: Signed-in pages that make something in one of one's own clubs: a scorer directs none.
MAKING_PAGES = {"event-new", "event-import-file", "drive-new", "tournament-new"}
#: A signed-in list that also makes a new evening by POST (the matrix sends a whole event):
#: a scorer may list (nothing), not make. The drives' and tournaments' lists refuse the
#: matrix's empty body for what it lacks before asking which club, as they do for anyone.
MAKING_LISTS = {"api-events"}
#: A running event's standings page reads as its public pages do: its directors, or anyone
#: once live or published; a scorer follows the event's results through the entry pages.
SCORER_UNSEEN = {"event-standings"}

AUDIENCES: dict[str, set[str]] = {
    "director_event": DIRECTOR_EVENT_PAGES | DIRECTOR_EVENT_API,
    "signed_in": SIGNED_IN_PAGES | SIGNED_IN_API,
    "club": CLUB_API | CLUB_PAGES,
    "public_event": PUBLIC_EVENT_PAGES | PUBLIC_EVENT_API | STANDINGS_API,
    "public_club": PUBLIC_CLUB_PAGES | PUBLIC_CLUB_API,
    "open": OPEN_PAGES,
    "table": TABLE_ROUTES,
    "invitation": INVITATION_PAGES,
    "admin": ADMIN_PAGES,
}


def audience_of(name: str) -> str:
    found = [audience for audience, names in AUDIENCES.items() if name in names]
    assert len(found) == 1, f"route {name!r} is in {found or 'no audience'}: decide who it is for"
    return found[0]


# ---- the world the callers are let loose on ---------------------------------------------------


@dataclass
class World:
    club: Club
    other_club: Club
    event: Event  # running, live results off: only its directors see anything of it
    published: Event
    tokens: dict[int, str]  # table -> link of the running event
    result: Result  # table 1's, round 1
    call: DirectorCall
    job: PrintJob
    player: str
    users: dict[str, Any]
    drive: Drive  # running, hand 1, table 1's result in; live totals off
    drive_tokens: dict[int, str]  # table -> link of the running drive
    tournament: Tournament  # running, round 1, table 1's game in; live standings off
    team_tokens: dict[int, str]  # table -> link of the running tournament
    invitation: Invitation  # the club's, still open
    #: what the club's director gets from each call (`director_answers`), found once
    director_answers: dict[tuple[str, str], int] = field(default_factory=dict)

    def kwargs(self, params: list[str], *, token: str, name: str = "") -> dict[str, Any]:
        is_drive = name.startswith(("drive-", "api-drive"))
        is_teams = name.startswith(("tournament-", "api-tournament", "league-"))
        pk = self.drive.pk if is_drive else self.event.pk
        if is_teams:
            pk = self.tournament.league_id if name == "league-detail" else self.tournament.pk
        values: dict[str, Any] = {
            "pk": pk,
            "what": "table-cards"
            if name.endswith("drive-print")
            else {
                "tournament-csv": "standings",
                "tournament-xlsx": "standings",
                "tournament-print": "team-list",
            }.get(name, "hands"),
            # a drive's player, a tournament's team, or a board
            "number": 1 if is_drive or is_teams else self.result.board_number,
            "result_id": self.result.pk,
            "pair_id": self.result.ns_pair_id,
            "call_id": self.call.pk,
            "job_id": self.job.pk,
            "table": 1,
            "round": 1,
            "token": token,
            "slug": self.club.slug,
            "name": self.player,
            "key": "NS1",
            "fmt": "csv",
            "kind": "travellers",
            "action": "leave" if name == "drive-comes-goes" else "finish",
            # read from the database only for a route that names them (below): three
            # queries for every call of every route were a fifth of the walks' time
            "member_id": lambda: _first_pk(Member.objects.filter(club=self.club)),
            "season_id": lambda: _first_pk(Season.objects.filter(club=self.club)),
            "competition_id": lambda: _first_pk(Competition.objects.filter(season__club=self.club)),
            # two co-directors: the page removes one, the API the other
            "user_id": self.users["co_director_2" if name == "api-person" else "co_director"].pk,
            "invitation_id": self.invitation.pk,
            "uidb64": "MQ",
        }
        missing = [p for p in params if p not in values]
        assert not missing, f"no test value for the route parameter(s) {missing}"
        return {p: values[p]() if callable(values[p]) else values[p] for p in params}


def _first_pk(rows: Any) -> int:
    return int(rows.values_list("pk", flat=True)[0])


@pytest.fixture(autouse=True)
def _streams_keep_the_test_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live stream hands its database connection back before streaming; in a test that
    runs in one transaction that would close the test's own connection."""
    from types import SimpleNamespace

    from tournaments.events.views import live as public

    monkeypatch.setattr(public, "connection", SimpleNamespace(close=lambda: None))


@pytest.fixture(scope="module")
def _shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world, made once for a module inside a transaction that is never committed (making
    it took a few seconds, as long as some of the tests that use it). Each test runs in a
    savepoint within it, rolled back at its end, so every test still starts from the same
    fresh world: a call that was let in and changed something is undone before the next. The
    cache is emptied before every test (tests/web/conftest.py)."""
    with django_db_blocker.unblock(), transaction.atomic():
        club = club_get_or_create(name="Test Whist Club")
        yield _make_world(club, make_director(club))
        transaction.set_rollback(True)


@pytest.fixture
def world(_shared_world: World, db: None) -> World:
    return _shared_world


def _make_world(club: Club, director: Any) -> World:
    users = get_user_model().objects
    other_club = club_get_or_create(name="The Other Club")
    other = users.create_user("other-td", password="pw-for-tests", is_staff=True)
    other_club.directors.add(other)
    Member.objects.create(club=club, name="Siân O'Neil", number="101")
    season = season_create(club=club, name="Matrix season", starts="2025-01-01", ends="2025-12-31")
    competition_add(season=season, name="Matrix ladder")
    admin = users.create_user("admin", password="pw-for-tests", is_superuser=True, is_staff=True)
    co_director = users.create_user("co-td", password="pw-for-tests")
    co_director_2 = users.create_user("co-td-2", password="pw-for-tests")
    club.directors.add(co_director, co_director_2)
    scorer = users.create_user("scorer", password="pw-for-tests")
    club.scorers.add(scorer)
    sent = people.invite(club=club, email="new@example.org", user=director, base_url="")

    published = make_event(club, user=director)
    Pair.objects.filter(section__event=published, number=1, direction="NS").update(
        player1="Ann Archer", player2="Bill Bennett"
    )
    event_simulate(event=published, seed=5, batch=True)
    event_finish(event=published, user=director)
    event_publish(event=published, user=director)

    event = make_event(club, user=director)
    tokens = {a.table: a.token for a in table_links_ensure_for(event=event, user=director)}
    # Round 1 is played; table 1 has entered its first board of round 2, not yet confirmed.
    event_simulate(event=event, rounds=1, seed=3, batch=True)
    table_1 = TableAccess.objects.get(token=tokens[1])
    now = table_round(event.section, 1)
    assert now == 2
    board = MovementRow.objects.filter(section=event.section, round=now, table=1).get()
    first = event.section.boards_of_set(board.board_set)[0]
    result, _ = tablet_submit(
        access=table_1, board_number=first, entry={"ns_tricks": 7}, key="matrix-key-1"
    )
    standings_refresh(event_id=event.pk)
    call = director_call(section=event.section, table=2, round=1, note="help")
    job = PrintJob.objects.create(
        event=event, status=PrintJob.Status.DONE, pdf=b"%PDF-1.4\n%%EOF\n", pages=1, total=1
    )
    drive = _running_drive(club, director)
    tournament = _running_tournament(club, director)
    return World(
        club=club,
        other_club=other_club,
        event=event,
        published=published,
        tokens=tokens,
        result=result,
        call=call,
        job=job,
        player="Ann Archer",
        users={
            "director": director,
            "other_director": other,
            "admin": admin,
            "co_director": co_director,
            "co_director_2": co_director_2,
            "scorer": scorer,
        },
        drive=drive,
        drive_tokens=dict(
            DriveTableAccess.objects.filter(drive=drive).values_list("table", "token")
        ),
        tournament=tournament,
        team_tokens=dict(
            TournamentTableAccess.objects.filter(tournament=tournament).values_list(
                "table", "token"
            )
        ),
        invitation=sent.invitation,
    )


def _running_tournament(club: Club, director: Any) -> Tournament:
    league = league_create(club=club, name="Matrix league", user=director)
    tournament = make_tournament(
        club, teams=5, rounds=3, name="Matrix teams", league=league, user=director
    )
    game_enter(
        tournament=tournament, table=1, score={"home_points": 7, "away_points": 2}, user=director
    )
    return tournament


def _running_drive(club: Club, director: Any) -> Drive:
    drive = make_drive(club, players=9, hands=4, name="Matrix drive", user=director)
    result_enter(drive=drive, table=1, entry={"ns_tricks": 8}, user=director)
    return drive


def client_for(role: str, world: World, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if role in world.users:
        client.force_login(world.users[role])
    return client


def fingerprint() -> tuple[Any, ...]:
    """What a refused call must leave as it was."""
    return (
        tuple(
            m.objects.count()
            for m in (Club, Event, Section, Pair, Board, Result, AuditEntry, Standings)
        ),
        tuple(TableAccess.objects.order_by("pk").values_list("token", "revoked_at")),
        tuple(DirectorCall.objects.order_by("pk").values_list("handled_at", flat=True)),
        tuple(
            Event.objects.order_by("pk").values_list(
                "name", "status", "results_version", "live_public"
            )
        ),
        tuple(Result.objects.order_by("pk").values_list("status", "ns_score", "entry")),
        tuple(Club.objects.order_by("pk").values_list("paper", "minutes_per_board")),
        tuple(Board.objects.order_by("pk").values_list("fouled", flat=True)),
        tuple(Pair.objects.order_by("pk").values_list("player1", "player2", "is_phantom")),
        PrintJob.objects.count(),
        tuple(Drive.objects.order_by("pk").values_list("name", "status", "hand", "live_public")),
        tuple(DrivePlayer.objects.order_by("pk").values_list("number", "name")),
        tuple(DriveSeating.objects.order_by("pk").values_list("hand", "seating")),
        tuple(DriveResult.objects.order_by("pk").values_list("hand", "table", "entry")),
        DriveAudit.objects.count(),
        tuple(
            Tournament.objects.order_by("pk").values_list(
                "name", "status", "round", "live_public", "moves_on", "bracket"
            )
        ),
        tuple(
            TournamentTeam.objects.order_by("pk").values_list(
                "number", "name", "present", "paid_cents", "withdrawn_after"
            )
        ),
        tuple(TournamentRound.objects.order_by("pk").values_list("number", "tables")),
        tuple(TournamentGame.objects.order_by("pk").values_list("status", "result", "kind")),
        TournamentAudit.objects.count(),
        League.objects.count(),
        tuple(Member.objects.order_by("pk").values_list("name", "number", "email", "active")),
        tuple(Member.objects.order_by("pk").values_list("public_name", flat=True)),
        tuple(Season.objects.order_by("pk").values_list("name", "starts", "ends")),
        tuple(Competition.objects.order_by("pk").values_list("name", "kind", "position")),
        # who may do what: the clubs' people, the invitations, the trail, the accounts
        tuple(Club.directors.through.objects.order_by("pk").values_list("club_id", "user_id")),
        tuple(Club.scorers.through.objects.order_by("pk").values_list("club_id", "user_id")),
        tuple(Invitation.objects.order_by("pk").values_list("accepted_at", "revoked_at")),
        PeopleAudit.objects.count(),
        get_user_model().objects.count(),
        tuple(get_user_model().objects.order_by("pk").values_list("password", flat=True)),
    )


# ---- the routes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    template: str  # as written in the URL conf, e.g. "events/<int:pk>/"
    params: list[str]


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue  # the admin: one audience of its own, checked below
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            template = prefix + str(entry.pattern)
            yield Route(entry.name, template, re.findall(r"<(?:\w+:)?(\w+)>", template))


def url_routes() -> list[Route]:
    """The routes outside the schema: pages, and the schema itself."""
    return [
        r
        for r in _walk(get_resolver().url_patterns)
        if not r.template.startswith("api/") or r.name == "api-schema"
    ]


def schema_operations() -> list[tuple[str, str]]:
    """(path template, method) of every operation the OpenAPI schema lists."""
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    return [
        (path, method.upper())
        for path, operations in paths.items()
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def api_url(template: str, world: World, token: str) -> tuple[str, str]:
    """A schema path filled with the world's values, and the route name it resolves to."""
    names = re.findall(r"{(\w+)}", template)
    probe = template
    for name in names:  # resolve first with placeholders the URL conf accepts
        probe = probe.replace("{" + name + "}", "1" if name in _INT_PARAMS else "x")
    match = resolve(probe)
    assert match.url_name, f"{template} resolves to an unnamed route"
    kwargs = world.kwargs(list(match.kwargs), token=token, name=match.url_name)
    path = template
    for schema_name, (_route_name, value) in zip(names, kwargs.items(), strict=True):
        path = path.replace("{" + schema_name + "}", str(value))
    return path, match.url_name


_INT_PARAMS = {
    "id", "pk", "number", "result_id", "call_id", "job_id", "table", "pair_id", "member_id",
    "season_id", "competition_id", "user_id", "invitation_id",
}  # fmt: skip

# ---- what each caller must get -----------------------------------------------------------------

LOGIN = "login"  # a redirect to the login page
ALLOWED = "allowed"  # reached the code: any answer but a refusal or a server error


def expected(
    audience: str, role: str, *, api: bool, name: str = "", method: str = "GET"
) -> str | int:
    refused_anonymous: str | int = 403 if api else LOGIN
    if role == "scorer":
        return expected_of_scorer(audience, name, method)
    if audience == "open":
        return ALLOWED
    if audience == "invitation":
        return 404  # the world's token is no invitation's: a page saying so, for everyone
    if audience == "table":
        return ALLOWED if role == "tablet" else 404
    if audience in {"public_event"}:
        # The running event: live results are off, so only its club's directors read it.
        return ALLOWED if role in {"director", "admin"} else 404
    if audience == "public_club":
        return ALLOWED
    anonymous = role in {"anonymous", "tablet"}
    if audience == "admin":
        return LOGIN if anonymous else ALLOWED if role == "admin" else 403
    if audience == "signed_in":
        return refused_anonymous if anonymous else ALLOWED
    if audience in {"director_event", "club"}:
        if anonymous:
            return refused_anonymous
        return 404 if role == "other_director" else ALLOWED
    raise AssertionError(audience)


def expected_of_scorer(audience: str, name: str, method: str) -> str | int:
    """The club's scorer: the result routes and what anyone signed in may reach; a 403 for the
    club's other director routes (they are told why); others' as for anyone else."""
    if name in SCORER_UNSEEN:
        return 404
    if audience in {"director_event", "club"}:
        return ALLOWED if name in SCORER_ROUTES else 403
    if audience == "signed_in":
        making = name in MAKING_PAGES or (name in MAKING_LISTS and method == "POST")
        return 403 if making else ALLOWED
    if audience == "admin":
        return 403
    return expected(audience, "other_director", api=False)


def check(response: Any, want: str | int, *, allowed_status: int | None, where: str) -> str | None:
    code = response.status_code
    if code == 503 and response.request["PATH_INFO"] == reverse("health"):
        code = 200  # the health check says a service (the worker) is down: an answer, not a fault
    if code >= 500:
        return f"{where}: {code} server error"
    if want == ALLOWED:
        refused = code in {401, 403, 404} or (
            code == 302 and "/login/" in response.get("Location", "")
        )
        why = response.content[:300].decode(errors="replace") if refused else ""
        return f"{where}: refused ({code}), expected to be allowed {why}" if refused else None
    if code == 405 and allowed_status == 405:
        return None  # the route does not take this method at all, from anyone
    if want == LOGIN:
        ok = code == 302 and "/accounts/login/" in response.get("Location", "")
        return None if ok else f"{where}: {code}, expected a redirect to the login page"
    if code == want:
        return None
    return f"{where}: {code}, expected {want}"


def calls(world: World, role: str) -> Iterator[tuple[str, str, str, Any, bool]]:
    """(audience, method, path, body, api) for every route and operation, reads first."""

    def token_for(name: str) -> str:
        if role != "tablet":
            return "not-a-real-table-link-0000000000"
        if name in DRIVE_TABLE_ROUTES:
            return world.drive_tokens[1]
        return world.team_tokens[1] if name in TEAM_TABLE_ROUTES else world.tokens[1]

    pages = []
    for route in url_routes():
        audience = audience_of(route.name)
        token = token_for(route.name)
        path = reverse(route.name, kwargs=world.kwargs(route.params, token=token, name=route.name))
        for method in ("GET", "POST"):
            pages.append((audience, method, path, None, False))
    operations = []
    for template, method in schema_operations():
        path, name = api_url(template, world, token_for(api_url(template, world, "x")[1]))
        body: Any = {}
        if name == "api-events" and method == "POST":
            body = _NEW_EVENT | {"club": world.club.name}
        if name == "api-import-event":
            body = {"text": "not a results file", "club": world.club.slug}
        operations.append((audience_of(name), method, path, body, True))
    everything = pages + operations
    logout = [c for c in everything if c[2] == reverse("logout")]
    yield from (c for c in everything if c[1] == "GET" and c not in logout)
    yield from (c for c in everything if c[1] not in ("GET", "DELETE") and c not in logout)
    # Removals after the other writes, the longest paths (a season's competition) before
    # their parents' (the season), so no removal leaves a later call nothing to reach.
    removals = [c for c in everything if c[1] == "DELETE" and c not in logout]
    yield from sorted(removals, key=lambda c: -len(c[2]))
    yield from logout  # last: it ends the session the other calls ride on


_NEW_EVENT = {
    "name": "Matrix night",
    "game": "classic",
    "movement_kind": "mitchell",
    "movement_params": {"tables": 3, "boards_per_round": 2},
}


def run_role(
    world: World,
    role: str,
    allowed_director: dict[tuple[str, str], int],
    only: Callable[[str], bool] = lambda audience: True,
    wanted: Callable[[str | int], bool] = lambda want: True,
) -> list[str]:
    """`role`'s calls to every route whose audience `only` takes and whose expected answer
    `wanted` takes, with what went wrong; the director's answers are also recorded in
    `allowed_director`, for the other roles' checks."""
    client = client_for(role, world)
    problems = []
    for audience, method, path, body, api in calls(world, role):
        if not only(audience):
            continue
        name = resolve(path).url_name or ""
        want = expected(audience, role, api=api, name=name, method=method)
        if not wanted(want):
            continue
        send: Callable[..., Any] = getattr(client, method.lower())
        kwargs = {"content_type": "application/json"} if api and method != "GET" else {}
        response = send(path, body, **kwargs) if method != "GET" else send(path)
        if role == "other_director" and path == "/api/events/" and method == "POST":
            want = 403  # a new event in a club they do not direct
        if role == "director":  # recorded for the other roles, and checked like theirs
            allowed_director[(method, path)] = response.status_code
        problem = check(
            response,
            want,
            allowed_status=allowed_director.get((method, path)),
            where=f"{role} {method} {path}",
        )
        if problem:
            problems.append(problem)
    return problems


# ---- the tests ---------------------------------------------------------------------------------


def test_every_route_and_operation_has_an_audience(world: World) -> None:
    routes = url_routes()
    names = {r.name for r in routes}
    api_names = {api_url(t, world, "x")[1] for t, _ in schema_operations()}
    for name in names | api_names:
        audience_of(name)
    every_api_route = {r.name for r in _walk(get_resolver().url_patterns)} - names
    assert every_api_route <= api_names, (
        f"API routes missing from the schema: {every_api_route - api_names}"
    )
    classified = set().union(*AUDIENCES.values())
    assert classified <= names | api_names, f"stale names: {classified - names - api_names}"


def director_answers(world: World) -> dict[tuple[str, str], int]:
    """What the club's director gets from each call, found in a transaction rolled back
    afterwards: it tells "refused" apart from "this route takes no such method from anyone".
    Found once for the module's world: every test starts from that same world (each is
    rolled back to it), so the answers are the same for each, and walking every route as the
    director for each test that asks was a third of the module's time."""
    if not world.director_answers:
        with transaction.atomic():
            run_role(world, "director", world.director_answers)
            transaction.set_rollback(True)
    return dict(world.director_answers)


@pytest.mark.parametrize("role", ["anonymous", "tablet", "other_director"])
def test_refused_callers_are_refused_and_change_nothing(world: World, role: str) -> None:
    answers = director_answers(world)
    before = fingerprint()
    problems = run_role(world, role, answers, only=lambda audience: audience != "table")
    assert not problems, "\n".join(problems)
    assert fingerprint() == before, f"a refused {role} changed something"
    # The table's own routes: a tablet reaches them (and may write), nobody else does.
    problems = run_role(world, role, answers, only=lambda audience: audience == "table")
    assert not problems, "\n".join(problems)
    if role != "tablet":
        assert fingerprint() == before, f"a refused {role} changed something"


def test_the_clubs_scorer_enters_results_and_is_refused_everything_else(world: World) -> None:
    """The scorer's refusals first, checked to change nothing; then what they may reach."""
    answers = director_answers(world)
    before = fingerprint()
    problems = run_role(world, "scorer", answers, wanted=lambda want: want != ALLOWED)
    assert not problems, "\n".join(problems)
    assert fingerprint() == before, "a refused scorer changed something"
    problems = run_role(world, "scorer", answers, wanted=lambda want: want == ALLOWED)
    assert not problems, "\n".join(problems)


def test_a_scorers_refusal_says_why(world: World) -> None:
    scorer = client_for("scorer", world)
    page = scorer.post(f"/events/{world.event.pk}/status/finish/")
    assert page.status_code == 403
    assert "only its directors may do this" in page.content.decode()
    api = scorer.post(f"/api/events/{world.event.pk}/actions/finish")
    assert api.status_code == 403 and "You score for Test Whist Club" in api.json()["detail"]
    members = scorer.get(f"/clubs/{world.club.slug}/members/")
    assert members.status_code == 403 and "Ask one of them" in members.content.decode()
    assert Event.objects.get(pk=world.event.pk).status == "running"


def test_a_tablet_reaches_only_its_own_tables_results(world: World) -> None:
    table_2 = world.tokens[2]
    before = fingerprint()
    for action in ("confirm", "dispute"):
        response = Client().post(
            f"/api/t/{table_2}/results/{world.result.pk}/{action}/",
            {"note": "not ours"},
            content_type="application/json",
        )
        assert response.status_code in {403, 404}, (action, response.status_code)
    assert fingerprint() == before


@pytest.mark.parametrize("role", ["director", "admin"])
def test_the_clubs_director_and_the_administrator_reach_everything(world: World, role: str) -> None:
    problems = run_role(world, role, director_answers(world))
    assert not problems, "\n".join(problems)


def test_a_published_event_is_open_to_everyone(world: World) -> None:
    for role in ROLES:
        client = client_for(role, world)
        # an event's pk is no drive's or tournament's
        drives = {"drive-public", "drive-display", "drive-player", *TEAM_PUBLIC_PAGES}
        for name in sorted(PUBLIC_EVENT_PAGES - {"public-stream", *drives}):
            route = next(r for r in url_routes() if r.name == name)
            kwargs = world.kwargs(route.params, token="x") | {"pk": world.published.pk}
            response = client.get(reverse(name, kwargs=kwargs))
            assert response.status_code == 200, (role, name, response.status_code)
        response = client.get(f"/api/public/events/{world.published.pk}/")
        assert response.status_code == 200, (role, "api-public")
        assert client.get(f"/api/events/{world.published.pk}/standings").status_code == 200


TEAM_PUBLIC_PAGES = {
    "tournament-public",
    "tournament-team",
    "tournament-csv",
    "tournament-xlsx",
    "league-detail",
}


def test_a_published_tournament_is_open_to_everyone(world: World) -> None:
    tournament = world.tournament
    pages = [
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/teams/1/",
        f"/tournaments/{tournament.pk}/standings.csv",
        f"/tournaments/{tournament.pk}/games.csv",
        f"/leagues/{tournament.league_id}/",
        f"/api/tournaments/{tournament.pk}/standings/",
    ]
    for path in pages:
        assert client_for("anonymous", world).get(path).status_code == 404, path
    Tournament.objects.filter(pk=tournament.pk).update(status="published")
    for role in ROLES:
        client = client_for(role, world)
        for path in pages:
            assert client.get(path).status_code == 200, (role, path)


def test_another_clubs_director_cannot_create_events_in_this_club(world: World) -> None:
    other = client_for("other_director", world)
    response = other.post(
        "/api/events/", _NEW_EVENT | {"club": world.club.name}, content_type="application/json"
    )
    assert response.status_code == 403
    assert "The Other Club" in response.json()["detail"]  # says which clubs they do direct
    assert not Event.objects.filter(name="Matrix night").exists()
    mine = other.post("/api/events/", _NEW_EVENT, content_type="application/json")
    assert mine.status_code == 201, mine.json()
    assert Event.objects.get(pk=mine.json()["id"]).club == world.other_club
    listed = {e["id"] for e in other.get("/api/events/").json()}
    assert listed == {mine.json()["id"]}


def test_an_account_without_a_club_is_told_what_to_do(world: World) -> None:
    lonely = get_user_model().objects.create_user("lonely", password="pw-for-tests")
    client = Client()
    client.force_login(lonely)
    page = client.get("/events/new/")
    assert page.status_code == 403
    assert "does not direct any club" in page.content.decode()
    api = client.post("/api/events/", _NEW_EVENT, content_type="application/json")
    assert api.status_code == 403
    assert "Ask your club's administrator" in api.json()["detail"]
    assert client.get(f"/events/{world.event.pk}/").status_code == 404


def test_only_administrators_open_the_admin(world: World) -> None:
    for role in ROLES:
        client = client_for(role, world)
        change = f"/admin/tournaments/event/{world.event.pk}/change/"
        for path in ("/admin/", "/admin/tournaments/event/", change):
            response = client.get(path)
            if role == "admin":
                assert response.status_code == 200, (role, path)
            else:
                assert response.status_code == 302, (role, path, response.status_code)
                assert response["Location"].startswith("/admin/login/")


def test_every_session_write_needs_the_csrf_token(world: World) -> None:
    client = client_for("director", world, enforce_csrf_checks=True)
    checked = 0
    for audience, method, path, body, api in calls(world, "director"):
        if method == "GET" or audience in {"open", "table"}:
            continue
        kwargs = {"content_type": "application/json"} if api else {}
        response = getattr(client, method.lower())(path, body, **kwargs)
        assert response.status_code == 403, (method, path, response.status_code)
        checked += 1
    assert checked > 50


def test_a_published_drive_is_open_to_everyone_and_a_running_one_only_to_its_directors(
    world: World,
) -> None:
    for path in _drive_pages(world.drive):
        for role in ROLES:
            want = 200 if role in {"director", "admin"} else 404
            assert client_for(role, world).get(path).status_code == want, (role, path)
    drive = drive_create(
        club=world.club, name="Done", settings={"hands": 2}, players=[f"P{n}" for n in range(4)]
    )
    drive_start(drive=drive, seed=1)
    for hand in (1, 2):
        result_enter(drive=drive, table=1, entry={"ns_tricks": 6 + hand})
        if hand == 1:
            hand_next(drive=drive, hand=1)
    drive_finish(drive=drive)
    drive_publish(drive=drive)
    for role in ROLES:
        for path in _drive_pages(drive):
            page = client_for(role, world).get(path)
            assert page.status_code == 200, (role, path)
            assert "P0" in page.content.decode()


def _drive_pages(drive: Drive) -> list[str]:
    """A drive's public pages (the totals, the big screen, player 1's card): one rule for all."""
    return [
        reverse("drive-public", kwargs={"pk": drive.pk}),
        reverse("drive-display", kwargs={"pk": drive.pk}),
        reverse("drive-player", kwargs={"pk": drive.pk, "number": 1}),
    ]
