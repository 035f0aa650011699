"""Published results: who may read what, and what a member finds on each page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import make_event
from tournaments.events.models import Board, Event, Pair
from tournaments.events.services.events import event_finish, event_publish, event_set_live_public
from tournaments.events.services.simulation import event_simulate

pytestmark = pytest.mark.django_db


def _played(club: Any, director: Any, game: str = "classic", **extra: Any) -> Event:
    event = make_event(club, user=director, game=game, **extra)
    Pair.objects.filter(section__event=event, number=1, direction="NS").update(
        player1="Ann Archer", player2="Bill Bennett"
    )
    event_simulate(event=event, seed=5, batch=True)
    return event_finish(event=event, user=director)


def _urls(event: Event) -> list[str]:
    pk = event.pk
    return [
        f"/results/{pk}/",
        f"/results/{pk}/boards/1/",
        f"/results/{pk}/pairs/NS1/",
        f"/results/{pk}/display/",
        f"/results/{pk}/version.json",
        f"/api/public/events/{pk}/",
        f"/api/public/events/{pk}/boards/1/",
        f"/api/public/events/{pk}/pairs/NS1/",
    ]


def test_unpublished_results_are_not_found_and_published_ones_are_served(
    club, director, director_client
) -> None:
    event = _played(club, director)
    anonymous = Client()
    for url in _urls(event):
        assert anonymous.get(url).status_code == 404, url
        assert director_client.get(url).status_code == 200, url  # the director previews
    assert anonymous.get(f"/clubs/{club.slug}/").content.count(b"/results/") == 0
    event_publish(event=event, user=director)
    for url in _urls(event):
        assert anonymous.get(url).status_code == 200, url
    assert f"/results/{event.pk}/".encode() in anonymous.get(f"/clubs/{club.slug}/").content


def test_the_director_can_open_live_results_to_everyone(club, director, director_client) -> None:
    event = make_event(club, user=director)
    anonymous = Client()
    assert anonymous.get(f"/results/{event.pk}/").status_code == 404
    director_client.post(f"/events/{event.pk}/live/", {"live": "1"})
    assert Event.objects.get(pk=event.pk).live_public
    assert anonymous.get(f"/results/{event.pk}/").status_code == 200
    assert b"live" in anonymous.get(f"/clubs/{club.slug}/").content
    event_set_live_public(event=Event.objects.get(pk=event.pk), live=False)
    assert anonymous.get(f"/results/{event.pk}/").status_code == 404


def test_the_standings_page_names_the_pairs_and_links_their_cards(club, director) -> None:
    event = event_publish(event=_played(club, director), user=director)
    page = Client().get(f"/results/{event.pk}/").content.decode()
    assert "Ann Archer &amp; Bill Bennett" in page
    assert f"/results/{event.pk}/pairs/NS1/" in page
    assert "How the field finished" in page  # the spread of percentages, as SVG
    assert page.count("<svg") >= 1


def test_a_board_page_shows_the_deal_the_results_and_par(club, director) -> None:
    event = event_publish(event=_played(club, director), user=director)
    board = Board.objects.get(event=event, number=1)
    board.par = {
        "board": 1,
        "tricks": {"ns": 7, "ew": 6, "trumps": "H", "leader": "E"},
        "table": None,
        "par": {"contracts": ["H, E leads"], "ns_score": 1, "tricks": {}, "approximate": False},
        "error": None,
    }
    board.par_status = Board.ParStatus.DONE
    board.save()
    page = Client().get(f"/results/{event.pk}/boards/1/").content.decode()
    for seat in ("North", "East", "South", "West"):
        assert seat in page
    assert "Par: NS 7, EW 6 tricks (♥ trumps, E leads)" in page
    assert page.count('class="suit') >= 16
    data = Client().get(f"/api/public/events/{event.pk}/boards/1/").json()
    assert sum(row["count"] for row in data["frequencies"]) == 3  # played at 3 tables
    assert data["par"].startswith("NS 7")
    assert "[Deal " in data["pbn"]


def test_a_pair_card_lists_every_board_with_points_and_a_running_percentage(club, director) -> None:
    event = event_publish(event=_played(club, director), user=director)
    data = Client().get(f"/api/public/events/{event.pk}/pairs/NS1/").json()
    assert data["pair"]["names"] == "Ann Archer & Bill Bennett"
    assert len(data["boards"]) == data["pair"]["boards"] == 6
    last = data["boards"][-1]["running_percentage"]["exact"]
    assert last == data["pair"]["percentage"]["exact"]
    page = Client().get(f"/results/{event.pk}/pairs/NS1/").content.decode()
    assert "running percentage" in page


def test_candid_pages_show_bags(club, director) -> None:
    event = event_publish(event=_played(club, director, game="candid"), user=director)
    page = Client().get(f"/results/{event.pk}/").content.decode()
    assert "Bags" in page and "Bag penalty" in page
    card = Client().get(f"/results/{event.pk}/pairs/NS1/").content.decode()
    assert "Bags" in card


def test_a_players_history_lists_the_published_events(club, director) -> None:
    first = event_publish(event=_played(club, director), user=director)
    second = event_publish(event=_played(club, director), user=director)
    names = Client().get(f"/clubs/{club.slug}/players/").content.decode()
    assert "Ann Archer" in names
    history = Client().get(f"/clubs/{club.slug}/player/", {"name": "Ann Archer"}).content.decode()
    assert f"/results/{first.pk}/" in history and f"/results/{second.pk}/" in history
    assert "Bill Bennett" in history  # the partner
    assert Client().get(f"/clubs/{club.slug}/player/", {"name": "Nobody"}).status_code == 404


def test_the_version_endpoint_follows_the_scored_results(club, director) -> None:
    event = _played(club, director)
    event_publish(event=event, user=director)
    answer = Client().get(f"/results/{event.pk}/version.json").json()
    assert answer["version"] == Event.objects.get(pk=event.pk).scored_version


@pytest.mark.django_db(transaction=True)  # the stream closes its database connection
def test_the_stream_brings_the_new_live_part_itself(club, director, monkeypatch) -> None:
    """A page that names itself (`?page=`) gets each new version's live part in its stream
    (a `part` event, id = the version); other pages get the version only."""
    from tournaments.events.services.scoring import (
        announce_version,
        scored_version,
        standings_refresh,
    )
    from tournaments.events.views import live as public_views

    monkeypatch.setattr(public_views, "STREAM_CHECK", 0.01)
    event = make_event(club, user=director)
    event_set_live_public(event=event, live=True, user=director)
    # Every round played, the event still running: every board finished, so the public part
    # has standings to show (after one round of a Mitchell no board is finished).
    event_simulate(event=event, seed=5, batch=True)
    standings_refresh(event_id=event.pk)
    page = f"/results/{event.pk}/"
    for path, expect in ((page, "part"), (f"/results/{event.pk}/pairs/NS1/", "version")):
        stream = Client().get(f"/results/{event.pk}/stream", {"page": path})
        assert stream["Content-Type"] == "text/event-stream"
        chunks = iter(stream.streaming_content)
        first = next(chunks).decode()
        assert "event: version" in first
        before = scored_version(event.pk)
        assert before is not None
        announce_version(event_id=event.pk, version=before + 1)  # as after a rescore
        sent = next(chunks).decode()
        assert sent.startswith(f"event: {expect}\n"), sent[:80]
        if expect == "part":
            assert f"id: {before + 1}\n" in sent
            assert "Ann" in sent or "<table" in sent
            assert all(
                line.startswith(("event:", "id:", "data:")) for line in sent.splitlines() if line
            )
        stream.close()
    outsider = Client().get(f"/results/{event.pk}/stream", {"page": "/results/99999/"})
    chunks = iter(outsider.streaming_content)
    next(chunks)
    announce_version(event_id=event.pk, version=(scored_version(event.pk) or 0) + 1)
    assert next(chunks).decode().startswith("event: version")  # another event's page: no part


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_stored_version_wakes_open_streams_at_once(club, director, monkeypatch) -> None:
    """With Redis the streams sleep until a version is published: no look at the cache for
    seconds (both intervals 5 s here), yet the new part arrives within moments."""
    import time

    from tournaments.events.services.scoring import announce_version, scored_version
    from tournaments.events.views import live as public_views
    from tournaments.kernel import live

    # Asleep, the stream would check again only after a minute: woken, it answers at once.
    # The margin between the two (30 s) is far beyond what a loaded machine adds.
    monkeypatch.setattr(public_views, "STREAM_CHECK", 60.0)
    monkeypatch.setattr(public_views, "STREAM_POLL", 60.0)
    url = live._redis_url()
    assert url is not None
    live._LISTENER.start(url)
    deadline = time.monotonic() + 10
    while not live._LISTENER.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live._LISTENER.connected
    time.sleep(0.2)  # the subscription is in place once the listener says connected
    event = make_event(club, user=director)
    event_set_live_public(event=event, live=True, user=director)
    stream = Client().get(f"/results/{event.pk}/stream", {"page": f"/results/{event.pk}/"})
    chunks = iter(stream.streaming_content)
    next(chunks)
    before = scored_version(event.pk) or 0
    import threading

    threading.Timer(0.3, lambda: announce_version(event_id=event.pk, version=before + 1)).start()
    started = time.monotonic()
    sent = next(chunks).decode()
    waited = time.monotonic() - started
    assert sent.startswith("event: part\n") and f"id: {before + 1}\n" in sent
    assert waited < 30.0, f"the stream slept {waited:.2f} s instead of being woken"
    stream.close()
