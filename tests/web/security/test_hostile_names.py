"""Hostile names over every place a name comes in (the director's pages, the API, a results
file's import, a backup's restore): control characters are refused with a message naming the
field and nothing is stored; "/", "&", quotes and accents come back exactly; no CSV cell that
we write can start a spreadsheet formula."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tournaments.drives.models import Drive, DriveAudit, DrivePlayer
from tournaments.drives.services import drives as drive_services
from tournaments.events.models import AuditEntry, Event, Pair, Result
from tournaments.events.services.closing import event_close
from tournaments.events.services.events import (
    EventError,
    event_create,
    event_publish,
    pairs_register,
)
from tournaments.events.services.simulation import event_simulate
from tournaments.files import backup
from tournaments.files import exports as export_services
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club
from tournaments.teams.models import League, Tournament, TournamentAudit, TournamentTeam
from tournaments.teams.services import teams as team_services

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


# -- every name of every format: one rule ----------------------------------------------------
#
# Events, drives and team tournaments take their names through the one rule (`engine.names`,
# `kernel.names.name_checked`): the team forms once let a bidirectional override, DEL and
# C1 controls through, and every format took a name with nothing visible in it. Each way a
# name comes in is tried below with each of these, through the services, the API and the
# director's pages: refused with the reason, and nothing stored.

#: Names no format may store, with the words its refusal must give.
HOSTILE = [
    ("Aces\u202eseca", "U+202E"),
    ("Ac\x7fes", "U+007F"),
    ("Aces\x9b", "U+009B"),
    ("\u200b", "at least one visible character"),
    ("\u200c\u200d", "at least one visible character"),
    ("\u2060", "at least one visible character"),
    ("\ufeff", "at least one visible character"),
    ("\u00ad", "at least one visible character"),
    (" \u200b\u3164\u2800 ", "at least one visible character"),
]
#: Names a required name refuses as no name at all (spaces of several kinds only).
BLANK = [" ", "\u00a0\u3000", "\u2003 \u205f"]
MOVEMENT = {"tables": 3, "boards_per_round": 2}
DRIVE_SETTINGS: dict[str, Any] = {"hands": 2, "scoring": "tricks"}
TEAM_FIELD_NAMES = ("name", "city", "player_one", "player_two")


def _everything() -> tuple[Any, ...]:
    """Every stored name of every format, and every audit trail's length."""
    return (
        sorted(Club.objects.values_list("name", flat=True)),
        sorted(Event.objects.values_list("name", flat=True)),
        sorted(Pair.objects.values_list("pk", "player1", "player2")),
        sorted(Drive.objects.values_list("name", flat=True)),
        sorted(DrivePlayer.objects.values_list("drive_id", "number", "name")),
        sorted(Tournament.objects.values_list("name", flat=True)),
        sorted(League.objects.values_list("name", flat=True)),
        sorted(
            TournamentTeam.objects.values_list(
                "tournament_id", "number", "name", "city", "player_one", "player_two"
            )
        ),
        AuditEntry.objects.count(),
        DriveAudit.objects.count(),
        TournamentAudit.objects.count(),
    )


@pytest.fixture
def formats(club: Club, director: Any) -> dict[str, Any]:
    """A draft event, drive and team tournament of the director's club, to name things in."""
    event = make_event(club, user=director)
    drive = drive_services.drive_create(
        club=club, name="Tuesday drive", settings=DRIVE_SETTINGS, players=["Ann", "Bob"]
    )
    tournament = team_services.tournament_create(
        club=club, name="Friday teams", settings={}, teams=[{"name": "Aces"}, {"name": "Kings"}]
    )
    return {"club": club, "event": event, "drive": drive, "tournament": tournament}


def _team(field: str, value: str) -> dict[str, str]:
    return {"name": "Jacks", field: value}


def _service_ways(f: dict[str, Any]) -> dict[str, Callable[[str], object]]:
    """Each service a name comes in by: the name given, what it calls."""
    club, event, drive, tournament = f["club"], f["event"], f["drive"], f["tournament"]
    pair = _pairs(event)[0]
    ways: dict[str, Callable[[str], object]] = {
        "the event's name": lambda v: event_create(
            club=club, name=v, game="classic", movement_kind="mitchell", movement_params=MOVEMENT
        ),
        "a pair's player": lambda v: pairs_register(event=event, names={pair.pk: ("Ann", v)}),
        "the club's name": lambda v: club_get_or_create(name=v),
        "the drive's name": lambda v: drive_services.drive_create(
            club=club, name=v, settings=DRIVE_SETTINGS
        ),
        "a drive's player at the start": lambda v: drive_services.drive_create(
            club=club, name="Drive", settings=DRIVE_SETTINGS, players=["Ann", v]
        ),
        "a drive's player added": lambda v: drive_services.player_add(drive=drive, name=v),
        "a drive's player renamed": lambda v: drive_services.player_rename(
            drive=drive, number=1, name=v
        ),
        "the tournament's name": lambda v: team_services.tournament_create(
            club=club, name=v, settings={}
        ),
        "the league's name": lambda v: team_services.league_create(club=club, name=v),
    }
    for field in TEAM_FIELD_NAMES:
        ways[f"a team's {field} at the start"] = lambda v, field=field: (
            team_services.tournament_create(
                club=club, name="Teams", settings={}, teams=[_team(field, v)]
            )
        )
        ways[f"a team's {field} added"] = lambda v, field=field: team_services.team_add(
            tournament=tournament, data=_team(field, v)
        )
        ways[f"a team's {field} changed"] = lambda v, field=field: team_services.team_change(
            tournament=tournament, number=1, data={field: v}
        )
    return ways


