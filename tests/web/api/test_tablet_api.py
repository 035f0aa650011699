"""The tablets' API: a table link reaches only its own table's boards of the round it plays,
results are never doubled or silently dropped, and rounds move on as the event says."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from tests.web.conftest import make_event
from tournaments.events.models import Board, DirectorCall, Event, Result, TableAccess
from tournaments.events.services import tablets
from tournaments.events.services.results import result_confirm

pytestmark = pytest.mark.django_db


def _links(event: Event) -> dict[int, str]:
    return {a.table: a.token for a in tablets.table_links_ensure(event=event)}


def _post(client: Client, url: str, data: dict[str, Any] | None = None) -> Any:
    return client.post(url, data or {}, content_type="application/json")


def _submit(client: Client, token: str, board: int, entry: dict[str, Any], key: str) -> Any:
    return _post(
        client,
        f"/api/t/{token}/results/",
        {"board": board, "entry": entry, "idempotency_key": key},
    )


@pytest.fixture
def links(running_event: Event) -> dict[int, str]:
    return _links(running_event)


def test_starting_an_event_gives_every_table_an_unguessable_link(club, director) -> None:
    event = make_event(club, user=director)
    access = list(TableAccess.objects.filter(section__event=event))
    assert sorted(a.table for a in access) == [1, 2, 3]
    assert all(len(a.token) >= 32 for a in access)  # 24 random bytes: 192 bits
    assert len({a.token for a in access}) == 3


def test_a_table_reads_its_own_round_and_nothing_else(running_event, links) -> None:
    client = Client()
    state = client.get(f"/api/t/{links[1]}/").json()
    assert state["table"] == 1 and state["current"]["round"] == 1
    assert [b["number"] for b in state["current"]["boards"]] == [1, 2]
    assert state["fields"][0]["key"] == "ns_tricks"
    # table 2 cannot write table 1's board, nor a board of another round
    refused = _submit(client, links[2], 1, {"ns_tricks": 7}, "k-other-table")
    assert refused.status_code == 403 and "not board 1" in refused.json()["detail"]
    later = _submit(client, links[1], 5, {"ns_tricks": 7}, "k-later-round")
    assert later.status_code == 403 and "round 1" in later.json()["detail"]
    ours = _submit(client, links[1], 1, {"ns_tricks": 7}, "k-ours-0001").json()
    assert _post(client, f"/api/t/{links[2]}/results/{ours['id']}/confirm/").status_code == 403
    assert _post(client, f"/api/t/{links[2]}/results/{ours['id']}/dispute/").status_code == 403
    assert Result.objects.get(pk=ours["id"]).status == "entered"
    assert client.get("/api/t/not-a-real-token-at-all/").status_code == 404


def test_a_replaced_link_is_refused_with_its_reason(running_event, links) -> None:
    new = tablets.table_link_replace(event=running_event, table=1)
    client = Client()
    old = client.get(f"/api/t/{links[1]}/")
    assert old.status_code == 403 and "replaced" in old.json()["detail"]
    assert _submit(client, links[1], 1, {"ns_tricks": 7}, "k-old-link-1").status_code == 403
    assert client.get(f"/api/t/{new.token}/").status_code == 200
    assert not Result.objects.exists()


def test_the_same_submission_twice_is_one_result_and_a_different_one_a_conflict(
    running_event, links
) -> None:
    client = Client()
    first = _submit(client, links[1], 1, {"ns_tricks": 8}, "device-key-1")
    assert first.status_code == 201
    again = _submit(client, links[1], 1, {"ns_tricks": 8}, "device-key-1")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    second_device = _submit(client, links[1], 1, {"ns_tricks": 8}, "device-key-2")
    assert second_device.status_code == 200 and second_device.json()["id"] == first.json()["id"]
    for key in ("device-key-1", "device-key-3"):
        clash = _submit(client, links[1], 1, {"ns_tricks": 9}, key)
        assert clash.status_code == 409
        assert clash.json()["stored"]["entry"] == {"ns_tricks": 8}
        assert "director" in clash.json()["detail"]
    assert Result.objects.filter(board_number=1).count() == 1
    assert Result.objects.get(board_number=1).entry == {"ns_tricks": 8}


def test_the_director_api_answers_a_conflicting_resubmission_with_409(
    director_client, running_event
) -> None:
    url = f"/api/events/{running_event.pk}/results"
    body = {"round": 1, "table": 1, "board": 1, "entry": {"ns_tricks": 7}, "idempotency_key": "dk1"}
    assert _post(director_client, url, body).status_code == 201
    changed = _post(director_client, url, {**body, "entry": {"ns_tricks": 9}, "confirm": True})
    assert changed.status_code == 409
    stored = Result.objects.get(idempotency_key="dk1")
    assert stored.entry == {"ns_tricks": 7} and stored.status == "entered"


def test_an_invalid_entry_is_refused_in_the_engines_words_and_stores_nothing(links) -> None:
    client = Client()
    bad = _submit(client, links[1], 1, {"ns_tricks": 14}, "k-invalid-1")
    assert bad.status_code == 400
    assert bad.json()["detail"] == "NS tricks must be between 0 and 13, not 14"
    preview = _post(client, f"/api/t/{links[1]}/preview/", {"board": 1, "entry": {"ns_tricks": 14}})
    assert preview.status_code == 400
    assert not Result.objects.exists()


def test_confirm_and_dispute_from_the_table(running_event, links) -> None:
    client = Client()
    one = _submit(client, links[1], 1, {"ns_tricks": 7}, "k-confirm-1").json()
    two = _submit(client, links[1], 2, {"ns_tricks": 6}, "k-dispute-1").json()
    assert _post(client, f"/api/t/{links[1]}/results/{one['id']}/confirm/").json()["status"] == (
        "confirmed"
    )
    disputed = _post(
        client, f"/api/t/{links[1]}/results/{two['id']}/dispute/", {"note": "we took 8"}
    )
    assert disputed.json()["status"] == "disputed"
    call = DirectorCall.objects.get(table=1)
    assert "Board 2 disputed" in call.note and "we took 8" in call.note
    called = _post(client, f"/api/t/{links[3]}/call-director/", {"note": "revoke?"})
    assert called.status_code == 201
    assert DirectorCall.objects.filter(table=3, handled_at__isnull=True).count() == 1


def test_a_table_moves_on_when_its_round_is_played_and_shows_the_recap(links) -> None:
    client = Client()
    for board, key in ((1, "key-r1-b1"), (2, "key-r1-b2")):
        made = _submit(client, links[1], board, {"ns_tricks": 7}, key).json()
        state = client.get(f"/api/t/{links[1]}/").json()
        assert state["current"]["round"] == 1  # entered but not confirmed: still round 1
        _post(client, f"/api/t/{links[1]}/results/{made['id']}/confirm/")
    state = client.get(f"/api/t/{links[1]}/").json()
    # played through, but its next EW pair and boards are still at tables 3 and 2
    assert state["current"]["round"] == 1 and state["waiting_for_tables"] == [2, 3]
    _finish_round_one_elsewhere(client, links)
    state = client.get(f"/api/t/{links[1]}/").json()
    assert state["current"]["round"] == 2
    recap = state["previous"]
    assert recap["round"] == 1 and [b["state"] for b in recap["boards"]] == ["confirmed"] * 2
    # Mitchell: NS stay, EW move up a table, the boards move down one (to the last table)
    assert recap["next"] == {
        "ns": {"table": 1, "seat": "NS", "idle": False, "then_table": None, "then_seat": None},
        "ew": {"table": 2, "seat": "EW", "idle": False, "then_table": None, "then_seat": None},
        "boards_to": 3,
        "boards_later": None,  # played next round: no wait on the relay stand
        "last_round": False,
    }


def _finish_round_one_elsewhere(client: Client, links: dict[int, str]) -> None:
    for table, boards in ((2, (3, 4)), (3, (5, 6))):
        for board in boards:
            made = _submit(
                client, links[table], board, {"ns_tricks": 7}, f"key-round1-t{table}-b{board}"
            )
            _post(client, f"/api/t/{links[table]}/results/{made.json()['id']}/confirm/")


def test_events_that_move_on_the_directors_word_wait_for_it(club, director) -> None:
    event = make_event(club, user=director, advance="director")
    token = _links(event)[1]
    client = Client()
    for board in (1, 2):
        made = _submit(client, token, board, {"ns_tricks": 7}, f"key-dir-{board}").json()
        _post(client, f"/api/t/{token}/results/{made['id']}/confirm/")
    waiting = client.get(f"/api/t/{token}/").json()
    assert waiting["current"]["round"] == 1 and waiting["waiting_for_director"] is True
    assert _submit(client, token, 3, {"ns_tricks": 7}, "k-dir-early").status_code == 403
    tablets.round_start(event=event, round=2)
    _finish_round_one_elsewhere(client, _links(event))
    moved = client.get(f"/api/t/{token}/").json()
    assert moved["current"]["round"] == 2 and moved["waiting_for_director"] is False


def test_an_unlikely_result_is_checked_on_submission_and_its_reason_kept_for_the_director(
    running_event, links
) -> None:
    """The preview tells the table nothing of other tables or double dummy (the board is still
    being played); the submitted result is marked unusual for the players to check, and the
    reason with its figures goes to the director only."""
    board = Board.objects.get(event=running_event, number=1)
    board.par = {"tricks": {"ns": 6, "ew": 7, "trumps": "H", "leader": "E"}}
    board.par_status = Board.ParStatus.DONE
    board.save()
    client = Client()
    preview = _post(client, f"/api/t/{links[1]}/preview/", {"board": 1, "entry": {"ns_tricks": 11}})
    assert preview.status_code == 200
    assert set(preview.json()) == {"ns_score", "ew_score", "describe"}
    assert "double dummy" not in preview.content.decode()
    stored = _submit(client, links[1], 1, {"ns_tricks": 11}, "k-unlikely-1").json()
    assert stored["unusual"] is True
    assert "flag" not in stored and "double dummy" not in str(stored)
    state = client.get(f"/api/t/{links[1]}/").json()
    shown = {b["number"]: b["result"] for b in state["current"]["boards"]}
    assert shown[1]["unusual"] is True
    assert "double dummy" not in str(state)
    flagged = Result.objects.get(pk=stored["id"]).flag
    assert flagged == "NS took 11 tricks, but double dummy gives NS 6 in this contract"
    plain = _submit(client, links[1], 2, {"ns_tricks": 7}, "k-likely-1").json()
    assert plain["unusual"] is False


def test_each_link_is_throttled_on_its_own(links, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    from tournaments.events.api.tablets import TableTokenThrottle

    cache.clear()
    # the rates are read into the class when it is defined: patch them there (restored after)
    monkeypatch.setattr(TableTokenThrottle, "THROTTLE_RATES", {"table": "3/min"})
    client = Client()
    answers = [client.get(f"/api/t/{links[1]}/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert client.get(f"/api/t/{links[2]}/").status_code == 200  # another table's own count
    cache.clear()


def test_the_tablets_command_lists_every_link(running_event, links) -> None:
    out = StringIO()
    with override_settings(BASE_URL="http://whist.example.org"):
        call_command("tablets", str(running_event.pk), "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert [r["table"] for r in rows] == [1, 2, 3]
    assert rows[0] == {
        "table": 1,
        "url": f"http://whist.example.org/t/{links[1]}/",
        "token": links[1],
    }


def test_the_director_sees_each_tables_link_and_code_and_can_replace_one(
    director_client, running_event, links
) -> None:
    page = director_client.get(f"/events/{running_event.pk}/").content.decode()
    for token in links.values():
        assert f"/t/{token}/" in page
    assert page.count("<svg") >= 3
    room = director_client.get(f"/events/{running_event.pk}/room/").content.decode()
    assert f"/t/{links[2]}/" in room
    director_client.post(f"/events/{running_event.pk}/tablets/2/replace/")
    assert TableAccess.objects.get(token=links[2]).revoked_at is not None
    assert TableAccess.objects.filter(table=2, revoked_at=None).count() == 1


def test_a_result_confirmed_elsewhere_still_counts_once(running_event, links) -> None:
    client = Client()
    made = _submit(client, links[1], 1, {"ns_tricks": 7}, "k-elsewhere-1").json()
    result_confirm(result=Result.objects.get(pk=made["id"]))
    again = _post(client, f"/api/t/{links[1]}/results/{made['id']}/confirm/")
    assert again.status_code == 200 and again.json()["status"] == "confirmed"
    assert Result.objects.count() == 1


def test_a_confirmation_resent_after_the_round_moved_on_is_answered_as_stored(links) -> None:
    """The round's last confirmation was stored but its answer lost (a web node died, the
    Wi-Fi dropped), and the round moved on meanwhile: the tablet sends it again and learns it
    counted, not that the board belongs to another round. Another table's link is still
    refused."""
    client = Client()
    made = {}
    for board, key in ((1, "key-lost-b1"), (2, "key-lost-b2")):
        made[board] = _submit(client, links[1], board, {"ns_tricks": 7}, key).json()
        _post(client, f"/api/t/{links[1]}/results/{made[board]['id']}/confirm/")
    _finish_round_one_elsewhere(client, links)
    assert client.get(f"/api/t/{links[1]}/").json()["current"]["round"] == 2
    before = list(Result.objects.order_by("pk").values_list("pk", "status", "updated_at"))
    again = _post(client, f"/api/t/{links[1]}/results/{made[2]['id']}/confirm/")
    assert again.status_code == 200, again.json()
    assert again.json()["status"] == "confirmed" and again.json()["id"] == made[2]["id"]
    assert list(Result.objects.order_by("pk").values_list("pk", "status", "updated_at")) == before
    # another table's link learns nothing of it
    other = _post(client, f"/api/t/{links[2]}/results/{made[2]['id']}/confirm/")
    assert other.status_code == 403 and "is not one of table 2's" in str(other.json())
    assert list(Result.objects.order_by("pk").values_list("pk", "status", "updated_at")) == before


@pytest.mark.redis
def test_a_cached_table_state_never_outlives_a_change(running_event, links, director) -> None:
    """The state is served from the shared cache while nothing changes, and every change a
    tablet shows (a result, its confirmation, a name, a call and its handling, the event's
    status) is seen on the next read."""
    from django.core.cache import cache

    from tournaments.events.selectors import tablet_cache
    from tournaments.events.services.events import event_finish, pairs_register
    from tournaments.events.services.results import call_mark_handled

    assert tablet_cache.shared()
    client = Client()
    url = f"/api/t/{links[1]}/"

    def state() -> dict[str, Any]:
        answer = client.get(url)
        assert answer.status_code == 200
        found = dict(answer.json())
        del found["server_time"]  # the moment of each answer, never cached
        return found

    first = state()
    assert first == state()
    access = TableAccess.objects.get(token=links[1])
    assert tablet_cache.cached_state(access) == first  # cached
    # Another table's result leaves table 1's cached state alone (no sit-outs here) ...
    _submit(client, links[2], 3, {"ns_tricks": 7}, "cache-key-other")
    assert tablet_cache.cached_state(access) == first
    made = _submit(client, links[1], 1, {"ns_tricks": 8}, "cache-key-1").json()
    assert state()["current"]["boards"][0]["state"] == "waiting"
    result_confirm(result=Result.objects.get(pk=made["id"]))  # from the director's side
    assert state()["current"]["boards"][0]["state"] == "confirmed"
    ns1 = running_event.section.pairs.get(number=1, direction="NS")
    pairs_register(event=running_event, names={ns1.pk: ("Renamed", "Player")})
    assert state()["current"]["ns"]["names"] == "Renamed & Player"
    _post(client, f"/api/t/{links[1]}/call-director/")
    assert state()["calls_open"] is True
    call = DirectorCall.objects.get(section=running_event.section, table=1)
    assert call_mark_handled(event=running_event, call_id=call.pk)
    assert state()["calls_open"] is False
    event_finish(event=Event.objects.get(pk=running_event.pk), user=director)
    assert state()["accepting"] is False
    cache.clear()
    assert state()["accepting"] is False  # computed afresh, the same


@pytest.mark.redis
def test_a_sitting_out_table_moves_on_with_the_room_through_the_cache(
    running_event, links, director
) -> None:
    """EW 3 is absent, so table 3 sits out round 1 and waits for the room: its state follows
    the other tables' results although none of them is its own."""
    from tournaments.events.services.events import pair_set_absent
    from tournaments.events.services.simulation import event_simulate

    ew3 = running_event.section.pairs.get(number=3, direction="EW")
    pair_set_absent(event=running_event, pair=ew3, absent=True, user=director)
    client = Client()
    url = f"/api/t/{links[3]}/"
    first = client.get(url).json()
    assert first["current"]["round"] == 1 and first["current"]["sit_out"] is True
    assert client.get(url).json()["current"]["round"] == 1
    event_simulate(event=running_event, rounds=1, seed=2)  # tables 1 and 2 play round 1
    assert client.get(url).json()["current"]["round"] == 2


