"""Small template helpers."""

import json
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


@register.filter
def when_json(field: Any) -> str:
    """An entry field's `only_when` as JSON for the page's script, which switches off the
    fields that do not apply (a trump suit once no-trump is chosen)."""
    return json.dumps([[other, list(values)] for other, values in field.only_when])
