"""Printing an event: each document on demand, and the whole print pack in the background.

Every document is drawn from what the database holds at the moment it is asked for (the
boards, the movement, the pairs' names and absences, the tablet links, the par of analysed
boards, the standings), so a pair renamed or marked absent at 7.25 pm is on the travellers
printed at 7.26 pm. The print pack takes a few seconds for a big event, so it is a job: the
director asks, a `PrintJob` row follows its progress part by part, and the finished PDF is
kept in that row. With Redis the job runs in a Celery worker; without it (`make run`) in a
thread of the web process, as board analysis does, so the page stays responsive either way.
One document of a very big event (print_catalogue.py says which) is drawn by such a job too.

A pack remembers a fingerprint of what it was made from; when the event has changed since
(a name, an absence, a result, a new tablet link, the paper), the page says the pack is out of
date instead of letting last hour's travellers go to the tables.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from engine import printing
from engine.boards import Board as EngineBoard
from engine.games import GameRules
from engine.movements import Movement
from engine.scoring import pair_key
from engine.scoring.document import StandingsDocument
from tournaments.events.bridge import engine_board, movement_for, rules_for
from tournaments.events.models import Board, Event, Pair, PrintJob, Result, Standings
from tournaments.events.selectors import tablet_links
from tournaments.events.selectors.standings import standings_compute
from tournaments.events.services.audit import audit_record
from tournaments.events.services.print_catalogue import DOCUMENTS as DOCUMENTS
from tournaments.events.services.print_catalogue import KINDS as KINDS
from tournaments.events.services.print_catalogue import DocumentKind as DocumentKind
from tournaments.events.services.print_catalogue import drawn_in_job, event_size
from tournaments.kernel import jobs
from tournaments.kernel.audit import User, actor
from tournaments.kernel.models import Club
from tournaments.kernel.refusals import Refused

log = logging.getLogger(__name__)

#: A job's kind when it builds the print pack (otherwise it is one document's kind).
PACK = "pack"
#: How many finished packs an event keeps (older ones are deleted when a new one is done);
#: of each document drawn by a job, the newest only.
KEEP_PACKS = 3
KEEP_DOCUMENTS = 1
#: A job "running" for longer than this died with its worker; asking again starts a new one.
STALE_JOB = timedelta(minutes=10)


class PrintRefused(Refused):
    """A document that cannot be printed yet, with what to do about it."""


@dataclass(frozen=True)
class PrintInputs:
    """Everything a document is drawn from, read once from the database."""

    title: str
    boards: list[EngineBoard]
    rules: GameRules
    movement: Movement
    names: dict[str, str]
    links: dict[int, str]
    analyses: dict[int, dict[str, Any]]
    document: StandingsDocument | None
    records: tuple[str, ...]  # the boards as stored (PBN), for the fingerprint
    results_version: int
    contracts: dict[tuple[int, int], str] = field(default_factory=dict)
    printed: str = ""  # when the standings were scored, in the club's time zone, for people

    def fingerprint(self, paper: str) -> str:
        """A digest of what the documents show: equal fingerprints, equal pages."""
        summary = {
            "paper": paper,
            "title": self.title,
            "boards": self.records,
            "names": sorted(self.names.items()),
            "links": sorted(self.links.items()),
            "analysed": sorted(self.analyses),
            "results": self.results_version,
        }
        text = json.dumps(summary, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()


def event_title(event: Event) -> str:
    return f"{event.club.name}: {event.name}, {event.date:%d %B %Y}".replace(" 0", " ")


def has_counting_results(event: Event) -> bool:
    return Result.objects.filter(section__event=event, status__in=Result.COUNTING).exists()


def print_inputs(event: Event, *, base_url: str, with_standings: bool = True) -> PrintInputs:
    """Read what the documents need. Names are the pairs' names now; an absent pair prints as
    the sit-out it is. The standings are the newest stored ones, or scored now when results
    have come in since (the results sheet must not be a version behind the tables).
    `with_standings`: also the standings and each result's contract, which only the results
    sheet shows (reading every result of a big event takes seconds)."""

    section = event.section
    stored = list(Board.objects.filter(event=event).order_by("number"))
    names = {
        pair_key(p.number, p.direction or None): p.names
        for p in Pair.objects.filter(section=section)
    }
    analyses = {
        b.number: dict(b.par)
        for b in stored
        if b.par_status == Board.ParStatus.DONE and isinstance(b.par, dict)
    }
    # Read now, not from `event`: results may have come in since the caller loaded it.
    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).get()
    document = None
    if with_standings and has_counting_results(event):
        latest = Standings.objects.filter(event=event).order_by("-version").first()
        if latest is not None and latest.version >= version:
            data = latest.data
        else:
            data = standings_compute(event=event)
        document = StandingsDocument.from_dict(data)
    rules = rules_for(event)
    by_number = {b.number: b for b in stored}
    contracts = {}
    for number, ns, entry in (
        Result.objects.filter(section=section, status__in=Result.COUNTING)
        .exclude(entry=None)
        .values_list("board_number", "ns_pair__number", "entry")
        if with_standings
        else ()
    ):
        if isinstance(entry, dict) and number in by_number:
            played = engine_board(by_number[number])
            contracts[(number, ns)] = rules.describe_short(rules.parse_entry(played, entry))
    printed = ""
    if document is not None:
        moment = timezone.localtime(datetime.fromisoformat(document.computed_at))
        printed = f"{moment.day} {moment:%B %Y, %H:%M}"
    return PrintInputs(
        title=event_title(event),
        boards=[engine_board(b) for b in stored],
        rules=rules,
        movement=movement_for(section),
        names=names,
        links={link.table: link.url for link in tablet_links(event, base_url)},
        analyses=analyses,
        document=document,
        records=tuple(b.record for b in stored),
        results_version=version,
        contracts=contracts,
        printed=printed,
    )


def print_documents(event: Event) -> list[tuple[DocumentKind, str]]:
    """Each document with why it cannot be printed yet ("" when it can)."""
    has_boards = Board.objects.filter(event=event).exists()
    has_results = has_counting_results(event)
    listed = []
    for doc in DOCUMENTS:
        reason = ""
        if doc.needs_results and not has_results:
            reason = "Once the first results count."
        elif doc.kind not in ("table-cards", "pair-cards") and not has_boards:
            reason = "Once the boards are dealt or imported."
        listed.append((doc, reason))
    return listed


def _check_boards(event: Event, inputs: PrintInputs) -> None:
    section = event.section
    wanted = section.rounds * section.boards_per_round
    if not inputs.boards:
        raise PrintRefused(
            "This event has no boards yet: deal them or import their PBN file on the event page."
        )
    if len(inputs.boards) < wanted and not section.relay_sets:
        raise PrintRefused(
            f"The movement plays {wanted} boards but the event has {len(inputs.boards)}: "
            "import the missing boards first."
        )


def document_pdf(event: Event, kind: str, *, base_url: str, paper: str | None = None) -> bytes:
    """One document of the event as PDF bytes, in the club's paper unless `paper` is given."""
    if kind not in KINDS:
        raise PrintRefused(f"There is no document {kind!r}; choose one of {', '.join(KINDS)}.")
    paper = paper_check(paper or event.club.paper)
    inputs = print_inputs(event, base_url=base_url, with_standings=kind == "results-sheet")
    return _draw(event, inputs, kind, paper)


