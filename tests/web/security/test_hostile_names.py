"""Hostile names over every place a name comes in (the director's pages, the API, a results
file's import, a backup's restore): control characters are refused with a message naming the
field and nothing is stored; "/", "&", quotes and accents come back exactly; no CSV cell that
we write can start a spreadsheet formula."""

from __future__ import annotations

import copy
import csv
import io
import json
from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tournaments.models import AuditEntry, Club, Event, Pair, Result
from tournaments.services import backup
from tournaments.services import exports as export_services
from tournaments.services.closing import event_close
from tournaments.services.events import EventError, event_publish, pairs_register
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db

#: One of each kind the rule refuses, with the code point the message must name.
CONTROL = [
    ("Ann\x00Bob", "U+0000"),
    ("Ann\x0bBob", "U+000B"),
    ("Ann\nBob", "U+000A"),
    ("Ann\r", "U+000D"),
    ("\tAnn", "U+0009"),
    ("Ann\x85Bob", "U+0085"),
    ("Ann\u2028Bob", "U+2028"),
    ("Ann\u2029Bob", "U+2029"),
    ("Ann\u202eboB", "U+202E"),
]
#: Names that must work everywhere and come back exactly.
FRIENDLY = [
    ("A/N Other", "Ann & Bob"),
    ('Pat "Ace" O\'Brien', "Zoë Ñúñez-Łukasz"),
    ('=HYPERLINK("http://evil")', "@SUM(A1)"),
    ("+44 Smith", "-Jones"),
]


def _pairs(event: Event) -> list[Pair]:
    return list(Pair.objects.filter(section__event=event).order_by("direction", "number"))


def _stored_names(event: Event) -> list[tuple[str, str]]:
    return [(p.player1, p.player2) for p in _pairs(event)]


# -- the API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("bad", "code"), CONTROL)
def test_the_pairs_api_refuses_a_control_character_naming_the_field(
    director_client: Client, running_event: Event, bad: str, code: str
) -> None:
    first = _pairs(running_event)[0]
    response = director_client.post(
        f"/api/events/{running_event.pk}/pairs",
        [{"id": first.pk, "player1": "Ann", "player2": bad}],
        content_type="application/json",
    )
    assert response.status_code == 400
    row = response.json()["0"]  # the first row sent: its player2, and nothing else
    assert list(row) == ["player2"] and code in row["player2"][0]
    assert "control character" in row["player2"][0]
    assert _stored_names(running_event)[0] == ("", "")


def test_the_pairs_api_refuses_a_long_name_and_keeps_friendly_names_exactly(
    director_client: Client, running_event: Event
) -> None:
    pairs = _pairs(running_event)
    response = director_client.post(
        f"/api/events/{running_event.pk}/pairs",
        [{"id": pairs[0].pk, "player1": "x" * 121, "player2": ""}],
        content_type="application/json",
    )
    assert response.status_code == 400 and "120" in response.json()["0"]["player1"][0]
    sent = [
        {"id": pair.pk, "player1": first, "player2": second}
        for pair, (first, second) in zip(pairs, FRIENDLY, strict=False)
    ]
    response = director_client.post(
        f"/api/events/{running_event.pk}/pairs", sent, content_type="application/json"
    )
    assert response.status_code == 200
    back = {row["id"]: (row["player1"], row["player2"]) for row in response.json()}
    assert [back[row["id"]] for row in sent] == FRIENDLY
    read = director_client.get(f"/api/events/{running_event.pk}/pairs").json()
    assert {r["id"]: (r["player1"], r["player2"]) for r in read} == back


