"""Small template helpers."""

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    """`{{ row|get_item:key }}`: dictionary look-up by a variable key."""
    if mapping is None:
        return ""
    getter = getattr(mapping, "get", None)
    return getter(key, "") if getter else ""
