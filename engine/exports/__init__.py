"""Event exports and imports: CSV for spreadsheets, PBN with results, USEBIO 1.2 XML.

Each format writes an `EventRecord` (and the standings document where it publishes figures)
and, where it can, reads one back; `score_record` rescores a record with the engine, which
is how a round trip is checked. Errors in files are `ExportError`, naming where.
"""

from engine.exports.csv import score_cards_csv, standings_csv, travellers_csv
from engine.exports.pbn_results import dumps_hand_records, dumps_with_results, loads_with_results
from engine.exports.record import (
    EventRecord,
    ExportError,
    MovementSpec,
    PairRecord,
    ResultRecord,
    check_record,
    score_record,
)
from engine.exports.usebio import dumps_usebio, loads_usebio

__all__ = [
    "EventRecord",
    "ExportError",
    "MovementSpec",
    "PairRecord",
    "ResultRecord",
    "check_record",
    "dumps_hand_records",
    "dumps_usebio",
    "dumps_with_results",
    "loads_usebio",
    "loads_with_results",
    "score_cards_csv",
    "score_record",
    "standings_csv",
    "travellers_csv",
]