def documents_in_job(event: Event) -> set[str]:
    """The documents of this event too big to draw while the director waits."""
    size = event_size(event)
    return {kind for kind in KINDS if drawn_in_job(kind, size)}


def _draw(event: Event, r: PrintInputs, kind: str, paper: str) -> bytes:
    if kind not in ("table-cards", "pair-cards"):
        _check_boards(event, r)
    if kind == "curtain-cards":
        return printing.curtain_cards(r.boards, r.rules, paper=paper)
    if kind == "hand-records":
        return printing.hand_records(r.boards, r.rules, analyses=r.analyses, paper=paper)
    if kind == "board-slips":
        return printing.board_slips(r.boards, r.rules, paper=paper)
    if kind == "duplication-sheet":
        return printing.duplication_sheet(r.boards, r.rules, paper=paper)
    if kind == "travellers":
        return printing.travellers(r.boards, r.rules, r.movement, names=r.names, paper=paper)
    if kind == "table-cards":
        return printing.table_cards(r.movement, links=r.links, paper=paper)
    if kind == "pair-cards":
        return printing.pair_cards(r.movement, names=r.names, paper=paper)
    if r.document is None:
        raise PrintRefused(
            "The results sheet needs results: it can be printed once the first results count."
        )
    return printing.results_sheet(
        r.document,
        r.boards,
        r.rules,
        analyses=r.analyses,
        title=r.title,
        paper=paper,
        contracts=r.contracts,
        printed=r.printed,
    )