def test_every_service_refuses_a_hostile_name_with_the_reason_and_stores_nothing(
    formats: dict[str, Any],
) -> None:
    ways = _service_ways(formats)
    before = _everything()
    wrong = []
    for way, call in ways.items():
        for value, reason in HOSTILE:
            try:
                call(value)
            except ValueError as exc:
                if reason not in str(exc):
                    wrong.append(f"{way}, {value!r}: {exc}")
            else:
                wrong.append(f"{way}, {value!r}: taken")
            if _everything() != before:
                wrong.append(f"{way}, {value!r}: something was stored")
                break
    assert not wrong, "\n".join(wrong)


def test_a_required_name_of_spaces_only_is_refused_by_every_service(
    formats: dict[str, Any],
) -> None:
    ways = _service_ways(formats)
    required = [way for way in ways if "player" not in way and "city" not in way]
    before = _everything()
    for way in required:
        for value in BLANK:
            with pytest.raises(ValueError, match=r"(?i)give"):
                ways[way](value)
    assert _everything() == before


def test_the_rule_keeps_names_with_something_visible_exactly(formats: dict[str, Any]) -> None:
    """The zero-width joiners and the soft hyphen stay inside a name that can be seen, as in
    every other format; so do accents, quotes and "&"."""
    tournament = formats["tournament"]
    team = team_services.team_add(
        tournament=tournament,
        data={"name": "نرگس\u200cزاده", "city": "Zoë\u00adville", "player_one": "A & B"},
    )
    assert (team.name, team.city, team.player_one) == ("نرگس\u200cزاده", "Zoë\u00adville", "A & B")
    player = drive_services.player_add(drive=formats["drive"], name='Pat "Ace" O\'Brien')
    assert player.name == 'Pat "Ace" O\'Brien'


@pytest.fixture
def admin_client(db: Any, django_user_model: Any) -> Client:
    """An administrator: names a club that does not exist yet, so the club's name is read."""
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root-1")
    client = Client()
    client.force_login(admin)
    return client


