"""Board analysis: double-dummy tricks and par for every board of an event, in the background.

The director asks once; every board not yet analysed is marked queued and one job works through
them, saving each board as soon as it is done, so the progress bar moves board by board and a
job that dies half-way resumes where it stopped (done boards are never solved twice; the engine
also caches by deal). With Redis the job runs in a Celery worker; without it (`make run`) it runs
in a thread of the web process, so the page stays responsive either way.

The job solves ANALYSIS_THREADS boards at once, hardest first (`engine.dd.analysis.
hardest_first`: a guess from the deal, no search), so both cores work and the last board to
finish is a short one; the threads only compute, this module's own thread reads and saves.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections, transaction

from engine.boards import Board as EngineBoard
from engine.dd.analysis import BoardAnalysis, analyse_boards, hardest_first, par_summary
from engine.dd.analysis import table as dd_table
from engine.dd.position import DDInputError
from engine.games.base import GameRules
from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import Board, Event, Section
from tournaments.events.selectors.tablet_cache import tables_changed
from tournaments.events.services.audit import audit_record
from tournaments.events.services.scoring import results_changed
from tournaments.kernel import jobs
from tournaments.kernel.audit import User

log = logging.getLogger(__name__)

T = TypeVar("T")

ANALYSIS_THREADS = 2
"""Boards solved at once by one job: one per core of the club's 2-core machine. The solver's C
core lets go of Python's lock while it searches (nearly all of the time), so threads use both
cores."""


def boards_analyse_request(*, event: Event, user: User = None) -> int:
    """Queue every board without a par for analysis; returns how many were queued."""
    with transaction.atomic():
        queued = (
            Board.objects.filter(event=event)
            .exclude(par_status=Board.ParStatus.DONE)
            .update(par_status=Board.ParStatus.QUEUED)
        )
        if queued:
            audit_record(
                event=event, user=user, action="analysis requested", target=f"{queued} boards"
            )
            transaction.on_commit(lambda: _start(event.pk), robust=True)
    return queued


def _start(event_id: int) -> None:
    if settings.CELERY_EAGER:
        thread = threading.Thread(
            target=_run_in_thread, args=(event_id,), name=f"analyse-{event_id}", daemon=True
        )
        thread.start()
        return
    jobs.send(jobs.ANALYSE_EVENT_BOARDS, event_id)


def _run_in_thread(event_id: int) -> None:
    try:
        boards_analyse(event_id=event_id)
    except Exception:
        log.exception("board analysis of event %s failed", event_id)
    finally:
        close_old_connections()


def boards_analyse(*, event_id: int) -> int:
    """Analyse the event's queued boards, ANALYSIS_THREADS at a time, hardest first; returns how
    many were done now.

    Safe to run again after a crash (only boards still queued are solved) and harmless if two
    jobs overlap: a board is started only while it is still queued and saved by an UPDATE
    filtered on "still queued", so the second job's identical answer is simply not written.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    rules = rules_for(event)
    # Every board keeps its double-dummy table for the hand records, the board page and (Bid
    # Whist) the "are you sure?" check. Unless par is read off it (Candid Whist), the table
    # comes in a second pass (boards_tables_fill) once every board has its par: it costs
    # several times par in most games (an Open Whist evening's par took 63 s with its tables
    # beside it, against 9 s alone), and par is what the director is waiting for.
    later = not rules.par_uses_table
    rows = {
        board.number: board
        for board in Board.objects.filter(event=event, par_status=Board.ParStatus.QUEUED)
    }

    def queued(row: Board) -> bool:  # else another job finished it meanwhile
        return Board.objects.filter(pk=row.pk, par_status=Board.ParStatus.QUEUED).exists()

    done = _in_threads(
        rows,
        rules,
        solve=lambda board: _analyse(board, rules, not later),
        save=_save,
        name=f"par-{event_id}",
        wanted=queued,
    )
    if later:
        boards_tables_fill(event=event)
    return done


def _in_threads(
    rows: dict[int, Board],
    rules: GameRules,
    *,
    solve: Callable[[EngineBoard], T],
    save: Callable[[Board, T], bool | None],
    name: str,
    wanted: Callable[[Board], bool] = lambda row: True,
) -> int:
    """Solve the boards of `rows` (by number) ANALYSIS_THREADS at a time, hardest first: the
    threads only compute (`solve`, the engine alone), this thread saves each answer as it
    comes (`save`, which may say False: nothing was saved) and starts the next board. A board
    no longer `wanted` when its turn comes is skipped. Returns how many were saved."""
    todo = iter(hardest_first((engine_board(row) for row in rows.values()), rules))
    saved = 0
    with ThreadPoolExecutor(ANALYSIS_THREADS, thread_name_prefix=name) as pool:
        running: dict[Future[T], Board] = {}

        def start_next() -> None:
            for board in todo:
                row = rows[board.number]
                if wanted(row):
                    running[pool.submit(solve, board)] = row
                    return

        for _ in range(ANALYSIS_THREADS):
            start_next()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                row = running.pop(future)
                if save(row, future.result()) is not False:
                    saved += 1
                start_next()
    return saved


