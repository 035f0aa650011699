"""Schemathesis over the OpenAPI schema: every operation, called in-process (WSGI) with
generated and deliberately wrong input, never answers with a server error (5xx), and what it
answers with a documented status follows the schema (body and media type).

The director's operations are called with a signed-in director's session cookie and the CSRF
token DRF asks of a session; the tablets' `/api/t/{token}/...` with a real table link. Path
parameters are real objects most of the time (a running, a draft and a published event, their
boards, results and pairs, the club, a table link, a finished print job), so the calls reach
the views' code instead of stopping at a 404; the rest are generated, so unknown ids are tried
as well. Each operation gets a fresh set of objects (its own test and transaction): one that
closes or publishes the event does not starve the others.

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
from django.db import close_old_connections
from django.test import Client
from django.utils.crypto import get_random_string
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.fuzzing import ACCEPTED, RUN, examples
from tests.web.conftest import make_event
from tournaments.drive_models import DriveTableAccess
from tournaments.models import Club, Pair, PrintJob
from tournaments.services import closing, tablets
from tournaments.services.drive_paper import DOCUMENTS
from tournaments.services.drives import drive_create, drive_start
from tournaments.services.events import event_publish
from tournaments.services.exports import FORMATS
from tournaments.services.printing import KINDS
from tournaments.services.results import result_submit
from tournaments.services.teams import team_arrive, tournament_create, tournament_start
from tournaments.team_models import TournamentTableAccess

pytestmark = pytest.mark.django_db

SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op
    for op in (result.ok() for result in SCHEMA.get_all_operations())
}
#: Besides no 5xx: a documented answer's body and media type follow the schema.
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
#: Operations that draw PDFs take a second or more a call: fewer examples.
SLOW = {label for label in OPERATIONS if ".pdf" in label or "print-pack" in label}


@pytest.fixture
def app() -> Iterator[WSGIHandler]:
    """Django's WSGI application, without the reset of database connections at each request's
    start and end (Django's own test client leaves it out too), so the requests run inside
    the test's transaction and see its objects."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@dataclass
class World:
    """The real objects path parameters are drawn from, and the director's headers."""

    values: dict[str, list[Any]]
    headers: dict[str, str]
    cookies: dict[str, str]


@pytest.fixture
def world(club: Club) -> World:
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
    login = Client()
    login.force_login(user)
    csrf = get_random_string(32)
    return World(
        values={
            "id": sorted({running.pk, draft.pk, published.pk, drive.pk, playing.pk, teams.pk}),
            "number": [1, 2, 3, 6],
            "result_id": [first.pk, second.pk],
            "key": ["NS1", "EW2", "1", *(p.label for p in Pair.objects.all()[:2])],
            "fmt": sorted(FORMATS),
            "kind": sorted(KINDS),
            "what": sorted(DOCUMENTS),
            "job_id": [job.pk],
            "slug": [club.slug],
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
    then generated ones."""
    real = _real_path_parameters(op, world)
    return st.one_of(
        real.flatmap(lambda pp: op.as_strategy(GenerationMode.POSITIVE, path_parameters=pp)),
        real.flatmap(lambda pp: op.as_strategy(GenerationMode.NEGATIVE, path_parameters=pp)),
        op.as_strategy(GenerationMode.POSITIVE),
    )


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_no_operation_answers_with_a_server_error(
    label: str, app: WSGIHandler, world: World
) -> None:
    op = OPERATIONS[label]

    @examples(0.05 if label in SLOW else 0.3, at_least=5)
    @given(case=_cases(op, world))
    def check(case: Any) -> None:
        RUN["schemathesis"] += 1
        response = case.call(app=app, headers=world.headers, cookies=world.cookies)
        assert response.status_code < 500, (
            f"{label} answered {response.status_code}:\n{response.text[:2000]}\n"
            f"{case.as_curl_command()}"
        )
        if response.status_code < 400:
            ACCEPTED["schemathesis"] += 1
        case.validate_response(response, checks=CHECKS)

    check()


def test_the_real_objects_cover_every_path_parameter() -> None:
    """A new path parameter needs real values in `world`, or its calls would all be 404s."""
    names = {p.name for op in OPERATIONS.values() for p in op.path_parameters}
    assert names <= {
        "id",
        "number",
        "result_id",
        "key",
        "fmt",
        "kind",
        "job_id",
        "slug",
        "token",
        "what",
    }
    assert len(OPERATIONS) >= 39 and SLOW


def test_club_names_that_make_the_same_slug_are_two_clubs(db: Any) -> None:
    """Found by this file's fuzzing: a second club whose name slugified like the first's
    (":" and "!" both give "club") was a 500 from the unique slug. (An administrator makes a
    club by naming it; a director names only clubs they direct.)"""
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("admin", password="pw-for-tests"))
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
    assert sorted(Club.objects.values_list("slug", flat=True)) == [
        "club",
        "club-2",
        "riverside",
        "riverside-2",
    ]
