"""Passing results on and taking them in: an event as USEBIO, PBN with results or CSV, and a
USEBIO or PBN file as a new, finished event.

The engine does the formats (`engine.exports`); this module turns an event's rows into the
engine's `EventRecord` and back. An import goes through the same services a director uses
(create, import boards, name pairs, start, submit each result confirmed, close), inside one
transaction: a file that fails anywhere leaves nothing behind, and a result that the game's
rules would refuse at the table is refused in the file too.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.utils.text import slugify

from engine import pbn
from engine.exports import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    check_record,
    dumps_usebio,
    dumps_with_results,
    loads_usebio,
    loads_with_results,
    score_cards_csv,
    standings_csv,
    travellers_csv,
)
from engine.exports.spreadsheet import XLSX_CONTENT_TYPE, with_bom, xlsx_from_csv
from engine.scoring.document import StandingsDocument
from tournaments.drives.models import Drive
from tournaments.events.bridge import engine_board, meeting_rows
from tournaments.events.models import Board, Event, Pair, Result, Standings
from tournaments.events.selectors.handicapped import handicap_columns
from tournaments.events.selectors.public import public_pair_names
from tournaments.events.selectors.records import board_analyses
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.audit import audit_record
from tournaments.events.services.corrections import board_mark_fouled, result_set_artificial
from tournaments.events.services.events import (
    MAX_IMPORT_BOARDS,
    boards_import,
    event_create,
    event_finish,
    event_start,
    file_size_check,
    pair_set_absent,
    pairs_register,
)
from tournaments.events.services.results import result_submit
from tournaments.files import backup
from tournaments.kernel.audit import User
from tournaments.kernel.member_links import shown_player
from tournaments.kernel.models import Club
from tournaments.kernel.refusals import Refused
from tournaments.teams.models import Tournament


class ImportRefused(Refused):
    """A file that cannot become an event; the message says what is wrong and where."""


@dataclass(frozen=True)
class ExportFormat:
    key: str
    title: str
    extension: str
    content_type: str
    # Offered at the public addresses of a published event; the whole event's JSON is not:
    # it carries the tablets' tokens, idempotency keys and the director's usernames.
    public: bool = True


#: The formats, by the name the command, the API and the page use.
FORMATS: dict[str, ExportFormat] = {
    f.key: f
    for f in (
        ExportFormat("usebio", "USEBIO 1.2 XML", "xml", "application/xml; charset=utf-8"),
        ExportFormat("pbn", "PBN with results", "pbn", "application/x-pbn; charset=utf-8"),
        ExportFormat("csv", "Standings (CSV)", "csv", "text/csv; charset=utf-8"),
        ExportFormat("xlsx", "Standings (Excel)", "xlsx", XLSX_CONTENT_TYPE),
        ExportFormat(
            "travellers-csv", "Travellers (CSV)", "travellers.csv", "text/csv; charset=utf-8"
        ),
        ExportFormat("travellers-xlsx", "Travellers (Excel)", "travellers.xlsx", XLSX_CONTENT_TYPE),
        ExportFormat(
            "score-cards-csv", "Score cards (CSV)", "score-cards.csv", "text/csv; charset=utf-8"
        ),
        ExportFormat(
            "score-cards-xlsx", "Score cards (Excel)", "score-cards.xlsx", XLSX_CONTENT_TYPE
        ),
        ExportFormat(
            "json",
            "The whole event (clubwhist JSON)",
            "clubwhist.json",
            "application/json",
            public=False,
        ),
    )
}


@dataclass(frozen=True)
class Export:
    """A made export: `text` for the text formats; a workbook's bytes in `binary`."""

    text: str
    filename: str
    content_type: str
    binary: bytes | None = None

    def content(self) -> bytes:
        """What a download or a file holds."""
        return self.binary if self.binary is not None else self.text.encode()


def _names(pair: Pair) -> str:
    return " & ".join(n for n in (pair.player1, pair.player2) if n)


def _names_of(pair: Pair, public: bool) -> tuple[str, str]:
    """The pair's two names as typed, or (`public`) as a public reader sees them."""
    if not public:
        return pair.player1, pair.player2
    return (
        shown_player(pair.player1, pair.member1) if pair.player1 else "",
        shown_player(pair.player2, pair.member2) if pair.player2 else "",
    )


