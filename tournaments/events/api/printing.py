"""The printing API: the event's documents as PDFs, the print pack job, the club's paper.

For scripts that print the evening's paper (a club's cron job that mails the hand records, a
director's shell script before the night): the same documents and the same job the print page
uses, with the same refusals, as HTTP 400 with the reason. A document too big to draw within a
request (the biggest events' travellers: `services/print_catalogue.py`) is drawn by a job, as on
the print page: asking for it answers 202 with the job, whose `pdf_url` gives the PDF once done.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.events.api.director import DirectorEventApi
from tournaments.events.models import Event, PrintJob
from tournaments.events.services import printing as print_services
from tournaments.kernel.access import club_for
from tournaments.kernel.api.fields import TextField, TrueOrFalse
from tournaments.kernel.api.schema import PAPER_PARAMETER
from tournaments.kernel.models import Club
from tournaments.kernel.numbers import WholeNumberField
from tournaments.kernel.pages import base_url
from tournaments.kernel.pdf import pdf_response

JobOut = inline_serializer(
    "PrintJob",
    {
        "id": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=PrintJob.Status.values),
        "done": serializers.IntegerField(),
        "total": serializers.IntegerField(),
        "step": TextField(),
        "paper": serializers.ChoiceField(choices=Club.Paper.values),
        "error": TextField(allow_null=True),
        "created_at": serializers.DateTimeField(),
        "finished_at": serializers.DateTimeField(allow_null=True),
        "out_of_date": TrueOrFalse(allow_null=True),
        "status_url": TextField(),
        "pdf_url": TextField(allow_null=True),
    },
)


def _pdf(pdf: bytes, filename: str) -> HttpResponse:
    return pdf_response(pdf, filename, disposition="attachment")


def _job_out(request: Request, event: Event, job: PrintJob) -> dict[str, Any]:
    state = print_services.print_job_state(
        job,
        current=lambda: print_services.current_fingerprint(
            event, paper=job.paper, base_url=base_url(request)
        ),
    )
    state["status_url"] = reverse("api-print-pack-state", args=[event.pk, job.pk])
    state["pdf_url"] = (
        reverse("api-print-pack-pdf", args=[event.pk, job.pk])
        if job.status == PrintJob.Status.DONE
        else None
    )
    return state


class DocumentsApi(DirectorEventApi):
    """The documents this event can print now, and why the others cannot yet."""

    @extend_schema(
        responses=inline_serializer(
            "PrintDocuments",
            {
                "paper": serializers.ChoiceField(choices=Club.Paper.values),
                "documents": inline_serializer(
                    "PrintDocument",
                    {
                        "kind": serializers.CharField(),
                        "title": serializers.CharField(),
                        "purpose": serializers.CharField(),
                        "available": TrueOrFalse(),
                        "reason": serializers.CharField(
                            allow_null=True, help_text="Why it cannot be printed yet."
                        ),
                        "drawn_in_job": TrueOrFalse(help_text="Whether the print pack draws it."),
                        "url": serializers.CharField(help_text="Its PDF."),
                    },
                    many=True,
                ),
            },
        )
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.event
        in_job = print_services.documents_in_job(event)
        return Response(
            {
                "paper": event.club.paper,
                "documents": [
                    {
                        "kind": doc.kind,
                        "title": doc.title,
                        "purpose": doc.purpose,
                        "available": not reason,
                        "reason": reason or None,
                        "drawn_in_job": doc.kind in in_job,
                        "url": reverse("api-print-document", args=[event.pk, doc.kind]),
                    }
                    for doc, reason in print_services.print_documents(event)
                ],
            }
        )


class DocumentPdfApi(DirectorEventApi):
    """One document as a PDF, drawn from the event as it is now; or, for a document too big to
    draw within a request, 202 with the job that draws it (the same job again while it runs)."""

    @extend_schema(
        operation_id="events_documents_pdf_retrieve",
        parameters=[PAPER_PARAMETER],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, 202: JobOut},
    )
    def get(self, request: Request, pk: int, kind: str) -> HttpResponse:
        event = self.event
        if kind not in print_services.KINDS:
            raise Http404(f"There is no document {kind!r}.")
        if kind in print_services.documents_in_job(event):
            job = print_services.print_job_request(
                event=event, kind=kind, user=request.user, base_url=base_url(request)
            )
            job.refresh_from_db(fields=["status", "done", "total", "step", "finished_at", "error"])
            return Response(_job_out(request, event, job), status=status.HTTP_202_ACCEPTED)
        pdf = print_services.document_pdf(
            event, kind, base_url=base_url(request), paper=request.query_params.get("paper")
        )
        return _pdf(pdf, print_services.document_filename(event, kind))


class PrintPackApi(DirectorEventApi):
    """Start building the print pack (or get the one being built): 202 with the job."""

    @extend_schema(request=None, responses={202: JobOut})
    def post(self, request: Request, pk: int) -> Response:
        event = self.event
        job = print_services.print_pack_request(
            event=event, user=request.user, base_url=base_url(request)
        )
        job.refresh_from_db(fields=["status", "done", "total", "step", "finished_at", "error"])
        return Response(_job_out(request, event, job), status=status.HTTP_202_ACCEPTED)


class PrintPackStateApi(DirectorEventApi):
    @extend_schema(responses=JobOut)
    def get(self, request: Request, pk: int, job_id: int) -> Response:
        event = self.event
        job = get_object_or_404(PrintJob.objects.defer("pdf"), pk=job_id, event=event)
        return Response(_job_out(request, event, job))


class PrintPackPdfApi(DirectorEventApi):
    @extend_schema(
        operation_id="events_print_pack_pdf_retrieve",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, pk: int, job_id: int) -> HttpResponse:
        event = self.event
        job = get_object_or_404(PrintJob, pk=job_id, event=event, status=PrintJob.Status.DONE)
        return _pdf(bytes(job.pdf or b""), print_services.document_filename(event, job.kind))


class ClubSettingsApi(APIView):
    """A club's settings; today the paper its documents are laid out for."""

    class SettingsIn(serializers.Serializer[Any]):
        paper = serializers.ChoiceField(choices=Club.Paper.values, required=False)
        minutes_per_board = WholeNumberField(
            min_value=1, max_value=print_services.MAX_MINUTES_PER_BOARD, required=False
        )

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.club = club_for(request.user, kwargs["slug"])  # before reading the body

    @extend_schema(
        responses=inline_serializer(
            "ClubSettings",
            {
                "paper": serializers.ChoiceField(choices=Club.Paper.values),
                "minutes_per_board": serializers.IntegerField(),
            },
        )
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.club
        return Response({"paper": club.paper, "minutes_per_board": club.minutes_per_board})

    @extend_schema(request=SettingsIn, responses=inline_serializer("ClubSettingsOut", {}))
    def patch(self, request: Request, slug: str) -> Response:
        club = self.club
        data = self.SettingsIn(data=request.data)
        data.is_valid(raise_exception=True)
        if "paper" in data.validated_data:
            print_services.club_paper_set(club=club, paper=data.validated_data["paper"])
        if "minutes_per_board" in data.validated_data:
            print_services.club_pace_set(
                club=club, minutes=data.validated_data["minutes_per_board"]
            )
        return Response({"paper": club.paper, "minutes_per_board": club.minutes_per_board})
