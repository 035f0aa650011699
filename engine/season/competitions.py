"""A season's competitions: each member's evenings turned into one ranked table.

A competition is a rule (`CompetitionRule`: what it adds up, over how many of a member's best
evenings, how many evenings qualify, how ties are split, handicapped or not) applied to the
appearances of the evenings it counts (`competition_table`). The table is a plain document
(`CompetitionTable.to_dict`) the app stores and its pages, PDF, CSV and API read, so a page
never recomputes. Figures are exact fractions, rounded only for display (two decimals).

The kinds (docs/directors/season.md works an example of each):

- ``ladder``: the average of a member's best N pairs percentages (matchpoint events only);
  handicapped, each evening's percentage plus that evening's pair handicap;
- ``total``: the sum of a member's best N evenings' points, of one kind (a pairs event's
  matchpoints, a drive's points or a team tournament's points: never two kinds added);
- ``improved``: the season's average percentage less the member's average over the handicap
  window before the season starts; a member without that average is listed, unqualified;
- ``attendance``: how many evenings a member played, in any format the competition counts;
- ``league``: Bid Whist teams: games won (a draw a half), then points scored, then the member
  who played more evenings; members level on all three are tied.

Only members are ranked: a visitor (no member link) is never listed. A member who played
fewer than `min_sessions` evenings is listed after the ranked members, unplaced.

Ties: members level on the competition's figure share the place (``share``, shown "2="), or
are split by more evenings played (``sessions``) or by the better single evening (``best``);
members level after the split share the place.

>>> import datetime as dt
>>> from fractions import Fraction as F
>>> def night(play, member, pct, entrant="NS1"):
...     return Appearance("event", play, f"Evening {play}", dt.date(2025, 1, play), entrant,
...                       member, f"Member {member}", "1", 8, percentage=F(pct))
>>> rows = [night(1, 1, 60), night(2, 1, 50), night(3, 1, 55), night(1, 2, 58), night(2, 2, 56)]
>>> table = competition_table(CompetitionRule("ladder", best_of=2, min_sessions=2), rows)
>>> [(r.place, r.name, r.shown, r.counted) for r in table.rows]
[('1', 'Member 1', '57.50', 2), ('2', 'Member 2', '57.00', 2)]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, cast

from engine.scoring.model import format_points
from engine.season.handicaps import (
    ZERO,
    HandicapRule,
    exact_sum,
    handicap_if_any,
    handicaps_standing,
    pair_handicap,
)
from engine.season.model import FORMATS, Appearance

__all__ = [
    "KINDS",
    "TIES",
    "CompetitionRule",
    "CompetitionRuleError",
    "CompetitionTable",
    "TableRow",
    "averages_before",
    "competition_table",
    "evening_handicaps",
]

Kind = Literal["ladder", "total", "improved", "attendance", "league"]
Ties = Literal["share", "sessions", "best"]
Evening = tuple[str, int]
ONE = Fraction(1)

#: Each kind, and what its figure is called in a table's heading.
KINDS: dict[str, str] = {
    "ladder": "Average %",
    "total": "Total",
    "improved": "Improvement",
    "attendance": "Evenings",
    "league": "Games won",
}
TIES: tuple[str, ...] = ("share", "sessions", "best")


class CompetitionRuleError(ValueError):
    """A competition's settings that cannot make a table (a total over two kinds of points)."""


@dataclass(frozen=True)
class CompetitionRule:
    """How a competition adds up its evenings: `kind` (above), the formats it counts, only a
    member's best `best_of` evenings (None: all), ranked from `min_sessions` evenings played,
    `ties` split so, `handicapped` (a ladder only)."""

    kind: Kind
    best_of: int | None = None
    min_sessions: int = 0
    ties: Ties = "share"
    handicapped: bool = False
    formats: tuple[str, ...] = ("event",)

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise CompetitionRuleError(problem)

    def problem(self) -> str:
        """What is wrong with these settings, in words a director can act on ("" if none)."""
        if self.kind not in KINDS:
            return f"No such competition as {self.kind!r}: choose one of {', '.join(KINDS)}."
        if self.ties not in TIES:
            return f"No such tie rule as {self.ties!r}: choose one of {', '.join(TIES)}."
        unknown = [f for f in self.formats if f not in FORMATS]
        if unknown or not self.formats:
            return "Choose at least one format: duplicate pairs, whist drives or Bid Whist teams."
        if self.best_of is not None and self.best_of < 1:
            return "'Best of' counts at least one evening; leave it empty to count them all."
        if self.min_sessions < 0:
            return "The evenings to qualify cannot be negative."
        formats = set(self.formats)
        if self.kind in ("ladder", "improved") and formats != {"event"}:
            return (
                "A ladder or most-improved competition ranks pairs percentages: count duplicate "
                "pairs events only (whist drives and Bid Whist teams have no percentage)."
            )
        if self.kind == "total" and len(formats) > 1:
            return (
                "A total adds one kind of points: pairs matchpoints, drive points or team points, "
                "never two. Count one format, or make one total competition for each."
            )
        if self.kind == "league" and formats != {"tournament"}:
            return "A league ranks Bid Whist teams' games won: count Bid Whist teams only."
        if self.kind == "attendance" and self.best_of is not None:
            return "Attendance counts every evening: leave 'best of' empty."
        if self.handicapped and self.kind != "ladder":
            return "Only a ladder can be handicapped: untick 'handicapped' or make it a ladder."
        return ""


