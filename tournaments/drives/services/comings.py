"""Players who come late and players who go home early, while the drive runs.

Every real drive has both. A late arrival is added to the players list with the next number
and plays from the hand being played if no table has a result of it yet (its seating is
fitted again: the newcomer takes a free seat, nobody else moves unless a table opens), else
from the next hand. A leaver plays no more hands: if they go before any result of the hand
being played is in, that hand's seating is fitted again without them; otherwise they are
taken to have played it and the next hand's seating leaves them out. How each hand's seating
fits the players there, and how a late arrival's missed hands score, is the engine's
(`engine.drives.seating.fit_seating`, `DriveSettings.late_score`; docs/games/drives.md).

Each is an audited director's action; a refusal says what to do and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from engine.drives import DriveSettings, Seating
from engine.drives.seating import fit_seating
from tournaments.drives.models import Drive, DrivePlayer, DriveResult, DriveSeating
from tournaments.drives.selectors.drives import drive_settings, settings_for
from tournaments.drives.services.base import (
    DriveRefused,
    audit,
    links_ensure,
    locked,
    player_name,
    player_of,
    settings_stored,
)
from tournaments.drives.services.drives import CARDS_ENTERED
from tournaments.kernel.audit import User
from tournaments.kernel.member_links import BY_NAME, NameLinker


def _running(drive: Drive, doing: str) -> DriveSettings:
    if drive.status == Drive.Status.DRAFT:
        raise DriveRefused(
            f"The drive has not started: {doing} is done on the players list (add or take off "
            "the player there)."
        )
    if drive.status != Drive.Status.RUNNING:
        raise DriveRefused(f"The drive is over: {doing} is only possible while it runs.")
    if drive.cards:
        raise DriveRefused(CARDS_ENTERED)
    return drive_settings(drive)


def _hand_begun(drive: Drive) -> bool:
    """Whether any table has a result (entered or confirmed) of the hand being played."""
    return DriveResult.objects.filter(drive=drive, hand=drive.hand).exists()


def _with(settings: DriveSettings, drive: Drive, **changes: object) -> DriveSettings:
    """The drive's settings with these changes, checked by the engine (its refusal, such as
    too few players left for a table, comes back as the director's)."""
    data = {**drive.settings, **changes}
    players = settings.players + (1 if "arrivals" in changes else 0)
    try:
        return settings_for(data, players)
    except ValueError as exc:
        raise DriveRefused(f"{exc}. Nothing was changed.") from None


def _refit(drive: Drive, settings: DriveSettings) -> Seating | None:
    """Fit the hand being played to the players there now; the new seating if it changed."""
    row = DriveSeating.objects.get(drive=drive, hand=drive.hand)
    before = Seating.from_dict(row.seating)
    after = fit_seating(settings, before)
    if after == before:
        return None
    row.seating = after.to_dict()
    row.save(update_fields=["seating"])
    links_ensure(drive, len(after.tables))
    return after


def _save(drive: Drive, settings: DriveSettings) -> None:
    drive.settings = settings_stored(settings)
    drive.save(update_fields=["settings"])


def _where(seating: Seating | None, player: int) -> str:
    if seating is None:
        return ""
    place = seating.place(player)
    return f"sits {place}" if place else "sits out this hand"


@transaction.atomic
def player_arrive(
    *, drive: Drive, name: str, member: Any = BY_NAME, user: User = None
) -> DrivePlayer:
    """A player who came late: numbered after everyone, playing from the hand being played if
    no table has a result of it yet, else from the next; linked to the club's member of that
    name (or the member the API caller chose)."""
    drive = locked(drive)
    settings = _running(drive, "adding a late arrival")
    name = player_name(name, "the player's name")
    for number, known in DrivePlayer.objects.filter(drive=drive).values_list("number", "name"):
        if known.casefold() == name.casefold():
            gone = settings.left(number)
            said = f"left after hand {gone}" if gone is not None else "is already playing"
            raise DriveRefused(
                f"{known} {said} as player {number}. A different player of the same name: "
                "add an initial or a surname so the cards and the prize list tell them apart."
            )
    begun = _hand_begun(drive)
    first = drive.hand + 1 if begun else drive.hand
    if first > settings.hands:
        raise DriveRefused(
            f"Hand {drive.hand} is the last and has begun: there is no hand left to join. "
            "Nothing was changed."
        )
    number = settings.players + 1
    arrivals = [*map(list, settings.arrivals), [number, first]]
    after = _with(settings, drive, arrivals=arrivals)
    linked = NameLinker(drive.club, refused=DriveRefused).link(
        name, chosen=member, what="the player"
    )
    player = DrivePlayer.objects.create(drive=drive, number=number, name=name, member=linked)
    _save(drive, after)
    seating = None if begun else _refit(drive, after)
    when = f"plays from hand {first}" + (
        f" ({drive.hand} has begun)" if begun else f"; {_where(seating, number)}"
    )
    audit(drive, user, "arrive", f"player {number}", after=name, reason=when, moved=True)
    return player


@transaction.atomic
def player_leave(*, drive: Drive, number: int, user: User = None) -> str:
    """A player going home: they play no more hands; their card is closed with what they
    scored. Returns what happened, in words, as the audit entry says it."""
    drive = locked(drive)
    settings = _running(drive, "a player leaving")
    player = player_of(drive, number)
    gone = settings.left(number)
    if gone is not None:
        raise DriveRefused(
            f"{player.name} (player {number}) left after hand {gone} already: nothing to do."
        )
    begun = _hand_begun(drive)
    last = drive.hand if begun else drive.hand - 1
    if last >= settings.hands:
        raise DriveRefused(
            f"Hand {drive.hand} is the last and has begun: {player.name}'s card closes with "
            "the drive. Nothing was changed."
        )
    if settings.joined(number) > 1 and last < settings.joined(number):
        # A late arrival who goes before playing a hand: they were never there.
        raise DriveRefused(
            f"{player.name} came for hand {settings.joined(number)} and has not played yet: "
            "they cannot leave before they played. Rename the player if it was a mistake, or "
            "let them sit their hands out."
        )
    departures = [*map(list, settings.departures), [number, last]]
    after = _with(settings, drive, departures=departures)
    _save(drive, after)
    if begun:
        said = (
            f"played hand {drive.hand}, which has begun; the next hand's seating leaves "
            f"{player.name} out"
        )
    else:
        _refit(drive, after)
        said = f"left after hand {last}; hand {drive.hand}'s seating filled their place"
    audit(drive, user, "leave", f"player {number}", before=player.name, reason=said, moved=True)
    return said