def document_filename(event: Event, kind: str) -> str:
    name = slugify(event.name) or "event"
    return f"{name}-{event.date:%Y-%m-%d}-{kind}.pdf"


def paper_check(paper: str) -> str:
    if paper not in Club.Paper.values:
        raise PrintRefused(f"Unknown paper {paper!r}: choose a4 or letter.")
    return paper


MAX_MINUTES_PER_BOARD = 20


def _club_setting_set(
    club: Club, field: str, value: object, action: str, event: Event | None, user: User
) -> Club:
    """Write one club setting, audited on the event it was changed from (if any)."""
    before = getattr(club, field)
    if before != value:
        Club.objects.filter(pk=club.pk).update(**{field: value})
        setattr(club, field, value)
        if event is not None:
            audit_record(
                event=event,
                user=user,
                action=action,
                target=f"club {club.slug}",
                before={field: before},
                after={field: value},
            )
    return club


@transaction.atomic
def club_pace_set(
    *, club: Club, minutes: int, event: Event | None = None, user: User = None
) -> Club:
    """Change how long a board takes at the club (the advisor's timings, the round clock)."""
    if isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES_PER_BOARD:
        raise PrintRefused(
            f"A board takes 1 to {MAX_MINUTES_PER_BOARD} minutes at a club, not {minutes}."
        )
    return _club_setting_set(club, "minutes_per_board", minutes, "club pace changed", event, user)


@transaction.atomic
def club_paper_set(
    *, club: Club, paper: str, event: Event | None = None, user: User = None
) -> Club:
    """Change the paper every document of the club is laid out for."""
    return _club_setting_set(club, "paper", paper_check(paper), "paper changed", event, user)


# ---- the print pack ---------------------------------------------------------------------


def print_pack_request(*, event: Event, user: User = None, base_url: str) -> PrintJob:
    """Start building the print pack, or return the pack already being built (a second click
    must not start a second job)."""
    return print_job_request(event=event, kind=PACK, user=user, base_url=base_url)


def print_job_request(*, event: Event, kind: str, user: User = None, base_url: str) -> PrintJob:
    """Start drawing the print pack (`kind` "pack") or one document in the background, or
    return the same job already under way. PrintRefused, with nothing queued, for a document
    that cannot be printed yet."""
    if kind != PACK:
        reason = {d.kind: r for d, r in print_documents(event)}.get(kind)
        if reason is None:
            raise PrintRefused(f"There is no document {kind!r}; choose one of {', '.join(KINDS)}.")
        if reason:
            title = KINDS[kind].title.lower()
            raise PrintRefused(
                f"The {title} cannot be printed yet: {reason[:1].lower()}{reason[1:]}"
            )
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        busy = (
            PrintJob.objects.filter(
                event=event,
                kind=kind,
                status__in=(PrintJob.Status.QUEUED, PrintJob.Status.RUNNING),
            )
            .filter(created_at__gte=timezone.now() - STALE_JOB)
            .defer("pdf")
            .first()
        )
        if busy is not None:
            return busy
        parts = len(DOCUMENTS) - (0 if has_counting_results(event) else 1)
        job = PrintJob.objects.create(
            event=event,
            kind=kind,
            paper=event.club.paper,
            base_url=base_url,
            total=parts if kind == PACK else 1,
            requested_by=actor(user),
        )
        action = "print pack requested" if kind == PACK else "document requested"
        target = f"job {job.pk}" if kind == PACK else f"job {job.pk}: {kind}"
        audit_record(event=event, user=user, action=action, target=target)
        transaction.on_commit(lambda: _start(job.pk), robust=True)
    return job


def _start(job_id: int) -> None:
    if settings.CELERY_EAGER:
        thread = threading.Thread(
            target=_run_in_thread, args=(job_id,), name=f"print-pack-{job_id}", daemon=True
        )
        thread.start()
        return
    jobs.send(jobs.BUILD_PRINT_PACK, job_id)


def _run_in_thread(job_id: int) -> None:
    try:
        print_job_build(job_id=job_id)
    except Exception:
        log.exception("print job %s failed", job_id)
    finally:
        close_old_connections()


