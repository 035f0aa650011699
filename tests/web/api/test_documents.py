"""The typed documents: what `static/js/table.js` reads is named in the tablet state's
dataclasses, the API sends exactly each document's `to_dict()`, and the OpenAPI schema names
every field of every document."""

from __future__ import annotations

import json
import re
import sys
import types
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from engine.scoring.document import StandingRow
from tests.web.conftest import make_event
from tournaments.events.models import Event, Pair, TableAccess
from tournaments.events.selectors import public as selectors_public
from tournaments.events.selectors.documents import (
    Advice,
    ClubEvents,
    LiveStandings,
    NextPlaces,
    PublicBoard,
    PublicPair,
    PublicStandings,
    Room,
    RoundClock,
    SeatMove,
    TabletAnswer,
    TabletBoard,
    TabletCall,
    TabletPair,
    TabletResult,
    TabletRound,
    advice,
)
from tournaments.events.selectors.room import room_document
from tournaments.events.selectors.tablets import table_state, tablet_state
from tournaments.events.services import tablets
from tournaments.events.services.events import event_finish, event_publish
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.documents import EntryFieldView

TABLE_JS = Path(__file__).resolve().parents[3] / "static" / "js" / "table.js"

# ---- (a) the keys table.js reads -----------------------------------------------------------

#: What the page's variables hold, where the JS names them: a binding `x = <chain>` (checked
#: to be in the file) or a callback's parameter over a list of the state are found by the
#: parser; these are the functions whose parameters are documents.
PARAMETERS: dict[str, dict[str, type]] = {
    "boardView": {"board": TabletBoard},
    "recap": {"round": TabletRound},
    "applies": {"f": EntryFieldView},
    "whereNext": {"move": SeatMove},
}
ROOT = "state"
#: Accessors the parser must find (so a change to the parser, or to the page, that made it
#: check nothing would fail here).
MUST_CHECK = {
    "state.server_time",
    "state.current.boards",
    "state.previous.round",
    "state.event.name",
    "state.waiting_for_tables",
    "state.waiting_for_director",
    "state.accepting",
    "state.finished",
    "state.fields",
    "boards[i].result.key",
    "r.describe",
    "r.ns_score",
    "r.unusual",
    "b.number",
    "b.result",
    "cur.sit_out",
    "cur.ns.absent",
    "move.table",
    "move.then_table",
    "next.boards_later.round",
    "next.last_round",
    "round.ns.label",
    "f.only_when",
    "f.choices",
    "f.min",
    "ew.number",
    "c.ends_at",
    "c.cancellable",
    "c.reason",
}


def _unwrap(hint: Any) -> Any:
    """`X | None` as X."""
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 else hint
    return hint


def _element(hint: Any) -> Any:
    hint = _unwrap(hint)
    if get_origin(hint) in (tuple, list):
        return _unwrap(get_args(hint)[0])
    return None


def _resolve(kind: Any, chain: str) -> str | None:
    """Walk `chain` (".a.b[i].c") from `kind`; None when every step a document names exists,
    else what is missing. A step past a plain value or a list is the JS's own (`.length`,
    `.forEach`, `.replace`) and ends the walk."""
    for step in re.findall(r"\.\w+|\[\w+\]", chain):
        kind = _unwrap(kind)
        if step.startswith("["):
            element = _element(kind)
            if element is None:
                return f"{step} of {kind}"
            kind = element
        elif is_dataclass(kind):
            hints = get_type_hints(kind)
            name = step[1:]
            if name not in hints:
                return f"{getattr(kind, '__name__', kind)} has no {name}"
            kind = hints[name]
        else:
            return None
    return None


def _block_end(source: str, start: int) -> int:
    """Where the block around `start` closes (the JS has no braces inside its strings)."""
    depth = 0
    for at in range(start, len(source)):
        if source[at] == "{":
            depth += 1
        elif source[at] == "}":
            if depth == 0:
                return at
            depth -= 1
    return len(source)


def _type_of(chain_root: str, chain: str, known: dict[str, Any]) -> Any:
    kind = known.get(chain_root)
    if kind is None:
        return None
    for step in re.findall(r"\.\w+|\[\w+\]", chain):
        kind = _unwrap(kind)
        if step.startswith("["):
            kind = _element(kind)
        elif is_dataclass(kind):
            kind = get_type_hints(kind).get(step[1:])
        else:
            return None
        if kind is None:
            return None
    return kind


