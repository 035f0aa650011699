"""Printing from the app: each document drawn from the event as it is now, the print pack job,
the club's paper, the API and the command line. Documents are read back with pypdf."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from pypdf import PdfReader

from tests.web.conftest import make_event
from tournaments.events.models import AuditEntry, Event, Pair, PrintJob, TableAccess
from tournaments.events.services import printing as print_services
from tournaments.events.services.events import pair_set_absent, pairs_register
from tournaments.events.services.simulation import event_simulate
from tournaments.events.services.tablets import table_link_replace
from tournaments.kernel.models import Club

BASE = "http://club.example"
A4 = (595, 842)
LETTER = (612, 792)


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def page_size(pdf: bytes) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def sizes(pdf: bytes) -> set[tuple[int, int]]:
    """Page sizes, portrait: landscape pages (sideways travellers) are the same paper."""
    out = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        w, h = round(float(page.mediabox.width)), round(float(page.mediabox.height))
        out.add((min(w, h), max(w, h)))
    return out


def pair(event: Event, number: int, direction: str) -> Pair:
    return Pair.objects.get(section__event=event, number=number, direction=direction)


@pytest.mark.django_db
def test_travellers_and_guide_cards_carry_late_name_changes_and_absences(running_event) -> None:
    before = text_of(print_services.document_pdf(running_event, "travellers", base_url=BASE))
    assert "Zoë Ångström" not in before
    ns2, ew3 = pair(running_event, 2, "NS"), pair(running_event, 3, "EW")
    pairs_register(event=running_event, names={ns2.pk: ("Zoë Ångström", "Łukasz Nowak")})
    pair_set_absent(event=running_event, pair=ew3, absent=True)

    travellers = text_of(print_services.document_pdf(running_event, "travellers", base_url=BASE))
    assert "Zoë Ångström & Łukasz Nowak" in travellers
    assert "Phantom (sit-out)" in travellers
    # Every board of the movement has its traveller.
    for board in range(1, 7):
        assert f"Board {board}" in travellers
    cards = text_of(print_services.document_pdf(running_event, "pair-cards", base_url=BASE))
    assert "Zoë Ångström & Łukasz Nowak" in cards


@pytest.mark.django_db
def test_table_cards_link_each_table_and_follow_a_replaced_link(running_event) -> None:
    tokens = dict(
        TableAccess.objects.filter(section__event=running_event, revoked_at=None).values_list(
            "table", "token"
        )
    )
    assert sorted(tokens) == [1, 2, 3]  # made at start
    text = text_of(print_services.document_pdf(running_event, "table-cards", base_url=BASE))
    flat = text.replace("\n", "")
    for table, token in tokens.items():
        assert f"Table {table}" in text
        assert token in flat
    fresh = table_link_replace(event=running_event, table=2)
    flat = text_of(
        print_services.document_pdf(running_event, "table-cards", base_url=BASE)
    ).replace("\n", "")
    assert fresh.token in flat and tokens[2] not in flat


@pytest.mark.django_db
def test_every_document_prints_on_the_clubs_paper(running_event) -> None:
    event_simulate(event=running_event, rounds=1, seed=3, batch=True)
    for doc in print_services.DOCUMENTS:
        pdf = print_services.document_pdf(running_event, doc.kind, base_url=BASE)
        assert pdf.startswith(b"%PDF-"), doc.kind
        assert sizes(pdf) == {A4}, doc.kind
    print_services.club_paper_set(club=running_event.club, paper="letter", event=running_event)
    running_event.club.refresh_from_db()
    assert running_event.club.paper == "letter"
    for doc in print_services.DOCUMENTS:
        pdf = print_services.document_pdf(running_event, doc.kind, base_url=BASE)
        assert sizes(pdf) == {LETTER}, doc.kind
    # A download may ask for the other paper without changing the setting.
    pdf = print_services.document_pdf(running_event, "curtain-cards", base_url=BASE, paper="a4")
    assert page_size(pdf) == A4
    assert Club.objects.get(pk=running_event.club.pk).paper == "letter"
    assert AuditEntry.objects.filter(event=running_event, action="paper changed").count() == 1


@pytest.mark.django_db
def test_refusals_say_what_to_do_and_change_nothing(club, running_event) -> None:
    with pytest.raises(print_services.PrintRefused, match="needs results"):
        print_services.document_pdf(running_event, "results-sheet", base_url=BASE)
    with pytest.raises(print_services.PrintRefused, match="no document 'menus'"):
        print_services.document_pdf(running_event, "menus", base_url=BASE)
    with pytest.raises(print_services.PrintRefused, match="Unknown paper 'A5'"):
        print_services.club_paper_set(club=club, paper="A5")
    assert Club.objects.get(pk=club.pk).paper == "a4"
    bare = make_event(club, start=False)
    bare.boards.all().delete()
    with pytest.raises(print_services.PrintRefused, match="no boards yet"):
        print_services.document_pdf(bare, "curtain-cards", base_url=BASE)
    listed = {d.kind: reason for d, reason in print_services.print_documents(bare)}
    assert listed["curtain-cards"].startswith("Once the boards")
    assert listed["table-cards"] == ""  # the movement alone is enough
    assert listed["results-sheet"] == "Once the first results count."


@pytest.mark.django_db
def test_the_results_sheet_has_the_standings_of_the_results_in_now(running_event) -> None:
    event_simulate(event=running_event, seed=5, batch=True)
    from tournaments.events.selectors.standings import standings_compute

    document = standings_compute(event=running_event)
    text = text_of(print_services.document_pdf(running_event, "results-sheet", base_url=BASE))
    for row in document["sections"][0]["fields"][0]["rows"]:
        assert row["names"] in text
        assert row["percentage"]["display"] in text


@pytest.mark.django_db
def test_the_print_pack_job_reports_progress_and_keeps_the_pdf(
    running_event, director, monkeypatch
) -> None:
    event_simulate(event=running_event, rounds=1, seed=3, batch=True)
    job = print_services.print_pack_request(event=running_event, user=director, base_url=BASE)
    again = print_services.print_pack_request(event=running_event, user=director, base_url=BASE)
    assert again.pk == job.pk  # a second click joins the job being built
    seen: list[tuple[int, int, str]] = []
    real = print_services.printing.print_pack

    def spy(*args: Any, progress: Any, **kwargs: Any) -> bytes:
        def record(done: int, total: int, label: str) -> None:
            progress(done, total, label)
            row = PrintJob.objects.values_list("done", "total", "step").get(pk=job.pk)
            seen.append(row)

        return real(*args, progress=record, **kwargs)

    monkeypatch.setattr(print_services.printing, "print_pack", spy)
    assert print_services.print_job_build(job_id=job.pk)
    assert not print_services.print_job_build(job_id=job.pk)  # delivered twice: built once
    monkeypatch.undo()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    assert (job.done, job.total) == (8, 8)
    # The row moved part by part, so the page's bar did too.
    assert [row[0] for row in seen] == list(range(1, 9))
    assert seen[0] == (1, 8, "curtain cards") and seen[-1] == (8, 8, "results sheet")
    text = text_of(bytes(job.pdf))
    for part in ("Board 1", "Table 1", "Round"):
        assert part in text
    assert print_services.current_fingerprint(running_event, paper="a4", base_url=BASE) == (
        job.fingerprint
    )
    # A late change makes the pack out of date (and says so), never silently stale.
    ns1 = pair(running_event, 1, "NS")
    pairs_register(event=running_event, names={ns1.pk: ("Late", "Comer")})
    state = print_services.print_job_state(
        job,
        current=lambda: print_services.current_fingerprint(
            running_event, paper="a4", base_url=BASE
        ),
    )
    assert state["out_of_date"] is True
    # Only the newest packs are kept.
    for _ in range(print_services.KEEP_PACKS + 1):
        extra = print_services.print_pack_request(event=running_event, base_url=BASE)
        print_services.print_job_build(job_id=extra.pk)
    assert PrintJob.objects.filter(event=running_event).count() == print_services.KEEP_PACKS


@pytest.mark.django_db
def test_a_pack_that_cannot_be_built_says_why(club) -> None:
    event = make_event(club, start=False)
    event.boards.filter(number=6).delete()
    job = print_services.print_pack_request(event=event, base_url=BASE)
    print_services.print_job_build(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "plays 6 boards but the event has 5" in job.error
    assert job.pdf is None


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_pack_is_built_in_a_thread(settings, club) -> None:
    settings.CELERY_EAGER = True
    event = make_event(club)
    before = {t.name for t in threading.enumerate()}
    job = print_services.print_pack_request(event=event, base_url=BASE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (PrintJob.Status.DONE, PrintJob.Status.FAILED):
            break
        time.sleep(0.1)
    assert job.status == PrintJob.Status.DONE, job.error
    assert f"print-pack-{job.pk}" not in before
    assert text_of(bytes(job.pdf)).count("Board 1") >= 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_the_pack_is_built_by_the_worker(celery_worker, club) -> None:
    event = make_event(club)
    job = print_services.print_pack_request(event=event, base_url=BASE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (PrintJob.Status.DONE, PrintJob.Status.FAILED):
            break
        time.sleep(0.2)
    assert job.status == PrintJob.Status.DONE, job.error
    assert "clubwhist.build_print_pack" in celery_worker.log()
    assert bytes(job.pdf)[:5] == b"%PDF-"


# ---- pages ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_print_page_lists_documents_and_serves_them(director_client: Client, running_event):
    url = f"/events/{running_event.pk}/print/"
    page = director_client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Curtain cards" in body and "Build the print pack" in body
    assert "Once the first results count." in body  # the results sheet, not yet
    pdf = director_client.get(f"/events/{running_event.pk}/print/travellers.pdf")
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert "travellers.pdf" in pdf["Content-Disposition"]
    assert "Board 1" in text_of(pdf.content)
    refused = director_client.get(f"/events/{running_event.pk}/print/results-sheet.pdf")
    assert refused.status_code == 302 and refused["Location"] == url
    follow = director_client.get(url).content.decode()
    assert "needs results" in follow
    assert director_client.get(f"/events/{running_event.pk}/print/menus.pdf").status_code == 404
    director_client.post(f"/events/{running_event.pk}/print/paper/", {"paper": "letter"})
    assert Club.objects.get(pk=running_event.club_id).paper == "letter"
    director_client.post(f"/events/{running_event.pk}/print/paper/", {"paper": "A3"})
    assert Club.objects.get(pk=running_event.club_id).paper == "letter"
    assert "Unknown paper" in director_client.get(url).content.decode()


@pytest.mark.django_db
def test_printing_needs_a_login(client: Client, running_event) -> None:
    for url in (
        f"/events/{running_event.pk}/print/",
        f"/events/{running_event.pk}/print/travellers.pdf",
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(f"/api/events/{running_event.pk}/documents").status_code == 403


# ---- API --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_lists_serves_and_builds(director_client: Client, running_event) -> None:
    listed = director_client.get(f"/api/events/{running_event.pk}/documents").json()
    assert listed["paper"] == "a4"
    kinds = {d["kind"]: d for d in listed["documents"]}
    assert list(kinds) == [d.kind for d in print_services.DOCUMENTS]
    assert kinds["results-sheet"]["available"] is False
    pdf = director_client.get(kinds["hand-records"]["url"] + "?paper=letter")
    assert pdf.status_code == 200 and page_size(pdf.content) == LETTER
    bad = director_client.get(kinds["results-sheet"]["url"])
    assert bad.status_code == 400 and "needs results" in bad.json()["detail"]
    started = director_client.post(f"/api/events/{running_event.pk}/print-pack")
    assert started.status_code == 202
    job = started.json()
    assert job["status"] in ("queued", "running", "done") and job["total"] == 7  # no results
    print_services.print_job_build(job_id=job["id"])  # on_commit does not run in this test
    state = director_client.get(job["status_url"]).json()
    assert state["status"] == "done" and state["out_of_date"] is False
    pack = director_client.get(state["pdf_url"])
    assert pack.status_code == 200 and pack.content.startswith(b"%PDF-")
    slug = running_event.club.slug
    settings_url = f"/api/clubs/{slug}/settings"
    assert director_client.get(settings_url).json() == {"paper": "a4", "minutes_per_board": 7}
    changed = director_client.patch(
        f"/api/clubs/{slug}/settings", {"paper": "letter"}, content_type="application/json"
    )
    assert changed.json() == {"paper": "letter", "minutes_per_board": 7}
    refused = director_client.patch(
        f"/api/clubs/{slug}/settings", {"paper": "A5"}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert Club.objects.get(slug=slug).paper == "letter"


# ---- command line -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_print_command_writes_whole_files_or_nothing(running_event, tmp_path: Path) -> None:
    out = tmp_path / "travellers.pdf"
    call_command("print", str(running_event.pk), "travellers", "-o", str(out), "--paper", "letter")
    assert page_size(out.read_bytes()) in (LETTER, LETTER[::-1])
    pack = tmp_path / "pack.pdf"
    call_command("print", str(running_event.pk), "pack", "-o", str(pack))
    assert "Table 3" in text_of(pack.read_bytes())
    refused = tmp_path / "results.pdf"
    with pytest.raises(CommandError, match="needs results"):
        call_command("print", str(running_event.pk), "results-sheet", "-o", str(refused))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.pdf", "travellers.pdf"]
    with pytest.raises(CommandError, match="no event 9999"):
        call_command("print", "9999", "travellers", "-o", str(out))
