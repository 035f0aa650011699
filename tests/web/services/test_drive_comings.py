"""Players who come late and go home early, through the services: the seating of the hand
being played is fitted when nobody has played it yet, the totals equal a recount written here
from the stored seatings and results (not the engine's totals), and every refusal says what
to do and changes nothing."""

from __future__ import annotations

import io
import random
from fractions import Fraction
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.drives.models import Drive, DriveAudit, DrivePlayer, DriveResult, DriveSeating
from tournaments.drives.selectors.drives import drive_state, seatings_of
from tournaments.drives.services import comings, paper
from tournaments.drives.services import drives as services
from tournaments.drives.services.drives import DriveRefused
from tournaments.files import backup
from tournaments.kernel.models import Club

pytestmark = pytest.mark.django_db


def _drive(club: Club, players: int = 11, **settings: Any) -> Drive:
    drive = services.drive_create(
        club=club,
        name="Friday drive",
        settings={"hands": 6, "half_time": 3, "scoring": "tricks", "short_table": "dummy"}
        | settings,
        players=[f"Player {n}" for n in range(1, players + 1)],
    )
    return services.drive_start(drive=drive, seed=5)


def _play_hand(drive: Drive, rng: random.Random, *, move: bool = True) -> None:
    drive.refresh_from_db()
    seating = seatings_of(drive)[drive.hand]
    for table in range(1, len(seating.tables) + 1):
        services.result_enter(drive=drive, table=table, entry={"ns_tricks": rng.randint(0, 13)})
    drive.refresh_from_db()
    if move and drive.hand < 6:
        services.hand_next(drive=drive)
    drive.refresh_from_db()


def _fingerprint() -> tuple[Any, ...]:
    return (
        tuple(Drive.objects.order_by("pk").values_list("status", "hand", "settings")),
        tuple(DrivePlayer.objects.order_by("pk").values_list("number", "name")),
        tuple(DriveSeating.objects.order_by("pk").values_list("hand", "seating")),
        tuple(DriveResult.objects.order_by("pk").values_list("hand", "table", "entry")),
        DriveAudit.objects.count(),
    )


def _refused(action: Any, match: str, **kwargs: Any) -> None:
    before = _fingerprint()
    with pytest.raises(DriveRefused, match=match):
        action(**kwargs)
    assert _fingerprint() == before


def _recount(drive: Drive, late_score: str) -> dict[int, Fraction]:
    """Each player's total from the stored rows, by the rule in docs/games/drives.md: a side
    scores every trick it took (scoring=tricks), a player sitting out 7, a late arrival the
    rule's points for each hand before they came, a leaver nothing after they went."""
    seatings = {row.hand: row.seating for row in DriveSeating.objects.filter(drive=drive)}
    rows = DriveResult.objects.filter(drive=drive)
    results = {(r.hand, r.table): r.entry["ns_tricks"] for r in rows}
    numbers = list(DrivePlayer.objects.filter(drive=drive).values_list("number", flat=True))
    totals = {n: Fraction(0) for n in numbers}
    for hand, seating in sorted(seatings.items()):
        scored: dict[int, int] = {}
        for t, table in enumerate(seating["tables"], start=1):
            ns = results[(hand, t)]
            for index, player in enumerate(table):
                if player:
                    scored[player] = ns if index % 2 == 0 else 13 - ns
        for player, _role in seating["bench"]:
            scored[player] = 7
        there = set(scored)
        at_tables = [scored[p] for p in there if p not in {b for b, _ in seating["bench"]}]
        for player in numbers:
            if player in there:
                totals[player] += scored[player]
            elif dict(drive.settings.get("arrivals", [])).get(player, 1) > hand:
                if late_score == "lowest":
                    totals[player] += min(at_tables)
                elif late_score == "average":
                    totals[player] += Fraction(sum(at_tables), len(at_tables))
    return totals


@pytest.mark.parametrize("late_score", ["nothing", "average"])
def test_an_arrival_and_a_leaver_in_a_drive_of_eleven(club: Club, late_score: str) -> None:
    rng = random.Random(11)
    drive = _drive(club, late_score=late_score)
    _play_hand(drive, rng)
    _play_hand(drive, rng)
    assert drive.hand == 3
    hand_three = seatings_of(drive)[3]
    dummy = next(
        (t, i) for t, table in enumerate(hand_three.tables) for i, p in enumerate(table) if p == 0
    )
    _refused(comings.player_arrive, "already playing as player 4", drive=drive, name="player 4")
    newcomer = comings.player_arrive(drive=drive, name="Late Lou")
    assert newcomer.number == 12
    after = seatings_of(drive)[3]
    # The newcomer takes the dummy's seat; nobody else moves.
    assert after.tables[dummy[0]][dummy[1]] == 12
    for t, table in enumerate(hand_three.tables):
        for i, player in enumerate(table):
            if player:
                assert after.tables[t][i] == player
    drive.refresh_from_db()
    assert drive.settings["arrivals"] == [[12, 3]]
    assert DriveAudit.objects.filter(drive=drive, action="arrive").exists()
    _play_hand(drive, rng)
    # Half time: player 5 goes home before hand 4 is played; the seat becomes the dummy.
    assert drive.hand == 4
    seat_of_five = seatings_of(drive)[4].place(5)
    assert seat_of_five is not None
    said = comings.player_leave(drive=drive, number=5)
    assert "left after hand 3" in said
    now = seatings_of(drive)[4]
    assert 5 not in now
    assert (
        now.tables[seat_of_five.table - 1][{"N": 0, "E": 1, "S": 2, "W": 3}[str(seat_of_five.seat)]]
        == 0
    )
    _refused(comings.player_leave, "left after hand 3 already", drive=drive, number=5)
    for _ in range(3):
        _play_hand(drive, rng)
    state = drive_state(drive)
    assert state.hands_played == 6
    recount = _recount(drive, late_score)
    for line in state.standings:
        assert line.total == recount[line.player], line.player
    winners = {p for award in state.awards for p in award.winners}
    assert 5 not in winners  # a leaver is out of the prizes
    booby = next(a for a in state.awards if a.prize.kind == "booby")
    assert 12 not in booby.winners and 5 not in booby.winners
    line_12 = next(line for line in state.lines if line.player == 12)
    assert line_12.note == "came for hand 3"


