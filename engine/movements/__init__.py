"""Movements: who meets whom at which table with which boards, checked against the invariants
a director relies on (see `engine.movements.validate`).

>>> from engine.movements import mitchell, validate
>>> validate(mitchell(7)).ok
True
"""

from engine.movements.advisor import Suggestion, advise, boards_per_pair, why
from engine.movements.files import dumps_csv, loads_asc, loads_csv
from engine.movements.howell import howell
from engine.movements.mitchell import default_arrow_switch, mitchell
from engine.movements.model import (
    PHANTOM,
    GuideRow,
    Meeting,
    Movement,
    MovementError,
    MovementFileError,
    PairSlot,
)
from engine.movements.registry import KINDS, build, check_params
from engine.movements.validate import ValidationReport, validate

__all__ = [
    "KINDS",
    "PHANTOM",
    "GuideRow",
    "Meeting",
    "Movement",
    "MovementError",
    "MovementFileError",
    "PairSlot",
    "Suggestion",
    "ValidationReport",
    "advise",
    "boards_per_pair",
    "build",
    "check_params",
    "default_arrow_switch",
    "dumps_csv",
    "howell",
    "loads_asc",
    "loads_csv",
    "mitchell",
    "validate",
    "why",
]
