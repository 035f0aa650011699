"""The print page in a real browser: a document opens as a PDF with the names typed a minute
ago, the print pack's progress bar runs to a download, and the page fits a phone."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from tests.web.conftest import director_account, log_in, make_event
from tournaments.events.models import Event, PrintJob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page: Any, live_server: Any) -> None:
    director_account()
    log_in(page, live_server.url)


def _pdf_text(body: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)


def test_a_director_prints_documents_and_the_pack(live_server, page, club, settings) -> None:
    settings.CELERY_EAGER = True  # the pack is built in a thread of the live server
    event: Event = make_event(club)
    _login(page, live_server)
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.get_by_label("NS 1 first player").fill("Zoë Ångström")
    page.get_by_role("button", name="Save names").click()
    page.get_by_role("link", name="Print").first.click()
    page.wait_for_url(f"**/events/{event.pk}/print/")

    link = page.get_by_role("link", name="Traveller sheets")
    response = page.request.get(live_server.url + str(link.get_attribute("href")))
    assert response.headers["content-type"] == "application/pdf"
    assert "Zoë Ångström" in _pdf_text(response.body())
    # Not yet printable: said, not linked.
    assert page.get_by_role("link", name="Results sheet").count() == 0
    assert "Once the first results count." in page.locator("ul.documents").inner_text()

    page.get_by_role("button", name="Build the print pack").click()
    ready = page.get_by_role("link", name="Open the print pack (PDF)")
    ready.wait_for(timeout=60_000)
    pack = page.request.get(live_server.url + str(ready.get_attribute("href")))
    text = _pdf_text(pack.body())
    assert "Zoë Ångström" in text and "Table 3" in text
    job = PrintJob.objects.get(event=event)
    assert job.status == PrintJob.Status.DONE and (job.done, job.total) == (7, 7)

    # A late change: the page says the pack no longer matches the event.
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.get_by_label("EW 2 absent").check()
    page.get_by_role("button", name="Save names").click()
    page.goto(f"{live_server.url}/events/{event.pk}/print/")
    assert "The event has changed since this pack was built" in page.content()

    page.get_by_label(f"{club.name} prints on").select_option("letter")
    page.get_by_role("button", name="Save").click()
    assert "prints on US Letter from now on" in page.locator(".messages").inner_text()

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert overflow <= 390, f"the print page is {overflow} px wide on a phone"


def test_the_progress_bar_moves_while_the_pack_is_built(live_server, page, club) -> None:
    """The bar the director watches is fed by the job's row: a queued job shows it, and the
    page turns into the download when the row says done (no reload by hand)."""
    event: Event = make_event(club)
    _login(page, live_server)
    job = PrintJob.objects.create(event=event, total=7, status=PrintJob.Status.RUNNING)
    page.goto(f"{live_server.url}/events/{event.pk}/print/")
    bar = page.locator("#print-pack progress")
    assert bar.get_attribute("value") == "0"
    PrintJob.objects.filter(pk=job.pk).update(done=3, step="board slips")
    page.wait_for_function("() => document.querySelector('#print-pack progress').value === 3")
    assert "(board slips done)" in page.locator("#print-pack").inner_text()
    PrintJob.objects.filter(pk=job.pk).update(
        done=7, status=PrintJob.Status.DONE, pdf=b"%PDF-1.4 test", fingerprint="x"
    )
    page.get_by_role("link", name="Open the print pack (PDF)").wait_for(timeout=10_000)
    assert "The event has changed" in page.content()  # fingerprint "x" matches nothing
