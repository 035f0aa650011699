"""A very big event's documents are drawn by a print job, not in the web request.

Which documents go through a job is decided by the event's size (print_catalogue.py); these
tests lower the limits so a three-table event counts as big, except where they check the
limits themselves against the largest and a club-night event.
"""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.web.conftest import make_event
from tournaments.events.models import AuditEntry, Event, Pair, PrintJob
from tournaments.events.services import print_catalogue
from tournaments.events.services import printing as print_services
from tournaments.events.services.events import pairs_register
from tournaments.events.services.print_catalogue import EventSize, drawn_in_job

BASE = "http://club.example"


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def big_travellers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any event's travellers count as big (every other document keeps its limit)."""
    monkeypatch.setitem(print_catalogue.DRAWN_IN_JOB_OVER, "travellers", ("lines", 0))


def print_page(client: Client, event: Event) -> str:
    response = client.get(reverse("event-print", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


# ---- which documents ----------------------------------------------------------------------


def test_the_largest_event_draws_every_document_in_a_job_a_club_night_none() -> None:
    largest = EventSize(boards=1200, table_rounds=120 * 60, lines=120 * 60 * 10)
    club_night = EventSize(boards=36, table_rounds=12 * 12, lines=12 * 12 * 3)
    thirty_tables = EventSize(boards=90, table_rounds=30 * 12, lines=30 * 12 * 3)
    for doc in print_services.DOCUMENTS:
        assert drawn_in_job(doc.kind, largest), doc.kind
        assert not drawn_in_job(doc.kind, club_night), doc.kind
        assert not drawn_in_job(doc.kind, thirty_tables), doc.kind
    assert set(print_catalogue.DRAWN_IN_JOB_OVER) == set(print_services.KINDS)


def test_the_limit_is_a_limit() -> None:
    measure, limit = print_catalogue.DRAWN_IN_JOB_OVER["travellers"]
    assert measure == "lines"
    assert not drawn_in_job("travellers", EventSize(boards=1, table_rounds=1, lines=limit))
    assert drawn_in_job("travellers", EventSize(boards=1, table_rounds=1, lines=limit + 1))


@pytest.mark.django_db
def test_an_events_size_is_read_from_its_section(running_event: Event) -> None:
    size = print_catalogue.event_size(running_event)  # 3 tables, 3 rounds of 2 boards
    assert size == EventSize(boards=6, table_rounds=9, lines=18)


# ---- small documents open at once, big ones send the director to the print page ---------------


@pytest.mark.django_db
def test_a_small_document_opens_at_once(director_client: Client, running_event: Event) -> None:
    response = director_client.get(
        reverse("event-print-document", args=[running_event.pk, "travellers"])
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Board 1" in text_of(response.content)
    assert not PrintJob.objects.exists()
    page = print_page(director_client, running_event)
    assert f'href="/events/{running_event.pk}/print/travellers.pdf"' in page
    assert 'name="kind" value="travellers"' not in page


@pytest.mark.django_db
def test_a_big_documents_address_sends_the_director_to_the_print_page(
    director_client: Client, running_event: Event, big_travellers: None, monkeypatch: Any
) -> None:
    def never(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("the travellers were drawn in the request")

    monkeypatch.setattr(print_services.printing, "travellers", never)
    url = reverse("event-print-document", args=[running_event.pk, "travellers"])
    response = director_client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/events/{running_event.pk}/print/#doc-travellers"
    page = director_client.get(response["Location"]).content.decode()
    assert "drawing the traveller sheets takes a while" in page
    assert "Draw the traveller sheets" in page
    assert not PrintJob.objects.exists()  # a GET starts nothing
    # The other documents of this event still open at once.
    assert f'href="/events/{running_event.pk}/print/curtain-cards.pdf"' in page
    assert f'href="{url}"' not in page


@pytest.mark.django_db
def test_a_big_document_is_drawn_by_a_job_and_linked_when_done(
    director_client: Client, running_event: Event, big_travellers: None, director: Any
) -> None:
    pack_url = reverse("event-print-pack", args=[running_event.pk])
    response = director_client.post(pack_url, {"kind": "travellers"})
    assert response["Location"] == f"/events/{running_event.pk}/print/#doc-travellers"
    job = PrintJob.objects.get(event=running_event)
    assert (job.kind, job.status, job.total) == ("travellers", PrintJob.Status.QUEUED, 1)
    assert AuditEntry.objects.filter(action="document requested", target__contains="travellers")
    # A second click joins the job under way.
    director_client.post(pack_url, {"kind": "travellers"})
    assert PrintJob.objects.count() == 1
    page = print_page(director_client, running_event)
    state_url = reverse("event-print-pack-state", args=[running_event.pk, job.pk])
    assert f'data-url="{state_url}"' in page and "Drawing the traveller sheets" in page
    # The print pack's box knows nothing of it.
    assert 'id="print-pack">' in page and "Build the print pack</button>" in page

    assert print_services.print_job_build(job_id=job.pk)
    assert not print_services.print_job_build(job_id=job.pk)  # delivered twice: drawn once
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (PrintJob.Status.DONE, 1, 1)
    state = director_client.get(state_url).json()
    assert state["status"] == "done" and state["kind"] == "travellers"
    assert state["out_of_date"] is False
    page = print_page(director_client, running_event)
    assert f'href="{state["url"]}"' in page and "Open the traveller sheets (PDF)" in page
    pdf = director_client.get(state["url"])
    assert pdf["Content-Type"] == "application/pdf"
    assert "travellers.pdf" in pdf["Content-Disposition"]
    assert "Board 6" in text_of(pdf.content)

    # A late name change: the drawn document is out of date, and the page says so.
    ns1 = Pair.objects.get(section__event=running_event, number=1, direction="NS")
    pairs_register(event=running_event, names={ns1.pk: ("Late", "Comer")}, user=director)
    page = print_page(director_client, running_event)
    assert "The event has changed since this was drawn" in page
    assert "Draw the traveller sheets again" in page
    # Drawn again: only the newest of a document is kept.
    director_client.post(pack_url, {"kind": "travellers"})
    newest = PrintJob.objects.filter(status=PrintJob.Status.QUEUED).get()
    print_services.print_job_build(job_id=newest.pk)
    assert list(PrintJob.objects.values_list("pk", flat=True)) == [newest.pk]
    assert "Late & Comer" in text_of(bytes(PrintJob.objects.get().pdf))


@pytest.mark.django_db
def test_a_document_that_cannot_be_printed_yet_is_refused_with_nothing_queued(
    director_client: Client, running_event: Event
) -> None:
    pack_url = reverse("event-print-pack", args=[running_event.pk])
    response = director_client.post(pack_url, {"kind": "results-sheet"}, follow=True)
    assert "The results sheet cannot be printed yet: once the first results count." in (
        response.content.decode()
    )
    response = director_client.post(pack_url, {"kind": "menus"}, follow=True)
    assert "There is no document &#x27;menus&#x27;" in response.content.decode()
    assert not PrintJob.objects.exists()
    assert not AuditEntry.objects.filter(action="document requested").exists()


@pytest.mark.django_db
def test_a_failed_drawing_says_why(
    director_client: Client, club: Any, big_travellers: None
) -> None:
    event = make_event(club, start=False)
    event.boards.filter(number=6).delete()
    job = print_services.print_job_request(event=event, kind="travellers", base_url=BASE)
    print_services.print_job_build(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and job.pdf is None
    page = print_page(director_client, event)
    assert "The last drawing failed: The movement plays 6 boards but the event has 5" in page


# ---- where the job runs -----------------------------------------------------------------------


def _wait(job: PrintJob, seconds: float) -> PrintJob:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (PrintJob.Status.DONE, PrintJob.Status.FAILED):
            break
        time.sleep(0.1)
    return job


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_document_is_drawn_in_a_thread(
    settings: Any, club: Any, big_travellers: None, director: Any
) -> None:
    settings.CELERY_EAGER = True
    event = make_event(club)
    client = Client()
    client.force_login(director)
    client.post(reverse("event-print-pack", args=[event.pk]), {"kind": "travellers"})
    job = _wait(PrintJob.objects.get(event=event), 60)
    assert job.status == PrintJob.Status.DONE, job.error
    assert "Board 1" in text_of(bytes(job.pdf))


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_the_document_is_drawn_by_the_worker(celery_worker: Any, club: Any) -> None:
    """The worker is another process: it draws with the real limits, so the job is asked for
    directly (the page asks only for a big event's documents)."""
    event = make_event(club)
    job = print_services.print_job_request(event=event, kind="pair-cards", base_url=BASE)
    job = _wait(job, 90)
    assert job.status == PrintJob.Status.DONE, job.error
    assert "clubwhist.build_print_pack" in celery_worker.log()
    assert bytes(job.pdf)[:5] == b"%PDF-"


@pytest.mark.django_db
def test_the_api_draws_a_big_document_by_a_job_too(
    director_client: Client, running_event: Event, big_travellers: None
) -> None:
    """A script asking for a big document gets 202 and the job (the same one while it runs),
    then the PDF from the job's pdf_url; a small document still comes at once."""
    listing = director_client.get(f"/api/events/{running_event.pk}/documents").json()
    in_job = {d["kind"]: d["drawn_in_job"] for d in listing["documents"]}
    assert in_job["travellers"] is True and in_job["curtain-cards"] is False

    url = f"/api/events/{running_event.pk}/documents/travellers.pdf"
    first = director_client.get(url)
    assert first.status_code == 202
    job = first.json()
    assert (job["status"], job["pdf_url"]) == ("queued", None)
    assert director_client.get(url).json()["id"] == job["id"]  # joined, not a second job
    assert PrintJob.objects.filter(event=running_event).count() == 1

    assert print_services.print_job_build(job_id=job["id"])
    done = director_client.get(job["status_url"]).json()
    assert done["status"] == "done" and done["pdf_url"]
    pdf = director_client.get(done["pdf_url"])
    assert pdf["Content-Type"] == "application/pdf"
    assert "travellers.pdf" in pdf["Content-Disposition"]
    assert "Board 6" in text_of(pdf.content)

    small = director_client.get(f"/api/events/{running_event.pk}/documents/curtain-cards.pdf")
    assert small.status_code == 200 and small["Content-Type"] == "application/pdf"
