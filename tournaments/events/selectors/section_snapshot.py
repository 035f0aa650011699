"""A section's pairs, boards and sit-outs as of one version of the section, kept in the web
process for the tablets' requests.

Every tablet request that the shared cache cannot answer (a state computed again, a
submission) needs the table's pairs and boards, and which meetings of the room have no game.
These change only with the section's version (a pair's names, a pair marked absent, a board,
the event itself: `tablet_cache`), so each web process reads a section's once per version and
answers from memory until the version moves on: a table's state computed again costs two
queries (its results, its open call), a submission two (the board's results, the insert).

Kept only under a version read from the shared cache before anything from the database (the
`Visit`'s, as every cached copy is): data read after a change committed and stored under the
version from before its bump is never used again, since the bump retires that version. With
no shared cache (the laptop's `make run` without Redis) there is no version and nothing is
kept: the callers read what they need from the database each time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from tournaments.events.models import Board, Pair, Section
from tournaments.events.selectors.room import absences, sit_outs

#: Sections kept per process (one version each): a server with more running at once reads
#: the least recently used one again.
KEEP = 64


@dataclass(frozen=True)
class SectionSnapshot:
    """Shared by the requests of a process: read it, never change it."""

    pairs: Mapping[tuple[int, str], Pair]  # by (number, direction)
    boards: Mapping[int, Board]  # by number, the event's
    sit_out: frozenset[tuple[int, int]]  # (round, table) meetings with no game


_KEPT: OrderedDict[int, tuple[str, SectionSnapshot]] = OrderedDict()
_LOCK = threading.Lock()


def section_snapshot(section: Section, version: str) -> SectionSnapshot:
    """The section as of `version` (read from the shared cache before this call's reads)."""
    with _LOCK:
        found = _KEPT.get(section.pk)
        if found is not None and found[0] == version:
            _KEPT.move_to_end(section.pk)
            return found[1]
    pairs = {(p.number, p.direction): p for p in Pair.objects.filter(section=section).order_by()}
    boards = {b.number: b for b in Board.objects.filter(event_id=section.event_id).order_by()}
    made = SectionSnapshot(
        pairs, boards, frozenset(sit_outs(section, absences(section, pairs.values())))
    )
    with _LOCK:
        _KEPT[section.pk] = (version, made)
        _KEPT.move_to_end(section.pk)
        while len(_KEPT) > KEEP:
            _KEPT.popitem(last=False)
    return made
