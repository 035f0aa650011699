"""Checks of single values of an event document against the event they belong to.

The kernel checks each value against its model and what every format checks (a name's
characters, a number out of range, a tablet token: `tournaments.kernel.backup`); these check
what only an event has: a stored analysis that is not the board's, a table the section does
not have, a result that is not where the movement puts it or does not score as its entry
scores. Each refusal names the row and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dd.stored import analysis_problem
from engine.scoring import pair_key, parse_artificial
from tournaments.events.bridge import as_int_score
from tournaments.events.models import Board, MovementRow, Result, Section
from tournaments.kernel.backup.schema import RestoreRefused


def check_par(board: Board, deal: Any, rules: Any, where: str) -> None:
    """The stored analysis, as the engine writes it (`engine.dd.stored`), and as its status
    says: computed means a par, failed means none or an error; waiting ones may keep an old
    failed one (asked again after a failure)."""
    par = board.par
    if par is None:
        if board.par_status == Board.ParStatus.DONE:
            raise RestoreRefused(f"{where}: par is missing, but its par_status says computed.")
        return
    problem = analysis_problem(par, deal, rules)
    if problem is not None:
        raise RestoreRefused(f"{where}: par is not an analysis of the board: {problem}.")
    done = par["error"] is None and par["par"] is not None
    if (board.par_status == Board.ParStatus.DONE) != done:
        raise RestoreRefused(
            f"{where}: par {'holds' if done else 'does not hold'} a computed analysis, but its "
            f"par_status says {board.par_status!r}."
        )


def check_table(section: Section, table: int, what: str) -> None:
    if not 1 <= table <= section.tables:
        raise RestoreRefused(f"{what} table {table}; the section has tables 1-{section.tables}.")


def check_result(
    result: Result,
    section: Section,
    rows: Mapping[tuple[int, int], MovementRow],
    deals: Mapping[int, Any],
    rules: Any,
    played: set[tuple[int, str]],
    spot: str,
) -> None:
    """A result where the movement puts it, between the pairs it seats there, scored as its
    entry scores under the game's rules, at most one per pair and board."""
    row = rows.get((result.round, result.table))
    if row is None:
        raise RestoreRefused(f"{spot}: the movement has no table {result.table} in that round.")
    if result.board_number not in section.boards_of_set(row.board_set):
        sets = section.boards_of_set(row.board_set)
        raise RestoreRefused(
            f"{spot}: that table plays boards {sets.start}-{sets.stop - 1} in that round."
        )
    for pair, number, seat in (
        (result.ns_pair, row.ns_pair, "NS"),
        (result.ew_pair, row.ew_pair, "EW"),
    ):
        seated = section.pair_key(number, seat)
        key = pair_key(pair.number, pair.direction or None)
        if key != seated:
            raise RestoreRefused(f"{spot}: {seat} is pair {key}, the movement seats {seated}.")
        if (result.board_number, key) in played:
            raise RestoreRefused(f"{spot}: pair {key} has another result on that board.")
        played.add((result.board_number, key))
    artificial = result.status == Result.Status.ARTIFICIAL
    if not artificial and result.entry is None:
        raise RestoreRefused(
            f"{spot}: entry is missing: a {result.status} result's score comes from its entry."
        )
    if artificial != (result.ns_score is None) or artificial == (result.artificial_code == ""):
        raise RestoreRefused(
            f"{spot}: an artificial result has an artificial_code and no ns_score, any other "
            f"result an ns_score and no code (status {result.status}, ns_score "
            f"{result.ns_score}, artificial_code {result.artificial_code!r})."
        )
    if artificial:
        try:
            parse_artificial(result.artificial_code)
        except ValueError as exc:
            raise RestoreRefused(f"{spot}: artificial_code: {exc}") from None
    if result.entry is not None:
        deal = deals[result.board_number]
        try:
            if not isinstance(result.entry, dict):
                raise TypeError(f"an entry is an object, not {result.entry!r}")
            parsed = rules.parse_entry(deal, result.entry)
            written = rules.entry_to_dict(parsed)
            score = as_int_score(rules.ns_score(deal, parsed))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise RestoreRefused(f"{spot}: the game refuses its entry: {exc}") from None
        if written != result.entry:
            # Every entry is stored as the game writes it; anything else was made elsewhere.
            raise RestoreRefused(
                f"{spot}: its entry {result.entry!r} is not as the game writes it ({written!r})."
            )
        if not artificial and score != result.ns_score:
            raise RestoreRefused(
                f"{spot}: its entry scores {score} for NS under the game's rules, the document "
                f"says ns_score {result.ns_score}."
            )
