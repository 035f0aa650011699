"""A drive's paper as PDF: score cards, table cards and the prize sheet.

The layouts are the engine's (`engine.printing.drives`); this reads what the drive has stored
and lays it out on the club's paper. Nothing is written, so a director may print as often as
they like: score cards and table cards before anyone arrives (names and seats are pre-printed
as far as they are known: a card printed after the draw carries hand 1's table and seat), the
prize sheet once a hand has been played (its title says "provisional" until the drive is
finished). A refusal is a `DriveRefused` saying what to do first.
"""

from __future__ import annotations

from engine.drives import card_lines, standings
from engine.printing.drives import (
    CardFigures,
    drive_table_cards_pdf,
    prize_sheet_pdf,
    score_cards_pdf,
)
from tournaments.drives.models import Drive
from tournaments.drives.selectors.drives import DriveState, drive_state, score_cards, seatings_of
from tournaments.drives.selectors.public import player_card
from tournaments.drives.services.drives import DriveRefused

#: The documents, by the name in their address, with what the pages call them.
DOCUMENTS = {
    "score-cards": "Score cards",
    "table-cards": "Table cards",
    "prizes": "Prize sheet",
}


def drive_pdf(*, drive: Drive, what: str, paper: str | None = None) -> bytes:
    """The PDF bytes of one of the drive's `DOCUMENTS`, on `paper` (a4 or letter) or else the
    club's."""
    if what not in DOCUMENTS:
        raise DriveRefused(
            f"There is no {what!r} to print for a drive: choose one of {', '.join(DOCUMENTS)}."
        )
    state = drive_state(drive)
    if state.settings is None or state.problem:
        problem = state.problem or "The drive's settings cannot be used."
        raise DriveRefused(f"{problem} Fix that on the drive's pages, then print.")
    settings, paper = state.settings, paper or drive.club.paper
    if what == "score-cards":
        seatings = seatings_of(drive)
        return score_cards_pdf(
            settings,
            state.names,
            title=drive.name,
            date=drive.date,
            seatings=[seatings[hand] for hand in sorted(seatings)],
            figures=card_figures(state),
            paper=paper,
        )
    if what == "table-cards":
        return drive_table_cards_pdf(settings, title=drive.name, date=drive.date, paper=paper)
    if drive.cards:  # totals typed from the players' score cards
        seatings = seatings_of(drive)
        lines = card_lines(settings, seatings[min(seatings)], score_cards(drive.cards))
    elif not state.records:
        raise DriveRefused(
            "The prize sheet lists the prizes and the totals: enter the first hand's results "
            "(or every player's score card), then print it."
        )
    else:
        lines = standings(settings, state.records)
    done = drive.status in (Drive.Status.FINISHED, Drive.Status.PUBLISHED)
    return prize_sheet_pdf(
        settings,
        state.awards,
        lines,
        names=state.names,
        title=drive.name if done else f"{drive.name} (provisional)",
        date=drive.date,
        paper=paper,
    )


def card_figures(state: DriveState) -> dict[int, CardFigures]:
    """Each player's figures for the hands played so far, as their own card on the drive's
    pages shows them (`player_card`): printed after play, the score cards are the players' to
    take home, every hand filled in; before play they are blank to fill in by pencil."""
    if not state.records:
        return {}
    out = {}
    for number in state.names:
        card = player_card(state, number)
        if card is None:
            continue
        hands = {
            row.hand: (row.tricks, row.points, row.running) for row in card.rows if not row.playing
        }
        final = card.line.total if card.line and len(hands) == card.hands else ""
        half = card.half_time if card.break_after and len(hands) >= card.break_after else ""
        out[number] = CardFigures(hands, half, final)
    return out
