"""What the published-results pages and their live stream both show, built in one place.

Whose event it is to read, which boards this reader may see, each page's context, and a
page's live part rendered once and cached for every reader of the same version.

Shared by `events.views.public` (the pages and the parts they fetch) and `events.views.live` (the
stream that pushes those parts), so both render exactly the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest

from engine.charts import bar_chart, filled_bins
from engine.dd.analysis import par_line
from engine.diagrams import board_facts, jokers_of, suit_rows
from engine.publishing import board_frequencies, percentage_spread
from tournaments.events.models import Event
from tournaments.events.selectors import public as selectors_public
from tournaments.events.selectors.handicapped import event_handicapped


def reader_event(request: HttpRequest, pk: int) -> Event:
    """The event if this reader may open its results pages; 404 otherwise."""
    return selectors_public.event_for_reader(pk, request.user)


def cached_part(key: str, lock: str, render: Callable[[], str]) -> str:
    """A rendered live part: from this process's memory, else the shared cache, else rendered
    by one thread per process (`lock`) while the others wait for its copy. Every reader of a
    live evening wants the same part at the same moment."""
    found = selectors_public.recent_part(key) or cache.get(key)
    if found is None:
        with selectors_public.single_flight(lock):
            found = selectors_public.recent_part(key) or cache.get(key)
            if found is None:
                found = render()
                cache.set(key, found, selectors_public.CACHE_SECONDS)
    selectors_public.keep_part(key, str(found))
    return str(found)


def reader_scope(request: HttpRequest, event: Event) -> str:
    """Which copy of a page part this reader gets: the whole one, or the public one that hides
    unfinished boards. Part of every cache key, so no reader is served the other's copy."""
    return "all" if selectors_public.sees_everything(event, request.user) else "public"


def common_context(
    event: Event, results: selectors_public.PublishedEvent, shown: frozenset[int]
) -> dict[str, Any]:
    """What every results page shows: the event, its document, and which boards are shown."""
    return {
        "event": event,
        "results": results,
        "document": results.document,
        "rules": results.rules,
        "live": event.status != Event.Status.PUBLISHED,
        "shown": shown,
        "shown_boards": sorted(shown),
        "hidden_boards": len(results.boards) - len(shown),
    }


def boards_shown_to(
    request: HttpRequest, event: Event, results: selectors_public.PublishedEvent
) -> frozenset[int]:
    """The boards this reader may see (a live event hides the boards still being played)."""
    return selectors_public.boards_shown(event, request.user, results)


def results_context(
    event: Event, results: selectors_public.PublishedEvent, shown: frozenset[int]
) -> dict[str, Any]:
    """The standings page (and its live part): each field with its spread of percentages."""
    sections: list[dict[str, Any]] = []
    # From the document this reader was given: a running event's public copy counts only the
    # finished boards, and so does its handicapped table.
    handicapped = event_handicapped(event, results.document)
    for section in results.document.sections if results.document else ():
        spread = percentage_spread(section)
        sections.append(
            {
                "section": section,
                "spread": bar_chart(spread, title="How the field finished (%)") if spread else "",
                "handicapped": [t for t in handicapped if t.section == section.name],
            }
        )
    most = max(
        (
            row.boards
            for section in (results.document.sections if results.document else ())
            for f in section.fields
            for row in f.rows
        ),
        default=0,
    )
    # A pair that played under half the boards the others did is marked: its percentage
    # rests on few boards (a late arrival, a pair that left early).
    return {
        **common_context(event, results, shown),
        "sections": sections,
        "few_boards": most / 2,
        "many_sections": len(sections) > 1,
    }


def board_context(
    event: Event, results: selectors_public.PublishedEvent, number: int, shown: frozenset[int]
) -> dict[str, Any]:
    """A board's page (and its live part): the deal and par, each result's frequency and
    score; nothing of a board still being played that this reader may not see."""
    numbers = sorted(shown)
    around = {
        "previous": max((n for n in numbers if n < number), default=None),
        "next": min((n for n in numbers if n > number), default=None),
    }
    if number not in shown:
        # Still being played somewhere: nothing of the board, not even its par.
        return {**common_context(event, results, shown), **around, "number": number, "hidden": True}
    played = results.board(number)
    rows = []
    chart = ""
    if results.document:
        section = results.document.sections[0]
        rows = board_frequencies(section, number, results.info)
        scored = [(f"{row.ns_score:+d}", row.count) for row in rows if row.ns_score is not None]
        scored.sort(key=lambda bar: int(bar[0]))
        bars = filled_bins(scored) + [
            (row.artificial, row.count) for row in rows if row.ns_score is None and row.artificial
        ]
        chart = bar_chart(bars, title=f"Board {number}: NS scores") if bars else ""
    return {
        **common_context(event, results, shown),
        **around,
        "hidden": False,
        "number": number,
        "facts": board_facts(played),
        "hands": _hands(played),
        "kitty": suit_rows(played.kitty) if played.kitty else None,
        "kitty_jokers": jokers_of(played.kitty),
        "turned": played.turned_card.pretty() if played.turned_card else "",
        "analysis": results.analyses.get(number),
        "par_text": par_line(results.analyses[number]) if number in results.analyses else "",
        "rows": rows,
        "chart": chart,
    }


def _hands(board: Any) -> list[dict[str, Any]]:
    """Each seat's hand for the diagram: by suit, or as its columns (Open Whist)."""
    hands = []
    for seat in board.seats:
        cards = board.deal.hand(seat)
        columns = board.columns.get(seat) if board.columns else None
        hands.append(
            {
                "seat": seat.full_name,
                "key": seat.value,
                "dealer": seat is board.dealer,
                "rows": suit_rows(cards),
                "jokers": jokers_of(cards),
                "columns": [[c.pretty() for c in column] for column in columns]
                if columns
                else None,
            }
        )
    return hands
