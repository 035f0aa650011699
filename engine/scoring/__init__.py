"""Duplicate scoring in exact arithmetic: matchpoints (EBU and ACBL scales) with Neuberg
factoring and artificial scores, cross-IMPs, Butler, and total points for whist.

>>> from engine.scoring import TravellerLine, score_session
>>> lines = [TravellerLine(1, 1, 1, 7), TravellerLine(1, 2, 2, 7), TravellerLine(1, 3, 3, 9)]
>>> [s.rank for s in score_session(lines).for_field("NS")]
['1', '2=', '2=']
"""

from engine.scoring.matchpoints import (
    BRIDGE_IMP_SCALE,
    WHIST_TRICK_SCALE,
    butler_datum,
    imps,
    matchpoint_board,
    top,
)
from engine.scoring.model import (
    ARTIFICIAL_CODES,
    METHOD_SCOPES,
    ArtificialCodeError,
    DuplicateMeetingError,
    MethodScope,
    PairStanding,
    ScoredLine,
    ScoringError,
    SessionScore,
    TravellerLine,
    UnknownPairError,
    WrongBoardError,
    format_points,
    method_scope,
    pair_key,
    parse_artificial,
)
from engine.scoring.session import METHODS, one_winner, score_session, two_winner

__all__ = [
    "ARTIFICIAL_CODES",
    "BRIDGE_IMP_SCALE",
    "METHODS",
    "METHOD_SCOPES",
    "WHIST_TRICK_SCALE",
    "ArtificialCodeError",
    "DuplicateMeetingError",
    "MethodScope",
    "PairStanding",
    "ScoredLine",
    "ScoringError",
    "SessionScore",
    "TravellerLine",
    "UnknownPairError",
    "WrongBoardError",
    "butler_datum",
    "format_points",
    "imps",
    "matchpoint_board",
    "method_scope",
    "one_winner",
    "pair_key",
    "parse_artificial",
    "score_session",
    "top",
    "two_winner",
]