def test_the_event_api_refuses_control_characters_in_the_event_and_club_names(
    director_client: Client, club: Club
) -> None:
    before = Event.objects.count()
    body = {
        "name": "Club\u2028night",
        "game": "classic",
        "movement_kind": "mitchell",
        "movement_params": {"tables": 3, "boards_per_round": 2},
    }
    response = director_client.post("/api/events/", body, content_type="application/json")
    assert response.status_code == 400 and "U+2028" in response.json()["name"][0]
    response = director_client.post(
        "/api/events/", {**body, "name": "Fine", "club": "Test\x0bClub"}, "application/json"
    )
    assert response.status_code == 400 and "U+000B" in response.json()["club"][0]
    assert Event.objects.count() == before
    response = director_client.post(
        "/api/events/", {**body, "name": 'Mr & Mrs / Bob\'s "night"'}, "application/json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == 'Mr & Mrs / Bob\'s "night"'


# -- the director's pages --------------------------------------------------------------------


@pytest.mark.parametrize(("bad", "code"), [*CONTROL[:4], ("y" * 121, "121 characters")])
def test_the_pairs_page_refuses_a_bad_name_with_a_message_and_stores_nothing(
    director_client: Client, running_event: Event, bad: str, code: str
) -> None:
    pairs = _pairs(running_event)
    post = {f"pair-{p.pk}-{n}": "Fine" for p in pairs for n in (1, 2)}
    post[f"pair-{pairs[-1].pk}-2"] = bad
    response = director_client.post(f"/events/{running_event.pk}/pairs/", post, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert code in text and f"{pairs[-1].label}&#x27;s second player" in text
    assert _stored_names(running_event) == [("", "")] * len(pairs)


def test_the_pairs_page_keeps_friendly_names_exactly(
    director_client: Client, running_event: Event
) -> None:
    pairs = _pairs(running_event)[: len(FRIENDLY)]
    post = {}
    for pair, (first, second) in zip(pairs, FRIENDLY, strict=True):
        post[f"pair-{pair.pk}-1"], post[f"pair-{pair.pk}-2"] = first, second
    response = director_client.post(f"/events/{running_event.pk}/pairs/", post)
    assert response.status_code == 302
    assert _stored_names(running_event)[: len(FRIENDLY)] == FRIENDLY
    page = director_client.get(f"/events/{running_event.pk}/")
    assert page.status_code == 200


def test_the_new_event_form_refuses_a_control_character_in_the_name(
    director_client: Client,
) -> None:
    before = Event.objects.count()
    form = {"name": "Club\x85night", "date": "2025-01-01", "game": "classic", "pairs": 12}
    response = director_client.post("/events/new/", {**form, "boards": 24, "method": "mp"})
    assert response.status_code == 200
    assert "U+0085" in response.content.decode()
    assert Event.objects.count() == before


def test_the_service_names_the_pair_and_the_player(running_event: Event) -> None:
    pair = _pairs(running_event)[1]
    with pytest.raises(EventError, match=rf"{pair.label}'s first player: .*U\+000A"):
        pairs_register(event=running_event, names={pair.pk: ("Ann\nBob", "")})
    assert _stored_names(running_event)[1] == ("", "")


# -- imports and restores --------------------------------------------------------------------


def _played(club: Club, director: Any, names: list[tuple[str, str]]) -> Event:
    event = make_event(club, user=director)
    pairs = _pairs(event)
    chosen = {p.pk: names[i % len(names)] for i, p in enumerate(pairs)}
    pairs_register(event=event, names=chosen, user=director)
    event_simulate(event=event, seed=3, batch=True)
    return event_close(event=event, missing="not-played", confirm=True, user=director)


def test_an_event_document_with_a_control_character_is_refused_by_field(
    club: Club, director: Any
) -> None:
    event = _played(club, director, FRIENDLY)
    good = json.loads(backup.dumps(backup.event_document(event)))
    events = Event.objects.count()

    in_pair = copy.deepcopy(good)
    in_pair["sections"][0]["pairs"][0]["player2"] = "Ann\x0bBob"
    label = "NS 1" if in_pair["sections"][0]["pairs"][0]["direction"] else "Pair 1"
    with pytest.raises(ValueError, match=rf"pair {label}, player2: .*U\+000B"):
        backup.event_import_text(text=json.dumps(in_pair), club=club, user=director)
    with pytest.raises(backup.RestoreRefused, match=r"player2: .*U\+000B"):
        backup.restore(in_pair)

    in_event = copy.deepcopy(good)
    in_event["event"]["name"] = "Night\u2029"
    with pytest.raises(backup.RestoreRefused, match=r"The event, name: .*U\+2029"):
        backup.restore(in_event)

    in_club = copy.deepcopy(good)
    in_club["club"]["players"] = [{"id": None, "name": "Bob\x85"}]
    with pytest.raises(backup.RestoreRefused, match=r"player 1, name: .*U\+0085"):
        backup.restore(in_club)
    assert Event.objects.count() == events


def test_friendly_names_survive_an_export_and_import_exactly(club: Club, director: Any) -> None:
    event = _played(club, director, FRIENDLY)
    names = _stored_names(event)
    assert set(FRIENDLY) <= set(names)
    text = export_services.event_export(event, "json").text
    Result.objects.filter(section__event=event).delete()
    event.delete()
    copy_of = backup.event_import_text(text=text, club=club, user=director)
    assert _stored_names(copy_of) == names


@pytest.mark.parametrize(
    ("fmt", "char", "code"), [("usebio", "\u2028", "2028"), ("pbn", "\u202e", "202E")]
)
def test_a_results_file_with_a_control_character_is_refused_naming_the_pair(
    club: Club, director: Any, fmt: str, char: str, code: str
) -> None:
    event = _played(club, director, [("Quentin", "Xavier")])
    text = export_services.event_export(event, fmt).text
    assert "Quentin" in text
    events = Event.objects.count()
    with pytest.raises(ValueError, match=rf"first player: the name has a control .*U\+{code}"):
        export_services.event_import(
            text=text.replace("Quentin", f"Quen{char}tin"), club=club, user=director
        )
    assert Event.objects.count() == events


# -- CSV -------------------------------------------------------------------------------------


def _cells(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_no_csv_cell_starts_a_formula_and_numbers_stay_numbers(
    club: Club, director: Any, director_client: Client
) -> None:
    event = _played(club, director, FRIENDLY)
    standings = _cells(export_services.event_export(event, "csv").text)
    names = {row["names"] for row in standings}
    assert '\'=HYPERLINK("http://evil") & @SUM(A1)' in names
    assert "'+44 Smith & -Jones" in names
    assert "A/N Other & Ann & Bob" in names
    travellers = _cells(export_services.event_export(event, "travellers-csv").text)
    for rows in (standings, travellers):
        for row in rows:
            for value in row.values():
                assert not value.startswith(("=", "+", "@", "\t", "\r")), row
                if value.startswith("-"):
                    float(value)  # a negative figure, still a number
    assert any(row["ew_score"].startswith("-") for row in travellers)

    event_publish(event=event, user=director)
    public = Client().get(f"/results/{event.pk}/export.csv")
    assert public.status_code == 200
    assert _cells(public.content.decode()) == standings

    AuditEntry.objects.create(
        event=event, action="pair renamed", target="=1+2", reason="-cmd|' /C calc'!A0"
    )
    audit = director_client.get(f"/events/{event.pk}/audit/?format=csv")
    rows = list(csv.reader(io.StringIO(audit.content.decode())))
    targets = [row[3] for row in rows[1:]]
    reasons = [row[5] for row in rows[1:]]
    assert "'=1+2" in targets and "'-cmd|' /C calc'!A0" in reasons
