"""Closing shows what is missing and needs the director's decisions: boards with no result
score as the director chooses (not played or Average), and results waiting, disputes and open
calls need an explicit "close anyway". Refusals change nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.events.models import Event, Result
from tournaments.events.services import closing
from tournaments.events.services.events import EventError, event_publish
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import director_call

pytestmark = pytest.mark.django_db


def test_a_complete_event_closes_at_once(running_event: Event) -> None:
    event_simulate(event=running_event, seed=1, batch=True)
    assert closing.closing_report(running_event).clear
    closed = closing.event_close(event=running_event)
    assert closed.status == Event.Status.FINISHED


def test_missing_boards_must_be_given_a_score_first(running_event: Event) -> None:
    event_simulate(event=running_event, rounds=1, seed=1, batch=True)  # 6 of 18 results
    report = closing.closing_report(running_event)
    assert len(report.missing) == 12 and not report.needs_confirmation
    with pytest.raises(EventError, match="12 board\\(s\\) have no result"):
        closing.event_close(event=running_event)
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.RUNNING
    assert Result.objects.filter(section__event=running_event).count() == 6
    closed = closing.event_close(event=running_event, missing="not-played")
    assert closed.status == Event.Status.FINISHED
    codes = set(
        Result.objects.filter(
            section__event=running_event, status=Result.Status.ARTIFICIAL
        ).values_list("artificial_code", flat=True)
    )
    assert codes == {"NP"}
    assert Result.objects.filter(section__event=running_event).count() == 18
    event_publish(event=closed)


def test_waiting_disputed_and_calls_need_close_anyway(running_event: Event) -> None:
    event_simulate(event=running_event, seed=1, batch=True)
    first, second = Result.objects.filter(section__event=running_event).order_by("pk")[:2]
    Result.objects.filter(pk=first.pk).update(status=Result.Status.ENTERED)
    Result.objects.filter(pk=second.pk).update(status=Result.Status.DISPUTED)
    director_call(section=running_event.section, table=2, round=3, note="slow play")
    report = closing.closing_report(running_event)
    assert (len(report.waiting), len(report.disputed), len(report.open_calls)) == (1, 1, 1)
    with pytest.raises(EventError, match="confirm that you close anyway"):
        closing.event_close(event=running_event)
    assert closing.event_close(event=running_event, confirm=True).status == "finished"


def test_the_close_button_shows_what_is_missing(director_client: Client, running_event) -> None:
    event_simulate(event=running_event, rounds=2, seed=1, batch=True)
    answer = director_client.post(f"/events/{running_event.pk}/status/finish/")
    assert answer.status_code == 302 and answer["Location"] == f"/events/{running_event.pk}/close/"
    page = director_client.get(answer["Location"]).content.decode()
    assert "6 boards with no result" in page and 'name="missing"' in page
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.RUNNING
    done = director_client.post(
        f"/events/{running_event.pk}/status/finish/", {"missing": "average"}, follow=True
    )
    assert "scores are final" in done.content.decode()
    assert set(
        Result.objects.filter(section__event=running_event, status="artificial").values_list(
            "artificial_code", flat=True
        )
    ) == {"A"}


def test_the_api_says_what_is_missing(director_client: Client, running_event) -> None:
    url = f"/api/events/{running_event.pk}/actions/finish"
    refused = director_client.post(url, {}, content_type="application/json")
    assert refused.status_code == 400 and "18 board(s) have no result" in refused.json()["detail"]
    bad = director_client.post(url, {"missing": "zero"}, content_type="application/json")
    assert bad.status_code == 400
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.RUNNING
    ok = director_client.post(url, {"missing": "not-played"}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["status"] == "finished"


def test_the_round_clock_and_the_rounds_progress_on_the_room(
    director_client: Client, running_event: Event
) -> None:
    from tournaments.events.services.tablets import round_clock_start, round_clock_stop

    url = f"/events/{running_event.pk}/room/"
    page = director_client.get(url).content.decode()
    assert "Start the round clock" in page and 'value="14"' in page  # 7 minutes x 2 boards
    assert "Round 1: 0/3" in page and "Round 3: 0/3" in page
    event_simulate(event=running_event, rounds=1, seed=1, batch=True)
    assert "Round 1: 3/3" in director_client.get(url).content.decode()
    director_client.post(f"/events/{running_event.pk}/rounds/clock/", {"minutes": "15"})
    section = running_event.section
    section.refresh_from_db()
    assert section.clock_minutes == 15 and section.clock_ends_at is not None
    assert 'id="clock-left"' in director_client.get(url).content.decode()
    with pytest.raises(ValueError, match="1 to 120 minutes"):
        round_clock_start(event=running_event, minutes=500)
    section.refresh_from_db()
    assert section.clock_minutes == 15  # the refusal changed nothing
    round_clock_stop(event=running_event)
    section.refresh_from_db()
    assert section.clock_ends_at is None


def test_the_directors_standings_mark_pairs_with_few_boards(
    director_client: Client, running_event: Event
) -> None:
    from tournaments.events.services.scoring import standings_refresh

    event_simulate(event=running_event, seed=1, batch=True)
    ns1 = running_event.section.pairs.get(number=1, direction="NS")
    keep = Result.objects.filter(ns_pair=ns1).order_by("pk").first()
    assert keep is not None
    Result.objects.filter(ns_pair=ns1).exclude(pk=keep.pk).delete()  # NS 1 left after a board
    standings_refresh(event_id=running_event.pk, force=True)
    page = director_client.get(f"/events/{running_event.pk}/standings/").content.decode()
    assert page.count('class="few"') == 1
    assert "* played fewer than half the boards" in page


def test_publishing_needs_a_deliberate_tick_and_the_pace_is_a_club_setting(
    director_client: Client, running_event: Event
) -> None:
    event_simulate(event=running_event, seed=1, batch=True)
    closing.event_close(event=running_event)
    url = f"/events/{running_event.pk}/status/publish/"
    director_client.post(url)
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.FINISHED
    director_client.post(url, {"confirm": "yes"})
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.PUBLISHED
    # The club's pace drives the advisor's timings and the round clock's default.
    slug = running_event.club.slug
    director_client.post(f"/events/{running_event.pk}/print/paper/", {"minutes_per_board": "9"})
    assert director_client.get(f"/api/clubs/{slug}/settings").json()["minutes_per_board"] == 9
    refused = director_client.patch(
        f"/api/clubs/{slug}/settings", {"minutes_per_board": 99}, content_type="application/json"
    )
    assert refused.status_code == 400
    from engine.movements import advise, why

    assert "at 9 minutes a board" in why(advise(14, 24)[0], minutes_per_board=9)


def test_a_dispute_on_the_room_links_to_its_table_and_boards(
    director_client: Client, running_event: Event
) -> None:
    from tournaments.events.services.tablets import (
        table_links_ensure,
        tablet_dispute,
        tablet_submit,
    )

    access = {a.table: a for a in table_links_ensure(event=running_event)}[2]
    made, _ = tablet_submit(access=access, board_number=3, entry={"ns_tricks": 4}, key="k-disp-1")
    tablet_dispute(access=access, result_id=made.pk, note="revoke at trick 5")
    page = director_client.get(f"/events/{running_event.pk}/room/").content.decode()
    calls = page[
        page.index("Director called") : page.index("</section>", page.index("Director called"))
    ]
    assert 'href="#table-2"' in calls and "Board 3 disputed" in calls
    assert f'href="/events/{running_event.pk}/boards/3/"' in calls
