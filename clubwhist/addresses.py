"""The middleware that answers an address holding a NUL character before any view reads it.

No clubwhist address holds a NUL (U+0000, `%00` in a link): not a path (table links, pair keys
and invitations are letters, digits and a few signs), not a query (a member search, a paper
size). PostgreSQL refuses a NUL in any text it is sent, so a view that looked such a path or
search up in the database failed with a server error, where the caller deserves to be told.
Rather than each lookup guarding itself, the request is answered here, first:

- a NUL in the path is an address that does not exist: 404, as any unknown address (under
  /api/ the API's JSON `{"detail": ...}`, elsewhere the not-found page);
- a NUL in the query (a name or a value) is a request to mend: 400, saying which character and
  what to do (under /api/ as JSON, elsewhere a page).

Nothing is read or written before the answer, so the refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from tournaments.kernel.api.errors import not_found

QUERY_REFUSAL = (
    "The address's query holds a NUL character (U+0000, %00 in a link), which no name, "
    "number or choice in clubwhist holds: remove it and ask again."
)


def _holds_nul(query: str) -> bool:
    """Whether the query holds a NUL, sent as %00 or raw (decoding keeps a raw one)."""
    return b"\x00" in unquote_to_bytes(query)


class NulRefusal:
    """Answers a request whose path or query holds a NUL; passes every other one on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:  # Django has already decoded the path
            return not_found(request, Http404("No such address."))
        if _holds_nul(request.META.get("QUERY_STRING", "")):
            if request.path_info.startswith("/api/"):
                return JsonResponse({"detail": QUERY_REFUSAL}, status=400)
            return render(request, "400.html", {"refusal": QUERY_REFUSAL}, status=400)
        return self.get_response(request)
