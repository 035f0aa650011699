"""The table links' QR codes on the director's pages: drawn once per link and web process,
and exactly the code a fresh encoding of the link gives."""

from __future__ import annotations

from typing import Any

import pytest
import segno

from tournaments.templatetags import clubwhist
from tournaments.templatetags.clubwhist import qr_svg


def _fresh(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=3, border=2, title=url))


def test_a_links_code_is_drawn_once_and_is_the_links_own(monkeypatch: pytest.MonkeyPatch) -> None:
    clubwhist._qr_svg_text.cache_clear()
    drawn: list[str] = []
    real_make = segno.make

    def counting_make(content: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(content)
        return real_make(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", counting_make)
    first = "http://10.0.0.2:8000/t/abc123/"
    replaced = "http://10.0.0.2:8000/t/def456/"
    once = qr_svg(first)
    again = qr_svg(first)
    other = qr_svg(replaced)
    assert drawn == [first, replaced]  # the second page load drew nothing
    assert once == again == _fresh(first)
    assert other == _fresh(replaced) != once
    assert f"<title>{first}</title>" in once  # the link under the code, for a screen reader
