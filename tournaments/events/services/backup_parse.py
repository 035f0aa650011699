"""Checking a whole event document without writing anything, and a club block's players.

Everything is checked before the first row is written (each row's values, every reference, the
movement the settings make, each result against the movement and the game's rules), so a
restore refuses a bad document whole, naming the first problem, instead of failing half-way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.utils import timezone

from engine.movements import validate as validate_movement
from engine.movements.registry import MAX_BOARDS, MAX_TABLES, check_params
from engine.scoring import method_scope, pair_key, parse_artificial
from engine.scoring.document import StandingsDocument
from tournaments.events.bridge import board_from_record, movement_for, rules_named
from tournaments.events.models import (
    AuditEntry,
    Board,
    DirectorCall,
    Event,
    MovementRow,
    Pair,
    Player,
    Result,
    Section,
    Standings,
    TableAccess,
)
from tournaments.events.selectors.backup import EVENT_FORMAT, SECTION_CHILDREN
from tournaments.events.services.backup_checks import check_par, check_result, check_table
from tournaments.events.services.printing import MAX_MINUTES_PER_BOARD
from tournaments.events.services.tablets import MAX_CLOCK_MINUTES
from tournaments.kernel.backup.checks import (
    check_ids_once,
    check_live,
    check_names,
    check_range,
    check_token,
)
from tournaments.kernel.backup.documents import ClubBlock, ParsedDocument, parse_club
from tournaments.kernel.backup.registry import parts
from tournaments.kernel.backup.rows import (
    Keyed,
    MemberRef,
    UserRef,
    check_marker,
    check_unique,
    list_in,
    load_row,
)
from tournaments.kernel.backup.schema import BACKUP_FORMAT, Model, RestoreRefused
from tournaments.kernel.models import Club


@dataclass
class _SectionRows:
    section: Section
    pairs: list[Pair]
    movement_rows: list[MovementRow]
    results: list[Result]
    table_access: list[TableAccess]
    calls: list[DirectorCall]
    board_count: int


@dataclass
class ParsedEvent(ParsedDocument):
    """A checked event document: unsaved rows, and the users they name."""

    club: ClubBlock
    event: Event
    sections: list[_SectionRows]
    boards: list[Board]
    audit: list[AuditEntry]
    standings: Standings | None
    user_refs: list[UserRef]
    member_refs: list[MemberRef] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.event.name

    @property
    def title(self) -> str:
        return f"the event {self.event.name!r} of {self.event.date:%d %b %Y}"

    def rows(self) -> Iterator[tuple[Model, list[Any]]]:
        """Every row by model, parents before children."""
        yield Event, [self.event]
        yield Section, [s.section for s in self.sections]
        for key, model in SECTION_CHILDREN:
            yield model, [row for s in self.sections for row in getattr(s, key)]
        yield Board, list(self.boards)
        yield AuditEntry, list(self.audit)
        yield Standings, [self.standings] if self.standings is not None else []

    def owned_by(self, importer: AuthUser | None) -> None:
        self.event.created_by = importer

    def people_as_text(self, importer: AuthUser | None) -> list[str]:
        """As every format's (`ParsedDocument.people_as_text`), and a result keeps who
        entered it as text, beside the device it was entered on."""
        for ref in self.user_refs:
            if isinstance(ref.obj, Result):
                device = ref.obj.entered_by_device
                said = f"{device} ({ref.username})" if device else ref.username
                ref.obj.entered_by_device = said[
                    : Result._meta.get_field("entered_by_device").max_length
                ]
        return super().people_as_text(importer)

    def counts(self) -> str:
        results = sum(len(s.results) for s in self.sections)
        return (
            f"{sum(len(s.pairs) for s in self.sections)} pairs, {len(self.boards)} boards, "
            f"{results} results, {len(self.audit)} audit entries, "
            f"{sum(len(s.calls) for s in self.sections)} director calls, "
            f"{sum(len(s.table_access) for s in self.sections)} tablet links"
        )


def check_club(club: Club, where: str) -> None:
    """What the events ask of a club's block: minutes a board the print page can use."""
    check_range(club.minutes_per_board, 1, MAX_MINUTES_PER_BOARD, where, "minutes per board")


def parse_players(data: dict[str, Any], where: str) -> list[Player]:
    """A club block's players, checked: names by the one rule, no name twice."""
    players = [
        load_row(Player, p, f"{where}, player {i + 1}", fmt=EVENT_FORMAT)
        for i, p in enumerate(list_in(data, "players", where))
    ]
    for i, player in enumerate(players):
        check_names(player, ("name",), f"{where}, player {i + 1}")
    check_unique([(p.name, f"player {i + 1}") for i, p in enumerate(players)], "name", where)
    return players


