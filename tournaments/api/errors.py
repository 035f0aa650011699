"""One place where domain errors become HTTP responses.

The engine raises `ValueError` subclasses with messages written for players and directors;
the API passes that message through as a 400 instead of a 500, and a submission that
contradicts a stored result as a 409 that shows the stored one.
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.services.results import ResultConflict, result_summary


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
    if isinstance(exc, ResultConflict):
        return Response(
            {"detail": str(exc), "stored": result_summary(exc.stored)},
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, ValueError):
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    return None
