"""The season's arithmetic, in pure Python: each member's evenings (`Appearance`), their
handicaps (`handicaps`) and the competitions' tables (`competitions`).

The app gathers the appearances from every format's stored results; everything computed from
them is here, so a season's table can be recomputed from the appearances alone (the tests do).
"""

from engine.season.competitions import (
    CompetitionRule,
    CompetitionRuleError,
    CompetitionTable,
    TableRow,
    averages_before,
    competition_table,
    evening_handicaps,
)
from engine.season.handicaps import (
    HandicappedLine,
    HandicapRule,
    handicap_of,
    handicapped_standings,
    handicaps_before,
    pair_handicap,
    signed,
)
from engine.season.model import Appearance, Format

__all__ = [
    "Appearance",
    "CompetitionRule",
    "CompetitionRuleError",
    "CompetitionTable",
    "Format",
    "HandicapRule",
    "HandicappedLine",
    "TableRow",
    "averages_before",
    "competition_table",
    "evening_handicaps",
    "handicap_of",
    "handicapped_standings",
    "handicaps_before",
    "pair_handicap",
    "signed",
]
