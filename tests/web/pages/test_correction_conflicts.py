"""A correction is made from what the director saw: if the result changed since, nothing is
saved and the director is shown what is stored now, who changed it and why (the page, the
API's 409). Two directors at once, on PostgreSQL with real threads, are in test_faults.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.events.models import AuditEntry, Event, Result
from tournaments.events.services import corrections
from tournaments.events.services import results as rs
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(running_event: Event) -> Result:
    result, _ = rs.result_submit(
        section=running_event.section,
        round=1,
        table=1,
        board_number=1,
        entry={"ns_tricks": 7},
    )
    return result


@pytest.fixture
def alice(club: Club) -> Any:
    user = get_user_model().objects.create_user("alice", password="pw-for-tests")
    club.directors.add(user)
    return user


def test_a_correction_from_an_older_view_is_refused_and_changes_nothing(
    stored: Result, alice: Any
) -> None:
    seen = rs.result_revision(stored)
    rs.result_confirm(result=stored)  # the opponents agree: the entry, and the revision, stay
    assert rs.result_revision(Result.objects.get(pk=stored.pk)) == seen
    corrections.result_correct(
        result=stored, entry={"ns_tricks": 9}, reason="recounted", user=alice
    )
    with pytest.raises(corrections.CorrectionConflict) as refused:
        corrections.result_correct(
            result=stored, entry={"ns_tricks": 6}, reason="EW's card", seen=seen
        )
    message = str(refused.value)
    assert "changed by alice at" in message and "(recounted)" in message
    assert "now reads NS +9" in message and "Nothing was saved" in message
    assert refused.value.stored.pk == stored.pk
    assert Result.objects.get(pk=stored.pk).entry == {"ns_tricks": 9}
    assert AuditEntry.objects.filter(action="result corrected").count() == 1
    # Decided again from what is stored now, it is saved.
    now = rs.result_revision(Result.objects.get(pk=stored.pk))
    corrections.result_correct(result=stored, entry={"ns_tricks": 6}, reason="EW's card", seen=now)
    assert Result.objects.get(pk=stored.pk).entry == {"ns_tricks": 6}


def test_the_correction_page_shows_a_change_made_meanwhile(
    client: Client, stored: Result, alice: Any, club: Club
) -> None:
    bob = get_user_model().objects.create_user("bob", password="pw-for-tests")
    club.directors.add(bob)
    client.force_login(bob)
    url = f"/events/{stored.section.event_id}/results/{stored.pk}/correct/"
    page = client.get(url)
    seen = page.context["seen"]
    assert f'name="seen" value="{seen}"' in page.content.decode()

    corrections.result_correct(
        result=stored, entry={"ns_tricks": 9}, reason="recounted", user=alice
    )
    refused = client.post(url, {"ns_tricks": "6", "reason": "EW's card", "seen": seen})
    assert refused.status_code == 200
    shown = refused.content.decode()
    assert "changed by alice" in shown and "Now: NS 9" in shown
    assert refused.context["current"]["ns_tricks"] == "6"  # what bob typed is kept
    assert Result.objects.get(pk=stored.pk).entry == {"ns_tricks": 9}
    # The form now carries what is stored: sent again, deliberately, it is saved.
    again = client.post(
        url, {"ns_tricks": "6", "reason": "EW's card", "seen": refused.context["seen"]}
    )
    assert again.status_code == 302
    assert Result.objects.get(pk=stored.pk).entry == {"ns_tricks": 6}


def test_the_api_answers_409_with_the_stored_result_and_its_revision(
    client: Client, stored: Result, alice: Any
) -> None:
    client.force_login(alice)
    event = stored.section.event_id
    listed = client.get(f"/api/events/{event}/results").json()
    seen = next(r for r in listed if r["id"] == stored.pk)["revision"]
    corrections.result_correct(result=stored, entry={"ns_tricks": 9}, reason="recounted")
    url = f"/api/events/{event}/results/{stored.pk}/correct"
    body = {"entry": {"ns_tricks": 6}, "reason": "EW's card", "seen": seen}
    answer = client.post(url, body, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json()["stored"]["entry"] == {"ns_tricks": 9}
    assert answer.json()["stored"]["revision"] != seen
    assert Result.objects.get(pk=stored.pk).entry == {"ns_tricks": 9}
