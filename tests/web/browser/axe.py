"""axe-core in Chromium: a page's violations of the WCAG 2.2 A and AA rules (any impact), and
whether it scrolls sideways. Used by the accessibility test (every page type at three sizes)
and by each tablet's keyboard test (every screen it walks, in large print).

axe-core is the copy bundled by the `axe-playwright-python` package (a dev dependency); its
source is run with `page.evaluate`, which the pages' Content-Security-Policy does not govern.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import axe_playwright_python

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
SIZES = [(1280, 800), (390, 844), (195, 422)]  # 195x422: a 390 px phone at 200 % zoom


# ---- running axe -----------------------------------------------------------------------------


@dataclass
class Finding:
    where: str  # the page (or tablet screen)
    size: str
    rule: str
    impact: str
    target: str
    help: str

    def __str__(self) -> str:
        return (
            f"{self.where} at {self.size}: {self.rule} ({self.impact}) on {self.target}: "
            f"{self.help}"
        )


def axe_findings(page: Any, where: str) -> list[Finding]:
    """axe's WCAG 2.2 A/AA violations on the page as it is now, and a sideways scroll."""
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE)
    result = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                       resultTypes: ['violations']})""",
        WCAG_22_AA,
    )
    found = [
        Finding(
            where, size, v["id"], v["impact"] or "-", " ".join(map(str, node["target"])), v["help"]
        )
        for v in result["violations"]
        for node in v["nodes"]
    ]
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if wide[0] > wide[1]:
        found.append(
            Finding(
                where, size, "page-scrolls-sideways", "-", "html", f"{wide[0]} px wide in {wide[1]}"
            )
        )
    return found


def at_every_size(page: Any, where: str) -> list[Finding]:
    """The page as loaded, checked at each size in turn (resized, not loaded again)."""
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        found += axe_findings(page, where)
    return found


def report(findings: list[Finding]) -> str:
    return f"{len(findings)} accessibility violation(s):\n" + "\n".join(map(str, findings))
