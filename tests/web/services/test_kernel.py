"""The kernel every format shares: one error base with one status per refusal, one table-link
base, one audit writer, one rule for who directs what (docs/development/architecture.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from rest_framework.test import APIRequestFactory

from tests.support.loops import run_apart
from tournaments.drives.models import Drive, DriveAudit, DriveTableAccess
from tournaments.drives.services.base import DriveRefused
from tournaments.drives.services.tablets import DriveTableConflict
from tournaments.events.models import AuditEntry, Event, TableAccess
from tournaments.events.services.corrections import CorrectionConflict
from tournaments.events.services.events import EventError
from tournaments.events.services.printing import PrintRefused
from tournaments.events.services.results import ResultConflict, ResultError, TravellerError
from tournaments.events.services.tablets import (
    KeyOfAnotherTable,
    TableClosed,
    TableForbidden,
    TableLinkReplaced,
    TableLinkUnknown,
)
from tournaments.files.exports import ImportRefused
from tournaments.kernel import live
from tournaments.kernel.api import errors
from tournaments.kernel.audit import audit_write
from tournaments.kernel.backup.schema import RestoreRefused
from tournaments.kernel.directors import directed, directs_club
from tournaments.kernel.links import TableLink
from tournaments.kernel.member_csv import MembersFileRefused
from tournaments.kernel.member_links import LinkRefused
from tournaments.kernel.members import MembersRefused
from tournaments.kernel.models import Club
from tournaments.kernel.names import RuleRefused
from tournaments.kernel.numbers import NumberRefused
from tournaments.kernel.people import (
    InvitationClosed,
    LastDirector,
    PeopleRefused,
    PersonMissing,
)
from tournaments.kernel.refusals import STATUS, Kind, Refused, refusal_classes
from tournaments.kernel.streams import state_events
from tournaments.kernel.table_gate import TableWritesClosed
from tournaments.seasons.services.ledger import UnknownFormat
from tournaments.seasons.services.seasons import SeasonRefused
from tournaments.teams.models import TournamentTableAccess
from tournaments.teams.services.input import TeamsRefused
from tournaments.teams.services.tablets import TeamsDiffer

ROOT = Path(__file__).resolve().parents[3]

#: Every refusal of the app and the one status the API answers it with.
REFUSALS: dict[type[Refused], int] = {
    Refused: 400,
    RuleRefused: 400,
    EventError: 400,
    DriveRefused: 400,
    DriveTableConflict: 409,
    TeamsRefused: 400,
    TeamsDiffer: 409,
    ResultError: 400,
    ResultConflict: 409,
    CorrectionConflict: 409,
    TravellerError: 400,
    TableForbidden: 403,
    TableLinkReplaced: 403,
    TableLinkUnknown: 404,
    TableClosed: 409,
    KeyOfAnotherTable: 409,
    TableWritesClosed: 409,
    ImportRefused: 400,
    PrintRefused: 400,
    RestoreRefused: 400,
    NumberRefused: 400,
    MembersRefused: 400,
    UnknownFormat: 400,
    LinkRefused: 400,
    MembersFileRefused: 400,
    SeasonRefused: 400,
    PeopleRefused: 400,
    LastDirector: 409,
    PersonMissing: 404,
    InvitationClosed: 409,
}


def test_every_refusal_class_is_in_the_table_with_its_one_status() -> None:
    assert set(refusal_classes()) == set(REFUSALS)
    assert {cls: int(STATUS[cls.kind]) for cls in REFUSALS} == REFUSALS


def test_every_kind_has_a_status() -> None:
    assert set(STATUS) == set(Kind)


def test_no_error_class_of_the_app_bypasses_the_kernel_base() -> None:
    """A new `class X(ValueError)` (or `Exception`) in the app would be mapped by no one:
    derive it from the kernel's `Refused` instead. Lookups (`LookupError`) are not refusals:
    the views turn them into 403 or 404 themselves."""
    bypassing = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
                if bases & {"ValueError", "Exception"} and node.name != "Refused":
                    bypassing.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert bypassing == []


#: A result conflict's answer carries the stored result it contradicts, which a bare
#: instance has not: tests/web/api/test_tablet_api.py and test_api.py check those answers.
PLAIN = {cls: code for cls, code in REFUSALS.items() if not issubclass(cls, ResultConflict)}


@pytest.mark.parametrize(("cls", "code"), list(PLAIN.items()))
def test_the_api_answers_each_refusal_with_its_status(cls: type[Refused], code: int) -> None:
    exc = cls.__new__(cls)
    Exception.__init__(exc, "Not now.")
    answer = errors.exception_handler(exc, {"view": None})
    assert answer is not None
    assert answer.status_code == code
    assert answer.data == {"detail": "Not now."}


def test_the_three_table_link_tables_share_the_kernel_base() -> None:
    shared = {"table", "token", "created_at", "revoked_at"}
    for model in (TableAccess, DriveTableAccess, TournamentTableAccess):
        assert issubclass(model, TableLink)
        assert shared <= {field.name for field in model._meta.concrete_fields}
    assert str(DriveTableAccess(table=3)) == "Drive table 3 link"
    assert str(TableAccess(table=2)) == "Table 2 link"


@pytest.mark.django_db
def test_one_audit_writer_serves_every_format(club: Club, running_event: Event) -> None:
    director = get_user_model().objects.create_user("ann")
    drive = Drive.objects.create(club=club, name="Drive", settings={})
    drive_row = audit_write(DriveAudit, drive=drive, user=director, action="a", target="t")
    event_row = audit_write(
        AuditEntry,
        event=running_event,
        user=director,
        action="a",
        target="t",
        before={"when": running_event.date},
        user_name="",
    )
    assert drive_row.user == director and drive_row.user_name == "ann"
    assert event_row.user_name == "" and event_row.before == {"when": str(running_event.date)}


@pytest.mark.django_db
def test_who_directs_what_is_one_rule(club: Club, running_event: Event) -> None:
    users = get_user_model().objects
    director, stranger = users.create_user("dir"), users.create_user("stranger")
    admin = users.create_superuser("root")
    club.directors.add(director)
    events = Event.objects.all()
    assert list(directed(director, events)) == [running_event]
    assert list(directed(stranger, events)) == []
    assert list(directed(admin, events)) == [running_event]
    assert directs_club(director, club.pk) and not directs_club(stranger, club.pk)
    assert not directs_club(None, club.pk)


def test_the_tablet_throttles_count_each_format_apart() -> None:
    from tournaments.drives.api.tablets import DriveTableThrottle
    from tournaments.events.api.tablets import TableTokenThrottle
    from tournaments.teams.api.tablets import TeamTableThrottle

    view = type("View", (), {"kwargs": {"token": "abc"}})()
    request = APIRequestFactory().get("/")
    keys = {
        throttle().get_cache_key(request, view)
        for throttle in (TableTokenThrottle, DriveTableThrottle, TeamTableThrottle)
    }
    assert len(keys) == 3


def test_a_tablets_stream_ends_quietly_when_the_database_goes_away() -> None:
    """A stream open when the database stops answering (restarted; gone with a test's live
    server) sends what it had and ends, giving its slot back, instead of the server logging
    a broken response: the tablet asks again after its retry wait and polls meanwhile."""
    slots = live.StreamSlots()

    async def newer(last: int) -> int:
        raise OperationalError("the database went away")

    async def state_at(version: int) -> dict[str, object] | None:
        return None

    async def read() -> list[str]:
        events = state_events(
            slots, "link", {"per_process": 5, "per_address": 2}, {"round": 1}, 0, newer, state_at
        )
        return [part async for part in events]

    sent = run_apart(read)
    assert len(sent) == 1 and re.match(r"retry: \d+\nevent: state", sent[0])
    assert slots.counts()[0] == 0  # the slot was given back