def _analyse(board: EngineBoard, rules: GameRules, with_table: bool) -> BoardAnalysis:
    """One board's analysis, in a worker thread: the engine only, no database."""
    return analyse_boards([board], rules, with_table=with_table)[0]


def _save(row: Board, analysis: BoardAnalysis) -> None:
    """Store a board's analysis with its one-line summary, unless another job stored it first."""
    data = analysis.to_dict()
    failed = analysis.error is not None or analysis.par is None
    data["summary"] = par_summary(data) if not failed else analysis.error
    Board.objects.filter(pk=row.pk, par_status=Board.ParStatus.QUEUED).update(
        par=data,
        par_status=Board.ParStatus.FAILED if failed else Board.ParStatus.DONE,
    )
    boards_analysed(row.event_id)


def boards_analysed(event_id: int) -> None:
    """The tablets' copies of the event's boards are retired (`section_snapshot`): the "are
    you sure?" check of a result reads the board's par. An update sends no signal.
    `.order_by()`: Section's default ordering would join the event table, and a statement
    that locks two tables one after the other can deadlock with one that locks them all (a
    test's flush, while a worker still stores a par)."""
    tables_changed(
        Section.objects.filter(event_id=event_id).order_by().values_list("pk", flat=True)
    )


def boards_tables_fill(*, event: Event) -> int:
    """Add the double-dummy table to analysed boards that lack it: the second pass, after
    every board has its par (`boards_analyse`), ANALYSIS_THREADS boards at a time, hardest
    first. The solver's work on par is shared through the deal cache. Returns how many tables
    were added; safe to rerun, and harmless beside another job (a table is written only to a
    board still without one)."""
    rules = rules_for(event)
    rows = {
        board.number: board
        for board in Board.objects.filter(event=event, par_status=Board.ParStatus.DONE)
        if isinstance(board.par, dict) and not board.par.get("table")
    }

    def save(row: Board, found: dict[str, Any] | None) -> bool:
        if found is None:
            return False
        fresh = Board.objects.filter(pk=row.pk).values_list("par", flat=True).first()
        if not isinstance(fresh, dict) or fresh.get("table"):
            return False  # another job filled it meanwhile
        Board.objects.filter(pk=row.pk).update(par={**fresh, "table": found})
        boards_analysed(event.pk)
        return True

    added = _in_threads(
        rows, rules, solve=lambda board: _table(board, rules), save=save, name=f"table-{event.pk}"
    )
    if added:
        # The pages' snapshots are keyed by the results version and the count of analysed
        # boards, which a table does not change: move the version on, so the boards' double-
        # dummy tables and the score cards' "v par" appear.
        results_changed(event=event)
    return added


def _table(board: EngineBoard, rules: GameRules) -> dict[str, Any] | None:
    """One board's double-dummy table, in a worker thread: the engine only, no database."""
    try:
        return dd_table(board, rules)
    except DDInputError:
        return None


def analysis_progress(event: Event) -> dict[str, Any]:
    """How far the par job has got, for the event page's bar, and each board's par so far
    (its one-line summary, or why it failed), by board number: the page lists them as they
    arrive, so the director sees each board's par without waiting for the whole set."""
    counts = dict.fromkeys(Board.ParStatus.values, 0)
    pars = []
    for number, status, summary in (
        Board.objects.filter(event=event)
        .order_by("number")
        .values_list("number", "par_status", "par__summary")
    ):
        counts[status] += 1
        if status in (Board.ParStatus.DONE, Board.ParStatus.FAILED):
            pars.append(
                {
                    "board": number,
                    "summary": str(summary or ""),
                    "failed": status == Board.ParStatus.FAILED,
                }
            )
    total = sum(counts.values())
    return {
        "total": total,
        "done": counts[Board.ParStatus.DONE],
        "failed": counts[Board.ParStatus.FAILED],
        "queued": counts[Board.ParStatus.QUEUED],
        "not_requested": counts[Board.ParStatus.NONE],
        "pars": pars,
    }
