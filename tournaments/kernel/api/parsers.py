"""The API's JSON parser, with the limits checked before a request reaches a view.

Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE (5 MB here) and Python's JSON reader
fails with a RecursionError on input nested thousands deep; both used to surface as an HTML
400 or a 500. Here they are ParseErrors (JSON 400s with the reason), and anything nested more
than MAX_DEPTH deep is refused before any serializer walks it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from engine.reading import MAX_DIGITS

#: No request the API takes nests deeper than this (an entry inside a list inside an object).
MAX_DEPTH = 20


def too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `data` nests lists and objects more than `limit` deep (iteratively: a check
    that itself recursed would fail on the input it guards against)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            values = item.values() if isinstance(item, dict) else item
            stack.extend((value, depth + 1) for value in values)
    return False


class LimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                f"The JSON is nested too deeply (at most {MAX_DEPTH} levels)."
            ) from None
        except RequestDataTooBig:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)
            raise ParseError(f"The request is larger than {limit} MB.") from None
        except ParseError as exc:
            # A number of more than 4300 digits: Python's reader refuses it with advice about
            # `sys`, which DRF would pass on word for word.
            if "int_max_str_digits" in str(exc.__context__):
                raise ParseError(
                    "The JSON holds a number thousands of digits long: no request needs one "
                    f"(numbers are plain digits 0-9, at most {MAX_DIGITS} of them)."
                ) from None
            raise
        if too_deep(data):
            raise ParseError(f"The JSON is nested too deeply (at most {MAX_DEPTH} levels).")
        return data
