"""The standings the app stores are what Fraction scoring stored: `standings_compute` after the
rescore's rewrite (whole-number scoring, fewer queries, lines built by position) against the
earlier path (every result read with its pairs' numbers joined in, scored by the Fraction
engine kept in `tests.engine.scoring_reference`), on events with fouled boards, artificial
scores, disputes, missing results, withdrawn pairs and several methods."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.scoring import TravellerLine, pair_key
from engine.scoring.document import StandingsDocument
from tests.engine import scoring_reference as reference
from tests.web.conftest import make_event
from tournaments.events.bridge import movement_for
from tournaments.events.models import Board, Event, Pair, Result
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.corrections import board_mark_fouled, result_set_artificial
from tournaments.events.services.events import pair_set_absent
from tournaments.events.services.results import result_dispute
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def fraction_standings(event: Event) -> dict[str, Any]:
    """The standings document as the rescore built it before whole-number scoring."""
    sections = []
    for section in event.sections.all():
        fouled = set(
            Board.objects.filter(event=event, fouled=True).values_list("number", flat=True)
        )
        lines = []
        rows = (
            Result.objects.filter(section=section)
            .order_by("board_number", "round", "table")
            .values_list(
                "board_number",
                "status",
                "ns_score",
                "artificial_code",
                "ns_pair__number",
                "ew_pair__number",
            )
        )
        for board, status, ns_score, code, ns, ew in rows:
            if board in fouled:
                if status != Result.Status.DISPUTED:
                    lines.append(TravellerLine(board, ns, ew, None, ("A", "A")))
            elif status == Result.Status.ARTIFICIAL:
                ns_code, _, ew_code = code.partition("/")
                lines.append(TravellerLine(board, ns, ew, None, (ns_code, ew_code or ns_code)))
            elif status in Result.COUNTING:
                lines.append(TravellerLine(board, ns, ew, ns_score))
        score = reference.score_session(
            lines, method=event.method, scale=event.scale, movement=movement_for(section)
        )
        names, absent = {}, set()
        for pair in Pair.objects.filter(section=section):
            key = pair_key(pair.number, pair.direction or None)
            if pair.is_phantom:
                absent.add(key)
            names[key] = (
                " & ".join(n for n in (pair.player1, pair.player2) if n)
                if pair.is_phantom
                else pair.names
            )
        sections.append(
            reference.section_standings(
                section.name, score, one_winner=section.one_winner, names=names, absent=absent
            )
        )
    document = StandingsDocument(
        event.pk, event.results_version, event.method, event.scale, "", tuple(sections)
    )
    return document.to_dict()


def played(club: Club, director: Any, **options: Any) -> Event:
    """An event played but for its last round, then a fouled board, artificial scores, a
    dispute and a pair that left: what a director's evening leaves in the results."""
    event = make_event(club, user=director, **options)
    section = event.section
    event_simulate(event=event, rounds=section.rounds - 1, seed=7, batch=True)
    board_mark_fouled(
        board=Board.objects.get(event=event, number=2), fouled=True, reason="mixed", user=director
    )
    last = section.movement_rows.filter(round=section.rounds).order_by("table")
    for row, code in zip(last, ("A+/A-", "A", "NP"), strict=False):
        if row.ns_pair and row.ew_pair:
            result_set_artificial(
                section=section,
                round=row.round,
                table=row.table,
                board_number=section.boards_of_set(row.board_set).start,
                code=code,
                reason="slow play",
                user=director,
            )
    result_dispute(result=Result.objects.filter(section=section, board_number=5).first())  # type: ignore[arg-type]
    leaver = Pair.objects.filter(section=section).order_by("direction", "number")[1]
    pair_set_absent(event=event, pair=leaver, absent=True, user=director)
    return Event.objects.get(pk=event.pk)


EVENTS = {
    "mitchell-ebu": {"params": {"tables": 5, "boards_per_round": 2}},
    "mitchell-acbl": {"params": {"tables": 5, "boards_per_round": 2}, "scale": "acbl"},
    "howell": {"kind": "howell", "params": {"tables": 4, "boards_per_round": 2}},
    "cross-imps": {"params": {"tables": 5, "boards_per_round": 2}, "method": "cross-imps"},
    "butler": {"params": {"tables": 5, "boards_per_round": 2}, "method": "butler"},
}


@pytest.mark.parametrize("name", sorted(EVENTS))
def test_standings_compute_stores_what_fraction_scoring_stored(
    club: Club, director: Any, name: str
) -> None:
    event = played(club, director, **EVENTS[name])
    lines = Result.objects.filter(section__event=event).values_list("status", flat=True)
    assert {Result.Status.ARTIFICIAL, Result.Status.DISPUTED} <= set(lines)
    stored = standings_compute(event=event)
    stored["computed_at"] = ""
    expected = fraction_standings(event)
    assert stored == expected
    assert json.dumps(stored) == json.dumps(expected)
    rows = [row for field in stored["sections"][0]["fields"] for row in field["rows"]]
    assert any(row.get("withdrew") for row in rows)
    assert any(line["artificial"] == "A/A" for line in stored["sections"][0]["boards"]["2"])


def test_a_rescore_reads_the_event_in_four_queries(club: Club, director: Any) -> None:
    event = played(club, director, params={"tables": 5, "boards_per_round": 2})
    standings_compute(event=event)  # the movement and rules cached, as in a running worker
    with CaptureQueriesContext(connection) as queries:
        standings_compute(event=event)
    # Every section's pairs, the fouled boards, the sections, then each section's results.
    assert len(queries.captured_queries) == 4
