"""Event exports and imports: CSV for spreadsheets, PBN with results, USEBIO 1.2 XML.

Each format writes an `EventRecord` (and the standings document where it publishes figures)
and, where it can, reads one back; `score_record` rescores a record with the engine, which
is how a round trip is checked. Errors in files are `ExportError`, naming where.
"""

from engine.exports.record import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    check_record,
    score_record,
)

__all__ = [
    "EventRecord",
    "ExportError",
    "MovementSpec",
    "PairRecord",
    "ResultRecord",
    "check_record",
    "score_record",
]
