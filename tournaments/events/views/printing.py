"""The director's print page: every document of the event as a PDF, and the print pack.

Documents open in the browser's PDF viewer (inline), ready for its Print button; a document that
cannot be printed yet sends the director back to the print page with the reason. A document of
a very big event is drawn by a print job, like the pack: the page shows its progress, then its
link, and its direct address sends the director to the page instead of drawing for seconds.

PDFs carry no Content-Security-Policy: Chromium shows a PDF in a page of its own, with an
<embed> that the pages' policy (object-src 'none') would block.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournaments.events.models import Event, PrintJob
from tournaments.events.selectors import events as selectors_events
from tournaments.events.services import printing as print_services
from tournaments.events.views.director._common import event_for_director
from tournaments.events.views.director.tablet_links import links_warning
from tournaments.kernel.numbers import NumberRefused, whole
from tournaments.kernel.pages import act, base_url
from tournaments.kernel.pdf import pdf_response


def _fingerprints(request: HttpRequest, event: Event) -> Callable[[str], str]:
    """The event's fingerprint now on each paper, worked out once per request however many
    finished jobs the page asks about (reading a big event takes a second)."""
    known: dict[str, str] = {}

    def current(paper: str) -> str:
        if paper not in known:
            known[paper] = print_services.current_fingerprint(
                event, paper=paper, base_url=base_url(request)
            )
        return known[paper]

    return current


def _job_json(
    request: HttpRequest,
    event: Event,
    job: PrintJob,
    fingerprints: Callable[[str], str] | None = None,
) -> dict[str, object]:
    current = fingerprints or _fingerprints(request, event)
    state = print_services.print_job_state(job, current=lambda: current(job.paper))
    state["kind"] = job.kind
    if job.status == PrintJob.Status.DONE:
        state["url"] = reverse("event-print-pack-pdf", args=[event.pk, job.pk])
    return state


@login_required
@require_GET
def event_print(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for_director(request, pk)
    fingerprints = _fingerprints(request, event)
    job = print_services.latest_print_job(event)
    jobs = print_services.latest_document_jobs(event)
    big = print_services.documents_in_job(event)
    documents = []
    for doc, reason in print_services.print_documents(event):
        row = jobs.get(doc.kind)
        documents.append(
            {
                "doc": doc,
                "reason": reason,
                "in_job": not reason and doc.kind in big,
                "job": _job_json(request, event, row, fingerprints) if row else None,
                "row": row,
            }
        )
    return render(
        request,
        "tournaments/director/event_print.html",
        {
            "event": event,
            "section": event.section,
            "tables_words": selectors_events.tables_words(event.section),
            "documents": documents,
            "job": _job_json(request, event, job, fingerprints) if job is not None else None,
            "pack": job,
            "papers": event.club.Paper.choices,
            "has_links": event.status != Event.Status.DRAFT,
            "links_warning": links_warning(request, event),
        },
    )


@login_required
@require_GET
def event_print_document(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    event = event_for_director(request, pk)
    if kind not in print_services.KINDS:
        raise Http404(kind)
    if kind in print_services.documents_in_job(event):
        title = print_services.KINDS[kind].title.lower()
        messages.info(
            request,
            f"For an event this big, drawing the {title} takes a while, so it is done in the "
            f"background: press 'Draw the {title}' below; the link appears there when it is "
            "ready.",
        )
        return redirect(reverse("event-print", args=[event.pk]) + f"#doc-{kind}")
    try:
        pdf = print_services.document_pdf(event, kind, base_url=base_url(request))
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("event-print", pk=event.pk)
    return pdf_response(pdf, print_services.document_filename(event, kind))


@login_required
@require_POST
def event_print_paper(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's settings on this page: its paper, and its pace (minutes a board)."""
    event = event_for_director(request, pk)
    if "minutes_per_board" in request.POST:
        try:
            minutes = whole(request.POST["minutes_per_board"], "The minutes a board takes")
        except NumberRefused as refused:
            messages.error(request, str(refused))
            return redirect("event-print", pk=event.pk)
        act(
            request,
            print_services.club_pace_set,
            f"{event.club.name} plays a board in {minutes} minutes.",
            club=event.club,
            minutes=minutes,
            event=event,
        )
    paper = request.POST.get("paper", "")
    label = dict(event.club.Paper.choices).get(paper, paper)
    act(
        request,
        print_services.club_paper_set,
        f"{event.club.name} prints on {label} from now on.",
        club=event.club,
        paper=paper,
        event=event,
    )
    return redirect("event-print", pk=event.pk)


@login_required
@require_POST
def event_print_pack(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the print pack, or with `kind` one document, drawn in the background."""
    event = event_for_director(request, pk)
    kind = request.POST.get("kind") or print_services.PACK
    try:
        print_services.print_job_request(
            event=event, kind=kind, user=request.user, base_url=base_url(request)
        )
    except print_services.PrintRefused as exc:
        messages.error(request, str(exc))
    place = f"#doc-{kind}" if kind in print_services.KINDS else "#pack"
    return redirect(reverse("event-print", args=[event.pk]) + place)


@login_required
@require_GET
def event_print_pack_state(request: HttpRequest, pk: int, job_id: int) -> JsonResponse:
    event = event_for_director(request, pk)
    job = get_object_or_404(PrintJob.objects.defer("pdf"), pk=job_id, event=event)
    return JsonResponse(_job_json(request, event, job))


@login_required
@require_GET
def event_print_pack_pdf(request: HttpRequest, pk: int, job_id: int) -> HttpResponse:
    """A finished job's PDF: the print pack, or the document the job drew."""
    event = event_for_director(request, pk)
    job = get_object_or_404(PrintJob, pk=job_id, event=event, status=PrintJob.Status.DONE)
    return pdf_response(bytes(job.pdf or b""), print_services.document_filename(event, job.kind))
