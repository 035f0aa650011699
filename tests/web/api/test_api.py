"""The REST API: the same operations as the pages, with the engine's messages on HTTP 400."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from drf_spectacular.views import SpectacularAPIView

from clubwhist.schema import SchemaView
from tournaments.events.models import AuditEntry, Event, Result

pytestmark = pytest.mark.django_db

CREATE = {
    "name": "API night",
    "game": "candid",
    "movement_kind": "mitchell",
    "movement_params": {"tables": 3, "boards_per_round": 2},
    "seed": "42",
    "club": "Test Whist Club",
}


def create_and_start(client: Client) -> int:
    response = client.post("/api/events/", CREATE, content_type="application/json")
    assert response.status_code == 201, response.json()
    pk = int(response.json()["id"])
    started = client.post(f"/api/events/{pk}/actions/start", {}, content_type="application/json")
    assert started.status_code == 200 and started.json()["status"] == "running"
    return pk


def test_the_api_needs_a_login() -> None:
    assert Client().get("/api/events/").status_code == 403


def test_the_schema_is_served(director_client: Client) -> None:
    response = director_client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/events/{id}/results" in response.content


def test_the_schema_is_made_once_per_format_and_served_the_same(
    director_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The document is kept per format after its first request (clubwhist/schema.py): the
    kept bytes are what a fresh view makes, YAML and JSON alike, with their media types; a
    version or a language asked for is answered with the kept document; an Accept header with
    parameters of its own is made afresh and never kept."""
    monkeypatch.setattr(SchemaView, "_made", {})
    made: list[object] = []
    real = SpectacularAPIView.get

    def counted(self: SpectacularAPIView, request: object, *args: object, **kw: object) -> object:
        made.append(request)
        return real(self, request, *args, **kw)

    monkeypatch.setattr(SpectacularAPIView, "get", counted)
    json_type = "application/vnd.oai.openapi+json"
    yaml_first = director_client.get("/api/schema/")
    json_first = director_client.get("/api/schema/", HTTP_ACCEPT=json_type)
    yaml_again = Client().get("/api/schema/")
    json_again = Client().get("/api/schema/", HTTP_ACCEPT=json_type)
    assert len(made) == 2  # one each, the second requests served from what was kept
    assert yaml_again.content == yaml_first.content
    assert yaml_again["Content-Type"].startswith("application/vnd.oai.openapi")
    assert json.loads(json_again.content) == json.loads(json_first.content)
    assert json_again["Content-Type"].startswith(json_type)
    assert "/api/events/{id}/results" in json.loads(json_again.content)["paths"]
    # One version, one language: what a query asks for changes nothing and costs nothing.
    for query in ("?version=2", "?lang=fr", "?version=%C2%B2&lang=xx"):
        asked = Client().get("/api/schema/" + query)
        assert asked.status_code == 200 and asked.content == yaml_first.content
    assert len(made) == 2
    indented = Client().get("/api/schema/", HTTP_ACCEPT=json_type + "; indent=4")
    assert len(made) == 3 and set(SchemaView._made) == {"yaml", "json"}
    assert json.loads(indented.content) == json.loads(json_first.content)


def test_the_schema_says_no_query_value_holds_a_nul(director_client: Client) -> None:
    """Every query refuses a NUL with a 400 (clubwhist/addresses.py), so every free string a
    query takes says so in the document: a pattern that refuses a NUL and takes any other
    text. (The API fuzzing took the 400 for a valid value refused.) And the refusal itself."""
    document = director_client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    free = [
        (route, parameter["name"], parameter["schema"])
        for route, path in document["paths"].items()
        for operation in path.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query"
        and parameter["schema"].get("type") == "string"
        and "enum" not in parameter["schema"]
    ]
    assert ("/api/clubs/{slug}/members/", "q") in {(r, n) for r, n, _ in free}
    for route, name, schema in free:
        pattern = re.compile(schema.get("pattern", ""))
        assert not pattern.search("Ann\x00Archer"), (route, name)
        assert pattern.search("Ann Archer, 2026 — ♠") and pattern.search(""), (route, name)
    refused = director_client.get("/api/clubs/test-whist-club/members/?q=Ann%00")
    assert refused.status_code == 400 and "NUL" in refused.json()["detail"]


def test_an_event_is_created_and_described(director_client: Client) -> None:
    pk = create_and_start(director_client)
    body = director_client.get(f"/api/events/{pk}/").json()
    assert body["game"] == "candid" and body["tables"] == 3 and body["rounds"] == 3
    assert body["movement"]["one_winner"] is False
    pairs = director_client.get(f"/api/events/{pk}/pairs").json()
    assert len(pairs) == 6


def test_a_bad_event_gets_the_engines_message(director_client: Client) -> None:
    bad = {**CREATE, "game": "bridge"}
    response = director_client.post("/api/events/", bad, content_type="application/json")
    assert response.status_code == 400
    assert "bridge" in response.json()["detail"]
    assert not Event.objects.exists()


