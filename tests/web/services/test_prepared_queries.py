"""A prepared query (`clubwhist.queries.Prepared`) answers exactly as the QuerySet it was built
from, sends the same SQL, is built once per connection, and refuses what it cannot keep
exact."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Count, Q
from django.test.utils import CaptureQueriesContext

from clubwhist.queries import Prepared, PreparedQueryError
from tests.web.conftest import make_event
from tournaments.events.models import Pair, Result, Section
from tournaments.events.services.simulation import event_simulate
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def played(club: Club, director: Any) -> Section:
    event = make_event(club, user=director, params={"tables": 4, "boards_per_round": 2})
    event_simulate(event=event, seed=5, batch=True)
    return event.sections.get()


def plain(row: Any) -> dict[str, Any]:
    return {key: value for key, value in vars(row).items() if key != "_state"}


def test_values_and_flat_values_match_the_queryset(club: Club, director: Any) -> None:
    section = played(club, director)

    def lines(section_id: int, rnd: int) -> Any:
        return (
            Result.objects.filter(section_id=section_id, round=rnd)
            .order_by("board_number", "table")
            .values_list("board_number", "table", "status", "ns_score", "entry")
        )

    prepared = Prepared(lines)
    for rnd in (1, 2, 3):
        assert prepared(section.pk, rnd) == list(lines(section.pk, rnd))
    assert prepared(section.pk, 99) == []
    numbers = Prepared(
        lambda section_id: (
            Pair.objects.filter(section_id=section_id)
            .order_by("-number")
            .values_list("number", flat=True)
        )
    )
    expected = list(
        Pair.objects.filter(section=section).order_by("-number").values_list("number", flat=True)
    )
    assert numbers(section.pk) == expected
    assert len(expected) > 4


def test_model_rows_match_the_querysets_instances(club: Club, director: Any) -> None:
    section = played(club, director)

    def own(section_id: int, table: int) -> Any:
        return Result.objects.filter(section_id=section_id, table=table).order_by("pk")

    prepared = Prepared(own)
    for table in (1, 2, 4):
        got, expected = prepared(section.pk, table), list(own(section.pk, table))
        assert [plain(r) for r in got] == [plain(r) for r in expected]
        assert got  # every table played
        # Converted as Django converts them: the entry's JSON, the times as datetimes.
        assert all(isinstance(r.entry, dict) and r.created_at.tzinfo for r in got)
        assert all(not r._state.adding and r._state.db == "default" for r in got)


def test_the_sql_is_django_s_and_is_built_once_per_connection(club: Club, director: Any) -> None:
    section = played(club, director)

    def counted(section_id: int) -> Any:
        return Result.objects.filter(section_id=section_id).order_by().values_list("pk")

    prepared = Prepared(counted)
    with CaptureQueriesContext(connection) as ours:
        prepared(section.pk)
        prepared(section.pk)
    with CaptureQueriesContext(connection) as django:
        list(counted(section.pk))
    assert [q["sql"] for q in ours.captured_queries] == [django.captured_queries[0]["sql"]] * 2
    assert [len(kept) for kept in prepared._built.values()] == [1]


def test_a_list_of_values_is_built_once_for_each_length(club: Club, director: Any) -> None:
    section = played(club, director)

    def tables(section_id: int, rnd: int, *numbers: int) -> Any:
        return (
            Result.objects.filter(section_id=section_id, round=rnd, table__in=numbers)
            .order_by("table", "board_number")
            .values_list("table", "status")
        )

    prepared = Prepared(tables)
    for numbers in [(1,), (2, 4), (3,), (4, 1), (1, 2, 3, 4), (1, 1)]:
        assert prepared(section.pk, 2, *numbers) == list(tables(section.pk, 2, *numbers))
        assert {table for table, _ in prepared(section.pk, 2, *numbers)} == set(numbers)
    # Built for 3, 4 and 6 values (the section, the round and 1, 2 or 4 tables).
    assert sorted(next(iter(prepared._built.values()))) == [3, 4, 6]


@pytest.mark.parametrize(
    ("build", "why"),
    [
        # The one value compared twice: which place gets which call's value is not knowable.
        (
            lambda pair: Result.objects.filter(Q(ns_pair_id=pair) | Q(ew_pair_id=pair)),
            "compared once",
        ),
        (
            lambda section: Result.objects.filter(section_id=section).select_related("ns_pair"),
            "columns",
        ),
        (
            lambda section: Pair.objects.filter(section_id=section).annotate(n=Count("id")),
            "columns",
        ),
        (lambda section: Pair.objects.filter(section_id=section).only("number"), "columns"),
        (lambda section: Pair.objects.filter(section_id=section).values("number"), "values_list"),
    ],
)
def test_what_cannot_be_kept_exact_is_refused(club: Club, build: Any, why: str) -> None:
    with pytest.raises(PreparedQueryError, match=why):
        Prepared(build)(1)


def test_only_whole_numbers_are_taken(club: Club) -> None:
    prepared = Prepared(lambda pk: Club.objects.filter(pk=pk).values_list("name", flat=True))
    assert prepared(club.pk) == [club.name]
    for wrong in ("1", 1.0, True, None):
        with pytest.raises(PreparedQueryError, match="whole numbers"):
            prepared(wrong)  # type: ignore[arg-type]
