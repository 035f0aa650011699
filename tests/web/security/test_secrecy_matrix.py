"""Cards are secret until played: every way out of the server, for a running event followed
live, hides a board's hands and results until every table that plays it has finished it; the
event's director sees everything; after publication everyone does.

The event: classic whist, a 3-table Mitchell of 2 boards a round (boards 1-6, each set played
once in each round). Boards 1 and 2 are finished everywhere; board 3 has been played and
confirmed at one table of three; board 5 is entered at one table but not confirmed; boards 4
and 6 are unplayed. So boards 1 and 2 may be shown, 3-6 not.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory

from tests.web.conftest import make_event
from tournaments.events.bridge import meeting_rows
from tournaments.events.models import Event, Pair, Result
from tournaments.events.selectors import boards_finished
from tournaments.events.services.events import event_finish, event_publish, event_set_live_public
from tournaments.events.services.results import result_submit
from tournaments.events.services.scoring import standings_refresh
from tournaments.events.services.tablets import table_links_ensure
from tournaments.events.views import live as public

pytestmark = pytest.mark.django_db

SHOWN = (1, 2)
HIDDEN = (3, 4, 5, 6)
PLAYED_HIDDEN = 3  # a result that counts, at one table of three


def _meetings_of(event: Event, board: int) -> list[tuple[int, int]]:
    section = event.section
    return sorted(
        (rnd, table)
        for (rnd, table), row in meeting_rows(section).items()
        if row.board_set and board in section.boards_of_set(row.board_set)
    )


def _play(event: Event, board: int, rnd: int, table: int, tricks: int, *, confirm: bool) -> None:
    result_submit(
        section=event.section,
        round=rnd,
        table=table,
        board_number=board,
        entry={"ns_tricks": tricks},
        confirm=confirm,
    )


@pytest.fixture
def evening(club: Any, director: Any) -> Event:
    event = make_event(club, user=director)
    for board in SHOWN:
        for i, (rnd, table) in enumerate(_meetings_of(event, board)):
            _play(event, board, rnd, table, 5 + i + board, confirm=True)
    rnd, table = _meetings_of(event, PLAYED_HIDDEN)[0]
    _play(event, PLAYED_HIDDEN, rnd, table, 11, confirm=True)
    rnd, table = _meetings_of(event, 5)[0]
    _play(event, 5, rnd, table, 2, confirm=False)
    event_set_live_public(event=event, live=True, user=director)
    standings_refresh(event_id=event.pk, force=True)
    return Event.objects.get(pk=event.pk)


def _pair_key(event: Event) -> str:
    """A pair that has played a shown board and the hidden board 3."""
    rnd, table = _meetings_of(event, PLAYED_HIDDEN)[0]
    row = meeting_rows(event.section)[(rnd, table)]
    pair = Pair.objects.get(section=event.section, number=row.ns_pair, direction="NS")
    return event.section.pair_key(pair.number, pair.direction or "")


def _board_link(event: Event, number: int) -> str:
    return f'href="/results/{event.pk}/boards/{number}/"'


def _reader_sees(client: Client, event: Event) -> dict[str, Any]:
    """What one reader gets from every public route, read into comparable facts."""
    pk, key = event.pk, _pair_key(event)
    seen: dict[str, Any] = {}
    standings = client.get(f"/results/{pk}/").content.decode()
    part = client.get(f"/results/{pk}/?part=1").content.decode()
    seen["linked"] = {n for n in range(1, 7) if _board_link(event, n) in standings + part}
    seen["board pages"] = {}
    for n in range(1, 7):
        page = client.get(f"/results/{pk}/boards/{n}/").content.decode()
        live = client.get(f"/results/{pk}/boards/{n}/?part=1").content.decode()
        seen["board pages"][n] = {
            "hands": 'class="compass"' in page,
            "results": 'class="list frequencies"' in page + live,
            "secret": "still being played" in page and "still being played" in live,
        }
    card = client.get(f"/results/{pk}/pairs/{key}/").content.decode()
    seen["pair card"] = {n for n in range(1, 7) if _board_link(event, n) in card}
    display = client.get(f"/results/{pk}/display/").content.decode()
    seen["display"] = {n for n in range(1, 7) if f"<h2>Board {n}</h2>" in display}
    api = client.get(f"/api/public/events/{pk}/").json()
    seen["api document"] = {
        int(n) for section in api["document"]["sections"] for n in section["boards"]
    }
    seen["api boards"] = {
        n: client.get(f"/api/public/events/{pk}/boards/{n}/").status_code for n in range(1, 7)
    }
    pair = client.get(f"/api/public/events/{pk}/pairs/{key}/").json()
    seen["api pair"] = {line["board"] for line in pair["boards"]}
    seen["exports"] = {
        fmt: (
            client.get(f"/results/{pk}/export.{fmt}").status_code,
            client.get(f"/api/public/events/{pk}/export/{fmt}").status_code,
        )
        for fmt in ("pbn", "usebio", "csv", "travellers-csv")
    }
    return seen


def _stream_parts(event: Event, user: Any) -> dict[int, str]:
    """What the live stream would push to a board page's reader at the current version."""
    factory = RequestFactory()
    out = {}
    for n in range(1, 7):
        request = factory.get(f"/results/{event.pk}/stream")
        request.user = user
        part = public._stream_part(request, event, f"/results/{event.pk}/boards/{n}/")
        assert part is not None
        out[n] = part(event.scored_version)
    return out


