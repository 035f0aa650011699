"""Schemathesis over the OpenAPI schema: every operation, called in-process (WSGI) with
generated and deliberately wrong input, never answers with a server error (5xx), and what it
answers with a documented status follows the schema (body and media type).

The director's operations are called with a signed-in director's session cookie and the CSRF
token DRF asks of a session; the tablets' `/api/t/{token}/...` with a real table link. Path
parameters are real objects most of the time (a running, a draft and a published event, their
boards, results and pairs, the club, a table link, a finished print job), so the calls reach
the views' code instead of stopping at a 404; the rest are generated, so unknown ids are tried
as well. Each operation starts from the same fresh objects (made once, each operation's test
rolled back to them): one that closes or publishes the event does not starve the others.

Every check schemathesis has runs on every answer (the command line's `--checks all`): no
server error, only documented statuses, bodies, media types and headers, schema-invalid input
refused, schema-valid input accepted, authentication enforced. `NOT_APPLICABLE` and
`NOT_CHECKED` say which checks do nothing here, or are left out for an operation, and why.

Examples per operation: a share of the Hypothesis profile's (`tests/fuzzing.py`);
`pytest --hypothesis-profile=deep tests/web/api/test_schemathesis.py` for a long run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import Client
from django.utils.crypto import get_random_string
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS, CheckFunction, load_all_checks

from engine.names import name_problem
from tests.fuzzing import ACCEPTED, RUN, examples
from tests.web.conftest import make_event
from tournaments.drives.models import DriveTableAccess
from tournaments.drives.services.drives import drive_create, drive_start
from tournaments.drives.services.paper import DOCUMENTS
from tournaments.events.models import Pair, PrintJob
from tournaments.events.services import closing, tablets
from tournaments.events.services.events import event_publish
from tournaments.events.services.printing import KINDS
from tournaments.events.services.results import result_submit
from tournaments.files.exports import FORMATS
from tournaments.kernel import people
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Member
from tournaments.seasons.services.seasons import competition_add, season_create
from tournaments.teams.models import TournamentTableAccess
from tournaments.teams.services.teams import team_arrive, tournament_create, tournament_start

pytestmark = pytest.mark.django_db

SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
#: Django's WSGI application: the calls, and the requests some checks make of their own (the
#: same request without the session, say), go to it in-process.
SCHEMA.app = WSGIHandler()
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op
    for op in (result.ok() for result in SCHEMA.get_all_operations())
}
#: The schema's `format: name` (tournaments/kernel/api/schema.py): a name under the one rule for
#: names, which its `pattern` says only in part (a visible character is beyond a pattern).
schemathesis.openapi.format(
    "name", st.text(min_size=1, max_size=40).filter(lambda text: _a_name(text))
)


def _a_name(text: str) -> bool:
    return bool(text.strip()) and name_problem(text, len(text)) is None


load_all_checks()
#: Every check schemathesis registers: what `--checks all` runs.
ALL_CHECKS: dict[str, CheckFunction] = {
    check.__name__: check for check in CHECKS.get_all() if not isinstance(check, type)
}
#: Checks that run on every answer but find nothing to check in this in-process run, and why.
#: They stay in the list: if schemathesis starts checking more, so does this test.
NOT_APPLICABLE = {
    # Both look at answers to requests of schemathesis's coverage phase (a required header
    # left out, a method the schema does not list), which Hypothesis strategies never make.
    "missing_required_header": "coverage phase only",
    "unsupported_method": "coverage phase only",
    # An answer to OPTIONS, which no operation of the schema is.
    "allow_header_conformance": "OPTIONS only",
    # Both follow a resource from the request that made (or deleted) it to the next one: the
    # stateful run's links. No operation here deletes what another reads; one that makes
    # (events, drives, tournaments) is read back in tests/web/api.
    "use_after_free": "stateful runs only",
    "ensure_resource_availability": "stateful runs only",
    # Replays one account's reads as another's, given several accounts to escalate through;
    # another club's director getting 404 everywhere is tests/web/security's job.
    "object_level_authorization": "needs several accounts",
}
#: Why a schema-valid request may still be refused (400) by an operation: what it takes
#: depends on the state of the objects it acts on, or on rules a JSON Schema cannot say.
_STATE = (
    "the event's, drive's or tournament's state decides (a start once, a finish when every "
    "result is in, the round, hand, table or board being played, what is stored already); "
    "the world holds each object in one state, so most valid requests find the wrong one"
)
_STATE_AND_DATE = (
    f"{_STATE}; and a date must fall between 1950 and two years from today, a bound that moves"
)
_RULES = (
    "the body's free-form objects (an entry of another game than the event's, a game's hands "
    "or score, a movement's or the engine's settings, a file's text) are checked by the "
    "game's rules, which the schema leaves open"
)
_REGISTER = (
    "the member register's state decides (a name or number already there: after the first "
    "example, every name is) and rules a JSON Schema cannot say (an email address, the name "
    "rule, a CSV's header naming a name column)"
)
_PRIVACY = (
    "the member register's state decides: a merge needs another record of the club, not "
    "forgotten (the world's register has one member), and a member is forgotten once (after "
    "the first example, the erase is refused)"
)
_SEASONS = (
    "the seasons' state decides (a name already there: after the first example, every name "
    "is; a removed season or competition) and rules a JSON Schema cannot say (a season ends "
    "on or after it starts, a total counts one kind of points, a chosen evening is the club's "
    "and within the season's dates)"
)
_PEOPLE = (
    "the club's people decide (a person removed once, the last director kept, an invitation "
    "withdrawn once: after the first example the same call is refused) and rules a JSON "
    "Schema cannot say (an email address)"
)
#: `positive_data_acceptance` left out, operation by operation, for the reason given. Every
#: other check runs on them, 400s included: no 5xx, no undocumented status, a documented body.
_NO_ACCEPTANCE = {
    "GET /api/drives/{id}/print/{what}.pdf": f"{_STATE} (a prize sheet needs a hand played)",
    "GET /api/events/{id}/documents/{kind}.pdf": f"{_STATE} (a document not printable yet)",
    "POST /api/d/{token}/confirm/": f"{_STATE}; {_RULES}",
    "POST /api/d/{token}/enter/": f"{_STATE}; {_RULES}",
    "POST /api/d/{token}/wrong/": _STATE,
    "POST /api/drives/": f"{_STATE_AND_DATE}; {_RULES}",
    "POST /api/drives/{id}/arrive/": _STATE,
    "POST /api/drives/{id}/cards/": f"{_STATE}; {_RULES}",
    "POST /api/drives/{id}/correct/": f"{_STATE}; {_RULES}",
    "POST /api/drives/{id}/finish/": _STATE,
    "POST /api/drives/{id}/leave/": _STATE,
    "POST /api/drives/{id}/next/": _STATE,
    "POST /api/drives/{id}/players/": _STATE,
    "POST /api/drives/{id}/publish/": _STATE,
    "POST /api/drives/{id}/results/": f"{_STATE}; {_RULES}",
    "POST /api/drives/{id}/start/": _STATE,
    "POST /api/events/": f"{_STATE_AND_DATE}; {_RULES}",
    "POST /api/events/import": _RULES,
    "POST /api/events/{id}/actions/finish": _STATE,
    "POST /api/events/{id}/actions/publish": _STATE,
    "POST /api/events/{id}/actions/reopen": _STATE,
    "POST /api/events/{id}/actions/start": _STATE,
    "POST /api/events/{id}/artificial": f"{_STATE}; {_RULES} (an artificial score's code)",
    "POST /api/events/{id}/boards/import": f"{_STATE}; {_RULES}",
    "POST /api/events/{id}/pairs": _STATE,
    "POST /api/events/{id}/pairs/arrive": f"{_STATE}; {_RULES} (an award's code)",
    "POST /api/events/{id}/pairs/{pair_id}/leave": f"{_STATE}; {_RULES} (an award's code)",
    "POST /api/events/{id}/pairs/{pair_id}/presence/undo": _STATE,
    "POST /api/events/{id}/rounds/start": f"{_STATE}; {_RULES} (an artificial score's code)",
    "POST /api/events/{id}/results": f"{_STATE}; {_RULES}",
    "POST /api/events/{id}/results/{result_id}/correct": f"{_STATE}; {_RULES}",
    "POST /api/events/{id}/results/{result_id}/dispute": _STATE,
    "POST /api/clubs/{slug}/members/": _REGISTER,
    "PATCH /api/clubs/{slug}/members/{member_id}/": _REGISTER,
    "POST /api/clubs/{slug}/members/import/preview": _REGISTER,
    "POST /api/clubs/{slug}/members/import/confirm": _REGISTER,
    "POST /api/clubs/{slug}/members/{member_id}/merge/": _PRIVACY,
    "POST /api/clubs/{slug}/members/{member_id}/erase/": _PRIVACY,
    "POST /api/clubs/{slug}/people/": _PEOPLE,
    "DELETE /api/clubs/{slug}/people/{user_id}/": _PEOPLE,
    "DELETE /api/clubs/{slug}/invitations/{invitation_id}/": _PEOPLE,
    "POST /api/clubs/{slug}/seasons/": _SEASONS,
    "PATCH /api/clubs/{slug}/seasons/{season_id}/": _SEASONS,
    "POST /api/clubs/{slug}/seasons/{season_id}/competitions/": _SEASONS,
    "PATCH /api/clubs/{slug}/seasons/{season_id}/competitions/{competition_id}/": _SEASONS,
    "POST /api/t/{token}/preview/": f"{_STATE}; {_RULES}",
    "POST /api/t/{token}/results/": f"{_STATE}; {_RULES}",
    # Each example disputes the same stored results: after the first, they are disputed.
    "POST /api/t/{token}/results/{result_id}/dispute/": _STATE,
    "POST /api/tournaments/": f"{_STATE_AND_DATE}; {_RULES}",
    "POST /api/tournaments/{id}/finish/": _STATE,
    "POST /api/tournaments/{id}/forfeit/": _STATE,
    "POST /api/tournaments/{id}/games/": f"{_STATE}; {_RULES}",
    "POST /api/tournaments/{id}/next/": _STATE,
    "POST /api/tournaments/{id}/playoff/": f"{_STATE}; {_RULES}",
    "POST /api/tournaments/{id}/publish/": _STATE,
    "POST /api/tournaments/{id}/start/": _STATE,
    "POST /api/tournaments/{id}/teams/": _STATE,
    # Only where the settings play ties off, once the rounds are over, two teams level.
    "POST /api/tournaments/{id}/tie/": f"{_STATE}; {_RULES}",
    # Present or not is the door's state (after the draw the door is closed).
    "POST /api/tournaments/{id}/teams/{number}/arrive/": _STATE,
    "POST /api/tournaments/{id}/withdraw/": _STATE,
    "POST /api/tt/{token}/confirm/": _STATE,
    "POST /api/tt/{token}/dispute/": _STATE,
    "POST /api/tt/{token}/enter/": f"{_STATE}; {_RULES}",
    "POST /api/tt/{token}/preview/": _RULES,
}
#: Checks left out for one operation, and why (never `not_a_server_error` nor
#: `status_code_conformance`: no 5xx and no undocumented status anywhere).
NOT_CHECKED: dict[str, dict[str, str]] = {
    label: {"positive_data_acceptance": why} for label, why in _NO_ACCEPTANCE.items()
}
#: Operations that draw PDFs take a second or more a call, and the movement advisor a good
#: part of one for a big field (its query is in range now, so every call works it out):
#: fewer examples.
SLOW = {
    label
    for label in OPERATIONS
    if ".pdf" in label or "print-pack" in label or label == "GET /api/advice/"
}


@pytest.fixture
def app() -> Iterator[WSGIHandler]:
    """Django's WSGI application, without the reset of database connections at each request's
    start and end (Django's own test client leaves it out too), so the requests run inside
    the test's transaction and see its objects."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield SCHEMA.app
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@dataclass
class World:
    """The real objects path parameters are drawn from, and the director's headers."""

    values: dict[str, list[Any]]
    headers: dict[str, str]
    cookies: dict[str, str]


@pytest.fixture(scope="module")
def _shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The objects, made once for the module inside a transaction that is never committed
    (making them took most of each operation's time). Each operation's test runs in a
    savepoint within it, rolled back at its end, so each still starts from the same fresh
    objects: one that closes or publishes the event does not starve the others. The cache
    is emptied before every test (tests/web/conftest.py), so nothing one operation left there
    is seen by the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _make_world(club_get_or_create(name="Test Whist Club"))
        transaction.set_rollback(True)


@pytest.fixture
def world(_shared_world: World, db: None) -> World:
    return _shared_world


def _make_world(club: Club) -> World:
    user = get_user_model().objects.create_superuser("fuzz-director", password="pw-for-tests")
    club.directors.add(user)
    running = make_event(club, user=user)  # classic, 3 tables, 6 boards
    first, _ = result_submit(
        section=running.section, round=1, table=1, board_number=1, entry={"ns_tricks": 7}
    )
    second, _ = result_submit(
        section=running.section,
        round=1,
        table=2,
        board_number=3,
        entry={"ns_tricks": 9},
        confirm=True,
    )
    draft = make_event(club, game="bidwhist", start=False, user=user)
    published = make_event(club, game="candid", user=user)
    closing.event_close(event=published, missing="average", confirm=True, user=user)
    event_publish(event=published, user=user)
    job = PrintJob.objects.create(
        event=running, status=PrintJob.Status.DONE, pdf=b"%PDF-1.4\n%%EOF\n", pages=1
    )
    tokens = [access.token for access in tablets.table_links_ensure(event=running)]
    drive = drive_create(
        club=club,
        name="Fuzzed drive",
        settings={"hands": 4, "half_time": 2},
        players=[f"Player {n}" for n in range(1, 9)],
        user=user,
    )
    playing = drive_create(
        club=club,
        name="Fuzzed drive at its tables",
        settings={"hands": 4, "half_time": 2},
        players=[f"Player {n}" for n in range(1, 9)],
        user=user,
    )
    drive_start(drive=playing, seed=3, user=user)
    drive_tokens = list(
        DriveTableAccess.objects.filter(drive=playing).values_list("token", flat=True)
    )
    teams = tournament_create(
        club=club,
        name="Fuzzed teams",
        settings={"rotation": "swiss", "rounds": 3, "playoff": 4},
        teams=[{"name": f"Team {n}", "city": "Akron" if n < 3 else ""} for n in range(1, 7)],
        user=user,
    )
    for number in range(1, 7):
        team_arrive(tournament=teams, number=number, user=user)
    tournament_start(tournament=teams, seed=4, user=user)
    team_tokens = list(
        TournamentTableAccess.objects.filter(tournament=teams).values_list("token", flat=True)
    )
    season = season_create(club=club, name="Fuzzed season", starts="2025-01-01", ends="2025-12-31")
    competition = competition_add(season=season, name="Fuzzed ladder")
    co_director = get_user_model().objects.create_user("fuzz-co", password="pw-for-tests")
    club.directors.add(co_director)
    invitation = people.invite(club=club, email="new@example.org", user=user, base_url="")
    login = Client()
    login.force_login(user)
    csrf = get_random_string(32)
    return World(
        values={
            "id": sorted({running.pk, draft.pk, published.pk, drive.pk, playing.pk, teams.pk}),
            "number": [1, 2, 3, 6],
            "result_id": [first.pk, second.pk],
            "pair_id": [first.ns_pair_id, first.ew_pair_id],
            "key": ["NS1", "EW2", "1", *(p.label for p in Pair.objects.all()[:2])],
            "fmt": sorted(FORMATS),
            "kind": sorted(KINDS),
            "what": sorted(DOCUMENTS),
            "job_id": [job.pk],
            "slug": [club.slug],
            "member_id": [Member.objects.create(club=club, name="Siân O'Neil", number="1").pk],
            "season_id": [season.pk],
            "competition_id": [competition.pk],
            "user_id": [co_director.pk, user.pk],
            "invitation_id": [invitation.invitation.pk],
            "token": [*tokens[:2], *drive_tokens[:2], *team_tokens[:2]],
        },
        headers={"X-CSRFToken": csrf},
        cookies={"sessionid": login.cookies["sessionid"].value, "csrftoken": csrf},
    )


def _real_path_parameters(op: Any, world: World) -> st.SearchStrategy[dict[str, Any]]:
    names = [p.name for p in op.path_parameters]
    return st.fixed_dictionaries({name: st.sampled_from(world.values[name]) for name in names})


def _cases(op: Any, world: World) -> st.SearchStrategy[Any]:
    """Mostly real path parameters (with valid and with invalid bodies and queries), now and
    then generated ones. The session cookie is given, never generated: a negative case that
    left it out would be sent with it all the same, and accepted."""
    real = _real_path_parameters(op, world)
    cookies = world.cookies if "sessionid" in {p.name for p in op.iter_parameters()} else None
    return st.one_of(
        real.flatmap(
            lambda pp: op.as_strategy(GenerationMode.POSITIVE, path_parameters=pp, cookies=cookies)
        ),
        real.flatmap(
            lambda pp: op.as_strategy(GenerationMode.NEGATIVE, path_parameters=pp, cookies=cookies)
        ),
        op.as_strategy(GenerationMode.POSITIVE, cookies=cookies),
    )


def _checks(label: str) -> list[CheckFunction]:
    left_out = NOT_CHECKED.get(label, {})
    return [check for name, check in ALL_CHECKS.items() if name not in left_out]


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_operation_answers_as_its_schema_says(
    label: str, app: WSGIHandler, world: World
) -> None:
    op = OPERATIONS[label]
    checks = _checks(label)
    # The session cookie, as the checks see the credentials they were given: `ignored_auth`
    # sends the request again without it, and with a forged one, and wants a 401 or 403.
    credentials = {
        "Cookie": "; ".join(f"{name}={value}" for name, value in world.cookies.items()),
        **world.headers,
    }
    transport = {"app": app, "headers": world.headers, "cookies": world.cookies}
    auth_confirmed = False

    @examples(0.05 if label in SLOW else 0.3, at_least=5)
    @given(case=_cases(op, world))
    def check(case: Any) -> None:
        nonlocal auth_confirmed
        RUN["schemathesis"] += 1
        response = case.call(app=app, headers=world.headers, cookies=world.cookies)
        assert response.status_code < 500, (
            f"{label} answered {response.status_code}:\n{response.text[:2000]}\n"
            f"{case.as_curl_command()}"
        )
        accepted = response.status_code < 400
        if accepted:
            ACCEPTED["schemathesis"] += 1
        # `ignored_auth` once an operation has accepted a request, as the command line does
        # (once per operation and run): its two extra requests each time would prove nothing
        # new and double the run.
        run = [c for c in checks if c.__name__ != "ignored_auth" or not auth_confirmed]
        case.validate_response(
            response, checks=run, headers=credentials, transport_kwargs=transport
        )
        auth_confirmed = auth_confirmed or accepted

    check()


def test_the_real_objects_cover_every_path_parameter() -> None:
    """A new path parameter needs real values in `world`, or its calls would all be 404s."""
    names = {p.name for op in OPERATIONS.values() for p in op.path_parameters}
    assert names <= {
        "id",
        "number",
        "result_id",
        "pair_id",
        "key",
        "fmt",
        "kind",
        "job_id",
        "slug",
        "token",
        "what",
        "member_id",
        "user_id",
        "invitation_id",
        "season_id",
        "competition_id",
    }
    assert len(OPERATIONS) >= 39 and SLOW


def test_every_check_left_out_is_named_and_explained() -> None:
    """A check left out names a real operation and a real check, never the two that carry
    the promise (no server error, no undocumented status), and says why."""
    assert set(NOT_APPLICABLE) <= set(ALL_CHECKS)
    assert {"not_a_server_error", "status_code_conformance", "ignored_auth"} <= set(ALL_CHECKS)
    for label, left_out in NOT_CHECKED.items():
        assert label in OPERATIONS, label
        assert set(left_out) <= set(ALL_CHECKS) - {
            "not_a_server_error",
            "status_code_conformance",
        }
        assert all(why.strip() for why in left_out.values())


def test_club_names_that_make_the_same_slug_are_two_clubs(db: Any) -> None:
    """Found by this file's fuzzing: a second club whose name slugified like the first's
    (":" and "!" both give "club") was a 500 from the unique slug. (An administrator makes a
    club by naming it; a director names only clubs they direct.)"""
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("admin", password="pw-for-tests"))
    before = set(Club.objects.values_list("pk", flat=True))  # the module's world may hold one
    made = []
    for name in (":", "!", "Riverside", "riverside!", "Riverside"):
        answer = admin.post(
            "/api/events/",
            {
                "name": "Night",
                "game": "classic",
                "movement_kind": "mitchell",
                "movement_params": {"tables": 3},
                "club": name,
            },
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content
        made.append(answer.json()["club"])
    assert made == [":", "!", "Riverside", "riverside!", "Riverside"]
    assert sorted(Club.objects.exclude(pk__in=before).values_list("slug", flat=True)) == [
        "club",
        "club-2",
        "riverside",
        "riverside-2",
    ]
