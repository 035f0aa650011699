"""The standings document: what the standings pages, the API, printing and exports read.

A scored session (`SessionScore`) holds exact fractions and engine types; the document is the
same result frozen for readers, in plain values that survive JSON: every figure as its exact
fraction (for machines) and its rounded text (for people). The tournaments app stores
`StandingsDocument.to_dict()` and readers rebuild it with `StandingsDocument.from_dict`, so the
shape below is the one place it is defined (docs/reference/standings-document.md describes it).

>>> from engine.scoring import TravellerLine, score_session
>>> score = score_session([TravellerLine(1, 1, 1, 7), TravellerLine(1, 2, 2, 9)])
>>> section = section_standings("A", score, one_winner=False)
>>> [(row.pair, row.rank, row.percentage.display) for row in section.fields[0].rows]
[(2, '1', '100.00'), (1, '2', '0.00')]
>>> doc = StandingsDocument(1, 3, "mp", "ebu", "2026-11-23T20:00:00", (section,))
>>> StandingsDocument.from_dict(doc.to_dict()) == doc
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from engine.scoring.model import SessionScore, format_points, pair_key

__all__ = [
    "BoardLine",
    "FieldStandings",
    "Points",
    "SectionStandings",
    "StandingRow",
    "StandingsDocument",
    "section_standings",
]


@dataclass(frozen=True)
class Points:
    """A figure as its exact fraction ("61/2") and as people read it ("30.50")."""

    exact: str
    display: str

    @classmethod
    def of(cls, value: Fraction | None) -> Points | None:
        """None where a method has no such figure (IMP and total scoring have no percentage)."""
        if value is None:
            return None
        return cls(str(value), format_points(value))

    @property
    def value(self) -> Fraction:
        return Fraction(self.exact)

    def to_dict(self) -> dict[str, str]:
        return {"exact": self.exact, "display": self.display}

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | None, known: dict[tuple[str, str], Points] | None = None
    ) -> Points | None:
        """`known`: the figures already decoded from this document, shared (a document has
        few distinct figures and three per result)."""
        if data is None:
            return None
        figure = (str(data["exact"]), str(data["display"]))
        if known is None:
            return cls(*figure)
        found = known.get(figure)
        if found is None:
            found = known[figure] = cls(*figure)
        return found


def _points(data: Points | None) -> dict[str, str] | None:
    return None if data is None else data.to_dict()


@dataclass(frozen=True)
class StandingRow:
    """One pair's line in a field: rank ("2=" for a tie), names, score, percentage, boards.

    `session` holds the game's session figures (Candid Whist: "bags", "bag_penalty"), keyed as
    the section's `session_columns` name them; they appear as keys of the row in `to_dict`.
    """

    pair: int
    direction: str
    names: str
    rank: str
    total: Points | None
    max: Points | None
    percentage: Points | None
    boards: int
    adjustments: Points | None
    versus_average: Points | None
    session: Mapping[str, int] = field(default_factory=dict)
    #: Marked absent after playing some boards (left during the evening): listed with its
    #: boards, unranked, after the ranked pairs.
    withdrew: bool = False

    @property
    def key(self) -> str:
        return pair_key(self.pair, self.direction or None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pair": self.pair,
            "direction": self.direction,
            "names": self.names,
            "rank": self.rank,
            "total": _points(self.total),
            "max": _points(self.max),
            "percentage": _points(self.percentage),
            "boards": self.boards,
            "adjustments": _points(self.adjustments),
            "versus_average": _points(self.versus_average),
            **self.session,
            **({"withdrew": True} if self.withdrew else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], session_keys: Collection[str] = ()) -> StandingRow:
        return cls(
            pair=int(data["pair"]),
            direction=str(data.get("direction") or ""),
            names=str(data.get("names") or ""),
            rank=str(data["rank"]),
            total=Points.from_dict(data.get("total")),
            max=Points.from_dict(data.get("max")),
            percentage=Points.from_dict(data.get("percentage")),
            boards=int(data["boards"]),
            adjustments=Points.from_dict(data.get("adjustments")),
            versus_average=Points.from_dict(data.get("versus_average")),
            session={key: int(data[key]) for key in session_keys if data.get(key) is not None},
            withdrew=bool(data.get("withdrew", False)),
        )


@dataclass(frozen=True)
class FieldStandings:
    """The pairs competing with each other: "NS" and "EW" (two winners) or "ALL" (one)."""

    name: str
    rows: tuple[StandingRow, ...]

    @property
    def title(self) -> str:
        return "Standings" if self.name == "ALL" else self.name


@dataclass(frozen=True)
class BoardLine:
    """One result on a board's traveller with the points each side earned from it."""

    ns: int
    ew: int
    ns_score: int | None
    artificial: str  # "A+/A-" and the like; "" for a played result
    ns_points: Points | None
    ew_points: Points | None
    top: Points | None

    def to_dict(self) -> dict[str, Any]:
        # One per result in every stored document: the figures' dicts are written inline.
        ns, ew, top = self.ns_points, self.ew_points, self.top
        return {
            "ns": self.ns,
            "ew": self.ew,
            "ns_score": self.ns_score,
            "artificial": self.artificial,
            "ns_points": None if ns is None else {"exact": ns.exact, "display": ns.display},
            "ew_points": None if ew is None else {"exact": ew.exact, "display": ew.display},
            "top": None if top is None else {"exact": top.exact, "display": top.display},
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], known: dict[tuple[str, str], Points] | None = None
    ) -> BoardLine:
        score = data.get("ns_score")
        return cls(
            ns=int(data["ns"]),
            ew=int(data["ew"]),
            ns_score=None if score is None else int(score),
            artificial=str(data.get("artificial") or ""),
            ns_points=Points.from_dict(data.get("ns_points"), known),
            ew_points=Points.from_dict(data.get("ew_points"), known),
            top=Points.from_dict(data.get("top"), known),
        )


