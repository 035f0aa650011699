"""A director's import of an event's JSON (issue #24, points 2 and 3): the file is anybody's
words, so it links nobody to an account and creates none (people are kept as text, the
event is the importer's), the club's backup afterwards carries no other account; and every
value it carries is checked, so a bad one (par, a date, a number, a type, a range) is refused
with a 400 or a page error naming the field, nothing stored, and an accepted file's public
pages all answer.

`manage.py restore` of a whole installation still restores users as it always did
(tests/web/services/test_backup.py)."""

from __future__ import annotations

import copy
import html
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import models
from django.test import Client

from tests.support.rows import row_counts
from tests.web.services.test_backup import played_event
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.services.analysis import boards_analyse
from tournaments.files import backup
from tournaments.files.exports import FORMATS
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


# -- an evening as a file ---------------------------------------------------------------------


def _analysed_evening(club: Club, director: User) -> Event:
    """A published evening of everything (`played_event`) with every board's par computed and
    a player on the club's list, so the file carries a value for every field."""
    event = played_event(club, director, "classic", "mitchell", "published")
    Board.objects.filter(event=event).update(par_status=Board.ParStatus.QUEUED)
    boards_analyse(event_id=event.pk)
    Player.objects.get_or_create(club=club, name="Ada Lovelace")
    return event


def _file_of(event: Event) -> dict[str, Any]:
    """The event's JSON as a director downloads it; the event is then deleted, as on another
    laptop, so the file can come back."""
    document: dict[str, Any] = json.loads(backup.dumps(backup.event_document(event)))
    Result.objects.filter(section__event=event).delete()
    Event.objects.filter(pk=event.pk).delete()
    return document


def _counts() -> dict[str, int]:
    """Every table's row count, accounts included: what a refused import must leave as is."""
    return row_counts(
        [*apps.get_app_config("tournaments").get_models(), User, Club.directors.through]
    )


def _api_import(client: Client, document: Any, club: Club) -> Any:
    return client.post(
        "/api/events/import",
        {"text": json.dumps(document), "club": club.slug},
        content_type="application/json",
    )


def _page_import(client: Client, document: Any, club: Club) -> Any:
    upload = SimpleUploadedFile("evening.json", json.dumps(document).encode())
    return client.post("/events/import/", {"file": upload, "club": club.pk})


def _imported(response: Any) -> Event:
    """The event an import (API or page) made."""
    if response.status_code == 201:
        return Event.objects.get(pk=response.json()["event"])
    assert response.status_code == 302, response.content.decode()[:500]
    return Event.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


# -- point 2: people are words in a file -------------------------------------------------------


@pytest.fixture
def strangers(club: Club) -> dict[str, User]:
    """Accounts a forged file might name: the administrator and another club's director."""
    admin = User.objects.create_superuser("admin", password="admin-secret")
    rival = User.objects.create_user("rival", password="rival-secret", is_staff=True)
    other = Club.objects.create(name="The Other Club", slug="other")
    other.directors.add(rival)
    return {"admin": admin, "rival": rival}


def _forged(document: dict[str, Any]) -> dict[str, Any]:
    """The file, saying the administrator made the event and kept its audit trail, another
    club's director and somebody who has no account here entered its results, and both
    direct the club."""
    forged = copy.deepcopy(document)
    forged["event"]["created_by"] = "admin"
    for i, entry in enumerate(forged["audit"]):
        entry["user"] = ("admin", "ghost")[i % 2]
    results = forged["sections"][0]["results"]
    for i, result in enumerate(results):
        result["entered_by"] = ("rival", "ghost", "admin")[i % 3]
    results[0]["entered_by_device"] = ""
    forged["club"]["directors"] = ["admin", "rival", "ghost"]
    return forged