def _scopes(source: str) -> list[tuple[str, Any, int, int]]:
    """(variable, document type, scope start, scope end) for each variable the page binds to
    part of the state: `var x = state.a.b` (to the end of its block), a callback's parameter
    over a list of the state (its function body) and the listed functions' parameters."""
    found: list[tuple[str, Any, int, int]] = [(ROOT, TabletAnswer, 0, len(source))]
    for name, params in PARAMETERS.items():
        match = re.search(rf"function {name}\(([^)]*)\)\s*{{", source)
        assert match, f"table.js has no function {name}"
        for param in (p.strip() for p in match.group(1).split(",")):
            if param in params:
                found.append((param, params[param], match.end(), _block_end(source, match.end())))
    for _ in range(3):  # bindings of bindings (`cur = state.current`, then `after = cur.next`)
        for match in re.finditer(r"\b(?:var\s+)?(\w+)\s*=\s*(\w+)((?:\.\w+)+)\s*[;,|)]", source):
            name, root, chain = match.groups()
            known = {v: t for v, t, a, b in found if a <= match.start() < b}
            kind = _type_of(root, chain, known)
            if kind is not None and (is_dataclass(_unwrap(kind)) or _element(kind) is not None):
                entry = (name, _unwrap(kind), match.start(), _block_end(source, match.start()))
                if entry not in found:
                    found.append(entry)
        pattern = r"(\w+)((?:\.\w+|\[\w+\])*)\.(?:forEach|some|map|filter)\(function \((\w+)"
        for match in re.finditer(pattern, source):
            root, chain, param = match.groups()
            known = {v: t for v, t, a, b in found if a <= match.start() < b}
            element = _element(_type_of(root, chain, known)) if root in known else None
            if element is not None and is_dataclass(element):
                body = source.index("{", match.end())
                entry = (param, element, body + 1, _block_end(source, body + 1))
                if entry not in found:
                    found.append(entry)
    return found


def js_accessors() -> dict[str, str | None]:
    """Every accessor table.js reads or writes on the state: the chain as written, and what
    the dataclass tree lacks for it (None when it is all there)."""
    source = TABLE_JS.read_text()
    checked: dict[str, str | None] = {}
    for variable, kind, start, end in _scopes(source):
        for match in re.finditer(rf"(?<![\w.]){variable}((?:\.\w+|\[\w+\])+)", source[start:end]):
            chain = match.group(1)
            problem = _resolve(kind, chain)
            checked[variable + chain] = problem or checked.get(variable + chain)
    return checked


def test_every_key_table_js_reads_is_a_field_of_the_tablet_state() -> None:
    checked = js_accessors()
    missing = {chain: problem for chain, problem in checked.items() if problem}
    assert not missing, missing
    # every accessor checked, and each of its prefixes ("f.only_when" of "f.only_when.every")
    reached = {
        chain[: match.start()] for chain in checked for match in re.finditer(r"\.|\[|$", chain)
    }
    assert reached >= MUST_CHECK, sorted(MUST_CHECK - reached)


def test_the_parser_finds_a_key_the_state_does_not_have(tmp_path, monkeypatch) -> None:
    """The check above can fail: a page reading `state.current.bords` is caught."""
    broken = tmp_path / "table.js"
    source = TABLE_JS.read_text().replace("cur.boards.some", "cur.bords.some")
    broken.write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "TABLE_JS", broken)
    assert js_accessors()["cur.bords.some"] == "TabletRound has no bords"


# ---- (b) the API sends each document's to_dict() -------------------------------------------


def _plain_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


@pytest.mark.django_db
def test_the_tablet_api_sends_the_tablet_state(running_event: Event) -> None:
    links = {a.table: a for a in tablets.table_links_ensure(event=running_event)}
    client = Client()
    first = client.post(
        f"/api/t/{links[1].token}/results/",
        {"board": 1, "entry": {"ns_tricks": 8}, "idempotency_key": "documents-1"},
        content_type="application/json",
    )
    assert first.status_code == 201
    tablets.director_call(section=running_event.section, table=1, round=1, note="", reason="revoke")
    for table, access in links.items():
        answer = client.get(f"/api/t/{access.token}/").json()
        assert isinstance(answer.pop("server_time"), str)
        state = tablet_state(TableAccess.objects.get(pk=access.pk))
        assert answer == state.to_dict() == _plain_json(state.to_dict()), table
        assert table_state(access) == state.to_dict()
    one = tablet_state(links[1]).to_dict()
    assert one["current"]["boards"][0]["result"]["entry"] == {"ns_tricks": 8}
    assert one["call"] == {"reason": "Revoke", "cancellable": True}


