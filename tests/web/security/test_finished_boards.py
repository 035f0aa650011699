"""Live standings tell nothing of an unfinished board: every figure the public can read of a
running event (the standings document, each pair's score card, the standings page and its
live part, the room display) equals the figure computed from the finished boards alone.

A board is finished when every meeting of the movement that plays it (sit-outs and absent
pairs aside) has a result that counts: confirmed, corrected or an artificial score. The
expected figures are worked out independently of the code under test: the test decides from
the movement itself which boards are finished, deletes every other board's results inside a
savepoint, scores what is left with the scorer's whole-event computation (the one stored for
the director), and rolls the deletion back. The public figures must equal those, step by step,
as the tables play each round: the state at each round's start, and after each table within a
round (where the leaks were: a table's confirmation moved other pairs' totals before the
tables still to play the board had played it).

Every game is played (Candid Whist's bags included), through a plain Mitchell, a
share-and-relay Mitchell (two tables share a set), a skip Mitchell, and a Howell with a pair
marked absent; a two-section event checks the rule per section.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from engine.publishing import pair_card
from engine.scoring.document import StandingsDocument
from tests.web.conftest import make_event
from tournaments.events.bridge import engine_board, meeting_rows, rules_for
from tournaments.events.models import Board, Event, Pair, Result, Section
from tournaments.events.selectors import public as selectors_public
from tournaments.events.selectors.standings import finished_standings, standings_compute
from tournaments.events.services.events import event_set_live_public, pair_set_absent
from tournaments.events.services.results import result_submit
from tournaments.events.services.scoring import standings_refresh

pytestmark = pytest.mark.django_db

COUNTS = (Result.Status.CONFIRMED, Result.Status.CORRECTED, Result.Status.ARTIFICIAL)

CASES = {
    "classic-mitchell": ("classic", "mitchell", {"tables": 3, "boards_per_round": 2}),
    "openwhist-relay": ("openwhist", "relay-mitchell", {"tables": 4, "boards_per_round": 1}),
    "bidwhist-skip": ("bidwhist", "skip-mitchell", {"tables": 4, "boards_per_round": 1}),
    "candid-mitchell": ("candid", "mitchell", {"tables": 3, "boards_per_round": 2}),
    "candid-howell": ("candid", "howell", {"tables": 3, "boards_per_round": 1}),
}


# ---- the expected figures, worked out here -------------------------------------------------


def finished_here(section: Section) -> set[int]:
    """The boards every meeting due to play them has a counting result on, from the movement."""
    due: dict[int, set[tuple[int, int]]] = {}
    for rnd, meetings in meetings_by_round(section).items():
        for table, _ns, board_set in meetings:
            for number in section.boards_of_set(board_set) if board_set else ():
                due.setdefault(number, set()).add((rnd, table))
    done = {
        (number, rnd, table)
        for number, rnd, table in Result.objects.filter(
            section=section, status__in=COUNTS
        ).values_list("board_number", "round", "table")
    }
    return {
        number
        for number, meetings in due.items()
        if all((number, rnd, table) in done for rnd, table in meetings)
    }


def expected(event: Event) -> tuple[dict[str, Any], set[int]]:
    """The standings from the finished boards alone: the other boards' results are deleted
    inside a savepoint, the event scored whole, and the deletion rolled back."""
    finished = {s.pk: finished_here(s) for s in Section.objects.filter(event=event)}
    saved = transaction.savepoint()
    try:
        for section_pk, boards in finished.items():
            Result.objects.filter(section_id=section_pk).exclude(board_number__in=boards).delete()
        document = standings_compute(event=Event.objects.get(pk=event.pk))
    finally:
        transaction.savepoint_rollback(saved)
    shown = set.intersection(*finished.values()) if finished else set()
    return document, shown


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """A document without the moment it was computed at."""
    return {k: v for k, v in document.items() if k != "computed_at"}


# ---- playing ---------------------------------------------------------------------------------


def meetings_by_round(section: Section) -> dict[int, list[tuple[int, int, int]]]:
    """Per round, each (table, NS pair, board set) meeting that has a game."""
    absent = set(
        Pair.objects.filter(section=section, is_phantom=True).values_list("number", "direction")
    )
    rounds: dict[int, list[tuple[int, int, int]]] = {}
    for (rnd, table), row in sorted(meeting_rows(section).items()):
        if not (row.ns_pair and row.ew_pair):
            continue
        if (row.ns_pair, section.direction_of("NS")) in absent or (
            row.ew_pair,
            section.direction_of("EW"),
        ) in absent:
            continue
        rounds.setdefault(rnd, []).append((table, row.ns_pair, row.board_set))
    return rounds


def play_table(
    event: Event, section: Section, rnd: int, table: int, board_set: int, rng: random.Random
) -> None:
    """The table plays its boards and confirms them, as its tablet would."""
    rules = rules_for(event)
    boards = {b.number: b for b in Board.objects.filter(event=event)}
    for number in section.boards_of_set(board_set):
        for _ in range(40):
            entry = rules.plausible_entry(engine_board(boards[number]), rng)
            try:
                result_submit(
                    section=section,
                    round=rnd,
                    table=table,
                    board_number=number,
                    entry=entry,
                    confirm=True,
                )
                break
            except Exception as exc:  # an entry the rules refuse: draw another
                if "result" in str(exc).lower() and "already" in str(exc).lower():
                    raise
                continue
        else:
            raise AssertionError(f"no valid result drawn for board {number}")


def steps(event: Event, section: Section, seed: int) -> Iterator[str]:
    """Play the evening table by table; yield after each table (and at each round's start)."""
    rng = random.Random(seed)
    for rnd, meetings in sorted(meetings_by_round(section).items()):
        yield f"start of round {rnd}"
        for table, _ns, board_set in meetings:
            play_table(event, section, rnd, table, board_set, rng)
            yield f"round {rnd}, after table {table}"


# ---- what the public reads -------------------------------------------------------------------


def check_public_figures(event: Event, when: str) -> int:
    """Every public figure equals the one from finished boards; the number of boards shown."""
    standings_refresh(event_id=event.pk, force=True)
    event = Event.objects.get(pk=event.pk)
    want, shown = expected(event)
    anonymous = Client()
    got = anonymous.get(f"/api/public/events/{event.pk}/").json()["document"]
    assert comparable(got) == comparable(want), f"{when}: public standings document"

    # The director still sees everything: the stored whole standings.
    stored = selectors_public.published(event).document
    assert stored is not None
    assert comparable(stored.to_dict()) == comparable(standings_compute(event=event)), when

    wanted = StandingsDocument.from_dict(want)
    info = selectors_public.published(event).info
    results_page = anonymous.get(f"/results/{event.pk}/").content.decode()
    live_part = anonymous.get(f"/results/{event.pk}/?part=1").content.decode()
    display = anonymous.get(f"/results/{event.pk}/display/").content.decode()
    for section in wanted.sections:
        for field in section.fields:
            for row in field.rows:
                # The pair's score card: exactly its finished boards, with their points.
                card = anonymous.get(f"/api/public/events/{event.pk}/pairs/{row.key}/").json()
                assert card["pair"] == row.to_dict(), f"{when}: {row.key}'s card row"
                lines = [
                    (line.board, line.points.exact, line.running_percentage)
                    for line in pair_card(section, row, info)
                ]
                assert [
                    (b["board"], b["points"]["exact"], b["running_percentage"])
                    for b in card["boards"]
                ] == [
                    (board, points, running.to_dict() if running else None)
                    for board, points, running in lines
                ], f"{when}: {row.key}'s card lines"
                assert {b["board"] for b in card["boards"]} <= shown, when
                # The pages: the same total and share as the expected standings.
                total = f'title="{row.total.exact}">{row.total.display}</td>'
                assert total in results_page and total in live_part, f"{when}: {row.key}"
                figure = f"{row.percentage.display}%" if row.percentage else row.total.display
                assert re.search(
                    rf"{re.escape(row.direction)} {row.pair}</span>.*?"
                    rf'<span class="num">{re.escape(figure)}</span>',
                    display,
                    re.S,
                ), f"{when}: {row.key} on the room display"
    return len(shown)


@pytest.mark.parametrize("case", sorted(CASES))
def test_public_figures_count_only_finished_boards(club: Any, director: Any, case: str) -> None:
    game, kind, params = CASES[case]
    event = make_event(club, user=director, game=game, kind=kind, params=params)
    if kind == "howell":
        pair = Pair.objects.get(section=event.section, number=2)
        pair_set_absent(event=event, pair=pair, absent=True, user=director)
    event_set_live_public(event=event, live=True, user=director)
    section = event.section
    shown_counts = [
        check_public_figures(event, when) for when in steps(event, section, seed=len(case))
    ]
    shown_counts.append(check_public_figures(event, "the end"))
    # The evening went from nothing shown to every board shown, through boards finished
    # one set at a time: the check covered partial states, not only the two ends.
    boards = Board.objects.filter(event=event).count()
    assert shown_counts[0] == 0 and shown_counts[-1] == boards
    assert any(0 < n < boards for n in shown_counts) or kind == "mitchell", shown_counts


def test_a_result_entered_but_not_confirmed_or_disputed_does_not_finish_a_board(
    club: Any, director: Any
) -> None:
    """The last table to play a board has entered it but not confirmed it: the board counts
    for no one yet, and the public figures still equal those without it."""
    event = make_event(club, user=director, game="candid")
    event_set_live_public(event=event, live=True, user=director)
    section = event.section
    rng = random.Random(3)
    rounds = meetings_by_round(section)
    for rnd in sorted(rounds)[:-1]:
        for table, _ns, board_set in rounds[rnd]:
            play_table(event, section, rnd, table, board_set, rng)
    last = max(rounds)
    (table, _ns, board_set), *others = rounds[last]
    for other, _, other_set in others:
        play_table(event, section, last, other, other_set, rng)
    number = section.boards_of_set(board_set)[0]
    board = engine_board(Board.objects.get(event=event, number=number))
    result, _ = result_submit(
        section=section,
        round=last,
        table=table,
        board_number=number,
        entry=rules_for(event).plausible_entry(board, rng),
    )
    before = check_public_figures(event, "entered, not confirmed")
    assert number not in finished_standings(event=event).shown
    Result.objects.filter(pk=result.pk).update(status=Result.Status.DISPUTED)
    assert check_public_figures(event, "disputed") == before


def test_a_two_section_event_counts_each_sections_finished_boards(club: Any, director: Any) -> None:
    """Two sections play the same boards: each section's standings count the boards that
    section has finished, and a board is shown once both have finished it."""
    event = make_event(club, user=director, game="classic")
    first = event.section
    second = Section.objects.create(
        event=event,
        name="B",
        movement_kind=first.movement_kind,
        movement_params=first.movement_params,
        tables=first.tables,
        rounds=first.rounds,
        boards_per_round=first.boards_per_round,
    )
    for pair in Pair.objects.filter(section=first):
        Pair.objects.create(
            section=second, number=pair.number, direction=pair.direction, player1=f"B{pair.pk}"
        )
    rng = random.Random(7)
    rounds = meetings_by_round(first)
    # Section A plays every round; section B only the first.
    for rnd, meetings in rounds.items():
        for table, _ns, board_set in meetings:
            play_table(event, first, rnd, table, board_set, rng)
    for table, _ns, board_set in rounds[1]:
        play_table(event, second, 1, table, board_set, rng)
    event = Event.objects.get(pk=event.pk)
    computed = finished_standings(event=event)
    want, shown = expected(event)
    assert comparable(computed.document.to_dict()) == comparable(want)
    boards = set(Board.objects.filter(event=event).values_list("number", flat=True))
    assert computed.progress["A"].finished == boards  # A has finished the evening
    assert computed.progress["B"].finished == set()  # B has finished no board
    assert computed.shown == shown == set()  # so no board is shown to anyone yet
    a_rows = [r for f in computed.document.sections[0].fields for r in f.rows]
    b_rows = [r for f in computed.document.sections[1].fields for r in f.rows]
    assert all(r.boards > 0 for r in a_rows) and all(r.boards == 0 for r in b_rows)


def test_the_handicapped_table_counts_only_finished_boards_too(club: Any, director: Any) -> None:
    """A running event's public Handicapped table (beside the scratch one, when a season
    covers the evening) shows each pair's percentage from the finished boards alone, the
    scratch table's, plus its handicap: never a figure from a board a table has still to play.
    Every pair's two players are members with a handicap from the evenings before the season
    (its ledger), so each line's handicap is not nought."""
    import datetime as dt
    import itertools
    from fractions import Fraction

    from tournaments.kernel.models import Member
    from tournaments.seasons.models import Season, SeasonLine

    # A Howell finishes boards round by round (a plain Mitchell's only at the end).
    params = {"tables": 3, "boards_per_round": 1}
    event = make_event(club, user=director, game="classic", kind="howell", params=params)
    event_set_live_public(event=event, live=True, user=director)
    section = event.section
    season = Season.objects.create(
        club=club, name="Autumn", starts=event.date, ends=event.date + dt.timedelta(days=90),
        handicap_min_sessions=1,
    )  # fmt: skip
    handicaps: dict[str, Fraction] = {}
    for index, pair in enumerate(Pair.objects.filter(section=section, is_phantom=False)):
        members = []
        for seat in (1, 2):
            member = Member.objects.create(club=club, name=f"Member {index}-{seat}")
            SeasonLine.objects.create(
                club=club, format="event", play_id=1000 + index, play_name="Before",
                date=season.starts - dt.timedelta(days=7), entrant=f"{index}-{seat}",
                member=member, name=member.name,
                figures={"percentage": str(40 + 3 * index + seat)},
            )  # fmt: skip
            members.append(member)
        Pair.objects.filter(pk=pair.pk).update(member1=members[0], member2=members[1])
        # 50 less each one's only percentage, the pair's the mean of its two
        handicaps[f"{pair.direction} {pair.number}".strip()] = Fraction(
            (50 - (40 + 3 * index + 1)) + (50 - (40 + 3 * index + 2)), 2
        )
    anonymous = Client()
    row_pattern = re.compile(
        r"<tr><td>[^<]*</td><td>([^<]+)</td><td>[^<]*</td><td class=\"num\">([^<]+)</td>"
        r"<td class=\"num\">([^<]+)</td><td class=\"num\">([^<]+)</td></tr>"
    )
    seen_partial = False
    for when in itertools.chain(steps(event, section, seed=5), ["the end"]):  # played as it goes
        standings_refresh(event_id=event.pk, force=True)
        want, shown = expected(Event.objects.get(pk=event.pk))
        scratch = {
            f"{row.direction} {row.pair}".strip(): row.percentage.display
            for s in StandingsDocument.from_dict(want).sections
            for f in s.fields
            for row in f.rows
            if row.percentage is not None
        }
        for url in (f"/results/{event.pk}/", f"/results/{event.pk}/?part=1"):
            body = anonymous.get(url).content.decode()
            tables = body.split('class="list standings handicapped"')[1:]
            lines = {
                pair: (percentage, handicap, handicapped)
                for table in tables
                for pair, percentage, handicap, handicapped in row_pattern.findall(
                    table.split("</table>")[0]
                )
            }
            assert {pair: line[0] for pair, line in lines.items()} == scratch, f"{when}: {url}"
            for pair, (percentage, handicap, handicapped) in lines.items():
                assert Fraction(handicap.replace("+", "")) == handicaps[pair], f"{when}: {pair}"
                total = Fraction(percentage.rstrip("%")) + handicaps[pair]
                assert abs(Fraction(handicapped.rstrip("%")) - total) < Fraction(1, 100), when
        seen_partial |= 0 < len(shown) < Board.objects.filter(event=event).count()
    assert seen_partial and scratch  # partial states were checked, and a full one at the end
