"""Row counts of many tables in one statement, for the tests that check a refusal stored nothing
(the import walks, the uploads, the format imports, the member links' backup).

A COUNT a table through the ORM is a round trip a model, some fifty for the app's tables:
counted after each of the import walk's 900 bad values, that was half the walk's time. One
SELECT of a scalar subquery a table answers the same in one trip. Every model here keeps
Django's plain default manager, so the whole table is what the ORM counted
(tests/web/services/test_row_counts.py checks the two agree).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, models


def row_counts(tables: Iterable[type[models.Model]]) -> dict[str, int]:
    """Each model's row count, by its label ("tournaments.Event")."""
    chosen = list(tables)
    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in chosen)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")  # the tables are the models', quoted
        row = cursor.fetchone()
    return {m._meta.label: int(n) for m, n in zip(chosen, row, strict=True)}
