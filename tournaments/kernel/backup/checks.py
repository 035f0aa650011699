"""Checks every format's reader makes of a document's rows, beyond what the model knows.

`rows` checks each value against its model (type, length, range, what a database can store);
these check what the model cannot know and every format has: a name's characters, a number the
document's own settings rule out, a tablet link's token and table, a row's id listed twice.
Each refusal names the row and the field. What only one format checks is in its own reader
(`<format>.services.backup_parse`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from engine.names import name_problem
from tournaments.kernel.backup.rows import check_unique
from tournaments.kernel.backup.schema import Model, RestoreRefused
from tournaments.kernel.links import TableLink

#: A tablet link's token as the app makes them (`secrets.token_urlsafe`): it goes into links
#: and QR codes, so anything else would make pages that cannot be drawn.
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def check_names(row: Any, columns: tuple[str, ...], where: str) -> None:
    """The one rule for names (`engine.names`) on a row read from a document: a control
    character or an over-long name refuses the document, naming the row and the field; the
    name is otherwise kept exactly as the document has it."""
    for column in columns:
        value = getattr(row, column)
        problem = name_problem(value, type(row)._meta.get_field(column).max_length)
        if problem is not None:
            raise RestoreRefused(f"{where}, {column.replace('_', ' ')}: {problem}.")


def check_range(value: int, low: int, high: int | None, where: str, what: str) -> None:
    """A whole number the model takes but the document cannot (a round past the last one, a
    board numbered 0), refused naming the field."""
    if value < low or (high is not None and value > high):
        upto = f" to {high}" if high is not None else " or more"
        raise RestoreRefused(f"{where}: {what} should be {low}{upto}, not {value}.")


def check_token(token: str, where: str) -> None:
    """A tablet link's token as the app makes them (`TOKEN`)."""
    if not TOKEN.fullmatch(token):
        raise RestoreRefused(
            f"{where}: token {token!r} is not a tablet token (8 to 64 letters, digits, '-' and "
            "'_')."
        )


def check_live(link: TableLink, live: set[int], said: str) -> None:
    """At most one live (not revoked) link a table; `said` names the table in the refusal."""
    if link.revoked_at is None:
        if link.table in live:
            raise RestoreRefused(f"{said} has two live tablet links.")
        live.add(link.table)


def check_links(links: list[Any], owner: str, tables: int, has: str) -> None:
    """A drive's or a tournament's tablet links (`owner`: "The drive"): each for one of its
    `tables` (`has` says them in the refusal), with a token as the app makes them, at most one
    live a table, no token twice."""
    live: set[int] = set()
    for i, link in enumerate(links, start=1):
        where = f"{owner}'s tablet link {i}"
        if not 1 <= link.table <= tables:
            raise RestoreRefused(f"{where} is for table {link.table}; {has}.")
        check_token(link.token, where)
        check_live(link, live, f"{owner}'s table {link.table}")
    check_unique(
        ((link.token, f"table {link.table}'s link") for link in links),
        "tablet link",
        f"{owner} document",
    )


def check_ids_once(rows: Iterable[tuple[Model, list[Any]]], document: str) -> None:
    """No id twice among a model's rows of the document (`document`: "the drive document")."""
    for model, listed in rows:
        ids = [r.pk for r in listed if r.pk is not None]
        if len(set(ids)) != len(ids):
            twice = next(pk for pk in ids if ids.count(pk) > 1)
            raise RestoreRefused(
                f"Two {model._meta.verbose_name_plural} of {document} have the id {twice}."
            )
