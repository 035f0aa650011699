"""A drive's tablets acting at the same moment (on PostgreSQL): the last confirmations of a
hand arriving together move the drive exactly once, and one table's result sent twice at once
is stored once.

The tablets' writes take no lock on the drive (250 tables would queue behind it); these races
are what that relies on: each confirmation asks "is every table confirmed?" after its own has
committed, under the drive's lock, so whichever asks last sees every table and the others find
the drive moved; and the one-result-per-table constraint turns a second insert into a retry.
Each race runs in threads with their own database connections, released together.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tournaments.drives.models import Drive, DriveAudit, DriveResult, DriveSeating
from tournaments.drives.services import drives as services
from tournaments.drives.services import tablets
from tournaments.kernel.models import Club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TIMEOUT = 20.0


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released by one barrier; their answers (or exceptions)."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(TIMEOUT)
            answers[index] = calls[index]()
        except Exception as exc:  # the test looks at what came back
            answers[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a racer hung"
    return answers


def started(club: Club, players: int) -> Drive:
    drive = services.drive_create(
        club=club,
        name="Race drive",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks"},
        players=[f"Player {n}" for n in range(1, players + 1)],
    )
    return services.drive_start(drive=drive, seed=9)


@pytest.mark.parametrize("hand", range(1, 5))
def test_the_last_confirmations_together_move_the_drive_once(club: Club, hand: int) -> None:
    drive = started(club, 24)  # six tables, all of them confirming at once
    for earlier in range(1, hand):
        for table in range(1, 7):
            tablets.tablet_enter(
                drive_id=drive.pk, table=table, hand=earlier, entry={"ns_tricks": 7}
            )
            tablets.tablet_confirm(
                drive_id=drive.pk, table=table, hand=earlier, entry={"ns_tricks": 7}
            )
    for table in range(1, 7):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=hand, entry={"ns_tricks": table})

    def confirm(table: int) -> Callable[[], Any]:
        return lambda: tablets.tablet_confirm(
            drive_id=drive.pk, table=table, hand=hand, entry={"ns_tricks": table}
        )

    answers = together([confirm(t) for t in range(1, 7)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert sum(moved for _, moved in answers) == 1
    drive.refresh_from_db()
    assert drive.hand == hand + 1
    assert DriveSeating.objects.filter(drive=drive).count() == hand + 1
    assert DriveAudit.objects.filter(drive=drive, action="moved on to").count() == hand
    assert set(
        DriveResult.objects.filter(drive=drive, hand=hand).values_list("status", flat=True)
    ) == {"confirmed"}


def test_one_result_sent_twice_at_once_is_stored_once(club: Club) -> None:
    drive = started(club, 12)
    for table in (1, 2):
        send = [
            lambda table=table: tablets.tablet_enter(
                drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": 9}
            )
            for _ in range(4)
        ]
        answers = together(send)
        assert not [a for a in answers if isinstance(a, Exception)], answers
        assert sorted(new for _, new in answers) == [False, False, False, True]
        assert DriveResult.objects.filter(drive=drive, hand=1, table=table).count() == 1
    # Two different results for one table at once: one is stored, the other is told so.
    answers = together(
        [
            lambda: tablets.tablet_enter(
                drive_id=drive.pk, table=3, hand=1, entry={"ns_tricks": 4}
            ),
            lambda: tablets.tablet_enter(
                drive_id=drive.pk, table=3, hand=1, entry={"ns_tricks": 5}
            ),
        ]
    )
    stored = DriveResult.objects.get(drive=drive, hand=1, table=3)
    kept = [a for a in answers if not isinstance(a, Exception)]
    refused = [a for a in answers if isinstance(a, tablets.DriveTableConflict)]
    assert len(kept) == 1 and len(refused) == 1, answers
    assert kept[0][0].entry == stored.entry and kept[0][1] is True
    assert "already has a result" in str(refused[0])


def test_confirmations_that_all_saw_every_table_done_move_the_drive_once(club: Club) -> None:
    """The narrowest race: six confirmations that have all counted every table confirmed ask
    to move at the same instant; the drive's lock lets one move and the others find it moved."""
    drive = started(club, 24)
    for table in range(1, 7):
        tablets.tablet_enter(drive_id=drive.pk, table=table, hand=1, entry={"ns_tricks": table})
    DriveResult.objects.filter(drive=drive, hand=1).update(status="confirmed")
    moves = together([lambda t=t: tablets._move_locked(drive.pk, 1, t) for t in range(1, 7)])
    assert not [a for a in moves if isinstance(a, Exception)], moves
    assert moves.count(True) == 1
    assert DriveSeating.objects.filter(drive=drive, hand=2).count() == 1
    drive.refresh_from_db()
    assert drive.hand == 2