@dataclass(frozen=True)
class TableRow:
    """One member's line: their place ("2=", "" when unqualified), the evenings played and
    counted, the figure (exact, and as shown), a detail (a ladder's best evening, a league's
    points) and whether they qualified."""

    place: str
    member_id: int
    name: str
    played: int
    counted: int
    figure: Fraction
    shown: str
    detail: str
    qualified: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "member_id": self.member_id,
            "name": self.name,
            "played": self.played,
            "counted": self.counted,
            "figure": str(self.figure),
            "shown": self.shown,
            "detail": self.detail,
            "qualified": self.qualified,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRow:
        return cls(
            place=str(data["place"]),
            member_id=int(data["member_id"]),
            name=str(data["name"]),
            played=int(data["played"]),
            counted=int(data["counted"]),
            figure=Fraction(str(data["figure"])),
            shown=str(data["shown"]),
            detail=str(data["detail"]),
            qualified=bool(data["qualified"]),
        )


@dataclass(frozen=True)
class CompetitionTable:
    """A competition's table: its kind, the heading of its figure, how many evenings it
    counted, and its rows (ranked first, then the unqualified)."""

    kind: str
    heading: str
    evenings: int
    rows: tuple[TableRow, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "heading": self.heading,
            "evenings": self.evenings,
            "rows": [row.to_dict() for row in self.rows],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CompetitionTable:
        return cls(
            kind=str(data["kind"]),
            heading=str(data["heading"]),
            evenings=int(data["evenings"]),
            rows=tuple(TableRow.from_dict(row) for row in data["rows"]),
        )


@dataclass
class _Member:
    name: str
    results: list[tuple[Fraction, Fraction]]  # (the evening's figure, its second key)


def competition_table(
    rule: CompetitionRule,
    appearances: Iterable[Appearance],
    *,
    handicaps: Mapping[Evening, Mapping[int, Fraction]] | None = None,
    baseline: Mapping[int, Fraction] | None = None,
) -> CompetitionTable:
    """The table of the competition over `appearances` (the evenings it counts, oldest first;
    those of formats it does not count are left out here). `handicaps`: a handicapped
    ladder's handicaps on each evening, member by member (`evening_handicaps`; absent: 0).
    `baseline`: most improved's average before the season, member by member
    (`averages_before`)."""
    counted = [a for a in appearances if a.format in rule.formats]
    partners: dict[tuple[Evening, str], list[Appearance]] = {}
    if rule.handicapped:
        for a in counted:
            partners.setdefault((a.evening, a.entrant), []).append(a)
    members: dict[int, _Member] = {}
    evenings: set[Evening] = set()
    for a in counted:
        if a.member_id is None:
            continue
        value = _evening_figure(rule, a, partners, handicaps or {})
        if value is None:
            continue
        evenings.add(a.evening)
        entry = members.setdefault(a.member_id, _Member(a.name, []))
        entry.name = a.name  # the latest name as played (appearances come oldest first)
        entry.results.append(value)
    lines = [
        _line(rule, member_id, entry, baseline) for member_id, entry in sorted(members.items())
    ]
    ranked = sorted((x for x in lines if x.qualified), key=_order_key(rule))
    unranked = sorted((x for x in lines if not x.qualified), key=lambda x: (-x.figure, x.name))
    rows = [*_placed(rule, ranked), *(x.row("") for x in unranked)]
    return CompetitionTable(rule.kind, KINDS[rule.kind], len(evenings), tuple(rows))


def _evening_figure(
    rule: CompetitionRule,
    a: Appearance,
    partners: Mapping[tuple[Evening, str], list[Appearance]],
    handicaps: Mapping[Evening, Mapping[int, Fraction]],
) -> tuple[Fraction, Fraction] | None:
    """One evening's (figure, second key) for the kind; None when it does not count (a pairs
    event not scored by matchpoints in a ladder)."""
    if rule.kind in ("ladder", "improved"):
        if a.percentage is None:
            return None
        if not rule.handicapped:
            return (a.percentage, ZERO)
        on_night = handicaps.get(a.evening, {})
        pair = [p for p in partners.get((a.evening, a.entrant), [a]) if p is not a]
        other = pair[0] if pair else None
        theirs = on_night.get(other.member_id, ZERO) if other and other.member_id else ZERO
        mine = on_night.get(a.member_id, ZERO) if a.member_id is not None else ZERO
        if not mine and not theirs:
            return (a.percentage, ZERO)
        return (a.percentage + pair_handicap(mine, theirs), ZERO)
    if rule.kind == "total":
        return None if a.points is None else (a.points, ZERO)
    if rule.kind == "league":
        return (a.wins or ZERO, a.points or ZERO)
    return (ONE, ZERO)  # attendance


@dataclass(frozen=True)
class _Line:
    member_id: int
    name: str
    played: int
    counted: int
    figure: Fraction
    second: Fraction
    best: Fraction
    detail: str
    qualified: bool
    shown: str

    def row(self, place: str) -> TableRow:
        return TableRow(
            place,
            self.member_id,
            self.name,
            self.played,
            self.counted,
            self.figure,
            self.shown,
            self.detail,
            self.qualified,
        )


def _line(
    rule: CompetitionRule, member_id: int, entry: _Member, baseline: Mapping[int, Fraction] | None
) -> _Line:
    """A member's figure over their best evenings, and whether they qualify."""
    # Ordered by the figures as floats: two different percentages or points of a season
    # (denominators in the thousands at most) never round to the same float, and equal ones
    # are equal as floats, so the order is the exact one, at a fraction of its cost.
    results = sorted(entry.results, key=lambda r: (float(r[0]), float(r[1])), reverse=True)
    best = results[: rule.best_of] if rule.best_of else results
    played = len(results)
    qualified = played >= rule.min_sessions
    top = best[0][0]
    figures = [f for f, _ in best]
    second = exact_sum(s for _, s in best)
    detail = ""
    shown: str | None = None
    if rule.kind == "ladder":
        figure = exact_sum(figures) / len(figures)
        detail = f"best {format_points(top)}"
    elif rule.kind == "total":
        figure = exact_sum(figures)
        detail = f"best {format_points(top)}"
    elif rule.kind == "improved":
        average = exact_sum(figures) / len(figures)
        before = (baseline or {}).get(member_id)
        if before is None:
            figure = Fraction(0)
            qualified = False
            shown = ""
            detail = f"{format_points(average)}; no average before the season"
        else:
            figure = average - before
            detail = f"{format_points(average)} against {format_points(before)}"
    elif rule.kind == "league":
        figure = exact_sum(figures)
        detail = f"{_shown('league', second)} points"
    else:
        figure = Fraction(played)
    if shown is None:
        shown = _shown(rule.kind, figure)
    return _Line(
        member_id, entry.name, played, len(best), figure, second, top, detail, qualified, shown
    )


def _shown(kind: str, figure: Fraction) -> str:
    """The figure as a table prints it: two decimals, a sign for an improvement, whole numbers
    for attendance, and games won with a half only when there is one."""
    if kind == "attendance":
        return format_points(figure, 0)
    if kind == "league":
        return format_points(figure, 0) if figure.denominator == 1 else format_points(figure, 1)
    text = format_points(figure)
    return f"+{text}" if kind == "improved" and figure > 0 else text


def _order_key(rule: CompetitionRule) -> Any:
    """Best first: the figure (a league's wins then points then evenings), then the tie rule,
    then the name (for a stable listing of members who share a place)."""

    def key(line: _Line) -> tuple[Any, ...]:
        return (*_level(rule, line), line.name.casefold(), line.member_id)

    return key


def _level(rule: CompetitionRule, line: _Line) -> tuple[Fraction | int, ...]:
    """What decides between two members: equal here, they share the place."""
    if rule.kind == "league":
        base: tuple[Fraction | int, ...] = (-line.figure, -line.second, -line.played)
    else:
        base = (-line.figure,)
    if rule.ties == "sessions":
        return (*base, -line.played)
    if rule.ties == "best" and rule.kind != "attendance":
        return (*base, -line.best)
    return base


def _placed(rule: CompetitionRule, lines: Sequence[_Line]) -> list[TableRow]:
    """Places in standard competition ranking, "=" on members level after the tie rule."""
    levels = [_level(rule, line) for line in lines]
    rows = []
    for i, line in enumerate(lines):
        first = i
        while first > 0 and levels[first - 1] == levels[i]:
            first -= 1
        tied = (i > 0 and levels[i - 1] == levels[i]) or (
            i + 1 < len(levels) and levels[i + 1] == levels[i]
        )
        rows.append(line.row(f"{first + 1}{'=' if tied else ''}"))
    return rows


def evening_handicaps(
    appearances: Iterable[Appearance],
    rule: HandicapRule,
    *,
    fixed_at: dt.date | None = None,
) -> dict[Evening, dict[int, Fraction]]:
    """Each pairs evening's handicaps of the members who played it: from their pairs
    percentages of evenings dated before it (fluctuating), or before `fixed_at` for every
    evening (fixed at the season's start). `appearances` must include the history before the
    season (the handicap window reaches back). Members without a handicap are absent (0).

    One pass in date order, so a season of a hundred and fifty evenings costs one sort, not a
    hundred and fifty scans.

    >>> import datetime as dt
    >>> from fractions import Fraction as F
    >>> def night(day, pct):
    ...     return Appearance("event", day, "", dt.date(2025, 1, day), "NS1", 7, "A", "1", 8,
    ...                       percentage=F(pct))
    >>> found = evening_handicaps([night(1, 45), night(2, 45), night(3, 45), night(4, 60)],
    ...                           HandicapRule(window=10, min_sessions=3))
    >>> found[("event", 4)]
    {7: Fraction(5, 1)}
    """
    pairs = sorted(
        (a for a in appearances if a.format == "event" and a.percentage is not None),
        key=lambda a: (a.date, a.play_id),
    )
    history: dict[int, list[Fraction]] = {}
    found: dict[Evening, dict[int, Fraction]] = {}
    fixed: dict[int, Fraction] | None = None
    i = 0
    while i < len(pairs):
        day = pairs[i].date
        j = i
        while j < len(pairs) and pairs[j].date == day:
            j += 1
        if fixed_at is not None and day >= fixed_at and fixed is None:
            fixed = handicaps_standing(history, rule)
        for a in pairs[i:j]:
            if a.member_id is None:
                continue
            if fixed is not None:
                figure = fixed.get(a.member_id)
            else:
                figure = handicap_if_any(history.get(a.member_id, []), rule)
            if figure is not None:
                found.setdefault(a.evening, {})[a.member_id] = figure
        for a in pairs[i:j]:
            if a.member_id is not None:
                history.setdefault(a.member_id, []).append(cast(Fraction, a.percentage))
        i = j
    return found


def averages_before(
    appearances: Iterable[Appearance], rule: HandicapRule, before: dt.date
) -> dict[int, Fraction]:
    """Each member's average pairs percentage over their last `rule.window` evenings dated
    before `before`, for those with at least `rule.min_sessions` of them (at least one):
    most improved's baseline, taken over the season's handicap window.

    >>> import datetime as dt
    >>> from fractions import Fraction as F
    >>> rows = [Appearance("event", d, "", dt.date(2024, 12, d), "NS1", 3, "C", "1", 8,
    ...                    percentage=F(p)) for d, p in ((1, 40), (2, 50), (3, 48))]
    >>> averages_before(rows, HandicapRule(window=2, min_sessions=2), dt.date(2025, 1, 1))
    {3: Fraction(49, 1)}
    """
    history: dict[int, list[tuple[dt.date, int, Fraction]]] = {}
    for a in appearances:
        if a.format != "event" or a.member_id is None or a.percentage is None:
            continue
        if a.date < before:
            history.setdefault(a.member_id, []).append((a.date, a.play_id, a.percentage))
    found = {}
    for member, rows in history.items():
        rows.sort()
        recent = [p for _, _, p in rows][-rule.window :]
        if len(recent) >= max(rule.min_sessions, 1):
            found[member] = exact_sum(recent) / len(recent)
    return found