@pytest.mark.parametrize("send", [_api_import, _page_import], ids=["api", "page"])
def test_a_forged_file_links_no_account_and_makes_none(
    club: Club, director: User, strangers: dict[str, User], send: Callable[..., Any]
) -> None:
    document = _forged(_file_of(_analysed_evening(club, director)))
    users_before = sorted(User.objects.values_list("username", "password", "is_active"))
    directorships = sorted(Club.directors.through.objects.values_list("club_id", "user_id"))
    client = Client()
    client.force_login(director)

    event = _imported(send(client, document, club))

    assert sorted(User.objects.values_list("username", "password", "is_active")) == users_before
    assert sorted(Club.directors.through.objects.values_list("club_id", "user_id")) == directorships
    assert not User.objects.filter(username="ghost").exists()
    assert event.club == club and event.created_by == director
    results = Result.objects.filter(section__event=event).order_by("pk")
    assert results.count() == len(document["sections"][0]["results"])
    assert not results.filter(entered_by__isnull=False).exists()
    # Who entered a result is kept as the file says it, as text beside the device.
    devices = [
        (r.entered_by_device, d)
        for r, d in zip(results, document["sections"][0]["results"], strict=True)
    ]
    assert devices[0][0] == "rival"
    for device, line in devices:
        said = line["entered_by_device"]
        assert device == (f"{said} ({line['entered_by']})" if said else line["entered_by"])
    assert any(line["entered_by_device"] for _, line in devices)
    audit = AuditEntry.objects.filter(event=event)
    imported = audit.get(action="event imported")
    assert imported.user == director and isinstance(imported.after, dict)
    assert imported.after["people named"] == "admin, ghost, rival"
    assert not audit.exclude(pk=imported.pk).filter(user__isnull=False).exists()
    assert audit.count() == len(document["audit"]) + 1
    # Each audit line keeps its name as the file gave it, as text.
    said = sorted(audit.exclude(pk=imported.pk).values_list("user_name", flat=True))
    assert said == sorted(a["user"] for a in document["audit"])
    # The audit trail reads the names as the file gave them, and the action as the importer's.
    trail = client.get(f"/events/{event.pk}/audit/").content.decode()
    assert "rival" in trail and "people named admin, ghost, rival" in trail
    assert "ghost (as recorded)" in trail and "admin (as recorded)" in trail


def test_the_clubs_backup_after_a_forged_import_carries_no_other_account(
    club: Club, director: User, strangers: dict[str, User]
) -> None:
    document = _forged(_file_of(_analysed_evening(club, director)))
    client = Client()
    client.force_login(director)
    _imported(_api_import(client, document, club))

    kept = backup.backup_document(clubs=[club])

    assert [u["username"] for u in kept["users"]] == ["td"]
    text = backup.dumps(kept)
    for stranger in strangers.values():
        assert stranger.password not in text
    (event,) = kept["events"]
    assert kept["clubs"][0]["directors"] == ["td"] and event["event"]["created_by"] == "td"
    assert {r["entered_by"] for r in event["sections"][0]["results"]} == {None}
    assert {a["user"] for a in event["audit"]} == {None, "td"}
    # Restored elsewhere, the backup brings back the club's director and nobody else.
    Result.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    User.objects.all().delete()
    report = backup.restore(json.loads(text))
    assert report.users_from_backup == ["td"] and not report.users_inactive
    assert list(User.objects.values_list("username", flat=True)) == ["td"]


def test_a_file_naming_nobody_is_the_importers_event(club: Club, director: User) -> None:
    document = _file_of(_analysed_evening(club, director))
    document["event"]["created_by"] = None
    for entry in document["audit"]:
        entry["user"] = None
    for result in document["sections"][0]["results"]:
        result["entered_by"] = None
    client = Client()
    client.force_login(director)
    event = _imported(_api_import(client, document, club))
    assert event.created_by == director
    imported = AuditEntry.objects.get(event=event, action="event imported")
    assert imported.user == director and isinstance(imported.after, dict)
    assert "people named" not in imported.after and imported.after["from"] == "clubwhist JSON"


# -- point 3: every value checked --------------------------------------------------------------

