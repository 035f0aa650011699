"""The OpenAPI schema's error answers, added to every operation by one rule instead of by hand.

A client (or a tool that checks the API against its schema) has to know every status an
operation can answer, and the body that comes with it. The views declare their successes;
their refusals follow from what the view is, so they are worked out here, once:

- 400, a request the API cannot take: every write (a body the serializers refuse, or a refusal
  of the rules or of the state, `errors.exception_handler`), and every read with query
  parameters. Its body is `BadRequest`: `{"detail": ...}`, or the refused fields with their
  messages, or a list body's refusals item by item.
- 401, when the view's first authentication class asks for credentials with a
  `WWW-Authenticate` header (DRF answers 401 only then; a session login is refused with 403).
- 403, a view that needs a signed-in director (not signed in, or the session's CSRF token
  missing on a write).
- 404, an operation with path parameters (an unknown or another club's id, an unknown link).
- 413, an operation with a body (over DATA_UPLOAD_MAX_MEMORY_SIZE).
- 429, a throttled view (the tablets' links), with `Retry-After`.

Strings the serializers refuse are described as refused: a request field that may not be blank
has `minLength` 1; one DRF trims before checking it says in its `pattern` what it takes (a
character that is not a space, unless it may be blank; its length counted after the trim); no
request string may hold NUL (DRF refuses it); and a name (`NameField`, the one rule for names in
`engine.names`) is `format: name`, refusing the control characters in its `pattern`. So a
request that follows the schema is not refused for the shape of its strings.

What a view answers beyond these (a 409 conflict, a 403 of a replaced tablet link, a 404 of a
club named in the body) it lists in `error_statuses`. Statuses a view's `extend_schema`
declares itself are left as they are.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from tournaments.kernel.api.fields import NameField
from tournaments.kernel.models import Club

#: The refusal every error answer carries (DRF's exceptions and `errors.exception_handler`).
ERROR = "Error"
#: A 400's body: the refusal, the refused fields, or a list body's refusals.
BAD_REQUEST = "BadRequest"
#: The refused fields of a body, by name: their messages, or a nested body's refused fields.
FIELD_ERRORS = "FieldErrors"
#: A stored JSON value kept as it is (an audit line's before and after, in a backup format).
JSON_VALUE = "JsonValue"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


_SCHEMAS: dict[str, dict[str, Any]] = {
    ERROR: {
        "type": "object",
        "description": "Why the request was refused.",
        "properties": {
            "detail": {
                "type": "string",
                "description": "The refusal, in the words a director or a player is shown.",
            }
        },
        "required": ["detail"],
    },
    BAD_REQUEST: {
        "description": "`{\"detail\": ...}` (the rules' or the state's refusal: a message, "
        "messages, or messages by name); or the refused fields of the body, each with its "
        "messages (nested as the body nests); or, for a body that is a list, each item's "
        "refusals in order.",
        "anyOf": [
            {
                "type": "object",
                "properties": {
                    "detail": {
                        "description": "A message, messages, or messages by name.",
                        "anyOf": [
                            {"type": "string"},
                            {"type": "array", "items": {"type": "string"}},
                            _ref(FIELD_ERRORS),
                        ],
                    }
                },
                "required": ["detail"],
            },
            {"type": "object", "allOf": [_ref(FIELD_ERRORS)]},
            {"type": "array", "items": _ref(FIELD_ERRORS)},
        ],
    },
    FIELD_ERRORS: {
        "type": "object",
        "description": "The refused fields by name (`non_field_errors`: the body as a whole), "
        "each with its messages (or one message); a nested object's, a map's or a list's "
        "fields by their names or places, as the body nests them (a list of objects: each "
        "item's, `{}` for an item taken).",
        "additionalProperties": {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"anyOf": [{"type": "string"}, _ref(FIELD_ERRORS)]}},
                _ref(FIELD_ERRORS),
            ]
        },
    },
    JSON_VALUE: {
        "description": "A JSON value as it was stored, kept whole: its keys and values are "
        "those of what wrote it (the description of the field that holds it says whose).",
        "nullable": True,
        "anyOf": [
            {"type": "string"},
            {"type": "number"},
            {"type": "boolean"},
            {"type": "array", "items": _ref(JSON_VALUE)},
            {"type": "object", "additionalProperties": _ref(JSON_VALUE)},
        ],
    },
}

_DESCRIPTIONS = {
    400: "The request cannot be taken: a body or query the API refuses, or a refusal of the "
    "game's rules or of the state (nothing was changed).",
    401: "Credentials are needed.",
    403: "Not allowed: not signed in as a director of this club, or the CSRF token is missing.",
    404: "Not found: an unknown id or link, or one of another club's.",
    409: "A conflict with what is stored (nothing was changed).",
    413: "The request is too large.",
    429: "Too many requests: wait as `Retry-After` says.",
    503: "The server is too busy for this now: try again shortly.",
}

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: What `engine.names` refuses anywhere in a name: category Cc, the line and paragraph
#: separators, the bidirectional controls, the noncharacters U+FFFE/U+FFFF. (Surrogates too,
#: which a JSON string decoded to text cannot hold.)
_NAME_REFUSES = "\\x00-\\x1f\\x7f-\\x9f\\u2028-\\u202e\\u2066-\\u2069\\ufffe\\uffff"
#: What Python's `str.strip()` takes off (`str.isspace()`), spelled out: a pattern's `\\s` is
#: read differently by each regular expression dialect.
_SPACES = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: The mark of a request string that is trimmed before it is checked (popped again).
_TRIMMED = "x-clubwhist-trimmed"
#: The spaces a name may have around it (the rest of `_SPACES` it refuses anywhere).
_NAME_SPACES = " \\xa0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000"


def _trimmed_pattern(*, name: bool, blank: bool, most: int | None) -> str:
    """The strings a trimmed field takes, exactly: spaces, then (unless it may be blank) a
    core that starts and ends with something else and is at most `most` long, then spaces;
    no NUL (a name: none of what `engine.names` refuses) anywhere."""
    allowed = f"[^{_NAME_REFUSES}]" if name else "[^\\x00]"
    edge = f"[^{_NAME_REFUSES}{_SPACES}]" if name else f"[^\\x00{_SPACES}]"
    spaces = f"[{_NAME_SPACES}]*" if name else f"[{_SPACES}]*"
    inner = "*" if most is None else f"{{0,{max(most - 2, 0)}}}"
    core = edge if most == 1 else f"{edge}(?:{allowed}{inner}{edge})?"
    return f"^{spaces}(?:{core})?{spaces}$" if blank else f"^{spaces}{core}{spaces}$"


#: A string DRF takes: no NUL anywhere. (Not empty: drf-spectacular adds the empty string as
#: the other branch of a `oneOf` for a field that may be blank, and the two must not overlap.)
_NO_NUL = "^[^\\x00]+$"


class ErrorsAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema with every error status the operation can answer."""

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: Any,
    ) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(
            path, path_regex, path_prefix, method, registry
        )
        if operation is None:
            return None
        responses: dict[str, Any] = operation["responses"]
        for code in sorted(self.error_statuses(operation)):
            responses.setdefault(str(code), self._error_response(code))
        if _ref(JSON_VALUE)["$ref"] in repr(operation):
            # Referred to by name from a field's own schema (the backup formats' rows).
            self._component(JSON_VALUE)
        return operation

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        """A request string as the serializer takes it (see the module's docstring); one
        that is trimmed first is marked, and finished once its length is known
        (`_insert_field_validators`)."""
        mapped = super()._map_serializer_field  # drf-spectacular is untyped
        schema: dict[str, Any] = mapped(field, direction, bypass_extensions)  # type: ignore[no-untyped-call]
        if direction != "request" or not isinstance(field, serializers.CharField):
            return schema
        if schema.get("type") != "string" or field.read_only:
            return schema
        if not field.allow_blank:
            schema.setdefault("minLength", 1)
        if isinstance(field, NameField) or field.trim_whitespace:
            schema[_TRIMMED] = True
        elif not any(isinstance(v, RegexValidator) for v in field.validators):
            # (A slug's or another regular expression's own pattern says it already.)
            schema["pattern"] = _NO_NUL
        return schema

    def _insert_field_validators(self, field: Any, schema: dict[str, Any]) -> None:
        """A trimmed string's length is counted after the trim, which `maxLength` cannot say:
        the pattern says it instead, with the spaces around (see `_trimmed_pattern`)."""
        super()._insert_field_validators(field, schema)  # type: ignore[no-untyped-call]
        if not schema.pop(_TRIMMED, False):
            return
        name = isinstance(field, NameField)
        schema.pop("maxLength", None)
        schema["pattern"] = _trimmed_pattern(
            name=name, blank=field.allow_blank, most=field.max_length
        )
        if name:
            # Beyond a pattern's reach: a name draws something (`engine.names`).
            schema["format"] = "name"

    def error_statuses(self, operation: dict[str, Any]) -> set[int]:
        """The error statuses this operation can answer (see the module's docstring)."""
        view = self.view
        places = {parameter.get("in") for parameter in operation.get("parameters", [])}
        has_body = "requestBody" in operation
        codes: set[int] = set(getattr(view, "error_statuses", ()))
        if self.method in _WRITES or has_body or "query" in places:
            codes.add(400)
        if has_body:
            codes.add(413)
        if "path" in places:
            codes.add(404)
        if any(not isinstance(p, AllowAny) for p in view.get_permissions()):
            codes.add(403)
            authenticators = view.get_authenticators()
            if authenticators and authenticators[0].authenticate_header(view.request):
                codes.add(401)
        if view.get_throttles():
            codes.add(429)
        return codes

    def _component(self, name: str) -> ResolvedComponent:
        component = ResolvedComponent(  # type: ignore[no-untyped-call]  # untyped library
            name=name, type=ResolvedComponent.SCHEMA, object=name, schema=_SCHEMAS[name]
        )
        self.registry.register_on_missing(component)
        return component

    def _error_response(self, code: int) -> dict[str, Any]:
        name = BAD_REQUEST if code == 400 else ERROR
        component = self._component(name)
        if code == 400:
            self._component(FIELD_ERRORS)
        answer: dict[str, Any] = {
            "description": _DESCRIPTIONS.get(code, "Refused."),
            "content": {"application/json": {"schema": component.ref}},
        }
        if code == 429:
            answer["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before the link takes requests again.",
                    "schema": {"type": "integer"},
                }
            }
        return answer


#: `?paper=`: a document on other paper than the club's (the event's and the drive's PDFs).
PAPER_PARAMETER = OpenApiParameter(
    "paper",
    str,
    # Empty, as a form's "the club's" choice sends it: the club's paper, as when left out.
    enum=["", *Club.Paper.values],
    description="Override the club's paper for this download (empty: the club's).",
)
