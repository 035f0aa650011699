"""No number sent to any route makes a server error or shows Python's words (issue #40).

`str.isdigit()` then `int()` failed on "²"; `int()` itself takes "١٢" and refuses 4300 digits
with advice about `sys`. Every route of the URL conf is walked here: each integer path
parameter, and each query, form and JSON parameter its view reads (found in the view's own
source, with the forms and serializers it names), is sent Unicode digits, signs, a number
thousands of digits long and nothing, by each caller that reaches the view: anonymous (the
event, drive and tournament made public), a table's link (events', drives' and teams'), and the
club's director. No answer may be a 500, and no answer nor any message queued for the next page
may hold Python's error text.

Each caller's pass over a route runs in a transaction rolled back afterwards, so a request that
did change something (a number it accepted) leaves the next route the same world.
"""

from __future__ import annotations

import inspect
import re
import sys
import types
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django import forms
from django.db import transaction
from django.test import Client
from django.urls import get_resolver, resolve
from rest_framework import serializers

from engine.games import find_variant, variant_names
from tests.web.security import test_permission_matrix as matrix
from tests.web.security.test_permission_matrix import (
    DRIVE_TABLE_ROUTES,
    TEAM_TABLE_ROUTES,
    Route,
    World,
    _walk,
    audience_of,
    client_for,
)
from tournaments.drives.models import Drive
from tournaments.drives.services.drives import drive_create, drive_start
from tournaments.events.models import Event
from tournaments.teams.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]  # thousands of requests

# The permission matrix's world, made once for the module (a running event, drive and
# tournament with their table links, a published event), and its fixture that keeps live
# streams off the test's connection.
world = matrix.world
_shared_world = matrix._shared_world
_streams_keep_the_test_connection = matrix._streams_keep_the_test_connection

#: What each parameter is sent, one of each kind that broke a view: a digit `isdigit()` takes
#: and `int()` refuses ("²"), digits `int()` takes that are not ASCII ("١٢": the fullwidth
#: "５" goes the same way), a sign ("-1": "+3" too), too many digits, nothing. One of each
#: kind: the walk sends every value to every parameter of every route (thousands of requests).
VALUES = ["²", "١٢", "-1", "9" * 5000, ""]

#: Python's own words, which no answer may hold.
PYTHON_WORDS = re.compile(
    r"invalid literal|\bint\(\)|Traceback|base 10|set_int_max_str_digits|Exceeds the limit"
)

#: Which audiences (test_permission_matrix's) each caller reaches, so only those are walked.
REACHES = {
    "anonymous": {"open", "public_event", "public_club", "invitation"},
    "tablet": {"table"},
    "director": {"director_event", "signed_in", "club", "public_event", "public_club", "open"},
}
#: Not walked: logging out ends the session the others ride on; it reads no parameter.
SKIPPED = {"logout"}

# ---- the parameters each view reads ------------------------------------------------------------

#: (pattern, how the parameter is sent): GET reads the query string, the others the body.
_READS = [
    r"""(GET|POST|query_params|data)\.get\(\s*["']([\w-]+)["']""",
    r"""(GET|POST|query_params|data)\[\s*["']([\w-]+)["']\s*\]""",
    r"""()["']([\w-]+)["']\s+(?:not\s+)?in\s+request\.(?:POST|data)""",
]
#: `request.POST.get(f"total-{number}")`: the prefix, sent for player (or line) 1.
_PREFIXED = r"""(?:POST|data)\.get\(\s*f["']([\w-]*)\{"""
#: `request.POST.get(key)` in a loop over names: every name-like word the function spells.
_BY_VARIABLE = r"(?:POST|data)\.get\(\s*[a-z_]\w*\s*[,)]"
_FOLLOWED = tuple(
    f"tournaments.{package}.{layer}"
    for package in ("events", "drives", "teams", "files", "kernel")
    for layer in ("views", "api", "forms", "pages")
)
#: The world's events and drive play classic whist: the entry fields their forms read.
_ENTRY = [f.key for f in find_variant("classic")().entry_fields()]

Sent = set[tuple[str, str]]  # (parameter, "GET" or "POST")


