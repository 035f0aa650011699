"""A PDF as an HTTP response, shared by the pages and the API that hand out documents."""

from __future__ import annotations

from django.http import HttpResponse


def pdf_response(pdf: bytes, filename: str, *, disposition: str = "inline") -> HttpResponse:
    """A PDF for the browser's viewer (inline) or to save (attachment), never cached: names
    and results change."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    # No Content-Security-Policy (django-csp's own mark, what its @csp_exempt() sets): the
    # browser's PDF viewer is not our page, and the pages' policy would block Chromium's.
    setattr(response, "_csp_exempt", True)  # noqa: B010
    return response