def test_an_arrival_after_a_result_plays_from_the_next_hand(club: Club) -> None:
    rng = random.Random(3)
    drive = _drive(club, players=8, short_table="sit_out")
    seatings_before = seatings_of(drive)[1]
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 7})
    comings.player_arrive(drive=drive, name="Late Lou")
    assert seatings_of(drive)[1] == seatings_before
    services.result_enter(drive=drive, table=2, entry={"ns_tricks": 8})
    drive.refresh_from_db()
    services.hand_next(drive=drive)
    second = seatings_of(drive)[2]
    assert 9 in second and len(second.tables) == 2  # 9 players: one sits out
    del rng


def test_refusals_say_what_to_do_and_change_nothing(club: Club) -> None:
    draft = services.drive_create(
        club=club, name="Draft", settings={"hands": 2}, players=[f"P{n}" for n in range(8)]
    )
    _refused(comings.player_arrive, "players list", drive=draft, name="Late")
    drive = _drive(club, players=5, short_table="sit_out")
    _refused(comings.player_leave, "There is no player 9", drive=drive, number=9)
    comings.player_leave(drive=drive, number=1)
    _refused(comings.player_leave, "would have 3 players", drive=drive, number=2)
    _refused(comings.player_arrive, "left after hand 0 as player 1", drive=drive, name="Player 1")
    # The last hand under way: nobody can join it or leave it.
    short = _drive(club, players=8, hands=1, half_time=0)
    services.result_enter(drive=short, table=1, entry={"ns_tricks": 7})
    _refused(comings.player_arrive, "no hand left", drive=short, name="Late")
    _refused(comings.player_leave, "closes with the drive", drive=short, number=1)


def test_a_backup_carries_arrivals_and_leavers_and_restores_the_same_figures(
    club: Club,
) -> None:
    """The comings and goings live in the drive's settings, so the backup carries them; a
    seating stored before a late arrival (the hand had begun) restores as it was."""
    rng = random.Random(8)
    drive = _drive(club, players=8, short_table="sit_out")
    services.result_enter(drive=drive, table=1, entry={"ns_tricks": 7})
    comings.player_arrive(drive=drive, name="Late Lou")  # from hand 2: hand 1 has begun
    services.result_enter(drive=drive, table=2, entry={"ns_tricks": 9})
    services.hand_next(drive=Drive.objects.get(pk=drive.pk))
    _play_hand(drive, rng)
    comings.player_leave(drive=drive, number=3)
    _play_hand(drive, rng, move=False)
    before = drive_state(Drive.objects.get(pk=drive.pk))
    shown = ([(x.name, x.total, x.note) for x in before.lines], [a.text for a in before.awards])
    text = backup.dumps(backup.backup_document())
    Drive.objects.all().delete()
    Club.objects.all().delete()
    backup.restore(backup.loads(text))
    after = drive_state(Drive.objects.get())
    assert after.settings is not None and after.settings.arrivals == ((9, 2),)
    assert after.settings.departures == ((3, 2),)
    assert ([(x.name, x.total, x.note) for x in after.lines], [a.text for a in after.awards]) == (
        shown
    )


def test_the_papers_print_a_drive_with_comings_and_goings(club: Club) -> None:
    """Score cards (the late arrival's "came at hand 2", the leaver's "left after hand 2"),
    table cards and the prize sheet print for such a drive."""
    rng = random.Random(4)
    drive = _drive(club, players=9, hands=4, half_time=2, short_table="sit_out")
    _play_hand(drive, rng)
    comings.player_arrive(drive=drive, name="Late Lou")
    _play_hand(drive, rng)
    comings.player_leave(drive=drive, number=1)
    _play_hand(drive, rng)
    for what in paper.DOCUMENTS:
        assert paper.drive_pdf(drive=drive, what=what).startswith(b"%PDF")


def test_the_drive_command_seats_an_arrival_and_closes_a_leavers_card(club: Club) -> None:
    drive = _drive(club, players=11)
    out = io.StringIO()
    call_command("drive", "arrive", str(drive.pk), "Nell Newcomer", stdout=out)
    assert "Nell Newcomer is player 12." in out.getvalue()
    assert "Nell Newcomer" in out.getvalue().split("is player 12.", 1)[1]  # the seating shown
    call_command("drive", "leave", str(drive.pk), "2", stdout=out)
    assert "Player 2 left after hand 0" in out.getvalue()
    with pytest.raises(CommandError, match="already"):
        call_command("drive", "leave", str(drive.pk), "2", stdout=io.StringIO())
