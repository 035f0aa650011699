"""One place where domain errors become HTTP responses.

Every refusal of the app derives from the kernel's `Refused`, whose kind alone says its status
(`kernel.refusals.STATUS`: bad input 400, a table link's forbidden ask 403, not found 404, a
conflict or a closed play 409); no view maps errors of its own. The answer carries the message,
what the refusal has to show (the stored result a submission contradicts), and what a tablet
view adds (`kernel.tablet_api.TabletApiView.refusal_body`: the table's state). The engine's
`ValueError`s, written for players and directors too, are bad input: a 400, never a 500.
"""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.kernel.numbers import expected
from tournaments.kernel.refusals import Refused
from tournaments.kernel.tablet_api import TabletApiView

logger = logging.getLogger(__name__)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is not None:
        return response
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)
        return Response(
            {"detail": f"The request is larger than {limit} MB."},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, DjangoValidationError):
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        return Response({"detail": detail}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Refused):
        view = context.get("view")
        extra = view.refusal_body(exc) if isinstance(view, TabletApiView) else {}
        return Response({"detail": own_words(exc), **exc.details(), **extra}, status=exc.status)
    if isinstance(exc, ValueError):
        return Response({"detail": own_words(exc)}, status=status.HTTP_400_BAD_REQUEST)
    return None


#: How Python's own conversions word their refusals ("invalid literal for int() with base
#: 10", "Exceeds the limit (4300 digits) ..."): no caller should read them.
PYTHON_WORDS = ("invalid literal for", "could not convert", "int_max_str_digits", "base 10")


def own_words(exc: ValueError) -> str:
    """The refusal's message, unless it is Python's rather than ours: a number read with a
    bare `int()` somewhere instead of `tournaments.kernel.numbers`. Then the caller is told what to
    send, in our words, and the log keeps the original for whoever mends the reader."""
    message = str(exc)
    if not any(words in message for words in PYTHON_WORDS):
        return message
    logger.warning("a request's number was read without tournaments.kernel.numbers: %s", message)
    return f"A number in the request is not one we can read: send {expected(None, None)}."


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 for a URL that matches no route (`handler404`): under /api/ the API's own
    JSON refusal, as for an unknown id, so a client reads every 404 of the API the same way
    (the schema documents it); elsewhere Django's page, as before."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception)
