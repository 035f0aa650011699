"""Hot queries whose SQL Django builds once per database connection, not once per call.

Why: a rescore runs a few small queries after every burst of results, and for a query that
reads a few rows Django spends about as long turning the QuerySet into SQL (resolving the
lookups, the joins, the columns: 0.2-0.3 ms on the project's machine) as the database spends
answering it; under 300 tablets that building was some 15 % of a web process's time. The SQL
of such a query never changes, only its values. So, as SQLAlchemy caches its compiled
statements, a `Prepared` query is built by Django once per connection (each thread has its
own), with markers in the place of the values that change, and later calls send that SQL
with their own values.

It sends exactly what Django would (the same text, the same constant values, the backend's
own conversions of what comes back), so it answers as the QuerySet it was built from. Only
what guarantees that is accepted; the first call refuses the rest (`PreparedQueryError`):
- each changing value a whole number compared as given (an id, a table, a round). The query
  is built twice with two sets of markers: the SQL must come out the same, and the values
  differ exactly where the markers are, each in one place;
- a values list (flat or not), or a model's own columns (no select_related, annotations or
  deferred fields).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.query import FlatValuesListIterable, ModelIterable, ValuesListIterable
from django.db.models.sql.compiler import SQLCompiler

Row = TypeVar("Row")

#: The two sets of markers a query is built with: values its columns can hold (a positive
#: small integer's range included: Django drops a comparison with a value out of the column's
#: range), told apart from each other and from one build to the other.
_MARKERS = (30_001, 30_401)


@dataclass(frozen=True)
class _Built:
    """One connection's build of a query: its SQL, its values with the changing values'
    places, how to convert what comes back, and how to make the results."""

    sql: str
    values: tuple[Any, ...]
    places: tuple[int, ...]  # where each changing value goes among `values`
    compiler: SQLCompiler
    converters: dict[int, Any]
    shape: str  # "tuple", "flat" (the first column) or "model"
    model: type[Model]
    columns: tuple[str, ...]  # a model query's attribute names, in the row's order


class PreparedQueryError(ValueError):
    """The query cannot be prepared safely: it is to be run as a plain QuerySet."""


class Prepared(Generic[Row]):
    """`build(*values)` returns the QuerySet; `prepared(*values)` runs it and returns the list
    it would have, built into SQL only the first time on each connection for each number of
    values (a build may take any number, for `__in=values`)."""

    def __init__(self, build: Callable[..., QuerySet[Any, Row]], *, using: str = "default"):
        self.build = build
        self.using = using
        self._built: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[int, _Built]] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self, *values: int) -> list[Row]:
        for value in values:
            if type(value) is not int:
                raise PreparedQueryError(f"a prepared query takes whole numbers, not {value!r}")
        connection = connections[self.using]
        kept = self._built.get(connection)
        if kept is None:
            kept = self._built[connection] = {}
        built = kept.get(len(values))
        if built is None:
            built = kept[len(values)] = self._prepare(connection, len(values))
        params = list(built.values)
        for place, value in zip(built.places, values, strict=True):
            params[place] = value
        with connection.cursor() as cursor:
            cursor.execute(built.sql, params)
            rows: Sequence[Any] = cursor.fetchall()
        if built.converters:
            rows = list(built.compiler.apply_converters(rows, built.converters))
        if built.shape == "flat":
            return [row[0] for row in rows]
        if built.shape == "tuple":
            return [tuple(row) for row in rows]  # type: ignore[misc]
        model, columns, db = built.model, built.columns, self.using
        return [model.from_db(db, columns, row) for row in rows]  # type: ignore[misc]

    def _compiled(
        self, connection: BaseDatabaseWrapper, markers: list[int]
    ) -> tuple[QuerySet[Any, Row], SQLCompiler, str, tuple[Any, ...]]:
        queryset = self.build(*markers)
        if queryset.db != self.using:
            raise PreparedQueryError("the query must read the prepared query's database")
        compiler = queryset.query.get_compiler(connection=connection)
        sql, values = compiler.as_sql()
        return queryset, compiler, sql, tuple(values)

    def _prepare(self, connection: BaseDatabaseWrapper, count: int) -> _Built:
        """Build the query twice, with two sets of markers: the SQL must come out the same and
        the values differ exactly where the markers are, each marker in one place."""
        first = [_MARKERS[0] + i for i in range(count)]
        second = [_MARKERS[1] + i for i in range(count)]
        queryset, compiler, sql, values = self._compiled(connection, first)
        _, _, sql_again, values_again = self._compiled(connection, second)
        differ = [
            i
            for i, pair in enumerate(zip(values, values_again, strict=False))
            if pair[0] != pair[1]
        ]
        places = tuple(values.index(marker) if marker in values else -1 for marker in first)
        if (
            sql != sql_again
            or len(values) != len(values_again)
            or sorted(places) != differ
            or any(
                values_again[place] != marker for place, marker in zip(places, second, strict=True)
            )
        ):
            raise PreparedQueryError(
                "each value of a prepared query must be compared once, as it is given"
            )
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        converters = compiler.get_converters(fields)
        model = queryset.model
        columns: tuple[str, ...] = ()
        iterable = queryset._iterable_class  # how rows become results
        if iterable is ModelIterable:
            shape = "model"
            columns = tuple(
                getattr(getattr(field, "target", None), "attname", "") for field in fields
            )
            if (
                columns != tuple(f.attname for f in model._meta.concrete_fields)
                or compiler.klass_info is None
                or compiler.klass_info.get("related_klass_infos")
                or compiler.annotation_col_map
            ):
                raise PreparedQueryError("a prepared model query reads the model's columns only")
        elif iterable is ValuesListIterable:
            shape = "tuple"
        elif iterable is FlatValuesListIterable:
            shape = "flat"
        else:
            raise PreparedQueryError("a prepared query is a values_list or a model query")
        return _Built(sql, values, places, compiler, converters, shape, model, columns)


def quoted_names(model: type[Model], alias: str, *fields: str) -> tuple[str, ...]:
    """The model's table, its primary key's column and each of `fields`' columns, quoted for
    the database `alias`: for the few hot writes whose SQL is written once by hand instead of
    built by Django on every call (an UPDATE, which `Prepared` does not take)."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    columns = []
    for name in fields:
        field = meta.get_field(name)
        if not isinstance(field, Field):
            raise PreparedQueryError(f"{name} is a relation, not a column of {meta.db_table}")
        columns.append(quote(str(field.column)))
    key = meta.pk.column if meta.pk is not None else "id"
    return (quote(meta.db_table), quote(str(key)), *columns)