def test_the_round_clock_reaches_the_tables_with_the_servers_time(running_event, links) -> None:
    """The director's round clock is in every table's state while it runs, with the moment it
    ends; each answer carries the server's time so a tablet counts down by the server's
    clock, not its own (a tablet's clock can be minutes out)."""
    from datetime import datetime, timedelta

    from django.utils import timezone

    client = Client()
    before = client.get(f"/api/t/{links[1]}/").json()
    assert before["clock"] is None
    asked = timezone.now()
    tablets.round_clock_start(event=running_event, minutes=14)
    state = client.get(f"/api/t/{links[2]}/").json()
    ends = datetime.fromisoformat(state["clock"]["ends_at"])
    server = datetime.fromisoformat(state["server_time"])
    assert state["clock"]["minutes"] == 14
    assert (
        timedelta(minutes=14) - timedelta(seconds=2)
        <= ends - asked
        <= timedelta(minutes=14, seconds=2)
    )
    assert abs(server - timezone.now()) < timedelta(seconds=2)
    # the first table's state was cached without the clock: starting it retired that copy
    assert client.get(f"/api/t/{links[1]}/").json()["clock"]["ends_at"] == state["clock"]["ends_at"]
    tablets.round_clock_stop(event=running_event)
    assert client.get(f"/api/t/{links[1]}/").json()["clock"] is None


def test_the_tablets_cached_files_are_named_after_their_content(monkeypatch, tmp_path) -> None:
    """An upgraded table.js must replace every tablet's copy: the service worker's cache is
    named after the files' content, so new files mean a new worker and a new cache."""
    from tournaments.events.views import tablets as table_views
    from tournaments.kernel import tablet_pages
    from tournaments.kernel.tablet_pages import files_cache_name

    script, style = tmp_path / "table.js", tmp_path / "table.css"
    style.write_text(".bar {}")
    monkeypatch.setattr(
        tablet_pages.finders, "find", lambda name: str(script if name.endswith(".js") else style)
    )
    names = []
    for version in ("var a = 1;", "var a = 2;"):
        script.write_text(version)
        files_cache_name.cache_clear()
        names.append(table_views.SITE.cache_name())
    files_cache_name.cache_clear()
    assert names[0] != names[1]
    assert all(n.startswith("clubwhist-table-") for n in names)
    worker = Client().get("/t/sw.js")
    assert worker.status_code == 200 and table_views.SITE.cache_name() in worker.content.decode()
