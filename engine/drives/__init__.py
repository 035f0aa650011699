"""Progressive whist drives: players, not pairs, move from table to table by each table's result.

The format's rules are pure engine code beside the games, never inside them: any game whose
rules give each side a score for one hand of four players can be played at a drive
(docs/games/drives.md). The pieces, one module each:

- `model`: roles, outcomes, prizes, errors;
- `moves`: the move forms as data (four rows) and `move_tables`, the function that applies one;
- `game`: a hand's score for each side through the game's rules class;
- `settings`: `DriveSettings`, checked once;
- `seating`: the first hand's seating and `next_seating`, sit-outs included, and
  `fit_seating` for the players who come late or go home;
- `totals`: each player's points per hand and the running totals;
- `prizes`: the prize list with its ties;
- `drive`: `Drive`, all of it behind one object.

>>> drive = Drive(DriveSettings(players=10, hands=4, move=semi_partner()))
>>> seating = drive.first_seating(seed=1)
>>> len(seating.tables), len(seating.sitting_out)
(2, 2)
"""

from engine.drives.drive import Drive
from engine.drives.game import DriveGame, TableScore
from engine.drives.model import DUMMY, PRIZE_KINDS, DriveError, Outcome, Prize, Role
from engine.drives.moves import (
    FORMS,
    MoveForm,
    MoveRow,
    check_ends,
    move_form,
    move_tables,
    partner_drive,
    progressive,
    rule_table,
    semi_partner,
)
from engine.drives.prizes import Award, award_prizes
from engine.drives.seating import (
    Place,
    Seating,
    check_seating,
    first_seating,
    fit_seating,
    next_seating,
    placed_seating,
    seating_in_order,
)
from engine.drives.settings import DriveSettings
from engine.drives.totals import (
    CardTotal,
    HandRecord,
    PlayerTotal,
    Totals,
    card_lines,
    record_hand,
    standings,
)

__all__ = [
    "DUMMY",
    "FORMS",
    "PRIZE_KINDS",
    "Award",
    "CardTotal",
    "Drive",
    "DriveError",
    "DriveGame",
    "DriveSettings",
    "HandRecord",
    "MoveForm",
    "MoveRow",
    "Outcome",
    "Place",
    "PlayerTotal",
    "Prize",
    "Role",
    "Seating",
    "TableScore",
    "Totals",
    "award_prizes",
    "card_lines",
    "check_ends",
    "check_seating",
    "first_seating",
    "fit_seating",
    "move_form",
    "move_tables",
    "next_seating",
    "partner_drive",
    "placed_seating",
    "progressive",
    "record_hand",
    "rule_table",
    "seating_in_order",
    "semi_partner",
    "standings",
]