def _elsewhere() -> dict[str, str]:
    """Where a document of another kind goes instead of an event's import."""
    said = {
        BACKUP_FORMAT: "This is a backup of a whole database, not one event's JSON: restore it "
        "with `python manage.py restore FILE`."
    }
    for part in parts():
        if part.marker != EVENT_FORMAT:
            said[part.marker] = (
                f"This is {part.whose} JSON, not an event's: the import page (or `POST "
                f"/api/events/import`) takes it as a {part.kind}."
            )
    return said


def parse_event(document: Any) -> ParsedEvent:
    """Check a whole event document without writing anything; the first problem found is a
    `RestoreRefused` naming it."""
    check_marker(document, EVENT_FORMAT, "event document", _elsewhere())
    for key in ("club", "event", "sections", "boards", "audit", "standings"):
        if key not in document:
            raise RestoreRefused(f"The event document has no {key!r}: it is not complete.")
    refs: list[UserRef] = []
    linked: list[MemberRef] = []
    club = parse_club(document["club"], EVENT_FORMAT)
    event = load_row(Event, document["event"], "The event", users=refs, fmt=EVENT_FORMAT)
    check_names(event, ("name",), "The event")
    if not isinstance(event.options, dict):
        raise RestoreRefused(f"The event: options should be an object, not {event.options!r}.")
    try:
        rules = rules_named(event.game, event.options)
    except (ValueError, TypeError) as exc:
        raise RestoreRefused(f"The event: its game and options are refused: {exc}") from None
    if event.scored_version > event.results_version:
        raise RestoreRefused(
            f"The event says version {event.scored_version} of its results is scored, but "
            f"its results are at version {event.results_version}."
        )

    boards: list[Board] = []
    deals: dict[int, Any] = {}
    listed = list_in(document, "boards", "The document")
    if len(listed) > MAX_BOARDS:  # before any board is read: each is checked slowly
        raise RestoreRefused(
            f"The document has {len(listed)} boards; an event plays at most {MAX_BOARDS} (the "
            "largest movement's). It is not an event's clubwhist JSON: export the event again."
        )
    for i, raw in enumerate(listed):
        board = load_row(Board, raw, f"Board {i + 1} of the list of boards", fmt=EVENT_FORMAT)
        where = f"Board {board.number}"
        check_range(board.number, 1, None, f"Board {i + 1} of the list of boards", "number")
        if board.number in deals:
            raise RestoreRefused(f"{where} is in the document twice.")
        try:
            deals[board.number] = board_from_record(board.record)
            rules.check_board(deals[board.number])
        except ValueError as exc:
            raise RestoreRefused(
                f"{where}: its record is not a board of the event: {exc}"
            ) from None
        if deals[board.number].number != board.number:
            raise RestoreRefused(f"{where}: its deal is board {deals[board.number].number}'s.")
        check_par(board, deals[board.number], rules, where)
        refusal = method_scope(event.method).fouled_refusal() if board.fouled else None
        if refusal is not None:
            raise RestoreRefused(
                f"{where} is marked fouled, but {refusal[:1].lower()}{refusal[1:]}."
            )
        boards.append(board)

    listed = list_in(document, "sections", "The document")
    if not listed:
        raise RestoreRefused("The document has no section: an event has at least one.")
    if len(listed) > 1:  # before any movement is built: a big one takes a quarter second
        raise RestoreRefused(
            f"The document has {len(listed)} sections; an event here has one (of at most "
            f"{MAX_TABLES} tables). Export the event again from clubwhist."
        )
    sections = [
        _parse_section(raw, i, rules, deals, refs, linked, event.method)
        for i, raw in enumerate(listed)
    ]
    played = max(s.board_count for s in sections)
    extra = sorted(number for number in deals if number > played)
    if extra:
        raise RestoreRefused(
            f"Board {extra[0]} is not played: the movement plays boards 1-{played}, and an "
            "event holds only the boards it plays."
        )
    check_unique([(s.section.name, "a section") for s in sections], "name")
    check_unique(
        (
            (link.token, f"section {s.section.name}'s table {link.table}")
            for s in sections
            for link in s.table_access
        ),
        "tablet link",
    )
    check_unique(
        (
            (r.idempotency_key, f"board {r.board_number} at table {r.table} in round {r.round}")
            for s in sections
            for r in s.results
        ),
        "idempotency key",
    )
    audit = [
        load_row(AuditEntry, raw, f"Audit entry {i + 1}", users=refs, fmt=EVENT_FORMAT)
        for i, raw in enumerate(list_in(document, "audit", "The document"))
    ]
    standings = _parse_standings(document["standings"], event)
    parsed = ParsedEvent(club, event, sections, boards, audit, standings, refs, linked)
    check_ids_once(parsed.rows(), "the document")
    return parsed