def _names_in(thing: Any, seen: set[int], depth: int = 0, query: bool = False) -> Sent:
    """The request parameters `thing` (a view, a helper, a form or an input serializer) reads,
    each with the method that carries it: from its source, its form's or serializer's
    fields, and those of the functions and classes of the views, API and forms it names (two
    levels down). `query`: a serializer named where the query string is read."""
    if id(thing) in seen:
        return set()
    seen.add(id(thing))
    found: Sent = set()
    if inspect.isclass(thing) and issubclass(thing, forms.BaseForm):
        found |= {(name, "POST") for name in thing.base_fields}
    if inspect.isclass(thing) and issubclass(thing, serializers.BaseSerializer):
        if not thing.__name__.endswith("In"):
            return found  # an answer's shape, not something read
        method = "GET" if query else "POST"
        found |= {(name, method) for name in getattr(thing, "_declared_fields", {})}
    try:
        source = inspect.getsource(thing)
    except (OSError, TypeError):
        return found
    for pattern in _READS:
        for where, name in re.findall(pattern, source):
            found.add((name, "GET" if where in {"GET", "query_params"} else "POST"))
    found |= {(f"{prefix}1", "POST") for prefix in re.findall(_PREFIXED, source)}
    if re.search(_BY_VARIABLE, source):
        found |= {(w, "POST") for w in re.findall(r"""["']([a-z][a-z0-9_]{1,30})["']""", source)}
    if "options_from_post" in source:
        found |= {
            (f"opt-{game}-{spec.key}", "POST")
            for game in variant_names()
            for spec in find_variant(game).option_specs
            if spec.kind == "int"
        }
    if "entry_from_post" in source:
        found |= {(key, "POST") for key in _ENTRY} | {(f"r0-{key}", "POST") for key in _ENTRY}
    if depth >= 2:
        return found
    module = sys.modules.get(getattr(thing, "__module__", ""), None)
    scope: dict[str, Any] = dict(vars(module)) if module else {}
    if inspect.isclass(thing):
        scope |= {k: v for k, v in vars(thing).items() if inspect.isclass(v)}
    for word in set(re.findall(r"\b[A-Za-z_]\w*\b", source)):
        named = scope.get(word)
        if isinstance(named, types.FunctionType | type) and str(
            getattr(named, "__module__", "")
        ).startswith(_FOLLOWED):
            found |= _names_in(named, seen, depth + 1, query="query_params" in source)
    return found


def parameters_of(path: str) -> list[tuple[str, str]]:
    """Every parameter the view behind `path` reads, with its method, sorted."""
    view = resolve(path).func
    target = getattr(view, "cls", None) or inspect.unwrap(view)
    return sorted(_names_in(target, set()))


# ---- the requests ------------------------------------------------------------------------------


def _filled(route: Route, world: World, token: str, bad: tuple[str, str] | None = None) -> str:
    """The route's path with the world's values, one of them (`bad`) replaced as sent."""
    values = world.kwargs(route.params, token=token, name=route.name)
    path = "/" + route.template
    for param in route.params:
        value = str(values[param])
        if bad is not None and bad[0] == param:
            value = "NS" + bad[1] if param == "key" else bad[1]
        path = re.sub(rf"<(?:\w+:)?{param}>", quote(value, safe=""), path)
    return path


def _token(world: World, role: str, name: str) -> str:
    if role != "tablet":
        return "not-a-real-table-link-0000000000"
    if name in DRIVE_TABLE_ROUTES:
        return world.drive_tokens[1]
    return world.team_tokens[1] if name in TEAM_TABLE_ROUTES else world.tokens[1]


def problems_of(response: Any, where: str) -> Iterator[str]:
    """A server error, or Python's words in the answer or in a message for the next page."""
    if response.status_code >= 500 and not (
        response.status_code == 503 and where.split()[2].startswith("/health")
    ):
        yield f"{where}: {response.status_code}"
    texts = []
    if not response.streaming:
        texts.append(response.content.decode(errors="replace"))
    queued = getattr(response.wsgi_request, "_messages", None)
    if queued is not None:
        texts.extend(str(m) for m in queued)
    for text in texts:
        found = PYTHON_WORDS.search(text)
        if found:
            yield f"{where}: says {text[max(0, found.start() - 80) : found.end() + 80]!r}"


def send(client: Client, method: str, path: str, params: dict[str, str], api: bool) -> Any:
    if method == "GET":
        return client.get(path + ("?" + urlencode(params) if params else ""))
    if api:
        return client.post(path, params, content_type="application/json")
    return client.post(path, params)


#: Sent with every parameter tried, so a view gets past its confirmation box to the number.
BASE = {"confirm": "yes"}


def walk(world: World, role: str) -> Iterator[str]:
    routes = [
        r
        for r in _walk(get_resolver().url_patterns)
        if r.name not in SKIPPED and audience_of(r.name) in REACHES[role]
    ]
    assert len(routes) > 10
    # A view's exception becomes its 500 answer, reported with the others, not raised here.
    client = client_for(role, world, raise_request_exception=False)
    for route in routes:
        token = _token(world, role, route.name)
        path = _filled(route, world, token)
        api = route.template.startswith("api/")
        with transaction.atomic():
            for param in route.params:
                if param in {"token", "slug", "fmt", "kind", "what", "action"}:
                    continue  # words, not numbers
                for value in VALUES:
                    bad = _filled(route, world, token, (param, value))
                    yield from problems_of(client.get(bad), f"{role} GET {bad[:80]}")
            methods = [
                m
                for m in ("GET", "POST")
                if send(client, m, path, dict(BASE), api).status_code != 405
            ]
            for param, method in parameters_of(path):
                if method not in methods:
                    continue
                for value in VALUES:
                    response = send(client, method, path, {**BASE, param: value}, api)
                    where = f"{role} {method} {path} {param}={value[:8]!r}"
                    yield from problems_of(response, where)
            if api and "POST" in methods:
                huge = client.post(path, '{"confirm": ' + "9" * 5000 + "}", "application/json")
                yield from problems_of(huge, f"{role} POST {path} (a 5000-digit JSON number)")
            transaction.set_rollback(True)