@dataclass(frozen=True)
class SectionStandings:
    """A section's fields and every board's scored lines (keyed by board number as text)."""

    name: str
    one_winner: bool
    fields: tuple[FieldStandings, ...]
    boards: Mapping[str, tuple[BoardLine, ...]]
    session_columns: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "one_winner": self.one_winner,
            "fields": [
                {"name": f.name, "rows": [row.to_dict() for row in f.rows]} for f in self.fields
            ],
            "boards": {
                number: [line.to_dict() for line in lines] for number, lines in self.boards.items()
            },
            "session_columns": [list(column) for column in self.session_columns],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SectionStandings:
        columns = tuple(
            (str(key), str(heading)) for key, heading in data.get("session_columns") or ()
        )
        keys = [key for key, _ in columns]
        known: dict[tuple[str, str], Points] = {}
        return cls(
            name=str(data["name"]),
            one_winner=bool(data["one_winner"]),
            fields=tuple(
                FieldStandings(
                    str(f["name"]), tuple(StandingRow.from_dict(r, keys) for r in f["rows"])
                )
                for f in data["fields"]
            ),
            boards={
                str(number): tuple(BoardLine.from_dict(line, known) for line in lines)
                for number, lines in data["boards"].items()
            },
            session_columns=columns,
        )