def _api_ways(f: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Each API call a name comes in by: (what, address, body with the name as NAME)."""
    event, drive, tournament = f["event"], f["drive"], f["tournament"]
    pair = _pairs(event)[0]
    new_event = {"name": "Fine", "game": "classic", "movement_kind": "mitchell"}
    new_event["movement_params"] = MOVEMENT
    new_drive = {"name": "Fine", "settings": DRIVE_SETTINGS}
    ways: list[tuple[str, str, Any]] = [
        ("the event's name", "/api/events/", {**new_event, "name": NAME}),
        ("the event's club", "/api/events/", {**new_event, "club": NAME}),
        ("a pair's player", f"/api/events/{event.pk}/pairs", [{"id": pair.pk, "player2": NAME}]),
        ("the drive's name", "/api/drives/", {**new_drive, "name": NAME}),
        ("the drive's club", "/api/drives/", {**new_drive, "club": NAME}),
        ("a drive's player at the start", "/api/drives/", {**new_drive, "players": ["A", NAME]}),
        ("a drive's player added", f"/api/drives/{drive.pk}/players/", {"name": NAME}),
        (
            "a drive's player renamed",
            f"/api/drives/{drive.pk}/players/",
            {"name": NAME, "number": 1},
        ),
        ("the tournament's name", "/api/tournaments/", {"name": NAME}),
        ("the tournament's club", "/api/tournaments/", {"name": "Fine", "club": NAME}),
    ]
    for field in TEAM_FIELD_NAMES:
        team = _team(field, NAME)
        ways.append((f"a team's {field}", "/api/tournaments/", {"name": "T", "teams": [team]}))
        ways.append((f"a team's {field} added", f"/api/tournaments/{tournament.pk}/teams/", team))
    return ways


#: Where the hostile name goes in an API body.
NAME = "<the name>"


def _with_name(body: Any, value: str) -> Any:
    """`body` with `value` where it says NAME."""
    return json.loads(json.dumps(body).replace(json.dumps(NAME), json.dumps(value)))


@pytest.mark.parametrize("who", ["director", "administrator"])
def test_every_api_call_refuses_a_hostile_name_with_the_reason_and_stores_nothing(
    formats: dict[str, Any], director_client: Client, admin_client: Client, who: str
) -> None:
    client = director_client if who == "director" else admin_client
    before = _everything()
    wrong = []
    for way, address, body in _api_ways(formats):
        if "club" in way and who == "director":
            continue  # a director names one of their clubs: the administrator makes new ones
        for value, reason in HOSTILE:
            response = client.post(address, _with_name(body, value), "application/json")
            said = response.content.decode()
            if response.status_code != 400 or reason not in said:
                wrong.append(f"{way}, {value!r}: {response.status_code} {said[:200]}")
            if _everything() != before:
                wrong.append(f"{way}, {value!r}: something was stored")
                break
    assert not wrong, "\n".join(wrong)


def _page_ways(f: dict[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    """Each director's page a name comes in by: (what, address, form with the name as NAME)."""
    event, drive, tournament = f["event"], f["drive"], f["tournament"]
    pairs = _pairs(event)
    new_event = {"name": NAME, "date": "2025-01-01", "game": "classic", "pairs": "12"}
    all_pairs = {f"pair-{p.pk}-{n}": "Fine" for p in pairs for n in (1, 2)}
    first_pair = f"pair-{pairs[0].pk}-2"
    manage = f"/drives/{drive.pk}/manage/players/"
    teams = f"/tournaments/{tournament.pk}/manage/teams/"
    new_teams = "/tournaments/new/"
    ways = [
        ("the event's name", "/events/new/", {**new_event, "boards": "24", "method": "mp"}),
        ("a pair's player", f"/events/{event.pk}/pairs/", {**all_pairs, first_pair: NAME}),
        ("the drive's name", "/drives/new/", {**DRIVE_FORM, "name": NAME}),
        ("a drive's player at the start", "/drives/new/", {**DRIVE_FORM, "players": f"A\n{NAME}"}),
        ("a drive's player added", manage, {"action": "add", "name": NAME}),
        ("a drive's player renamed", manage, {"action": "rename", "number": "1", "name": NAME}),
        ("the tournament's name", new_teams, {**TEAMS_FORM, "name": NAME}),
        ("the league's name", new_teams, {**TEAMS_FORM, "new_league": NAME}),
        ("a team's name at the start", new_teams, {**TEAMS_FORM, "teams": f"Aces\n{NAME}"}),
    ]
    for n, field in enumerate(TEAM_FIELD_NAMES[1:], start=1):
        line = "; ".join([*["Jacks", "", "", ""][:n], NAME])  # the field's place in a line
        ways.append((f"a team's {field} at the start", new_teams, {**TEAMS_FORM, "teams": line}))
    for field in TEAM_FIELD_NAMES:
        ways.append((f"a team's {field} added", teams, {"action": "add", **_team(field, NAME)}))
        ways.append(
            (f"a team's {field} changed", teams, {"action": "change", "number": "1", field: NAME})
        )
    return ways


#: The director's set-up forms, filled in as a director would (the name goes in per test).
DRIVE_FORM = {
    "name": "Tuesday drive", "game": "classic", "hands": "2", "half_time": "1",
    "scoring": "tricks", "trumps": "HDSC", "move": "progressive", "ends": "wrap",
    "short_table": "sit_out", "sit_out_score": "fixed", "sit_out_tricks": "7",
    "role_a": "Lady", "role_b": "Gent", "prizes": "highest", "tie_rule": "countback",
    "players": "Ann\nBob",
}  # fmt: skip
TEAMS_FORM = {
    "name": "Friday teams", "rotation": "swiss", "rounds": "3", "game_kind": "target",
    "game_value": "7", "scoring": "fosdick", "bye": "win", "grace_minutes": "10",
    "keys": "wins, points, hands, bostons, head_to_head", "fee": "0", "house_percent": "0",
    "prizes": "", "pot_stake": "0", "playoff": "0", "teams": "Aces\nKings",
}  # fmt: skip


def test_every_page_refuses_a_hostile_name_with_the_reason_and_stores_nothing(
    formats: dict[str, Any], director_client: Client
) -> None:
    # The forms are right as they stand: each is taken once the name is a fine one.
    for address, form in (("/drives/new/", DRIVE_FORM), ("/tournaments/new/", TEAMS_FORM)):
        assert director_client.post(address, form).status_code == 302, address
    before = _everything()
    wrong = []
    for way, address, form in _page_ways(formats):
        for value, reason in HOSTILE:
            sent = {key: text.replace(NAME, value) for key, text in form.items()}
            response = director_client.post(address, sent, follow=True)
            said = html.unescape(response.content.decode())
            if response.status_code != 200 or reason not in said:
                wrong.append(f"{way}, {value!r}: {response.status_code}, the reason not shown")
            if _everything() != before:
                wrong.append(f"{way}, {value!r}: something was stored")
                break
    assert not wrong, "\n".join(wrong)