def print_job_build(*, job_id: int) -> bool:
    """Build a queued job, a pack or one document; True when this call built it. A job
    already claimed by another worker (or done) is left alone, so a task delivered twice
    builds once."""
    claimed = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RUNNING, started_at=timezone.now(), step="reading the event"
    )
    if not claimed:
        return False
    job = PrintJob.objects.select_related("event__club").defer("pdf").get(pk=job_id)
    event = job.event

    def progress(done: int, total: int, label: str) -> None:
        PrintJob.objects.filter(pk=job_id).update(done=done, total=total, step=label)

    try:
        if job.kind == PACK:
            inputs = print_inputs(event, base_url=job.base_url)
            pdf = _pack(event, inputs, job.paper, progress)
        else:
            standings = job.kind == "results-sheet"
            inputs = print_inputs(event, base_url=job.base_url, with_standings=standings)
            progress(0, 1, f"drawing the {KINDS[job.kind].title.lower()}")
            pdf = _draw(event, inputs, job.kind, job.paper)
    except ValueError as exc:  # the engine's and ours: written for the director
        _fail(job_id, str(exc))
        return True
    except Exception:
        log.exception("print job %s (%s) of event %s failed", job_id, job.kind, event.pk)
        what = "print pack" if job.kind == PACK else KINDS[job.kind].title.lower()
        _fail(job_id, f"The {what} could not be drawn (an internal error, logged).")
        return True
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.Status.DONE,
        done=F("total"),
        pdf=pdf,
        fingerprint=inputs.fingerprint(job.paper),
        step="",
        finished_at=timezone.now(),
    )
    _prune(event, job.kind)
    return True


def _pack(
    event: Event, inputs: PrintInputs, paper: str, progress: printing.Progress | None
) -> bytes:
    _check_boards(event, inputs)
    return printing.print_pack(
        inputs.boards,
        inputs.rules,
        inputs.movement,
        document=inputs.document,
        analyses=inputs.analyses,
        names=inputs.names,
        links=inputs.links,
        title=inputs.title,
        paper=paper,
        progress=progress,
        contracts=inputs.contracts,
        printed=inputs.printed,
    )


def print_pack_now(
    event: Event,
    *,
    base_url: str,
    paper: str | None = None,
    progress: printing.Progress | None = None,
) -> bytes:
    """The print pack built here and now (the command line; the page uses the job)."""
    paper = paper_check(paper or event.club.paper)
    return _pack(event, print_inputs(event, base_url=base_url), paper, progress)


def _fail(job_id: int, message: str) -> None:
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.Status.FAILED, error=message, step="", finished_at=timezone.now()
    )


def _prune(event: Event, kind: str) -> None:
    done = PrintJob.objects.filter(event=event, kind=kind, status=PrintJob.Status.DONE)
    keep = KEEP_PACKS if kind == PACK else KEEP_DOCUMENTS
    old = list(done.order_by("-finished_at", "-id").values_list("pk", flat=True)[keep:])
    if old:
        PrintJob.objects.filter(pk__in=old).delete()


def latest_print_job(event: Event) -> PrintJob | None:
    """The newest print pack job."""
    jobs = PrintJob.objects.filter(event=event, kind=PACK).defer("pdf")
    return jobs.order_by("-created_at", "-id").first()


def latest_document_jobs(event: Event) -> dict[str, PrintJob]:
    """The newest job of each document drawn by a job, by kind."""
    newest: dict[str, PrintJob] = {}
    jobs = PrintJob.objects.filter(event=event).exclude(kind=PACK).defer("pdf")
    for job in jobs.order_by("-created_at", "-id"):
        newest.setdefault(job.kind, job)
    return newest


def print_job_state(job: PrintJob, *, current: Callable[[], str] | None = None) -> dict[str, Any]:
    """What the page's progress bar and the API show. `current` gives the event's fingerprint
    now, asked only of a finished pack, to say whether it is out of date."""
    state: dict[str, Any] = {
        "id": job.pk,
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "step": job.step,
        "paper": job.paper,
        "error": job.error or None,
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "out_of_date": None,
    }
    if job.status == PrintJob.Status.DONE and current is not None:
        state["out_of_date"] = current() != job.fingerprint
    return state


def current_fingerprint(event: Event, *, paper: str, base_url: str) -> str:
    return print_inputs(event, base_url=base_url, with_standings=False).fingerprint(paper)
