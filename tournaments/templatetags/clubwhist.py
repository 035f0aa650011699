"""Template filters the pages share: game titles, look-ups, QR codes, par tables."""

import functools
import json
from typing import Any

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

from engine.games import UnknownVariantError, find_variant

register = template.Library()

QR_CACHE_SIZE = 4096
"""Table links' QR codes kept per web process: a county's worth of tables (each 2 to 2.5 KB
of SVG, so some 10 MB at most)."""


@register.filter
def game_title(name: str) -> str:
    """A game's name for people ("Bid Whist"), from its rules class, for a stored game code."""
    try:
        return find_variant(name).title
    except UnknownVariantError:
        return name


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


@register.filter
def qr_svg(url: str) -> SafeString:
    """The QR code of a table's link as inline SVG (segno), for the director to show or print;
    the text is segno's own markup, with nothing from the page in it but the URL it encodes."""
    return mark_safe(_qr_svg_text(url))


@functools.lru_cache(maxsize=QR_CACHE_SIZE)
def _qr_svg_text(url: str) -> str:
    """Encoding is the dear part (segno tries all eight masks: some 17 ms a code, six codes
    on a 3-table event's page, a hundred on a 100-table room), and a link's code never
    changes, while the director's pages showing them are reloaded all evening. So each web
    process keeps the codes it drew, by URL; a replaced tablet link is a new URL."""
    return str(segno.make(url, error="m").svg_inline(scale=3, border=2, title=url))


def _dd_seats(table: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(seat, row) for seat, row in (table or {}).items() if isinstance(row, dict)]


@register.filter
def dd_columns(table: Any) -> list[str]:
    """A stored double-dummy table's columns (strains, or Bid Whist's contract types)."""
    seats = _dd_seats(table)
    return list(seats[0][1]) if seats else []


@register.filter
def dd_rows(table: Any) -> list[tuple[str, list[Any]]]:
    """Its rows: each seat with its values in column order; a value the search budget left
    unproven (Bid Whist) is marked with '~'."""
    rough = set((table or {}).get("approximate") or ())
    columns = dd_columns(table)
    return [
        (seat, [f"{row[c]}{'~' if f'{seat} {c}' in rough else ''}" for c in columns])
        for seat, row in _dd_seats(table)
    ]


@register.filter
def cents(value: Any) -> str:
    """Money kept in cents as the club types it: 1250 -> "12.50" (0 -> "0")."""
    try:
        amount = int(value)
    except (TypeError, ValueError):
        return ""
    if amount == 0:
        return "0"
    return f"{amount // 100}.{amount % 100:02d}"


@register.simple_tag
def member_mark(name: str, member_id: int | None) -> SafeString:
    """`{% member_mark pair.player1 pair.member1_id %}`: beside a name on a director's page,
    "member" when it is linked to the club's register, "visitor" when not (in words, not by
    colour alone); nothing for a name not given."""
    if not str(name or "").strip():
        return mark_safe("")
    word = "member" if member_id else "visitor"
    return mark_safe(f'<small class="member-mark muted">{word}</small>')
