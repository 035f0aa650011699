"""A progressive drive through the services: refusals change nothing, a whole evening's
totals and prizes equal the engine's own recomputation, and corrections before and after the
players move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.drives import Drive as EngineDrive
from engine.drives import DriveSettings
from tournaments.drives.models import Drive, DriveAudit, DrivePlayer, DriveResult, DriveSeating
from tournaments.drives.selectors.drives import drive_state, seatings_of
from tournaments.drives.services import drives as services
from tournaments.drives.services.drives import DriveRefused
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db

NAMES = [f"Player {chr(65 + n)}" for n in range(12)]
SETTINGS: dict[str, Any] = {"hands": 6, "half_time": 3, "scoring": "tricks"}


def make_drive(club: Club, names: list[str] | None = None, **settings: Any) -> Drive:
    return services.drive_create(
        club=club,
        name="Friday drive",
        settings=SETTINGS | settings,
        players=NAMES if names is None else names,
    )


def fingerprint() -> tuple[Any, ...]:
    return (
        tuple(Drive.objects.order_by("pk").values_list("status", "hand", "settings", "seed")),
        tuple(DrivePlayer.objects.order_by("pk").values_list("number", "name")),
        tuple(DriveSeating.objects.order_by("pk").values_list("hand", "seating")),
        tuple(DriveResult.objects.order_by("pk").values_list("hand", "table", "entry")),
        DriveAudit.objects.count(),
    )


def refused(action: Any, match: str, **kwargs: Any) -> None:
    before = fingerprint()
    with pytest.raises(DriveRefused, match=match):
        action(**kwargs)
    assert fingerprint() == before


def test_settings_are_checked_by_the_engine_and_a_refusal_names_the_field(club: Club) -> None:
    before = fingerprint()
    for settings, field in [
        ({"hands": 0}, "hands"),
        ({"trumps": "XYZ"}, "trumps"),
        ({"move": {"form": "waltz"}}, "move"),
        ({"prizes": [{"kind": "best hat"}]}, "prizes"),
        ({"players": 12}, "players"),
        ({"colour": "red"}, "colour"),
    ]:
        with pytest.raises(DriveRefused, match=field):
            make_drive(club, **settings)
    with pytest.raises(ValueError, match="Two players are called Ann"):
        make_drive(club, names=["Ann", "Bob", "ann"])
    assert fingerprint() == before
    drive = make_drive(club)
    assert DriveSettings.from_dict({**drive.settings, "players": 12}).hands == 6


def test_every_refusal_changes_nothing(club: Club) -> None:
    drive = make_drive(club, names=NAMES[:3])
    refused(services.drive_start, "at least four", drive=drive)
    refused(services.result_enter, "start it first", drive=drive, table=1, entry={"ns_tricks": 7})
    refused(services.player_add, "Two players", drive=drive, name="player a")
    refused(services.player_remove, "no player 9", drive=drive, number=9)
    refused(services.player_rename, "control", drive=drive, number=1, name="Ann\x07")
    services.player_add(drive=drive, name="Dora")
    refused(services.drive_start, "seating", drive=drive, placed=[(1, 2, 3, 3)])
    services.drive_start(drive=drive, seed=3)
    refused(services.player_add, "has started", drive=drive, name="Late Larry")
    refused(services.result_enter, "no table 2", drive=drive, table=2, entry={"ns_tricks": 7})
    refused(
        services.result_enter,
        "Hand 1, table 1: NS tricks must be between 0 and 13",
        drive=drive,
        table=1,
        entry={"ns_tricks": 14},
    )
    refused(services.result_enter, "a result is", drive=drive, table=1, entry=[7])
    refused(services.result_enter, "not 2", drive=drive, table=1, hand=2, entry={"ns_tricks": 7})
    refused(services.hand_next, "table 1 has no result", drive=drive)
    refused(services.drive_finish, "0 of 6 hands", drive=drive)
    refused(services.drive_publish, "Finish the drive first", drive=drive)
    refused(
        services.result_correct,
        "enter it instead",
        drive=drive,
        hand=1,
        table=1,
        entry={"ns_tricks": 8},
    )
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 9})
    # The same result again is taken once; a different one is a correction.
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 9})
    assert DriveResult.objects.filter(drive=drive).count() == 1
    refused(services.result_enter, "correct it", drive=drive, table=1, entry={"ns_tricks": 4})
    refused(
        services.result_correct,
        "already has that result",
        drive=drive,
        hand=1,
        table=1,
        entry={"ns_tricks": 9},
    )
    refused(
        services.result_correct,
        "not been played",
        drive=drive,
        hand=3,
        table=1,
        entry={"ns_tricks": 9},
    )


def play(drive: Drive, rng: random.Random) -> dict[int, dict[int, dict[str, int]]]:
    """Enter every table's result of every hand, moving on after each; returns what was
    entered, hand by hand."""
    played: dict[int, dict[int, dict[str, int]]] = {}
    settings = DriveSettings.from_dict({**drive.settings, "players": drive.players.count()})
    for hand in range(1, settings.hands + 1):
        played[hand] = {}
        for table in range(1, settings.tables + 1):
            entry = {"ns_tricks": rng.randint(0, 13)}
            services.result_enter(drive=drive, table=table, entry=entry)
            played[hand][table] = entry
        if hand < settings.hands:
            services.hand_next(drive=drive, hand=hand)
    return played


def test_a_whole_drive_gives_the_engines_totals_and_prizes(club: Club) -> None:
    drive = make_drive(club)
    services.drive_start(drive=drive, seed=42)
    played = play(drive, random.Random(5))
    services.drive_finish(drive=drive)
    drive.refresh_from_db()
    assert drive.status == Drive.Status.FINISHED

    # The engine on its own, from the seed and the results entered: nothing read back.
    settings = DriveSettings.from_dict({**SETTINGS, "players": 12})
    engine = EngineDrive(settings)
    seating = engine.first_seating(42)
    records = []
    for hand in range(1, 7):
        record = engine.record_hand(seating, played[hand])
        records.append(record)
        if hand < 6:
            seating = engine.next_seating(seating, record)
    names = dict(enumerate(NAMES, start=1))
    standings = engine.standings(records)
    awards = engine.prizes(records, seed=42, names=names)

    state = drive_state(drive)
    assert state.hands_played == 6
    assert [(line.player, line.total) for line in state.lines] == [
        (line.player, str(line.total)) for line in standings
    ]
    assert [line.first_half for line in state.lines] == [str(s.first_half) for s in standings]
    assert [(a.title, a.winners, a.text) for a in state.awards] == [
        (a.title, a.winners, a.text) for a in awards
    ]
    assert len(state.awards) == 5  # three highest, best first half, booby
    assert seatings_of(drive)[6] == seating

    services.drive_publish(drive=drive)
    drive.refresh_from_db()
    assert drive.is_public


def test_a_correction_before_the_move_works_the_next_seating_out_again(club: Club) -> None:
    drive = make_drive(club)
    services.drive_start(drive=drive, seed=1)
    for table, tricks in ((1, 9), (2, 9), (3, 9)):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": tricks})
    moved = services.hand_next(drive=drive, hand=1)  # moved on by itself: the seating now
    said = services.result_correct(
        drive=drive, hand=1, table=1, entry={"ns_tricks": 2}, reason="tally misread"
    )
    assert "worked out again and it changed" in said
    settings = DriveSettings.from_dict({**SETTINGS, "players": 12})
    engine = EngineDrive(settings)
    first = seatings_of(drive)[1]
    expected = engine.next_seating(
        first, {1: {"ns_tricks": 2}, 2: {"ns_tricks": 9}, 3: {"ns_tricks": 9}}
    )
    assert seatings_of(drive)[2] == expected != moved
    entry = DriveAudit.objects.filter(drive=drive, action="correct").get()
    assert entry.before == {"ns_tricks": 9} and entry.after == {"ns_tricks": 2}
    assert "tally misread" in entry.reason and "worked out again" in entry.reason


def test_a_correction_after_the_move_changes_scores_never_seats(club: Club) -> None:
    drive = make_drive(club)
    services.drive_start(drive=drive, seed=1)
    for table in (1, 2, 3):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": 9})
    services.hand_next(drive=drive, hand=1)
    services.result_enter(drive=drive, table=2, entry={"ns_tricks": 6})  # the players moved
    seatings = seatings_of(drive)
    before = {line.player: line.total for line in drive_state(drive).lines}
    said = services.result_correct(drive=drive, hand=1, table=1, entry={"ns_tricks": 2})
    assert "scores changed only" in said
    assert seatings_of(drive) == seatings
    first = seatings[1].tables[0]
    after = {line.player: line.total for line in drive_state(drive).lines}
    assert after[first[0]] == str(int(before[first[0]]) - 7)  # N: 9 tricks became 2
    assert after[first[1]] == str(int(before[first[1]]) + 7)  # E: 4 became 11
    entry = DriveAudit.objects.filter(drive=drive, action="correct").get()
    assert "nobody's seat changed" in entry.reason


def test_players_are_numbered_without_gaps_after_one_is_taken_off(club: Club) -> None:
    drive = make_drive(club, names=["Ann", "Bob", "Cy", "Di", "Ed"])
    services.player_remove(drive=drive, number=2)
    assert list(drive.players.values_list("number", "name")) == [
        (1, "Ann"), (2, "Cy"), (3, "Di"), (4, "Ed")
    ]  # fmt: skip
    services.player_rename(drive=drive, number=3, name="Diana")
    services.drive_start(drive=drive, seed=9)
    services.player_rename(drive=drive, number=1, name="Anne")  # a spelling, after the start
    assert drive_state(drive).names == {1: "Anne", 2: "Cy", 3: "Diana", 4: "Ed"}


def test_before_the_first_hand_is_complete_each_player_has_the_role_they_were_seated_in(
    club: Club,
) -> None:
    # It read role A for everyone until hand 1 was complete.
    drive = make_drive(club)
    services.drive_start(drive=drive, seed=3)
    state = drive_state(drive)
    first = seatings_of(drive)[1]
    assert state.hands_played == 0
    assert {line.player: line.role for line in state.lines} == {
        player: state.settings.role_label(first.role(player)) for player in range(1, 13)
    }
    assert {line.role for line in state.lines} == {"A", "B"}