#: Where each model's row sits in the file (the first of a list; a result of each kind).
PLACES: list[tuple[type[models.Model], tuple[Any, ...]]] = [
    (Club, ("club",)),
    (Player, ("club", "players", 0)),
    (Event, ("event",)),
    (Section, ("sections", 0)),
    (Pair, ("sections", 0, "pairs", 0)),
    (MovementRow, ("sections", 0, "movement_rows", 0)),
    (Result, ("sections", 0, "results", "confirmed")),
    (Result, ("sections", 0, "results", "artificial")),
    (TableAccess, ("sections", 0, "table_access", 0)),
    (DirectorCall, ("sections", 0, "calls", 0)),
    (Board, ("boards", 0)),
    (AuditEntry, ("audit", 0)),
    (Standings, ("standings",)),
]

_TIMES = [
    20240101,
    "2024-01-01",
    "yesterday",
    "2024-02-30T10:00:00+00:00",
    "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-12:00",
    "1850-01-01T00:00:00+00:00",
]
_DATES = [
    20240101,
    "20240101",
    "2024-W01-1",
    "2024-02-30",
    "0001-01-01",
    "9999-12-31",
    "1850-06-01",
]
_STORED_NOWHERE = ["a\x00b", "\ud800"]  # NUL (PostgreSQL), a lone surrogate (UTF-8)