@pytest.mark.django_db
def test_the_room_and_the_advice_are_their_documents(director_client, running_event) -> None:
    room = director_client.get(f"/api/events/{running_event.pk}/room").json()
    assert room == _plain_json(room_document(running_event).to_dict())
    assert list(room) == ["results_in", "results_expected", "tables"]
    found = director_client.get("/api/advice/?pairs=12&boards=24").json()
    assert found == _plain_json(advice(12, 24).to_dict()) and found["suggestions"]


def _published(club: Any, director: Any) -> Event:
    event = make_event(club, user=director)
    Pair.objects.filter(section__event=event, number=1, direction="NS").update(
        player1="Ann Archer", player2="Bill Bennett"
    )
    event_simulate(event=event, seed=5, batch=True)
    return event_publish(event=event_finish(event=event, user=director), user=director)


@pytest.mark.django_db
def test_the_public_api_sends_the_public_documents(club, director) -> None:
    event = _published(club, director)
    client = Client()
    results = selectors_public.published(event)
    shown = frozenset(results.boards)
    expected = {
        f"/api/public/clubs/{club.slug}/events/": selectors_public.club_events_document(club),
        f"/api/public/events/{event.pk}/": selectors_public.standings_document(
            event, results, shown
        ),
        f"/api/public/events/{event.pk}/boards/1/": selectors_public.board_document(results, 1),
        f"/api/public/events/{event.pk}/pairs/NS1/": selectors_public.pair_document(
            results, "NS1", shown
        ),
    }
    for url, document in expected.items():
        assert document is not None
        assert client.get(url).json() == _plain_json(document.to_dict()), url
    # the standings document as stored, boards filtered as `document_for` does
    standings = selectors_public.standings_document(event, results, shown)
    assert standings.to_dict()["document"] == selectors_public.document_for(results, shown)


# ---- (c) the schema names every field ------------------------------------------------------

#: The documents each operation answers with.
OPERATIONS: dict[tuple[str, str], type] = {
    ("get", "/api/t/{token}/"): TabletAnswer,
    ("get", "/api/events/{id}/room"): Room,
    ("get", "/api/advice/"): Advice,
    ("get", "/api/events/{id}/standings"): LiveStandings,
    ("get", "/api/public/clubs/{slug}/events/"): ClubEvents,
    ("get", "/api/public/events/{id}/"): PublicStandings,
    ("get", "/api/public/events/{id}/boards/{number}/"): PublicBoard,
    ("get", "/api/public/events/{id}/pairs/{key}/"): PublicPair,
}
#: A row's session figures are keys of the row itself (`StandingRow.to_dict`).
FLATTENED = {(StandingRow, "session")}


def _ref(schema: dict[str, Any]) -> str | None:
    """The component a property's schema names, through lists, nullables and maps."""
    if "$ref" in schema:
        return str(schema["$ref"])
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found = _ref(schema[key])
            if found:
                return found
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            found = _ref(part)
            if found:
                return found
    return None


def _named(kind: Any) -> list[type]:
    """The dataclasses a field's type holds (`X | None`, tuples and maps of X)."""
    kind = _unwrap(kind)
    if is_dataclass(kind):
        return [kind]  # type: ignore[list-item]
    return [found for arg in get_args(kind) for found in _named(arg)]


def _missing(schema: dict[str, Any], component: str, kind: type, seen: set[str]) -> list[str]:
    if component in seen:
        return []
    seen.add(component)
    properties = schema["components"]["schemas"][component.rsplit("/", 1)[-1]]["properties"]
    hints = get_type_hints(kind)
    missing = []
    for field in fields(kind):
        if (kind, field.name) in FLATTENED:
            continue
        if field.name not in properties:
            missing.append(f"{kind.__name__}.{field.name}")
            continue
        for inner in _named(hints[field.name]):
            ref = _ref(properties[field.name])
            if ref is None:
                missing.append(f"{kind.__name__}.{field.name}: untyped {inner.__name__}")
            else:
                missing += _missing(schema, ref, inner, seen)
    return missing


def test_the_schema_names_every_field_of_every_document() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for (method, path), kind in OPERATIONS.items():
        answer = schema["paths"][path][method]["responses"]["200"]["content"]["application/json"]
        ref = _ref(answer["schema"])
        assert ref, (path, answer)
        assert _missing(schema, ref, kind, set()) == [], path
    # the documents' free-form values, and only those, stay plain objects
    components = schema["components"]["schemas"]
    assert set(components[TabletRound.__name__]["properties"]) >= {"boards", "next", "ns"}
    for kind in (TabletResult, TabletPair, TabletCall, RoundClock, NextPlaces, EntryFieldView):
        assert kind.__name__ in components