def event_record(event: Event, *, public: bool = False) -> EventRecord:
    """The event as the engine's record: boards, pairs, and every result that counts, a
    fouled board's lines as entered, with the board in `fouled` (the record scores them
    Average, as the app does, and an import marks the board fouled again). `public`: the
    players named as a public reader sees them (a member by their chosen shown name)."""
    section = event.section
    stored_boards = list(Board.objects.filter(event=event).order_by("number"))
    fouled = {b.number for b in stored_boards if b.fouled}
    pairs = {
        p.pk: p
        for p in Pair.objects.filter(section=section)
        .select_related("member1", "member2")
        .order_by()
    }
    results = []
    for r in Result.objects.filter(section=section, status__in=Result.COUNTING).order_by(
        "board_number", "round", "table"
    ):
        ns, ew = pairs[r.ns_pair_id].number, pairs[r.ew_pair_id].number
        if r.status == Result.Status.ARTIFICIAL:
            entry, score, code = None, None, r.artificial_code
        else:
            entry, score, code = r.entry, r.ns_score, None
        results.append(
            ResultRecord(r.board_number, ns, ew, entry, score, code, round=r.round, table=r.table)
        )
    return EventRecord(
        title=event.name,
        date=event.date.isoformat(),
        club=event.club.name,
        variant=event.game,
        options=dict(event.options),
        method=event.method,
        scale=event.scale,
        one_winner=section.one_winner,
        movement=MovementSpec(section.movement_kind, dict(section.movement_params)),
        section=section.name,
        boards=tuple(engine_board(b) for b in stored_boards),
        pairs=tuple(
            PairRecord(
                p.number,
                p.direction or None,
                " & ".join(n for n in _names_of(p, public) if n),
                p.is_phantom,
                _names_of(p, public),
            )
            for p in sorted(pairs.values(), key=lambda p: (p.direction, p.number))
        ),
        results=tuple(results),
        fouled=frozenset(fouled),
    )


def _document(event: Event, public: bool = False) -> StandingsDocument:
    latest = Standings.objects.filter(event=event).order_by("-version").first()
    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).get()
    data = latest.data if latest is not None and latest.version >= version else None
    document = StandingsDocument.from_dict(data or standings_compute(event=event))
    return document.with_names(public_pair_names(event)) if public else document


