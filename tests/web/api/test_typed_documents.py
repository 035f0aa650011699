"""Every document the API answers or takes is typed in its OpenAPI schema: no operation's
response or request body holds an object whose keys and values the schema leaves open.

A free-form object (`{"type": "object"}` alone, or `additionalProperties: true` / `{}`) tells a
client nothing it can check, and lets the JSON drift from what the schema says without a test
noticing. A map is fine when its values are typed (a documented `additionalProperties`). A
value with no type at all (`{}`, as a model's JSONField maps to) is left open the same way: it
may be an object of anything."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

_COMBINATIONS = ("oneOf", "anyOf", "allOf")
#: What gives a value a type: without any of these, a schema takes any JSON value.
_TYPED = ("type", "$ref", "enum", "const", "not", *_COMBINATIONS)
#: The keys whose value is a schema, and those whose values are schemas.
_SCHEMA_KEYS = ("items", "additionalProperties", "schema")
_SCHEMA_MAPS = ("properties",)


def _untyped(node: dict[str, Any]) -> bool:
    """An object whose keys and values are left open."""
    extra = node.get("additionalProperties")
    if extra is True or extra == {}:
        return True
    if node.get("type") != "object":
        return False
    return "properties" not in node and not extra and not any(k in node for k in _COMBINATIONS)


def _any_value(node: Any) -> bool:
    """A schema (in a schema's place) that takes any JSON value."""
    return isinstance(node, dict) and not any(k in node for k in _TYPED)


def _schemas_in(node: dict[str, Any]) -> list[tuple[str, Any]]:
    """The schemas this schema holds, by their place: properties, items, combinations."""
    found: list[tuple[str, Any]] = []
    for key in _SCHEMA_KEYS:
        if isinstance(node.get(key), dict):
            found.append((key, node[key]))
    for key in _SCHEMA_MAPS:
        if isinstance(node.get(key), dict):
            found.extend((f"{key}.{name}", value) for name, value in node[key].items())
    for key in _COMBINATIONS:
        if isinstance(node.get(key), list):
            found.extend((f"{key}[{index}]", value) for index, value in enumerate(node[key]))
    return found


def untyped_objects(schema: dict[str, Any]) -> list[str]:
    """Where the operations' bodies (following $refs into the components) hold an open
    object: "<METHOD> <path> <requestBody|responses>: <place>"."""
    components = schema["components"]["schemas"]
    found: list[str] = []

    def walk(node: Any, where: str, seen: set[str]) -> None:
        if isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{where}[{index}]", seen)
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(components[name], name, seen)
            return
        if _untyped(node):
            found.append(where)
        for place, inner in _schemas_in(node):
            if _any_value(inner) and not (place == "additionalProperties" and inner == {}):
                found.append(f"{where}.{place}")
        for key, value in node.items():
            walk(value, f"{where}.{key}", seen)

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            for part in ("requestBody", "responses"):
                found_before = len(found)
                walk(operation.get(part, {}), part, set())
                places = found[found_before:]
                del found[found_before:]
                found.extend(f"{method.upper()} {path} {part}: {place}" for place in places)
    return found


def test_no_operation_answers_or_takes_an_untyped_object() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = untyped_objects(schema)
    assert not found, "untyped objects:\n" + "\n".join(found)


def test_the_walk_finds_an_open_object_behind_a_reference() -> None:
    """The check itself: a free-form object reached through a component is reported, and so
    is a value of any type (a JSONField's `{}`)."""
    schema = {
        "components": {
            "schemas": {
                "Open": {
                    "type": "object",
                    "properties": {"x": {"type": "object"}, "y": {}, "z": {"nullable": True}},
                },
                "Map": {"type": "object", "additionalProperties": {"type": "integer"}},
                "Loose": {"type": "object", "additionalProperties": True},
            }
        },
        "paths": {
            "/a": {
                "get": {
                    "responses": {
                        "200": {
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Open"}
                                }
                            }
                        }
                    }
                },
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "m": {"$ref": "#/components/schemas/Map"},
                                        "l": {"$ref": "#/components/schemas/Loose"},
                                    },
                                }
                            }
                        }
                    },
                    "responses": {},
                },
            }
        },
    }
    assert sorted(untyped_objects(schema)) == [
        "GET /a responses: Open.properties.x",
        "GET /a responses: Open.properties.y",
        "GET /a responses: Open.properties.z",
        "POST /a requestBody: Loose",
    ]
