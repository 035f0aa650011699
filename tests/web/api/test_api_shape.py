"""The API's shape: the entry schema comes from the games, one operation per view, lists without
N+1, and reads that never write."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import yaml
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from engine.games import find_variant, variant_names
from tests.web.conftest import make_event
from tournaments.events.models import Standings
from tournaments.events.services.results import result_submit
from tournaments.events.services.scoring import standings_refresh

pytestmark = pytest.mark.django_db


def _schema(client: Client) -> dict[str, Any]:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    loaded: dict[str, Any] = yaml.safe_load(response.content)
    return loaded


def _entry_schema(schema: dict[str, Any], component: str) -> dict[str, Any]:
    entry: dict[str, Any] = schema["components"]["schemas"][component]["properties"]["entry"]
    return entry


def test_the_entry_schema_is_generated_from_every_games_fields(director_client) -> None:
    schema = _schema(director_client)
    for component in ("ResultsIn", "CorrectIn"):
        shapes = {s["title"]: s for s in _entry_schema(schema, component)["oneOf"]}
        for name in variant_names():
            rules = find_variant(name)()
            shape = shapes[f"{rules.title} result"]
            for field in rules.entry_fields():
                if field.kind == "flag":
                    assert f"{rules.title}: {field.label.lower()}" in shapes
                    continue
                prop = shape["properties"][field.key.split(".")[0]]
                if field.kind == "int":
                    assert (prop["minimum"], prop["maximum"]) == (field.minimum, field.maximum)
                else:
                    assert prop["enum"] == [c.value for c in field.choices]
        three = shapes["Open Whist result (players=3)"]["properties"]["tricks"]
        assert sorted(three["properties"]) == ["E", "N", "S"]
        assert three["properties"]["N"]["maximum"] == 17


def test_every_operation_has_its_own_id(director_client) -> None:
    schema = _schema(director_client)
    ids = Counter(
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    )
    assert ids and all(count == 1 for count in ids.values()), ids
    paths = schema["paths"]
    for action in ("start", "finish", "publish", "reopen"):
        assert "post" in paths[f"/api/events/{{id}}/actions/{action}"]
    for action in ("confirm", "dispute", "correct"):
        assert "post" in paths[f"/api/events/{{id}}/results/{{result_id}}/{action}"]


def test_an_unknown_action_is_not_found(director_client, running_event) -> None:
    url = f"/api/events/{running_event.pk}/actions/explode"
    assert director_client.post(url, {}, content_type="application/json").status_code == 404


def test_the_event_list_asks_the_same_few_queries_however_many_events(
    director_client, club, director
) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert director_client.get("/api/events/").status_code == 200
        return len(queries)

    make_event(club, user=director, start=False)
    one = count()
    for _ in range(4):
        make_event(club, user=director, start=False)
    assert len(director_client.get("/api/events/").json()) == 5
    assert count() == one


def test_reading_the_standings_never_writes(director_client, running_event) -> None:
    url = f"/api/events/{running_event.pk}/standings"
    assert not Standings.objects.filter(event=running_event).exists()
    with CaptureQueriesContext(connection) as queries:
        first = director_client.get(url)
    assert first.status_code == 200
    assert first.json()["behind"] is False
    assert not Standings.objects.filter(event=running_event).exists()
    writes = [q["sql"] for q in queries if q["sql"].split()[0] in {"INSERT", "UPDATE", "DELETE"}]
    assert writes == []


def test_standings_say_when_they_are_behind(director_client, running_event) -> None:
    """A confirmed result bumps the results version at once; until the scorer has stored
    standings of that version, a read serves the stored ones and says they are behind."""
    url = f"/api/events/{running_event.pk}/standings"
    standings_refresh(event_id=running_event.pk, force=True)
    assert director_client.get(url).json()["behind"] is False
    result_submit(
        section=running_event.section,
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 7},
        confirm=True,
    )
    behind = director_client.get(url).json()
    assert behind["behind"] is True and behind["sections"][0]["boards"] == {}
    standings_refresh(event_id=running_event.pk)
    caught_up = director_client.get(url).json()
    assert caught_up["behind"] is False and list(caught_up["sections"][0]["boards"]) == ["1"]


def test_the_schema_generates_and_validates_without_a_warning(tmp_path) -> None:
    """`manage.py spectacular --validate --fail-on-warn`: no name collisions (two serializers
    or enums called the same), every operation with its own id, a valid OpenAPI document."""
    from django.core.management import call_command
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()  # warnings of schemas generated earlier in this process
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    ids = [
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]
    assert len(ids) == len(set(ids)) > 30
    assert all(op.replace("_", "").isalnum() for op in ids), ids


def test_every_operation_documents_the_errors_it_can_answer(director_client) -> None:
    """The error statuses come from one rule (`tournaments/kernel/api/schema.py`), so no operation
    can leave them out: a write or a query can be refused (400), a path names something that
    may not exist (404), a body may be too large (413), a director's operation needs the
    session (403), a tablet's link is throttled (429); each with the API's error document."""
    schema = _schema(director_client)
    checked = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            places = {p["in"] for p in operation.get("parameters", [])}
            label = f"{method.upper()} {path}"
            if method != "get" or "query" in places:
                assert "400" in codes, label
            if "requestBody" in operation:
                assert {"400", "413"} <= codes, label
                assert list(operation["requestBody"]["content"]) == ["application/json"], label
            if "path" in places:
                assert "404" in codes, label
            if {"cookieAuth": []} in operation.get("security", []) and {} not in operation.get(
                "security", []
            ):
                assert "403" in codes, label
            if path.startswith(("/api/t/", "/api/d/", "/api/tt/")):
                assert {"403", "404", "409", "429"} <= codes, label
                assert "Retry-After" in operation["responses"]["429"]["headers"], label
            for code in codes & {"400", "403", "404", "413", "429"}:
                body = operation["responses"][code]["content"]["application/json"]["schema"]
                assert body.get("$ref", "").rsplit("/", 1)[-1] in {"Error", "BadRequest"} or (
                    "detail" in str(body) or "Refused" in str(body)
                ), (label, code, body)
            checked += 1
    assert checked > 80
    errors = schema["components"]["schemas"]
    assert errors["Error"]["required"] == ["detail"]
    assert {branch["type"] for branch in errors["BadRequest"]["anyOf"]} == {"object", "array"}


def test_a_url_under_the_api_that_matches_no_route_is_a_json_404(client) -> None:
    """The schema's 404 is JSON; Django's own page for an unrouted URL was HTML."""
    answer = client.get("/api/events/-1/")
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": "Not found."}
    assert client.get("/no-such-page/")["Content-Type"].startswith("text/html")