def test_results_are_submitted_once_and_scored(director_client: Client) -> None:
    pk = create_and_start(director_client)
    result = {
        "round": 1,
        "table": 1,
        "board": 1,
        "confirm": True,
        "idempotency_key": "t1-b1",
        "entry": {"declarer": "N", "bid": 8, "strain": "H", "tricks": 10},
    }
    first = director_client.post(
        f"/api/events/{pk}/results", result, content_type="application/json"
    )
    assert first.status_code == 201, first.json()
    assert first.json()["ns_score"] == 82
    again = director_client.post(
        f"/api/events/{pk}/results", result, content_type="application/json"
    )
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert Result.objects.count() == 1
    standings = director_client.get(f"/api/events/{pk}/standings").json()
    assert standings["sections"][0]["boards"]["1"][0]["ns_score"] == 82


def test_an_illegal_entry_is_a_400_that_says_what_to_fix(director_client: Client) -> None:
    pk = create_and_start(director_client)
    bad = {
        "round": 1,
        "table": 1,
        "board": 1,
        "entry": {"declarer": "N", "bid": 5, "strain": "H", "tricks": 10},
    }
    response = director_client.post(
        f"/api/events/{pk}/results", bad, content_type="application/json"
    )
    assert response.status_code == 400
    assert "7" in response.json()["detail"]  # Candid bids start at 7
    assert not Result.objects.exists()


def test_corrections_through_the_api_are_audited(director_client: Client) -> None:
    pk = create_and_start(director_client)
    entry = {"declarer": "E", "bid": 9, "strain": "S", "tricks": 9}
    made = director_client.post(
        f"/api/events/{pk}/results",
        {"round": 1, "table": 2, "board": 3, "entry": entry, "confirm": True},
        content_type="application/json",
    ).json()
    assert made["ns_score"] == -90
    fixed = director_client.post(
        f"/api/events/{pk}/results/{made['id']}/correct",
        {"entry": {**entry, "tricks": 8}, "reason": "one trick miscounted"},
        content_type="application/json",
    )
    assert fixed.status_code == 200 and fixed.json()["ns_score"] == 90
    assert AuditEntry.objects.filter(action="result corrected").count() == 1
    missing_reason = director_client.post(
        f"/api/events/{pk}/results/{made['id']}/correct",
        {"entry": entry},
        content_type="application/json",
    )
    assert missing_reason.status_code == 400


def test_artificial_scores_and_unknown_codes(director_client: Client) -> None:
    pk = create_and_start(director_client)
    good = {"round": 1, "table": 1, "board": 2, "code": "A+/A-", "reason": "late play"}
    assert (
        director_client.post(
            f"/api/events/{pk}/artificial", good, content_type="application/json"
        ).status_code
        == 200
    )
    bad = {**good, "code": "A++"}
    response = director_client.post(
        f"/api/events/{pk}/artificial", bad, content_type="application/json"
    )
    assert response.status_code == 400 and "A++" in response.json()["detail"]


def test_published_standings_are_public(director_client: Client) -> None:
    pk = create_and_start(director_client)
    assert Client().get(f"/api/events/{pk}/standings").status_code == 404
    from tournaments.events.services.simulation import event_simulate

    event_simulate(event=Event.objects.get(pk=pk), seed=2)
    for action in ("finish", "publish"):
        response = director_client.post(
            f"/api/events/{pk}/actions/{action}", {}, content_type="application/json"
        )
        assert response.status_code == 200, response.json()
    public = Client().get(f"/api/events/{pk}/standings")
    assert public.status_code == 200
    assert {f["name"] for f in public.json()["sections"][0]["fields"]} == {"NS", "EW"}


def test_the_advisor_answers_for_an_odd_number_of_pairs(director_client: Client) -> None:
    body = director_client.get("/api/advice/?pairs=13&boards=24").json()
    assert body["suggestions"]
    assert any(s["sit_out"] for s in body["suggestions"])
    assert director_client.get("/api/advice/?pairs=x&boards=24").status_code == 400


@pytest.mark.parametrize("field", ["name", "seed", "game", "club"])
@pytest.mark.parametrize("value", [6.1e-05, 7, True, ["A"], {"a": 1}])
def test_text_where_the_schema_says_string_is_text(
    director_client: Client, field: str, value: object
) -> None:
    """A number, true or a list where the schema says string is refused with the field named,
    not turned into text and stored (schemathesis found "note": 6.1e-05 accepted)."""
    response = director_client.post(
        "/api/events/", {**CREATE, field: value}, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Event.objects.exists()


def test_a_dispute_note_that_is_a_number_is_refused(director_client: Client) -> None:
    pk = create_and_start(director_client)
    entry = {"declarer": "N", "bid": 8, "strain": "H", "tricks": 10}
    result = {"board": 1, "round": 1, "table": 1, "entry": entry}
    made = director_client.post(
        f"/api/events/{pk}/results", result, content_type="application/json"
    )
    assert made.status_code == 201, made.content
    rid = made.json()["id"]
    before = list(Result.objects.values_list("status", "flag"))
    answer = director_client.post(
        f"/api/events/{pk}/results/{rid}/dispute",
        {"note": 6.1e-05},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "note" in answer.json()
    assert list(Result.objects.values_list("status", "flag")) == before
