"""The tests' one-statement row counts (tests/support/rows.py) agree with the ORM's, and see a
row written: the "stores nothing" checks of the import walks rest on them."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from tests.support.rows import row_counts
from tournaments.kernel.clubs import club_get_or_create
from tournaments.kernel.models import Club, Member

pytestmark = pytest.mark.django_db


def test_row_counts_equal_the_orms_and_move_with_a_write() -> None:
    club = club_get_or_create(name="Counting Whist Club")
    Member.objects.create(club=club, name="Ann Archer")
    tables = [*apps.get_app_config("tournaments").get_models(), User, Club.directors.through]
    before = row_counts(tables)
    assert before == {m._meta.label: m._default_manager.count() for m in tables}
    assert before["tournaments.Member"] == 1
    Member.objects.create(club=club, name="Bill Bennett")
    after = row_counts(tables)
    assert after["tournaments.Member"] == 2
    assert {k: v for k, v in after.items() if k != "tournaments.Member"} == {
        k: v for k, v in before.items() if k != "tournaments.Member"
    }