def _parse_standings(raw: Any, event: Event) -> Standings | None:
    if raw is None:
        if event.results_version:
            raise RestoreRefused(
                f"The document has no standings, but the event's results changed "
                f"{event.results_version} times: it was not written whole. Export the event "
                "again."
            )
        return None
    standings: Standings = load_row(Standings, raw, "The standings", fmt=EVENT_FORMAT)
    if not standings.version == event.scored_version == event.results_version:
        raise RestoreRefused(
            f"The standings are those of version {standings.version} of the results, the "
            f"event's results_version is {event.results_version} (scored_version: "
            f"{event.scored_version}): the document was not written whole. Export the event "
            "again."
        )
    data = standings.data
    try:
        StandingsDocument.from_dict(data)
        when = data["computed_at"]
        if not isinstance(when, str) or timezone.is_naive(dt.datetime.fromisoformat(when)):
            raise ValueError(f"computed_at {when!r} is not a date and time with its offset")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RestoreRefused(f"The standings' data are not a standings document ({exc}).") from None
    return standings


def _parse_section(
    raw: Any,
    index: int,
    rules: Any,
    deals: Mapping[int, Any],
    refs: list[UserRef],
    linked: list[MemberRef],
    method: str,
) -> _SectionRows:
    section: Section = load_row(
        Section,
        raw,
        f"Section {index + 1}",
        children=[key for key, _ in SECTION_CHILDREN],
        fmt=EVENT_FORMAT,
    )
    check_names(section, ("name",), f"Section {index + 1}")
    where = f"Section {section.name}"
    if not isinstance(section.movement_params, dict):
        raise RestoreRefused(
            f"{where}: movement_params should be an object, not {section.movement_params!r}."
        )
    try:
        check_params(section.movement_kind, dict(section.movement_params))
        movement = movement_for(section)
    except (ValueError, TypeError) as exc:
        raise RestoreRefused(
            f"{where}: its movement (movement_kind, movement_params) cannot be made: {exc}"
        ) from None
    report = validate_movement(movement)
    if not report.ok:
        raise RestoreRefused(f"{where}: its movement is not valid: {'; '.join(report.problems)}")
    made = (movement.tables, movement.rounds, movement.boards_per_round, movement.one_winner)
    stored = (section.tables, section.rounds, section.boards_per_round, section.one_winner)
    if made != stored:
        raise RestoreRefused(
            f"{where}: its movement makes {made[0]} tables, {made[1]} rounds, {made[2]} boards "
            f"a round (one winner: {made[3]}), the document says tables {stored[0]}, rounds "
            f"{stored[1]}, boards_per_round {stored[2]} (one_winner: {stored[3]})."
        )
    relay_sets = [list(pair) for pair in movement.relay_sets]
    if section.relay_sets != relay_sets:
        raise RestoreRefused(
            f"{where}: relay_sets {section.relay_sets!r} are not those its movement makes "
            f"({relay_sets!r})."
        )
    check_range(section.released_round, 1, section.rounds, where, "released round")
    check_range(section.clock_minutes, 0, MAX_CLOCK_MINUTES, where, "clock minutes")
    for number in range(1, movement.board_count() + 1):
        if number not in deals:
            raise RestoreRefused(
                f"Board {number} is missing: section {section.name}'s movement plays boards "
                f"1-{movement.board_count()}, and the document has no deal for it."
            )

    pairs: dict[str, Pair] = {}
    for i, data in enumerate(list_in(raw, "pairs", where)):
        pair: Pair = load_row(
            Pair, data, f"{where}, pair {i + 1}", members=linked, fmt=EVENT_FORMAT
        )
        check_range(pair.number, 1, None, f"{where}, pair {i + 1}", "number")
        check_names(pair, ("player1", "player2"), f"{where}, pair {pair.label}")
        if section.one_winner != (pair.direction == ""):
            kind = "one field (pairs without a direction)" if section.one_winner else "NS and EW"
            raise RestoreRefused(
                f"{where}, pair {pair.label}: the section's pairs are {kind}, as its movement is."
            )
        key = pair_key(pair.number, pair.direction or None)
        if key in pairs:
            raise RestoreRefused(f"{where}: pair {key} is listed twice.")
        pairs[key] = pair
    seated = {
        pair_key(slot.number, section.direction_of(slot.direction or "") or None)
        for slot in movement.pairs
    }
    if set(pairs) != seated:
        odd = sorted(set(pairs) ^ seated)[0]
        listed = "lists" if odd in pairs else "does not list"
        raise RestoreRefused(
            f"{where} {listed} pair {odd}: the pairs are those its movement seats "
            f"({', '.join(sorted(seated))})."
        )

    meetings = {(m.round, m.table): (m.ns or 0, m.ew or 0, m.set) for m in movement.meetings}
    rows: dict[tuple[int, int], MovementRow] = {}
    for i, data in enumerate(list_in(raw, "movement_rows", where)):
        row: MovementRow = load_row(
            MovementRow, data, f"{where}, movement row {i + 1}", fmt=EVENT_FORMAT
        )
        spot = f"{where}, round {row.round}, table {row.table}"
        if (row.round, row.table) in rows:
            raise RestoreRefused(f"{spot} is in the movement twice.")
        expected = meetings.get((row.round, row.table))
        if expected is None:
            raise RestoreRefused(f"{spot} is not in the movement its settings make.")
        if (row.ns_pair, row.ew_pair, row.board_set) != expected:
            raise RestoreRefused(
                f"{spot}: the document seats NS {row.ns_pair} v EW {row.ew_pair} on board set "
                f"{row.board_set}, the movement NS {expected[0]} v EW {expected[1]} on set "
                f"{expected[2]}."
            )
        for number, seat in ((row.ns_pair, "NS"), (row.ew_pair, "EW")):
            key = section.pair_key(number, seat)
            if number and key not in pairs:
                raise RestoreRefused(f"{spot} seats pair {key}, which {where} does not list.")
        rows[(row.round, row.table)] = row
    missing = sorted(set(meetings) - set(rows))
    if missing:
        raise RestoreRefused(
            f"{where}: round {missing[0][0]}, table {missing[0][1]} of the movement is missing."
        )

    results: list[Result] = []
    played: set[tuple[int, str]] = set()
    for i, data in enumerate(list_in(raw, "results", where)):
        spot = f"{where}, result {i + 1}"
        if isinstance(data, dict):
            spot = (
                f"{where}, the result of board {data.get('board_number')} at table "
                f"{data.get('table')} in round {data.get('round')}"
            )
        result: Result = load_row(
            Result,
            data,
            spot,
            users=refs,
            keyed={Pair: Keyed(pairs, "the {label} {key!r} is not a pair of the section.")},
            fmt=EVENT_FORMAT,
        )
        check_result(result, section, rows, deals, rules, played, spot)
        if result.status == Result.Status.ARTIFICIAL:
            ns_code, ew_code = parse_artificial(result.artificial_code)
            refusal = method_scope(method).artificial_refusal((ns_code, ew_code))
            if refusal is not None:
                raise RestoreRefused(f"{spot}: {refusal}.")
        results.append(result)

    live: set[int] = set()
    links: list[TableAccess] = []
    for i, data in enumerate(list_in(raw, "table_access", where)):
        link: TableAccess = load_row(
            TableAccess, data, f"{where}, tablet link {i + 1}", fmt=EVENT_FORMAT
        )
        check_table(section, link.table, f"{where}: a tablet link is for")
        check_token(link.token, f"{where}, tablet link {i + 1}")
        check_live(link, live, f"{where}: table {link.table}")
        links.append(link)
    calls: list[DirectorCall] = []
    for i, data in enumerate(list_in(raw, "calls", where)):
        spot = f"{where}, director call {i + 1}"
        call: DirectorCall = load_row(DirectorCall, data, spot, fmt=EVENT_FORMAT)
        check_table(section, call.table, f"{where}: a director call is from")
        if call.round is not None:
            check_range(call.round, 1, section.rounds, spot, "round")
        if call.board_number is not None:
            check_range(call.board_number, 1, movement.board_count(), spot, "board number")
        calls.append(call)
    return _SectionRows(
        section,
        list(pairs.values()),
        list(rows.values()),
        results,
        links,
        calls,
        movement.board_count(),
    )