def test_the_rule_finishes_a_board_only_when_every_table_has_a_counting_result(evening) -> None:
    assert boards_finished(evening.section) == frozenset(SHOWN)


def test_the_public_sees_no_hand_or_result_of_a_board_still_being_played(evening) -> None:
    seen = _reader_sees(Client(), evening)
    assert seen["linked"] == set(SHOWN)
    for n, facts in seen["board pages"].items():
        if n in SHOWN:
            assert facts == {"hands": True, "results": True, "secret": False}, n
        else:
            assert facts == {"hands": False, "results": False, "secret": True}, n
    assert seen["pair card"] == set(SHOWN)  # every NS pair plays boards 1-2 once
    assert seen["display"] <= set(SHOWN)
    assert seen["api document"] == set(SHOWN)
    assert seen["api boards"] == {1: 200, 2: 200, 3: 403, 4: 403, 5: 403, 6: 403}
    assert seen["api pair"] == set(SHOWN)
    # Files carry every board: none while the event runs, for anyone but its director.
    assert set(seen["exports"].values()) == {(404, 404)}
    parts = _stream_parts(evening, AnonymousUser())
    for n in HIDDEN:
        assert "still being played" in parts[n] and "frequencies" not in parts[n]
    for n in SHOWN:
        assert "frequencies" in parts[n]


def test_a_board_refused_through_the_api_says_why(evening) -> None:
    answer = Client().get(f"/api/public/events/{evening.pk}/boards/3/")
    assert answer.status_code == 403
    assert "Board 3 is still being played" in json.dumps(answer.json())


def test_the_director_sees_every_board_of_the_running_event(evening, director_client) -> None:
    seen = _reader_sees(director_client, evening)
    assert seen["linked"] == set(range(1, 7))
    assert seen["board pages"][PLAYED_HIDDEN] == {"hands": True, "results": True, "secret": False}
    assert seen["board pages"][4]["hands"] is True
    assert seen["pair card"] == {*SHOWN, PLAYED_HIDDEN}
    assert PLAYED_HIDDEN in seen["api document"]
    assert seen["api boards"] == dict.fromkeys(range(1, 7), 200)
    parts = _stream_parts(evening, _user(director_client))
    assert "frequencies" in parts[PLAYED_HIDDEN]


def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def _user(client: Client) -> Any:
    from django.contrib.auth import get_user

    request = RequestFactory().get("/")
    request.session = client.session
    return get_user(request)


def test_a_cached_director_part_is_never_served_to_the_public(evening, director_client) -> None:
    """The live parts are cached per results version: one copy per reader scope."""
    page = f"/results/{evening.pk}/boards/{PLAYED_HIDDEN}/?part=1"
    assert "frequencies" in director_client.get(page).content.decode()
    assert "still being played" in Client().get(page).content.decode()


def test_a_tablet_sees_its_own_results_and_nothing_of_other_tables(evening) -> None:
    links = {a.table: a.token for a in table_links_ensure(event=evening)}
    own = {
        r.pk
        for r in Result.objects.filter(section=evening.section)
        if r.table == 1 and r.round == 1
    }
    others = set(Result.objects.filter(section=evening.section).values_list("pk", flat=True))
    state = Client().get(f"/api/t/{links[1]}/").json()
    ids = {
        b["result"]["id"]
        for view in (state["current"], state["previous"] or {"boards": []})
        for b in view["boards"]
        if b["result"]
    }
    assert ids <= own | {r.pk for r in Result.objects.filter(table=1)}
    assert not ids & (others - {r.pk for r in Result.objects.filter(table=1)})
    # and no cards at all: no key that could carry a hand, a kitty or a board record
    assert not _keys(state) & {"deal", "hands", "hand", "kitty", "record", "pbn", "cards"}
    assert Result.objects.exclude(table=1).exists()  # there were other tables' results to leak


def test_after_publication_everyone_sees_everything(evening, director) -> None:
    event_finish(event=evening, user=director)
    event_publish(event=Event.objects.get(pk=evening.pk), user=director)
    published = Event.objects.get(pk=evening.pk)
    seen = _reader_sees(Client(), published)
    assert seen["linked"] == set(range(1, 7))
    assert all(facts["hands"] for facts in seen["board pages"].values())
    assert seen["board pages"][PLAYED_HIDDEN]["results"] is True
    assert PLAYED_HIDDEN in seen["pair card"]
    assert seen["api boards"] == dict.fromkeys(range(1, 7), 200)
    assert set(seen["exports"].values()) == {(200, 200)}


def test_hand_records_and_player_pages_show_nothing_of_a_running_event(
    evening, director_client
) -> None:
    """The hand-record download (with par) is the director's alone; a player's page lists
    published events only, so a player of the running event has no page yet."""
    reader = Client()
    download = reader.get(f"/events/{evening.pk}/boards.pbn")
    assert download.status_code == 302 and "/accounts/login/" in download["Location"]
    records = director_client.get(f"/events/{evening.pk}/boards.pbn")
    assert records.status_code == 200 and b"[Deal " in records.content
    Pair.objects.filter(section=evening.section, number=1, direction="NS").update(
        player1="Ann Other"
    )
    page = reader.get(f"/clubs/{evening.club.slug}/player/", {"name": "Ann Other"})
    assert page.status_code == 404
