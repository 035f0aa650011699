"""Small SVG charts for the published results: drawn on the server, so a member's phone needs
no charting script, and readable as text by screen readers (each chart has a title and a
description, and every bar or point a label).

>>> svg = bar_chart([("+2", 3), ("0", 1)], title="Board 1")
>>> svg.startswith("<svg") and "Board 1" in svg and svg.count("<rect") == 3
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from html import escape

__all__ = ["bar_chart", "filled_bins", "line_chart"]

# Narrow enough that the type stays readable when a phone draws the chart 350 px wide.
WIDTH, HEIGHT = 480, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 30, 36
FONT = 14
INK, MUTED, ACCENT, GRID = "#1f2937", "#6b7280", "#1d4ed8", "#e5e7eb"


def _frame(title: str, description: str, body: list[str], ident: str = "chart") -> str:
    # `ident` names the title and description: two charts on one page need two names, or
    # each would be labelled by the first one's title.
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-labelledby="{ident}-title {ident}-desc" class="chart">'
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(description)}</desc>'
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>'
        f'<text x="{LEFT}" y="18" font-size="{FONT + 1}" font-weight="bold" fill="{INK}">'
        f"{escape(title)}</text>" + "".join(body) + "</svg>"
    )


def _y_axis(low: float, high: float, ticks: Sequence[float], unit: str) -> list[str]:
    out = []
    span = high - low or 1
    for tick in ticks:
        y = TOP + (HEIGHT - TOP - BOTTOM) * (1 - (tick - low) / span)
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{GRID}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="{FONT}" text-anchor="end" '
            f'fill="{MUTED}">{tick:g}{escape(unit)}</text>'
        )
    return out


def line_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str,
    low: float = 0,
    high: float = 100,
    unit: str = "%",
    reference: float | None = 50,
    second: Sequence[float] | None = None,
    second_name: str = "",
    ident: str = "chart",
) -> str:
    """A line through `points` (label, value) left to right, e.g. a pair's running percentage
    board by board, with a dashed reference line (50 %: an average session).

    `second`, one value per point (a running average), is drawn dashed with square marks, so
    the two lines differ by more than colour; `second_name` names it in the description and
    in each mark's tooltip."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    span = high - low or 1
    step = plot_w / max(1, len(points) - 1)
    ticks = [low + span * k / 4 for k in range(5)]
    body = _y_axis(low, high, ticks, unit)
    if reference is not None:
        y = TOP + plot_h * (1 - (reference - low) / span)
        body.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{MUTED}" stroke-dasharray="4 4"/>'
        )
    coords = []
    for i, (label, value) in enumerate(points):
        x = LEFT + step * i if len(points) > 1 else LEFT + plot_w / 2
        clipped = min(max(value, low), high)
        y = TOP + plot_h * (1 - (clipped - low) / span)
        coords.append((x, y, label, value))
    if len(coords) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in coords)
        body.append(f'<polyline points="{path}" fill="none" stroke="{ACCENT}" stroke-width="2"/>')
    if second is not None:
        others = []
        for (x, _, label, _), value in zip(coords, second, strict=True):
            y = TOP + plot_h * (1 - (min(max(value, low), high) - low) / span)
            others.append((x, y, label, value))
        if len(others) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in others)
            body.append(
                f'<polyline points="{path}" fill="none" stroke="{INK}" stroke-width="2" '
                f'stroke-dasharray="6 3"/>'
            )
        for x, y, label, value in others:
            body.append(
                f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{INK}">'
                f"<title>{escape(label)}, {escape(second_name)}: {value:.2f}{escape(unit)}"
                f"</title></rect>"
            )
    every = max(1, len(coords) // 12)
    for i, (x, y, label, value) in enumerate(coords):
        body.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{ACCENT}">'
            f"<title>{escape(label)}: {value:.2f}{escape(unit)}</title></circle>"
        )
        if i % every == 0 or i == len(coords) - 1:
            body.append(
                f'<text x="{x:.1f}" y="{HEIGHT - 14}" font-size="{FONT}" text-anchor="middle" '
                f'fill="{MUTED}">{escape(label)}</text>'
            )
    last = f"{points[-1][1]:.2f}{unit}" if points else "no boards yet"
    description = f"{len(points)} points; last {last}"
    if second:
        description += f"; {second_name} (dashed, square marks) last {second[-1]:.2f}{unit}"
    return _frame(title, description, body, ident)


def filled_bins(bars: Sequence[tuple[str, float]], *, most: int = 30) -> list[tuple[str, float]]:
    """Bars labelled with whole numbers ("+2", "-1"), with the missing ones in between shown
    as empty bars, so the spread of scores reads true: -2, +1, +2 become -2, -1, 0, +1, +2.
    Steps follow the scores' own (a game scoring in tens gets bars ten apart); left as they
    are when a label is not a number or more than `most` bars would be needed.

    >>> filled_bins([("-2", 1), ("+1", 2), ("+2", 1)])
    [('-2', 1), ('-1', 0), ('0', 0), ('+1', 2), ('+2', 1)]
    """
    try:
        numbers = [int(label) for label, _ in bars]
    except ValueError:
        return list(bars)
    if len(numbers) < 2:
        return list(bars)
    step = 0
    for a, b in itertools.pairwise(numbers):
        step = math.gcd(step, abs(b - a))
    low, high = min(numbers), max(numbers)
    if step == 0 or (high - low) // step + 1 > most:
        return list(bars)
    counts = dict(zip(numbers, (value for _, value in bars), strict=True))
    return [(f"{n:+d}" if n else "0", counts.get(n, 0)) for n in range(low, high + 1, step)]


def bar_chart(
    bars: Sequence[tuple[str, float]],
    *,
    title: str,
    unit: str = "",
    highlight: str = "",
    ident: str = "chart",
) -> str:
    """Vertical bars (label, value) left to right, e.g. how many tables had each score, or how
    many pairs finished in each band of percentages; the bar labelled `highlight` stands out."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    high = max((value for _, value in bars), default=0) or 1
    if all(float(value).is_integer() for _, value in bars):
        # Counts: whole-number ticks only (no "0.5 tables"), at most five of them.
        step = max(1, math.ceil(high / 4))
        high = step * math.ceil(high / step)
        ticks = [float(t) for t in range(0, int(high) + 1, step)]
    else:
        ticks = sorted({0.0, float(high), float(high) / 2})
    body = _y_axis(0, high, ticks, unit)
    slot = plot_w / max(1, len(bars))
    width = max(4.0, slot * 0.7)
    every = max(1, math.ceil(len(bars) * 34 / plot_w))  # labels that do not overlap
    for i, (label, value) in enumerate(bars):
        x = LEFT + slot * i + (slot - width) / 2
        h = plot_h * value / high
        y = TOP + plot_h - h
        colour = "#b45309" if label == highlight else ACCENT
        body.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{h:.1f}" '
            f'fill="{colour}"><title>{escape(label)}: {value:g}{escape(unit)}</title></rect>'
        )
        if i % every == 0 or i == len(bars) - 1:
            body.append(
                f'<text x="{x + width / 2:.1f}" y="{HEIGHT - 14}" font-size="{FONT}" '
                f'text-anchor="middle" fill="{MUTED}">{escape(label)}</text>'
            )
    total = sum(value for _, value in bars)
    return _frame(title, f"{len(bars)} bars, {total:g} in all", body, ident)