def _deep(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = {"next": value}
    return value


def _par_variants(par: dict[str, Any]) -> Iterator[Any]:
    """A board's stored analysis, broken in each way a page would trip on."""
    yield from ([], "x", 7, {}, {"board": 1})
    edits: list[Callable[[dict[str, Any]], None]] = [
        lambda p: p["tricks"].update(ns=99),
        lambda p: p["tricks"].update(ns="8"),
        lambda p: p["tricks"].update(leader="Q"),
        lambda p: p["tricks"].update(trumps="NT"),
        lambda p: p["table"]["N"].update(C="7"),
        lambda p: p["table"]["N"].pop("C"),
        lambda p: p["table"].update(X={}),
        lambda p: p["par"].update(contracts="H, E leads"),
        lambda p: p["par"].update(contracts=[7]),
        lambda p: p["par"].update(ns_score=1.5),
        lambda p: p["par"].update(ns_score=10**30),
        lambda p: p["par"].update(approximate="no"),
        lambda p: p["par"]["tricks"].update(ns=-1),
        lambda p: p["par"].update(board=2),
        lambda p: p.update(board=2),
        lambda p: p.update(summary=5),
        lambda p: p.update(error="the solver failed"),
        lambda p: p.update(extra=1),
        lambda p: p.pop("table"),
        lambda p: p.update(par=None),  # failed, yet its status says computed
        lambda p: p.update(tricks=float("nan")),
    ]
    for edit in edits:
        changed = copy.deepcopy(par)
        edit(changed)
        yield changed


def _special(model: type[models.Model], name: str, row: dict[str, Any]) -> list[Any]:
    """Values of the right JSON type that the field still cannot hold."""
    value = row[name]
    if (model, name) == (Event, "options"):
        return [[], "x", 3, {"trumps": []}, {"no_such_option": 1}, {"trumps": "purple"}]
    if (model, name) == (Section, "movement_params"):
        return [
            [],
            "x",
            {**value, "tables": "3"},
            {**value, "tables": 10**6},
            {**value, "tables": []},
            {**value, "bogus": 1},
        ]
    if (model, name) == (Section, "relay_sets"):
        return ["x", {}, [[1, 2]], None]
    if (model, name) == (Board, "par"):
        return list(_par_variants(value))
    if (model, name) == (Result, "entry"):
        return [
            [],
            "x",
            {"ns_tricks": 99},
            {"ns_tricks": "8"},
            {"junk": 1},
            None,
            {"ns_tricks": 8.0},
        ]
    if model is AuditEntry and name in ("before", "after"):
        return [float("nan"), {"k": "a\x00b"}, {"k": 10**30}, _deep(50)]
    if (model, name) == (Standings, "data"):
        return [[], "x", {}, {**value, "computed_at": 5}, {**value, "sections": "x"}]
    if (model, name) == (TableAccess, "token"):
        return ["a/b c", "short", "t" * 65, "tøken-with-accents"]
    if (model, name) == (Board, "record"):
        return ["x", value.replace("classic", "bidwhist")]
    if name in ("name", "player1", "player2"):
        return ["Ann\x0bBob"]
    if name in ("game", "movement_kind", "artificial_code", "slug"):
        return ["bogus value", "a b"]
    if (model, name) == (Club, "directors"):
        return ["td", [7], ["a b"]]
    return []


def _bad_values(model: type[models.Model], name: str, row: dict[str, Any]) -> list[Any]:
    """What the field must refuse: the wrong JSON types, null where it cannot be null, what no
    database stores, what the field's range or length cannot hold, and `_special`."""
    if name == "directors":
        return _special(model, name, row)
    f = model._meta.get_field(name)
    assert isinstance(f, models.Field)
    bad: list[Any] = [] if f.null else [None]
    if f.primary_key:
        return [0, -1, 2**63, "1", 1.5, True]
    if f.is_relation and f.related_model is Pair:
        return ["NS9", 3, None, ""]
    if f.is_relation:
        return [7, "", "a b", "x" * 151, "td\x00", ["td"]]
    if isinstance(f, models.DateTimeField):
        bad += _TIMES
    elif isinstance(f, models.DateField):
        bad += _DATES
    elif isinstance(f, models.BooleanField):
        bad += [0, 1, "true"]
    elif isinstance(f, models.IntegerField):
        bad += ["1", 1.5, True, [], -1, 2**63]
        if f.get_internal_type() != "IntegerField":
            bad.append(2**31)
    elif isinstance(f, models.CharField | models.TextField):
        bad += [7, [], {}, True, *_STORED_NOWHERE]
        if f.max_length:
            bad.append("x" * (f.max_length + 1))
        if f.choices:
            bad.append("bogus")
    return bad + _special(model, name, row)


def _row_at(document: dict[str, Any], place: tuple[Any, ...]) -> dict[str, Any]:
    row: Any = document
    for key in place:
        if key in ("confirmed", "artificial"):
            row = next(r for r in row if r["status"] == key)
        else:
            row = row[key]
    assert isinstance(row, dict)
    return row


def _cases(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(label, broken file, the field its refusal must name), for every field of every row."""
    for model, place in PLACES:
        fields = backup.FIELDS[model]
        for name in fields:
            row = _row_at(document, place)
            for value in _bad_values(model, name, row):
                if value is None and row[name] is None:
                    continue  # null is this row's own value (an artificial score's entry)
                broken = copy.deepcopy(document)
                _row_at(broken, place)[name] = value
                yield f"{model.__name__}.{name} = {value!r:.60}", broken, name


def _names_field(detail: str, field: str) -> bool:
    said = detail.lower()
    words = {field, field.replace("_", " ")}
    if field == "directors":
        words.add("director")
    return any(word in said for word in words)


def test_every_field_refuses_what_it_cannot_hold_naming_it_and_stores_nothing(
    club: Club, director: User
) -> None:
    document = _file_of(_analysed_evening(club, director))
    client = Client()
    client.force_login(director)
    before = _counts()
    wrong: list[str] = []
    tried = 0
    for label, broken, field in _cases(document):
        tried += 1
        answer = _api_import(client, broken, club)
        detail = str(answer.json().get("detail", "")) if answer.status_code != 500 else ""
        if answer.status_code != 400:
            wrong.append(f"{label}: {answer.status_code} {answer.content[:200]!r}")
        elif not _names_field(detail, field):
            wrong.append(f"{label}: the refusal does not name {field!r}: {detail}")
        if _counts() != before:
            wrong.append(f"{label}: rows were written")
            for event in Event.objects.all():
                Result.objects.filter(section__event=event).delete()
                event.delete()
    assert tried > 500
    assert not wrong, f"{len(wrong)} of {tried} bad values:\n" + "\n".join(wrong)
    # The file itself, untouched, is taken: the refusals were the values', not the file's.
    assert _api_import(client, document, club).status_code == 201


@pytest.mark.parametrize(
    ("where", "value", "said"),
    [
        (("boards", 0, "par"), {"board": 1}, "par"),
        (("event", "date"), "9999-12-31", "date"),
        (("sections", 0, "released_round"), 40, "released round"),
        (("sections", 0, "results", 0, "ns_score"), "8", "ns_score"),
    ],
)
def test_the_import_page_names_the_field_and_stores_nothing(
    club: Club, director: User, where: tuple[Any, ...], value: Any, said: str
) -> None:
    document = _file_of(_analysed_evening(club, director))
    _row_at(document, where[:-1])[where[-1]] = value
    client = Client()
    client.force_login(director)
    before = _counts()
    page = _page_import(client, document, club)
    assert page.status_code == 200
    assert said in html.unescape(page.content.decode())
    assert _counts() == before


def _public_pages(event: Event) -> list[str]:
    pk, slug = event.pk, event.club.slug
    pages = [
        f"/results/{pk}/",
        f"/results/{pk}/?part=1",
        f"/results/{pk}/display/",
        f"/results/{pk}/version.json",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/players/",
        f"/api/public/events/{pk}/",
        f"/api/public/clubs/{slug}/events/",
    ]
    for number in Board.objects.filter(event=event).values_list("number", flat=True):
        pages += [f"/results/{pk}/boards/{number}/", f"/api/public/events/{pk}/boards/{number}/"]
    for pair in Pair.objects.filter(section__event=event):
        key = f"{pair.direction}{pair.number}"
        pages += [f"/results/{pk}/pairs/{key}/", f"/api/public/events/{pk}/pairs/{key}/"]
        for name in (pair.player1, pair.player2):
            pages.append(f"/clubs/{slug}/player/?name={name}")
    pages += [f"/results/{pk}/export.{fmt}" for fmt in FORMATS if fmt != "json"]
    return pages


def test_a_valid_imported_event_answers_every_public_page(club: Club, director: User) -> None:
    document = _file_of(_analysed_evening(club, director))
    assert all(b["par"] and b["par_status"] == "done" for b in document["boards"])
    client = Client()
    client.force_login(director)
    event = _imported(_api_import(client, document, club))
    assert event.status == Event.Status.PUBLISHED
    reader = Client()
    for page in _public_pages(event):
        assert reader.get(page).status_code == 200, page
    board = reader.get(f"/results/{event.pk}/boards/1/").content.decode()
    assert "Double dummy" in board


#: Values a real evening can have that the file above does not: each is taken, and no public
#: page of the event fails (a draft's pages may be not found; the results page answers).
POSSIBLE = [
    (("event", "status"), "running"),
    (("event", "status"), "draft"),
    (("event", "live_public"), True),
    (("event", "date"), "1900-01-01"),
    (("event", "created_at"), "2199-12-31T23:59:59-12:00"),
    (("sections", 0, "released_round"), 3),
    (("sections", 0, "calls", 0, "round"), None),
    (("boards", 0, "par_status"), "failed"),
    (("audit", 0, "before"), [1, [2, {"a": None}]]),
]


@pytest.mark.parametrize(("where", "value"), POSSIBLE, ids=[f"{w[-1]}={v!r}" for w, v in POSSIBLE])
def test_a_possible_value_is_taken_and_every_public_page_answers(
    club: Club, director: User, where: tuple[Any, ...], value: Any
) -> None:
    document = _file_of(_analysed_evening(club, director))
    row = _row_at(document, where[:-1])
    row[where[-1]] = value
    if where[-1] == "par_status":
        row["par"] = {**row["par"], "tricks": None, "table": None, "par": None, "error": "failed"}
    client = Client()
    client.force_login(director)
    event = _imported(_api_import(client, document, club))
    reader = Client()
    reader.force_login(director)  # a draft event's pages are the director's
    for page in _public_pages(event):
        assert reader.get(page).status_code in (200, 404), page
    assert reader.get(f"/results/{event.pk}/").status_code == 200