def event_export(event: Event, fmt: str, *, public: bool = False) -> Export:
    """The event in one of `FORMATS`, from what the database holds now; `public`: as a
    public reader may have it (only the public formats; members named as they chose)."""
    chosen = FORMATS.get(fmt)
    if chosen is None:
        raise ExportError(f"Unknown format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    if chosen.key == "json":
        with backup.consistent_read():
            text = backup.dumps(backup.event_document(event))
        name = slugify(event.name) or "event"
        return Export(text, f"{name}-{event.date:%Y-%m-%d}.{chosen.extension}", chosen.content_type)
    if public and not chosen.public:
        raise ExportError(f"The {chosen.title} is not a public export.")
    record = event_record(event, public=public)
    if chosen.key == "usebio":
        text = dumps_usebio(record, _document(event, public))
    elif chosen.key == "pbn":
        text = dumps_with_results(record, board_analyses(event))
    elif chosen.key in ("csv", "xlsx"):
        document = _document(event, public)
        text = standings_csv(document, handicap_columns(event, document))
    elif chosen.key.startswith("score-cards"):
        text = score_cards_csv(record, _document(event, public))
    else:
        text = travellers_csv(record, _document(event, public))
    name = slugify(event.name) or "event"
    filename = f"{name}-{event.date:%Y-%m-%d}.{chosen.extension}"
    if chosen.extension.endswith("xlsx"):
        titles = {"xlsx": "Standings", "score-cards-xlsx": "Score cards"}
        title = titles.get(chosen.key, "Travellers")
        return Export("", filename, chosen.content_type, xlsx_from_csv(text, title))
    if chosen.extension.endswith("csv"):
        text = with_bom(text)  # Excel reads UTF-8 only with it (engine.exports.spreadsheet)
    return Export(text, filename, chosen.content_type)


def drive_json_export(drive: Drive) -> Export:
    """The whole drive as its clubwhist JSON (`backup.drive_document`), read at one moment,
    for its directors only, as the event's JSON: it carries the tablets' link tokens (anyone
    holding one can enter that table's results) and the directors' usernames."""
    with backup.consistent_read():
        text = backup.dumps(backup.drive_document(drive))
    name = slugify(drive.name) or "drive"
    return Export(text, f"{name}-{drive.date:%Y-%m-%d}.drive.clubwhist.json", "application/json")


def tournament_json_export(tournament: Tournament) -> Export:
    """The whole team tournament as its clubwhist JSON (`backup.tournament_document`), for
    its directors only: it carries the tablets' link tokens."""
    with backup.consistent_read():
        text = backup.dumps(backup.tournament_document(tournament))
    name = slugify(tournament.name) or "tournament"
    filename = f"{name}-{tournament.date:%Y-%m-%d}.tournament.clubwhist.json"
    return Export(text, filename, "application/json")


def read_record(text: str) -> EventRecord:
    """A USEBIO or PBN file's event (told apart by its first characters)."""
    start = text.removeprefix("\ufeff").lstrip()[:200]
    if start.startswith("<"):
        return loads_usebio(text, most_boards=MAX_IMPORT_BOARDS)
    if "[" in start or start.startswith("%"):
        return loads_with_results(text, most_boards=MAX_IMPORT_BOARDS)
    raise ImportRefused(
        "This is neither a USEBIO (XML) file nor a PBN file: export the event from its "
        "scoring program as USEBIO 1.2 or as PBN with results."
    )


def _meeting(event: Event, result: ResultRecord) -> tuple[int, int]:
    """Where a line was played: as the file says, else found in the movement."""
    if result.round is not None and result.table is not None:
        return result.round, result.table
    section = event.section
    for (rnd, table), row in sorted(meeting_rows(section).items()):
        if (row.ns_pair, row.ew_pair) == (
            result.ns,
            result.ew,
        ) and result.board in section.boards_of_set(row.board_set):
            return rnd, table
    raise ImportRefused(
        f"Board {result.board}: NS {result.ns} and EW {result.ew} do not meet on it in the "
        "movement the file names."
    )


def event_import(*, text: str, club: Club, user: User = None) -> Event:
    """Create a finished event from a USEBIO or PBN file written by clubwhist (or by any
    program, when it carries the whist result of every line and the movement); an event's
    clubwhist JSON is restored whole instead, as it was (`backup.event_import_text`)."""
    file_size_check(text=text, what="results file")
    if backup.looks_like_json(text):
        return backup.event_import_text(text=text, club=club, user=user)
    try:
        record = read_record(text)
        check_record(record)
    except ExportError as exc:
        raise ImportRefused(str(exc)) from None
    # Another program's file reads (engine.exports), but holds less than an event needs:
    # each refusal says what the file lacks, why the event needs it, and what to do instead.
    if record.movement is None:
        raise ImportRefused(
            "The file does not say which movement was played (every USEBIO and PBN results "
            "file clubwhist exports says so), and the event cannot be rebuilt without it: "
            "import a file exported by clubwhist, or make the event here with its movement "
            "and enter the results. Nothing was imported."
        )
    if not record.boards:
        raise ImportRefused(
            "The file has no hand records, and the boards are needed to score: import a file "
            "exported by clubwhist (it carries the deals), or make the event here and enter "
            "the results. Nothing was imported."
        )
    score_only = next((r for r in record.results if r.entry is None and r.artificial is None), None)
    if score_only is not None:
        raise ImportRefused(
            f"{score_only.where().capitalize()} has only a score, not the whist result "
            "(tricks, bid...), so it cannot be checked and scored here: import a file exported "
            "by clubwhist, or make the event here and enter the results. Nothing was imported."
        )
    with transaction.atomic():
        event = event_create(
            club=club,
            name=record.title or "Imported event",
            game=record.variant,
            movement_kind=record.movement.kind,
            movement_params=dict(record.movement.params),
            date=_date(record.date),
            options=dict(record.options),
            method=record.method,
            scale=record.scale,
            user=user,
        )
        boards_import(event=event, pbn_text=pbn.dumps(record.boards), user=user)
        slots = {(p.number, p.direction or None): p for p in event.section.pairs.all()}
        names: dict[int, tuple[str, str]] = {}
        for pair in record.pairs:
            slot = slots.get((pair.number, pair.direction))
            if slot is None:
                raise ImportRefused(f"Pair {pair.key} is not in the movement the file names.")
            names[slot.pk] = _players(pair)
            if pair.absent:
                pair_set_absent(event=event, pair=slot, absent=True, user=user)
        pairs_register(event=event, names=names, user=user)
        event = event_start(event=event, user=user)
        section = event.section
        for result in record.results:
            rnd, table = _meeting(event, result)
            if result.artificial is not None:
                result_set_artificial(
                    section=section,
                    round=rnd,
                    table=table,
                    board_number=result.board,
                    code=result.artificial,
                    reason="imported from a file",
                    user=user,
                )
            else:
                assert result.entry is not None
                result_submit(
                    section=section,
                    round=rnd,
                    table=table,
                    board_number=result.board,
                    entry=dict(result.entry),
                    device="import",
                    user=user,
                    confirm=True,
                )
        # After the results: a fouled board takes no new result, but keeps those it has.
        for board in Board.objects.filter(event=event, number__in=record.fouled):
            board_mark_fouled(board=board, fouled=True, reason="fouled in the file", user=user)
        audit_record(
            event=event,
            user=user,
            action="event imported",
            target=f"event {event.pk}",
            after={"results": len(record.results), "boards": len(record.boards)},
        )
        return event_finish(event=event, user=user)


def file_import(*, text: str, club: Club, user: User = None) -> backup.Imported:
    """What the director's import page and API take: clubwhist JSON of an event, a drive or a
    team tournament, restored whole (`backup.document_import_text` tells them apart by their
    format marker), or a USEBIO or PBN results file, made into a closed event
    (`event_import`)."""
    file_size_check(text=text, what="results file")
    if backup.looks_like_json(text):
        return backup.document_import_text(text=text, club=club, user=user)
    event = event_import(text=text, club=club, user=user)
    said = (
        f"Imported: {event.name}. The standings are scored again here; compare them with the "
        "program that wrote the file."
    )
    return backup.Imported("event", event, said)


def _players(pair: PairRecord) -> tuple[str, str]:
    """The pair's two players: as the file lists them, else its one name split at the first
    " & " (a file from another program, or from clubwhist before players were written)."""
    if pair.players:
        first, second = (*pair.players, "", "")[:2]
        if len(pair.players) > 2:
            second = " & ".join(p for p in pair.players[1:] if p)
        return first, second
    first, _, second = pair.names.partition(" & ")
    return first, second


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        raise ImportRefused(f"The event's date {text!r} is not a date (YYYY-MM-DD).") from None
