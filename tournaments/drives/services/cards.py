"""A drive played on paper and scored by the players: each player's totals from their card.

Many drives never enter a hand: the players add up their own score cards and hand them in,
and the director needs the prize list. `cards_enter` takes every player's total (and the first
half's total and the hands of 10 or more tricks where the prize list needs them), checked
before anything is written; the drive's totals and prizes then come from the cards
(`drives.selectors.drives.drive_state`). A drive is scored one way or the other, never both: hands'
results and score cards refuse each other, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction

from engine.reading import exact_number, quoted
from tournaments.drives.models import Drive, DriveResult
from tournaments.drives.selectors.drives import drive_settings, player_names
from tournaments.drives.services.base import DriveRefused, audit, locked
from tournaments.kernel.audit import User

#: A figure is typed to two decimal places at most (a sit-out's average can be 7.25).
PLACES = Decimal("0.01")


def needs(drive: Drive) -> tuple[bool, bool]:
    """Whether the drive's prize list needs each player's first-half total, and their hands
    of 10 or more tricks (a card's total is always needed)."""
    kinds = {prize.kind for prize in drive_settings(drive).prizes or ()}
    return bool(kinds & {"first_half", "second_half"}), "ten_plus" in kinds


def _figure(raw: Any, what: str, *, whole: bool = False) -> str | None:
    text = "" if raw is None else str(raw).strip()
    if not text:
        return None
    # The engine's rule for numbers first: `Decimal` takes "١٢" and fails on thousands of
    # digits inside `quantize` (an error no one wrote a message for).
    if exact_number(text) is None or "/" in text:
        raise DriveRefused(f"{what}: a number, not {quoted(text)}")
    value = Decimal(text)
    if not value.is_finite() or value < 0 or value != value.quantize(PLACES):
        raise DriveRefused(f"{what}: a number from 0, to two decimal places at most, not {text!r}")
    if whole and value != value.to_integral_value():
        raise DriveRefused(f"{what}: a whole number of hands, not {text!r}")
    if value > 10_000:
        raise DriveRefused(f"{what}: {text} is more than any drive scores; check the card")
    return str(value.normalize()) if value == value.to_integral_value() else str(value)


@transaction.atomic
def cards_enter(
    *, drive: Drive, cards: Mapping[int, Mapping[str, Any]], user: User = None
) -> Drive:
    """Every player's figures from their score card (`{player: {"total", "first_half",
    "ten_plus"}}`), all of them at once; typing them again replaces them (until published)."""
    drive = locked(drive)
    if drive.status not in (Drive.Status.RUNNING, Drive.Status.FINISHED):
        raise DriveRefused(
            "Score cards are entered once the drive has started (its seats drawn) and until it "
            "is published."
            if drive.status == Drive.Status.DRAFT
            else "The drive is published: its totals can no longer change."
        )
    if DriveResult.objects.filter(drive=drive).exists():
        raise DriveRefused(
            "This drive's hands have results entered: its totals come from them, not from the "
            "score cards. Enter the remaining hands instead."
        )
    settings = drive_settings(drive)
    names = player_names(drive)
    half, big = needs(drive)
    stored: dict[str, dict[str, Any]] = {}
    for player in range(1, settings.players + 1):
        card = cards.get(player) or {}
        who = f"{names.get(player, player)}'s card"
        total = _figure(card.get("total"), f"{who}, total")
        if total is None:
            raise DriveRefused(f"{who} has no total: type every player's total from their card.")
        first = _figure(card.get("first_half"), f"{who}, first half")
        if half and first is None:
            raise DriveRefused(
                f"{who} has no first-half total, and the prize list has a half's prize: type "
                "the total at the break from every card."
            )
        if first is not None and Fraction(first) > Fraction(total):
            raise DriveRefused(f"{who}: the first half ({first}) is more than the total ({total}).")
        ten = _figure(card.get("ten_plus"), f"{who}, hands of 10 or more tricks", whole=True)
        if big and ten is None:
            raise DriveRefused(
                f"{who} has no count of hands with 10 or more tricks, and the prize list has that "
                "prize: count them on every card."
            )
        if ten is not None and int(ten) > settings.hands:
            raise DriveRefused(f"{who}: {ten} hands of 10 or more tricks, of {settings.hands}.")
        stored[str(player)] = {
            "total": total,
            "first_half": first,
            "ten_plus": None if ten is None else int(ten),
        }
    unknown = sorted(set(cards) - set(range(1, settings.players + 1)))
    if unknown:
        raise DriveRefused(
            f"There is no player {unknown[0]}: the players are 1 to {settings.players}."
        )
    before = drive.cards or None
    drive.cards = stored
    drive.save(update_fields=["cards"])
    audit(drive, user, "score cards", "drive", before=before, after=stored, moved=True)
    return drive