def _open_to_everyone(world: World) -> None:
    """The running event, drive and tournament followed live by anyone, the tournament (and
    so its league's week) published: an anonymous caller reaches their public pages."""
    Event.objects.filter(pk=world.event.pk).update(live_public=True)
    Drive.objects.filter(pk=world.drive.pk).update(live_public=True)
    Tournament.objects.filter(pk=world.tournament.pk).update(status="published")


@pytest.mark.parametrize("role", ["anonymous", "tablet", "director"])
def test_no_number_anywhere_makes_a_server_error_or_shows_pythons_words(
    world: World, role: str
) -> None:
    if role == "anonymous":
        _open_to_everyone(world)
    problems = list(walk(world, role))
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_the_walk_finds_the_parameters_the_views_read(world: World) -> None:
    """The discovery itself: the parameters behind issue #40's seven server errors."""
    drive, tournament = world.drive.pk, world.tournament.pk
    found = {
        f"/leagues/{world.tournament.league_id}/": {"week"},
        f"/drives/{drive}/manage/start/": {"seed", "confirm"},
        f"/drives/{drive}/manage/players/": {"number", "action", "name"},
        f"/drives/{drive}/manage/enter/": {"table"},
        f"/drives/{drive}/manage/correct/": {"hand", "table"},
        f"/events/{world.event.pk}/enter/": {"board"},
        "/events/new/": {"opt-classic-no_trump_every", "pairs", "boards"},
        f"/tournaments/{tournament}/manage/enter/": {"table", "round", "home_points"},
        f"/api/drives/{drive}/cards/": {"cards"},
    }
    for path, names in found.items():
        read = {name for name, _method in parameters_of(path)}
        assert names <= read, (path, sorted(read))


def test_a_league_week_that_is_not_a_plain_number_is_refused_by_name(world: World) -> None:
    _open_to_everyone(world)
    league = f"/leagues/{world.tournament.league_id}/"
    for week in ("²", "١٢", "0", "9" * 5000):
        answer = Client().get(league, {"week": week})
        assert answer.status_code == 400, week
        assert answer.content.decode().startswith("Week must be a whole number from 1"), week
    assert Client().get(league, {"week": "1"}).status_code == 200


def test_an_import_with_a_number_thousands_of_digits_long_is_refused_in_our_words(
    world: World,
) -> None:
    client = client_for("director", world)
    text = '{"format": ' + "9" * 5000 + "}"
    answer = client.post(
        "/api/events/import",
        {"text": text, "club": world.club.slug},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "thousands of digits" in answer.json()["detail"]
    assert not PYTHON_WORDS.search(answer.content.decode())


def test_the_drive_cards_api_names_a_key_that_is_not_a_player_number(world: World) -> None:
    client = client_for("director", world)
    for key in ("²", "١", "0", "9" * 5000):
        answer = client.post(
            f"/api/drives/{world.drive.pk}/cards/",
            {"cards": {key: {"total": "40"}}},
            content_type="application/json",
        )
        assert answer.status_code == 400, key
        said = str(answer.json())
        assert "player's number" in said and "whole number from 1" in said, said
        assert not PYTHON_WORDS.search(said)


def test_a_score_card_figure_thousands_of_digits_long_is_refused_by_name(world: World) -> None:
    """`Decimal` took "١٢" and failed inside `quantize` on thousands of digits (a 500)."""
    drive = drive_create(
        club=world.club, name="Paper", settings={"hands": 2}, players=[f"P{n}" for n in range(4)]
    )
    drive_start(drive=drive, seed=1)
    client = client_for("director", world)
    card = {"total": "40", "first_half": "20", "ten_plus": 0}
    for figure in ("9" * 5000, "١٢", "1e9", "NaN"):
        cards = {str(p): card for p in range(1, 5)} | {"2": card | {"total": figure}}
        answer = client.post(
            f"/api/drives/{drive.pk}/cards/", {"cards": cards}, content_type="application/json"
        )
        said = str(answer.json())
        assert answer.status_code == 400 and not PYTHON_WORDS.search(said), said
        row = {"total": "40", "first": "20", "ten": "0"}
        typed = {f"{k}-{p}": v for p in range(1, 5) for k, v in row.items()}
        page = client.post(f"/drives/{drive.pk}/manage/cards/", typed | {"total-2": figure})
        assert page.status_code == 400, figure
        assert "P1&#x27;s card, total: a number, not" in page.content.decode(), figure
