"""/api/schema/: the OpenAPI document, made once per process and format.

drf-spectacular's view generates the document and renders it on every request: about half a
second of one core each time (most of it the YAML), for a document that is the same for every
caller (the schema is served public) and changes only with the code. So each process keeps the
bytes of each format it has served.

drf-spectacular reads `?version=` and `?lang=` to make the document of another API version or in
another language. The API has one version (no versioning is configured) and speaks English, so
a plain request is answered with the kept document whatever they say: made afresh for them, as
before, each such request cost anyone on the internet half a second of a core for the same
bytes. Only a media type with parameters of its own (an Accept header's `indent=4`) is made
afresh, and not kept, so what is kept stays two documents whatever callers send.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response


class SchemaView(SpectacularAPIView):
    """The schema view with each format's document kept after its first request."""

    #: renderer format ("yaml", "json") -> (body, Content-Type, Content-Disposition)
    _made: ClassVar[dict[str, tuple[bytes, str, str]]] = {}

    @extend_schema(exclude=True)  # as the view it replaces: the schema is not in the schema
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse | Response:
        renderer = request.accepted_renderer
        if request.accepted_media_type != renderer.media_type:
            return self._made_afresh(request, *args, **kwargs)
        made = self._made.get(renderer.format)
        if made is None:
            response = self._made_afresh(request, *args, **kwargs)
            response.accepted_renderer = renderer
            response.accepted_media_type = request.accepted_media_type
            response.renderer_context = self.get_renderer_context()  # type: ignore[attr-defined]
            response.render()
            made = (response.content, response["Content-Type"], response["Content-Disposition"])
            self._made[renderer.format] = made
        content, content_type, disposition = made
        return HttpResponse(
            content, content_type=content_type, headers={"Content-Disposition": disposition}
        )

    def _made_afresh(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return cast(Response, super().get(request, *args, **kwargs))  # type: ignore[no-untyped-call]


#: A query value holding no NUL character, in the schema's (ECMA-262) regular expressions.
NO_NUL = "^[^\\u0000]*$"


def queries_hold_no_nul(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Say in the document what every query already refuses: a NUL (`%00`), answered 400 by
    `clubwhist.addresses` before any view reads it (PostgreSQL cannot hold one). Each string
    query parameter without a pattern of its own gets one excluding it, so a client, and the
    API fuzzing, knows the value is refused rather than taking the 400 for a fault. A
    drf-spectacular postprocessing hook, run after its own (the enums')."""
    parameters = (
        parameter
        for path in result.get("paths", {}).values()
        for operation in path.values()
        if isinstance(operation, dict)  # a path's own "parameters" is a list
        for parameter in operation.get("parameters", [])
    )
    for parameter in parameters:
        schema = parameter.get("schema", {})
        free_text = schema.get("type") == "string" and not {"pattern", "enum"} & schema.keys()
        if parameter.get("in") == "query" and free_text:
            schema["pattern"] = NO_NUL
    return result