@dataclass(frozen=True)
class StandingsDocument:
    """The whole standings of an event at one results version."""

    event: int
    version: int
    method: str
    scale: str
    computed_at: str
    sections: tuple[SectionStandings, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "version": self.version,
            "method": self.method,
            "scale": self.scale,
            "computed_at": self.computed_at,
            "sections": [section.to_dict() for section in self.sections],
        }

    def with_names(self, names: Mapping[str, Mapping[str, str]]) -> StandingsDocument:
        """The same standings with some pairs' names replaced (section name -> pair key ->
        names): how a public reader sees a pair whose players chose initials or to be hidden.
        Nothing else changes; a pair not named keeps its names."""
        if not names:
            return self
        return replace(
            self,
            sections=tuple(
                replace(
                    section,
                    fields=tuple(
                        replace(
                            f,
                            rows=tuple(
                                replace(row, names=names[section.name][row.key])
                                if row.key in names.get(section.name, {})
                                else row
                                for row in f.rows
                            ),
                        )
                        for f in section.fields
                    ),
                )
                for section in self.sections
            ),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingsDocument:
        return cls(
            event=int(data["event"]),
            version=int(data["version"]),
            method=str(data["method"]),
            scale=str(data["scale"]),
            computed_at=str(data["computed_at"]),
            sections=tuple(SectionStandings.from_dict(s) for s in data["sections"]),
        )


def _withdrawn_last(rows: list[StandingRow]) -> tuple[StandingRow, ...]:
    """Rank the pairs that stayed 1, 2, 3... in their order (pairs that shared a rank still
    share one, "2="), then the withdrawn pairs, unranked."""
    stayed = [row for row in rows if not row.withdrew]
    if len(stayed) == len(rows):
        return tuple(rows)
    ranked: list[StandingRow] = []
    position = 0
    while position < len(stayed):
        tied = [r for r in stayed[position:] if r.rank == stayed[position].rank]
        label = f"{position + 1}=" if len(tied) > 1 else str(position + 1)
        ranked += [replace(r, rank=label) for r in tied]
        position += len(tied)
    return (*ranked, *(row for row in rows if row.withdrew))


def section_standings(
    name: str,
    score: SessionScore,
    *,
    one_winner: bool,
    names: Mapping[str, str] | None = None,
    absent: Collection[str] = (),
    session: Mapping[str, Mapping[str, int]] | None = None,
    session_columns: tuple[tuple[str, str], ...] = (),
) -> SectionStandings:
    """A scored section as a document section.

    Pairs are keyed by `pair_key` ("3" in one field, "NS3"/"EW3" in two): `names` gives their
    players, `absent` the pairs marked absent: one that played no board never came and is left
    out; one that played some left during the evening: it is listed with its name and boards,
    marked `withdrew`, unranked, after the ranked pairs, and the others are ranked without it
    (ties among them stay ties). `session` is each pair's session figures (see
    `GameRules.session_tally`).
    """
    names = names or {}
    session = session or {}
    # Pairs share many figures (the maximum, no adjustment): each value becomes Points once.
    shared: dict[tuple[int, int], Points] = {}

    def points_of(value: Fraction | None) -> Points | None:
        if value is None:
            return None
        exact = (value.numerator, value.denominator)
        found = shared.get(exact)
        if found is None:
            found = shared[exact] = Points(str(value), format_points(value))
        return found

    fields: dict[str, list[StandingRow]] = {}
    for row in score.standings:
        key = pair_key(row.pair, None if one_winner else row.direction)
        if row.boards_played == 0 and key in absent:
            continue
        field_name = "ALL" if one_winner else (row.direction or "ALL")
        fields.setdefault(field_name, []).append(
            StandingRow(
                pair=row.pair,
                direction=row.direction or "",
                names=names.get(key, ""),
                rank="" if key in absent else row.rank,
                withdrew=key in absent,
                total=points_of(row.total),
                max=points_of(row.max_total),
                percentage=points_of(row.percentage),
                boards=row.boards_played,
                adjustments=points_of(row.adjustments),
                versus_average=points_of(row.versus_average),
                session=dict(session.get(key, {})),
            )
        )
    boards: dict[int, list[BoardLine]] = {}
    # The lines' figures are whole numbers of the session's denominator, and a session has
    # few distinct ones (a top, the matchpoints 0..top): each becomes its Points once, and
    # each (NS, EW, top) trio is looked up once per line.
    known: dict[int, Points] = {}
    trios: dict[tuple[int, int, int, int], tuple[Points, Points, Points]] = {}

    def figure(units: int, denominator: int) -> Points:
        found = known.get(units) if denominator == score.denominator else None
        if found is None:
            value = Fraction(units, denominator)
            found = Points(str(value), format_points(value))
            if denominator == score.denominator:
                known[units] = found
        return found

    for line, ns_units, ew_units, top_units, _, _, denominator in score.lines:
        figures = (ns_units, ew_units, top_units, denominator)
        trio = trios.get(figures)
        if trio is None:
            trio = trios[figures] = (
                figure(ns_units, denominator),
                figure(ew_units, denominator),
                figure(top_units, denominator),
            )
        board = boards.get(line.board)
        if board is None:
            board = boards[line.board] = []
        board.append(
            BoardLine(  # by position, as a rescore builds one per result
                line.ns,
                line.ew,
                None if line.ns_score is None else int(line.ns_score),  # ns_score
                "/".join(line.artificial) if line.artificial else "",  # artificial
                *trio,  # ns_points, ew_points, top
            )
        )
    return SectionStandings(
        name=name,
        one_winner=one_winner,
        fields=tuple(FieldStandings(n, _withdrawn_last(rows)) for n, rows in fields.items()),
        boards={str(number): tuple(lines) for number, lines in boards.items()},
        session_columns=session_columns,
    )
