"""The standings as computed from the stored results: the whole document the scorer stores,
and the public one of a running event, which counts only the boards every table has finished.

Both are reads (nothing here writes); `tournaments.events.services.scoring` stores the whole one at
each rescore, and `tournaments.events.selectors.public` builds the public one for the readers who
may not see everything (docs/directors/secrecy.md).

Why the public standings are computed again rather than cut out of the stored ones: a pair's
total over the boards it has played tells a player at another table how that pair did on a
board still in front of them (after round 1 of a Mitchell, a pair's matchpoints on five boards
are the other tables' results on those boards). Scoring only the finished boards, as if the
others had not been played yet, gives figures that say nothing of an unfinished board: every
board counted has all its results, so its points are final, and every percentage rests on the
counted boards alone.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from clubwhist.queries import Prepared
from engine.cards import Side
from engine.games import Entry, GameRules
from engine.games.entry import SessionTally
from engine.scoring import TravellerLine, pair_key, score_session
from engine.scoring.document import StandingsDocument, section_standings
from tournaments.events.bridge import engine_board, movement_for, rules_for
from tournaments.events.models import Board, Event, Pair, Result, Section
from tournaments.events.selectors.room import board_progress

#: A fouled board scores Average to both sides.
FOULED = ("A", "A")


# A rescore's queries, built into SQL once per connection (clubwhist/queries.py).
_COUNTED = Prepared(
    lambda section: (
        Result.objects.filter(section_id=section)
        .order_by("board_number", "round", "table")
        .values_list(
            "board_number",
            "status",
            "ns_score",
            "artificial_code",
            "ns_pair_id",
            "ew_pair_id",
            "round",
            "table",
        )
    )
)
_SECTIONS = Prepared(lambda event: Section.objects.filter(event_id=event).order_by("name"))
_FOULED = Prepared(
    lambda event: (
        Board.objects.filter(event_id=event, fouled=True)
        .order_by()
        .values_list("number", flat=True)
    )
)
_PAIRS = Prepared(
    lambda event: (
        Pair.objects.filter(section__event_id=event)
        .order_by()
        .values_list("section_id", "pk", "number", "direction", "is_phantom", "player1", "player2")
    )
)

ResultRow = tuple[int, str, int | None, str, int, int, int, int]


def traveller_lines(
    section: Section,
    pair_numbers: Mapping[int, int],
    fouled: Collection[int],
    rows: list[ResultRow] | None = None,
    only: AbstractSet[int] | None = None,
) -> list[TravellerLine]:
    """The counting results of a section as the engine's traveller lines. `pair_numbers` maps
    the section's Pair ids to their numbers and `fouled` holds the event's fouled boards, both
    read once by the caller, so the results query joins nothing. `rows` are the section's
    results as `_COUNTED` reads them (read here when not given); `only`, when given, keeps the
    lines of those boards alone.

    Fouled boards score Average to both sides at every table that played them; entered but
    unconfirmed and disputed results do not count yet. One query of plain values, and lines
    built by position: a rescore runs after every burst of results, and model instances or
    keyword arguments cost more than the scoring itself.
    """
    if rows is None:
        rows = list(_COUNTED(section.pk))
    counting = Result.COUNTING
    artificial_status = Result.Status.ARTIFICIAL
    disputed = Result.Status.DISPUTED
    lines = []
    for board, status, ns_score, code, ns, ew, _round, _table in rows:
        if only is not None and board not in only:
            continue
        if board in fouled:
            if status == disputed:
                continue
            lines.append(TravellerLine(board, pair_numbers[ns], pair_numbers[ew], None, FOULED))
        elif status not in counting:
            continue
        elif status == artificial_status:
            ns_code, _, ew_code = code.partition("/")
            artificial = (ns_code, ew_code or ns_code)
            lines.append(TravellerLine(board, pair_numbers[ns], pair_numbers[ew], None, artificial))
        else:
            lines.append(TravellerLine(board, pair_numbers[ns], pair_numbers[ew], ns_score))
    return lines


def session_figures(
    section: Section, rules: GameRules, only: AbstractSet[int] | None = None
) -> dict[str, SessionTally]:
    """Each pair's session figures (Candid Whist: bags) from its counting results in play
    order, keyed by `Section.pair_key`; empty for games without session rules. `only`, when
    given, counts those boards alone (the public standings of a running event)."""
    if not rules.session_columns:
        return {}
    played: dict[str, list[tuple[Entry, Side]]] = {}
    boards = {b.number: b for b in Board.objects.filter(event_id=section.event_id)}
    results = Result.objects.filter(
        section=section, ns_score__isnull=False, status__in=Result.COUNTING
    )
    if only is not None:
        results = results.filter(board_number__in=sorted(only))
    for r in results.select_related("ns_pair", "ew_pair").order_by("round", "board_number"):
        if r.entry is None:
            continue
        entry = rules.parse_entry(engine_board(boards[r.board_number]), r.entry)
        for pair, side in ((r.ns_pair, Side.NS), (r.ew_pair, Side.EW)):
            key = section.pair_key(pair.number, side.value)
            played.setdefault(key, []).append((entry, side))
    tallies = {key: rules.session_tally(results) for key, results in played.items()}
    return {key: tally for key, tally in tallies.items() if tally is not None}


@dataclass(frozen=True)
class Progress:
    """Where a section's boards stand, read with its results: the boards its movement plays,
    and those every table due to play them has finished."""

    played: frozenset[int]
    finished: frozenset[int]

    @property
    def pending(self) -> frozenset[int]:
        return self.played - self.finished


@dataclass(frozen=True)
class Computed:
    """A standings document and, per section (by name), where its boards stood in the same
    read of the results."""

    document: StandingsDocument
    progress: Mapping[str, Progress]

    @property
    def shown(self) -> frozenset[int]:
        """The boards finished wherever they are played: a board two sections play is shown
        once both have finished it (a player of the other section has yet to play it)."""
        played = frozenset().union(*(p.played for p in self.progress.values()))
        pending = frozenset().union(*(p.pending for p in self.progress.values()))
        return played - pending


def standings_compute(*, event: Event) -> dict[str, Any]:
    """The whole standings document (`engine.scoring.document`) as stored and served."""
    return _compute(event, finished_only=False).document.to_dict()


def finished_standings(*, event: Event) -> Computed:
    """The public standings of a running event: each section scored over the boards every
    table of that section due to play them has finished, as if no other board had been played
    yet (totals, percentages, ranks, session figures such as Candid bags, every board line).

    A board is finished when each meeting of the movement that plays it (sit-outs and absent
    pairs aside) has a result that counts: confirmed, corrected or an artificial score."""
    return _compute(event, finished_only=True)


def _compute(event: Event, *, finished_only: bool) -> Computed:
    sections = []
    progress: dict[str, Progress] = {}
    rules = rules_for(event)
    # Each query orders by what it needs, or not at all: the models' default orderings (by
    # section, by event, by event date) join two tables more to every query for nothing.
    fouled = set(_FOULED(event.pk))
    # Every section's pairs in one query of plain values (a rescore runs after every burst of
    # results; model instances cost more than the names need).
    pairs: dict[int, list[tuple[int, int, str, bool, str, str]]] = {}
    for row in _PAIRS(event.pk):
        pairs.setdefault(row[0], []).append(row[1:])
    for section in _SECTIONS(event.pk):
        section.event = event  # as event.sections would: its rules and name without a query
        movement = movement_for(section)
        rows = list(_COUNTED(section.pk))
        only: frozenset[int] | None = None
        if finished_only:
            played, pending = board_progress(section, ((r[0], r[6], r[7], r[1]) for r in rows))
            only = played - pending
            progress[section.name] = Progress(played, only)
        tallies = session_figures(section, rules, only)
        adjustments: dict[int | str, int] = {}
        if event.method == Event.Method.TOTAL:
            adjustments = {key: tally.adjustment for key, tally in tallies.items()}
        names: dict[str, str] = {}
        absent: set[str] = set()
        numbers: dict[int, int] = {}
        for pk, number, direction, phantom, player1, player2 in pairs.get(section.pk, ()):
            numbers[pk] = number
            key = pair_key(number, direction or None)
            if phantom:
                absent.add(key)  # its players' names still show if it played (it withdrew)
            players = " & ".join(n for n in (player1, player2) if n)
            names[key] = players if phantom else players or Pair.NAMES_TO_COME
        score = score_session(
            traveller_lines(section, numbers, fouled, rows, only),
            method=event.method,
            scale=event.scale,
            movement=movement,
            adjustments=adjustments or None,
        )
        sections.append(
            section_standings(
                section.name,
                score,
                one_winner=section.one_winner,
                names=names,
                absent=absent,
                session={key: tally.shown for key, tally in tallies.items()},
                session_columns=rules.session_columns,
            )
        )
    document = StandingsDocument(
        event=event.pk,
        version=event.results_version,
        method=event.method,
        scale=event.scale,
        computed_at=timezone.now().isoformat(),
        sections=tuple(sections),
    )
    return Computed(document, progress)
