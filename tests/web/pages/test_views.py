"""The director's pages, through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tournaments.events.models import AuditEntry, Event, Result

pytestmark = pytest.mark.django_db


def test_director_pages_need_a_login(running_event) -> None:
    for url in (
        f"/events/{running_event.pk}/",
        f"/events/{running_event.pk}/room/",
        "/events/new/",
    ):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_setting_up_an_event_offers_movements_then_creates_it(director_client: Client) -> None:
    form = {
        "name": "Club night",
        "date": "2026-11-24",
        "game": "classic",
        "pairs": "14",
        "boards": "24",
        "method": "mp",
        "scale": "ebu",
    }
    offered = director_client.post("/events/new/", form)
    assert offered.status_code == 200
    suggestions = offered.context["suggestions"]
    assert suggestions, "the advisor offered nothing for 14 pairs"
    choice = suggestions[0][0]
    created = director_client.post("/events/new/", {**form, "choice": choice})
    assert created.status_code == 302
    event = Event.objects.get(name="Club night")
    assert event.status == "draft" and event.boards.count() >= 20


def test_an_unknown_movement_choice_creates_nothing(director_client: Client) -> None:
    form = {
        "name": "X",
        "date": "2026-11-24",
        "game": "classic",
        "pairs": "8",
        "boards": "20",
        "method": "mp",
        "scale": "ebu",
        "choice": "nonsense:1",
    }
    response = director_client.post("/events/new/", form)
    assert response.status_code == 200
    assert "not offered" in response.context["error"]
    assert not Event.objects.exists()


def test_a_traveller_saves_all_lines_or_none(director_client: Client, running_event) -> None:
    url = f"/events/{running_event.pk}/boards/1/"
    page = director_client.get(url)
    assert page.status_code == 200 and len(page.context["lines"]) == 3
    bad = director_client.post(
        url, {"r0-ns_tricks": "8", "r1-ns_tricks": "15", "r2-ns_tricks": "6"}
    )
    assert bad.status_code == 200
    assert "13" in bad.context["lines"][1]["error"]
    assert not Result.objects.exists()
    good = director_client.post(
        url, {"r0-ns_tricks": "8", "r1-ns_tricks": "5", "r2-ns_tricks": "6", "next": "1"}
    )
    assert good.status_code == 302 and good["Location"].endswith("/boards/2/")
    assert sorted(Result.objects.values_list("ns_score", flat=True)) == [5, 6, 8]
    assert set(Result.objects.values_list("status", flat=True)) == {"confirmed"}


def test_the_preview_scores_as_you_type(director_client: Client, running_event) -> None:
    url = f"/events/{running_event.pk}/boards/1/preview/"
    assert director_client.post(url, {"ns_tricks": "9"}).json()["ns_score"] == 9
    wrong = director_client.post(url, {"ns_tricks": "99"}).json()
    assert wrong["valid"] is False and "13" in wrong["error"]


def test_correcting_from_the_page_needs_a_reason(director_client: Client, running_event) -> None:
    director_client.post(f"/events/{running_event.pk}/boards/1/", {"r0-ns_tricks": "8"})
    result = Result.objects.get()
    url = f"/events/{running_event.pk}/results/{result.pk}/correct/"
    refused = director_client.post(url, {"ns_tricks": "7", "reason": ""})
    assert "Say why" in refused.context["error"]
    done = director_client.post(url, {"ns_tricks": "7", "reason": "miscount"})
    assert done.status_code == 302
    result.refresh_from_db()
    assert (result.ns_score, result.status) == (7, "corrected")
    assert AuditEntry.objects.filter(action="result corrected", reason="miscount").exists()


def test_standings_are_private_until_published(director_client: Client, running_event) -> None:
    url = f"/events/{running_event.pk}/standings/"
    assert Client().get(url).status_code == 302
    assert director_client.get(url).status_code == 200


def test_the_room_page_lists_every_table(director_client: Client, running_event) -> None:
    page = director_client.get(f"/events/{running_event.pk}/room/")
    assert page.status_code == 200
    assert [t.table for t in page.context["room"]["tables"]] == [1, 2, 3]


def test_boards_download_as_pbn(director_client: Client, running_event) -> None:
    from engine import pbn

    response = director_client.get(f"/events/{running_event.pk}/boards.pbn")
    text = response.content.decode()
    boards = pbn.loads(text)
    assert [b.number for b in boards] == [1, 2, 3, 4, 5, 6]
    # One file: one header, games separated by a blank line (PBN 2.1, section 3).
    assert text.count("% PBN 2.1") == 1
    games = [g for g in text.split("\n\n") if "[Board " in g]
    assert len(games) == 6 and all(g.count("[Board ") == 1 for g in games)


def test_the_event_page_title_is_plain_text(director_client: Client, running_event) -> None:
    page = director_client.get(f"/events/{running_event.pk}/").content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert title == f"{running_event.name} · clubwhist"


def test_the_audit_trail_reads_as_words_and_filters_and_downloads(
    director_client: Client, running_event
) -> None:
    from tournaments.events.services.corrections import result_correct
    from tournaments.events.services.results import result_submit

    result, _ = result_submit(
        section=running_event.section,
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 7},
        confirm=True,
    )
    result_correct(result=result, entry={"ns_tricks": 9}, reason="misread the traveller")
    url = f"/events/{running_event.pk}/audit/"
    page = director_client.get(url).content.decode()
    assert "entry ns tricks 7 → 9" in page and "misread the traveller" in page
    assert "{&#x27;" not in page and "{'" not in page  # no raw dicts
    only = director_client.get(url, {"q": "board 1"}).content.decode()
    assert "misread the traveller" in only and "Event started" not in only
    assert "Event started" in page
    # Entries and confirmations are in it too, from the results themselves.
    assert "Result entered and confirmed: board 1, table 1, round 1" in page
    sheet = director_client.get(url, {"format": "csv"})
    assert sheet["Content-Type"].startswith("text/csv")
    rows = sheet.content.decode("utf-8-sig").splitlines()
    assert rows[0] == "at,who,action,target,change,reason"
    assert any("ns tricks 7 → 9" in row for row in rows[1:])


def test_tablet_entries_confirmations_and_calls_are_in_the_audit_trail(
    director_client: Client, running_event
) -> None:
    from tournaments.events.services.results import call_mark_handled
    from tournaments.events.services.tablets import (
        director_call,
        table_links_ensure,
        tablet_confirm,
        tablet_submit,
    )

    access = {a.table: a for a in table_links_ensure(event=running_event)}[2]
    result, _ = tablet_submit(
        access=access, board_number=3, entry={"ns_tricks": 8}, key="k-audit-1"
    )
    tablet_confirm(access=access, result_id=result.pk)
    call = director_call(section=running_event.section, table=2, round=1, note="revoke")
    call_mark_handled(event=running_event, call_id=call.pk)
    page = director_client.get(
        f"/events/{running_event.pk}/audit/", {"q": "table 2"}
    ).content.decode()
    for words in (
        "Result entered: board 3, table 2, round 1",
        "Result confirmed: board 3",
        "Director called: table 2, round 1",
        "Call handled: table 2",
    ):
        assert words in page, words
    assert "table 2" in page and "board 1, table 1" not in page


def test_the_boards_download_is_read_by_another_projects_pbn_reader(
    director_client: Client, running_event
) -> None:
    """endplay (a bridge library, a test dependency) reads our file's deals as we dealt them."""
    from endplay.parsers import pbn as their_pbn

    from engine import pbn
    from engine.cards import Seat

    text = director_client.get(f"/events/{running_event.pk}/boards.pbn").content.decode()
    theirs = their_pbn.loads(text)
    ours = pbn.loads(text)
    assert [b.board_num for b in theirs] == [b.number for b in ours] == [1, 2, 3, 4, 5, 6]
    for mine, other in zip(ours, theirs, strict=True):
        for seat, hand in (
            (Seat.N, other.deal.north),
            (Seat.E, other.deal.east),
            (Seat.S, other.deal.south),
            (Seat.W, other.deal.west),
        ):
            spades, hearts, diamonds, clubs = str(hand).split(".")
            read = {
                suit + rank
                for suit, ranks in zip("SHDC", (spades, hearts, diamonds, clubs), strict=True)
                for rank in ranks
            }
            assert read == {str(card) for card in mine.deal.hand(seat)}
        assert other.dealer.abbr == mine.dealer.value


def test_a_refused_login_is_announced_and_tied_to_its_fields(director) -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert "aria-invalid" not in page and 'role="alert"' not in page
    refused = Client().post("/accounts/login/", {"username": "td", "password": "not-it"})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert '<p class="error" id="login-error" role="alert">' in page
    for name in ("username", "password"):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
        assert tag is not None, name
        assert 'aria-invalid="true"' in tag[0], tag[0]
        assert 'aria-describedby="login-error"' in tag[0], tag[0]
