"""Pairings made from results, one round at a time: the first round's draw, king of the hill (a
ladder, or winners and losers in halves) and Swiss.

These rotations cannot be printed in advance: each round is made when the last result of the
round before is in, so each must be quick and must never leave a team without a game. The fixed
rotations (round robin, moving team) are in `engine.teams.schedule`.

- `first_round`: a seeded random draw, with the teams of one city kept apart as far as the
  cities allow.
- `next_round_by_result`, `form="ladder"`: the winner at each table moves up a table and the
  loser down; `form="halves"`: the winners play each other, and so do the losers.
- `swiss_round`: teams with equal records who have not met, with a guarantee: no rematch while
  the round can be paired without one.

Byes (an odd number of teams): the bye goes to a team that has had the fewest byes (none, until
every team has had one), the lowest placed of them; in a Swiss, and in halves, only among the
teams whose bye still lets the round be paired without a rematch, when there are any (else a
second bye rather than a rematch). A team coming back from a bye joins at the bottom. The
exact rules are in each function's docstring.

>>> r1 = swiss_round(1, [1, 2, 3, 4, 5], history=(), byes_had=())
>>> [p.teams for p in r1.tables], r1.byes
([(1, 3), (2, 4)], (5,))
>>> played = {frozenset(p.teams) for p in r1.tables}
>>> r2 = swiss_round(2, [1, 2, 5, 3, 4], played, [5], scores={1: 1, 2: 1, 5: 1, 3: 0, 4: 0})
>>> [p.teams for p in r2.tables], r2.byes
([(1, 2), (5, 3)], (4,))
>>> ladder = next_round_by_result(r2, {1: 2, 2: 3}, byes_had=[5])
>>> [p.teams for p in ladder.tables], ladder.byes
([(2, 3), (5, 4)], (1,))
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Literal

from engine.teams.model import Pairing, Round, Team, TeamsError, check_round
from engine.teams.schedule import check_teams

__all__ = ["first_round", "next_round_by_result", "swiss_round"]


def first_round(teams: Sequence[Team], seed: int = 0) -> Round:
    """Round 1 drawn at random (repeatable: `random.Random(seed)`): the teams in drawn order
    pair off, the first of each pair sitting NS, an odd team out has the bye. Then, for each
    table of two teams of one city in turn, its EW team changes places with the EW team of the
    nearest table with no team of that city; this leaves the fewest same-city games possible
    (none unless one city has more than half the teams)."""
    numbers = check_teams(teams)
    place = {team.number: team.place for team in teams}
    order = numbers + [0] * (len(numbers) % 2)  # 0: the bye
    random.Random(seed).shuffle(order)
    pairs = [[order[i], order[i + 1]] for i in range(0, len(order), 2)]
    _apart(pairs, place)
    tables = tuple(
        Pairing(t, home, away)
        for t, (home, away) in enumerate((p for p in pairs if 0 not in p), start=1)
    )
    byes = tuple(p[0] or p[1] for p in pairs if 0 in p)
    round_ = Round(1, tables, byes)
    check_round(round_, numbers)
    return round_


def next_round_by_result(
    previous: Round,
    winners: Mapping[int, int | None],
    form: Literal["ladder", "halves"] = "ladder",
    history: Collection[frozenset[int]] = (),
    byes_had: Collection[int] = (),
) -> Round:
    """The next round of king of the hill from the winners of `previous` (table -> winning
    team; None for a drawn game, which counts as won by the home team).

    `"ladder"`: table 1 is the top. The winner at each table moves up one table (table 1's winner
    stays) and the loser down one (the last table's loser stays), so table 1 has its own winner
    (NS) and table 2's; each middle table t has the winner coming up from table t + 1 (NS) and
    the loser coming down from table t - 1; the last table has the loser coming down (NS) and its
    own loser. Who meets whom is fixed: a ladder does not look at rematches.

    `"halves"`: the winners, best table first, then the losers the same way, are paired as in
    `swiss_round` with the winners one score group above the losers: winners play winners and
    losers play losers, nearest first, without a rematch (of `history` or `previous`) while the
    round can be paired without one; with an odd number of tables the last winner plays the top
    loser. The team placed higher sits NS.

    Byes: last round's bye team joins at the bottom (below the last table's teams). With an odd
    number of teams the bye goes to the lowest placed team of those with the fewest byes
    (`byes_had` and last round's), and the teams below it close up (in a ladder the last table
    is then the team coming down and the team back from its bye, when the last table's loser
    takes the bye); in halves, as in `swiss_round`, only among the teams that leave a round
    without a rematch if there are any."""
    if form not in ("ladder", "halves"):
        raise TeamsError(f"a result-driven round is 'ladder' or 'halves', not {form!r}")
    if not previous.tables:
        raise TeamsError(f"round {previous.number} has no tables: there are no results to follow")
    won, lost = _results(previous, winners)
    byes = Counter(byes_had)
    for team in previous.byes:
        byes[team] = max(byes[team], 1)
    number = previous.number + 1
    if form == "ladder":
        last = len(won) - 1
        order = [won[0], won[1] if last else lost[0]]
        for t in range(1, last):
            order += [won[t + 1], lost[t - 1]]
        if last:
            order += [lost[last - 1], lost[last]]
        order += previous.byes
        bye: list[int] = []
        if len(order) % 2:
            bye.append(order.pop(_lowest_with_fewest(order, byes)))
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        return _round(number, pairs, bye, previous.teams())
    order = [*won, *lost, *previous.byes]
    groups = [0] * len(won) + [1] * (len(order) - len(won))
    met = [*history, *(frozenset(p.teams) for p in previous.tables)]
    index_pairs, sitting = _pair(order, groups, [-1 - i for i in range(len(order))], met, byes)
    pairs = [(order[i], order[j]) for i, j in index_pairs]
    return _round(number, pairs, [order[i] for i in sitting], previous.teams())


def swiss_round(
    number: int,
    standings: Sequence[int],
    history: Collection[frozenset[int]],
    byes_had: Collection[int],
    cities: Mapping[int, str] | None = None,
    scores: Mapping[int, float] | None = None,
    homes: Mapping[int, int] | None = None,
) -> Round:
    """One Swiss round from the standings (team numbers, best first), the pairs that have
    already played (`history`) and the byes so far (`byes_had`: a team once per bye).

    Order: by `scores` (each team's record, e.g. games won; a score group is the teams of one
    score), best first, the standings' order within a score; without scores the standings alone.

    Round 1 (no two teams have met): the top half of the order plays the bottom half, first
    against first (1 v 6, 2 v 7, ... of 10); teams of one city are then kept apart as far as
    the cities allow, by changing bottom-half teams between the nearest tables.

    Later rounds: each team in turn from the top, not yet paired, plays the nearest team below
    it that it has not met, trying its own score group first, then each lower group (so the odd
    team of a group floats down to the next), and, within a group, teams of another city before
    teams of its own (`cities`); but only if the teams still unpaired can then all be paired
    without a rematch. Checking that is a maximum matching (Edmonds' blossom algorithm) on the
    teams that have not met, so the round has no rematch whenever a pairing without one exists
    (bye included), in polynomial time; it is exactly what a complete backtracking search that
    tries the nearest team first would find. When every pairing has rematches, the round has as
    few as possible, each team again taking the nearest partner that keeps that number.

    The bye (an odd number of teams): the lowest placed team of those with the fewest byes,
    among the teams whose bye leaves a round without a rematch if there are any (a second bye
    rather than a rematch).

    Home (NS): the team that has sat EW more often than NS by the greater margin, when `homes`
    gives each team's games at home (their games played are counted in `history`); otherwise,
    and on a tie, the higher placed."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise TeamsError(f"rounds are numbered from 1, not {number!r}")
    order = _standings(standings)
    if scores is not None:
        missing = [team for team in order if team not in scores]
        if missing:
            raise TeamsError(f"scores: no score for team {missing[0]}; give every team's record")
        order.sort(key=lambda team: -scores[team])
    groups = _groups([scores[team] for team in order] if scores is not None else [0] * len(order))
    codes = _city_codes(order, cities or {})
    byes = Counter(byes_had)
    index = {team: i for i, team in enumerate(order)}
    played: Counter[int] = Counter()
    for pair in history:
        played.update(_pair_of(pair))
    if any(a in index and b in index for a, b in map(_pair_of, history)):
        index_pairs, sitting = _pair(order, groups, codes, history, byes)
    else:
        index_pairs, sitting = _top_against_bottom(order, codes, byes)
    balance = {t: 2 * (homes or {}).get(t, 0) - played[t] for t in order} if homes else {}
    pairs = []
    for i, j in index_pairs:
        high, low = order[min(i, j)], order[max(i, j)]
        if balance and balance[low] < balance[high]:
            high, low = low, high
        pairs.append((high, low))
    return _round(number, pairs, [order[i] for i in sitting], order)


def _results(previous: Round, winners: Mapping[int, int | None]) -> tuple[list[int], list[int]]:
    """Each table's winner and loser, in table order; a drawn game counts as won at home."""
    numbers = {p.table for p in previous.tables}
    extra = sorted(set(winners) - numbers)
    if extra:
        raise TeamsError(
            f"round {previous.number} has tables 1 to {len(numbers)}: there is no table {extra[0]}"
        )
    won, lost = [], []
    for p in previous.tables:
        if p.table not in winners:
            raise TeamsError(
                f"round {previous.number}, table {p.table}: no result; give the winning team "
                "(None for a drawn game)"
            )
        winner = winners[p.table]
        if winner is None:
            winner = p.home
        elif winner not in p.teams:
            raise TeamsError(
                f"round {previous.number}, table {p.table}: team {winner} did not play there "
                f"(teams {p.home} and {p.away} did)"
            )
        won.append(winner)
        lost.append(p.away if winner == p.home else p.home)
    return won, lost


def _standings(standings: Sequence[int]) -> list[int]:
    order = list(standings)
    for team in order:
        if isinstance(team, bool) or not isinstance(team, int) or team < 1:
            raise TeamsError(f"standings: teams are numbered from 1: {team!r} is not a team")
    if len(order) < 2:
        raise TeamsError(f"a round needs at least 2 teams, not {len(order)}")
    twice = [team for team, count in Counter(order).items() if count > 1]
    if twice:
        raise TeamsError(f"standings: team {twice[0]} is placed twice; each team has one place")
    return order


def _pair_of(pair: frozenset[int]) -> tuple[int, int]:
    if len(pair) != 2:
        raise TeamsError(f"history: {sorted(pair)} is not a pair of teams that have played")
    a, b = pair
    return a, b


def _groups(scores: Sequence[float]) -> list[int]:
    """Each place's score group (0 the best), the places being in order of score."""
    groups = [0] * len(scores)
    for i in range(1, len(scores)):
        groups[i] = groups[i - 1] + (scores[i] != scores[i - 1])
    return groups


def _city_codes(order: Sequence[int], cities: Mapping[int, str]) -> list[int]:
    """Each place's city as a number; a team with no city gets one of its own (negative)."""
    known: dict[str, int] = {}
    codes = []
    for i, team in enumerate(order):
        name = " ".join(cities.get(team, "").split()).casefold()
        codes.append(known.setdefault(name, len(known)) if name else -1 - i)
    return codes


def _lowest_with_fewest(order: Sequence[int], byes: Mapping[int, int]) -> int:
    """The place of the bye: the lowest placed team of those with the fewest byes."""
    return max(range(len(order)), key=lambda i: (-byes.get(order[i], 0), i))


def _top_against_bottom(
    order: Sequence[int], codes: Sequence[int], byes: Mapping[int, int]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Round 1: the bye, then the top half against the bottom half, cities kept apart."""
    places = list(range(len(order)))
    sitting = [places.pop(_lowest_with_fewest(order, byes))] if len(order) % 2 else []
    half = len(places) // 2
    pairs = [[places[i], places[i + half]] for i in range(half)]
    _apart(pairs, {p: str(codes[p]) if codes[p] >= 0 else "" for p in places})
    return [(a, b) for a, b in pairs], sitting


def _apart(pairs: list[list[int]], place: Mapping[int, str]) -> None:
    """For each pair of one city in turn, swap its second team with that of the nearest pair
    with no team of that city. Each swap leaves one same-city pair fewer; a pair left alone has
    a city on every table, so its games are forced: the fewest possible remain."""
    for i, pair in enumerate(pairs):
        city = place.get(pair[0], "")
        if not city or place.get(pair[1], "") != city:
            continue
        for j in sorted(range(len(pairs)), key=lambda j: (abs(j - i), j)):
            if city not in (place.get(pairs[j][0], ""), place.get(pairs[j][1], "")):
                pair[1], pairs[j][1] = pairs[j][1], pair[1]
                break


def _pair(
    order: Sequence[int],
    groups: Sequence[int],
    codes: Sequence[int],
    history: Collection[frozenset[int]],
    byes: Mapping[int, int],
) -> tuple[list[tuple[int, int]], list[int]]:
    """The places (indices of `order`) that meet, and the place with the bye, if any."""
    index = {team: i for i, team in enumerate(order)}
    met: list[set[int]] = [set() for _ in order]
    for pair in history:
        a, b = _pair_of(pair)
        if a in index and b in index:
            met[index[a]].add(index[b])
            met[index[b]].add(index[a])
    pairing = _Pairing(met, groups, codes)
    sitting = [pairing.sit_out([byes.get(team, 0) for team in order])] if len(order) % 2 else []
    return pairing.pairs(), sitting


def _round(
    number: int, pairs: Sequence[tuple[int, int]], byes: Sequence[int], teams: Collection[int]
) -> Round:
    tables = tuple(Pairing(t, home, away) for t, (home, away) in enumerate(pairs, start=1))
    round_ = Round(number, tables, tuple(byes))
    check_round(round_, teams)
    return round_


class _Pairing:
    """Places 0..n-1 (best first) to pair, `met[p]` the places p has played. It keeps a maximum
    matching of the graph of places that have not met (`mate`, -1 for none), grown and repaired
    by Edmonds' blossom search, so that each pair taken can be checked to leave the rest as
    well paired as before (no more rematches than the fewest possible)."""

    def __init__(self, met: list[set[int]], groups: Sequence[int], codes: Sequence[int]) -> None:
        self.n = len(met)
        self.met = met
        self.codes = codes
        self.alive = [True] * self.n
        self.mate = [-1] * self.n
        self.spans: list[tuple[int, int]] = []  # each score group's places, first and past last
        for p, group in enumerate(groups):
            if p == 0 or group != groups[p - 1]:
                self.spans.append((p, p))
            self.spans[-1] = (self.spans[-1][0], p + 1)
        self.span_of = [0] * self.n
        for s, (first, past) in enumerate(self.spans):
            self.span_of[first:past] = [s] * (past - first)
        for p in range(self.n):  # greedily, nearest first ...
            if self.mate[p] == -1:
                for q in self._candidates(p):
                    if self.mate[q] == -1 and q not in met[p]:
                        self.mate[p], self.mate[q] = q, p
                        break
        for p in range(self.n):  # ... then grown to a maximum matching
            if self.mate[p] == -1:
                end, _, parent = self._search(p)
                if end >= 0:
                    self._augment(end, parent)
        self.size = sum(1 for q in self.mate if q >= 0) // 2
        self.count = self.n

    def _candidates(self, p: int) -> Iterator[int]:
        """The unpaired places below p, by preference: p's score group, then each lower one;
        within a group, nearest first, another city before p's own."""
        alive, codes, code = self.alive, self.codes, self.codes[p]
        for first, past in self.spans[self.span_of[p] :]:
            same = []
            for q in range(max(first, p + 1), past):
                if alive[q]:
                    if codes[q] == code:
                        same.append(q)
                    else:
                        yield q
            yield from same

    def sit_out(self, byes: Sequence[int]) -> int:
        """Take the bye's place out: among the places some maximum matching leaves unpaired (the
        even places of Edmonds' search from each unpaired place), the lowest with fewest byes."""
        can: set[int] = set()
        for p in range(self.n):
            if self.mate[p] == -1:
                _, even, _ = self._search(p)
                can.update(q for q in range(self.n) if even[q])
        bye = max(can, key=lambda p: (-byes[p], p))
        self.alive[bye] = False
        self.count -= 1
        partner = self.mate[bye]
        if partner >= 0:
            self.mate[bye] = self.mate[partner] = -1
            end, _, parent = self._search(partner)  # found: the bye left a maximum unpaired
            self._augment(end, parent)
        return bye

    def pairs(self) -> list[tuple[int, int]]:
        """Each place from the top takes the first candidate (not met first) that keeps the
        matching as large as it can be."""
        out = []
        for p in range(self.n):
            if self.alive[p]:
                out.append((p, self._take(p)))
        return out

    def _take(self, p: int) -> int:
        for q in self._candidates(p):
            if q not in self.met[p] and self._try(p, q, rematch=False):
                return q
        for q in self._candidates(p):
            if q in self.met[p] and self._try(p, q, rematch=True):
                return q
        raise AssertionError(f"place {p} cannot be paired")  # a maximum matching always can

    def _try(self, p: int, q: int, rematch: bool) -> bool:
        """Pair p with q if the places left can still be paired with no more rematches than
        now: the matching, less p and q, must reach its size less one (less none for a
        rematch); only the places p and q were paired with can start a path that grows it."""
        mate, alive = self.mate, self.alive
        if rematch and self.count // 2 == self.size:
            return False
        alive[p] = alive[q] = False
        self.count -= 2
        if mate[p] == q:
            mate[p] = mate[q] = -1
            self.size -= 1
            return True
        target = self.size if rematch else self.size - 1
        saved = mate[:]
        freed = [r for r in (mate[p], mate[q]) if r >= 0]
        for r in (p, q):
            if mate[r] >= 0:
                mate[mate[r]] = -1
                mate[r] = -1
        size = self.size - len(freed)
        if len(freed) == 2 and freed[1] not in self.met[freed[0]]:
            mate[freed[0]], mate[freed[1]] = freed[1], freed[0]
            size += 1
        failed: set[int] = set()
        for root in [*freed, *range(self.n)]:
            if size >= target:
                break
            if not alive[root] or mate[root] >= 0 or root in failed:
                continue
            if all(r in failed for r in range(self.n) if alive[r] and mate[r] < 0 and r != root):
                break  # a path from root could only end where none starts
            end, _, parent = self._search(root)
            if end >= 0:
                self._augment(end, parent)
                size += 1
            else:
                failed.add(root)
        if size < target:
            mate[:] = saved
            alive[p] = alive[q] = True
            self.count += 2
            return False
        self.size = size
        return True

    def _search(self, root: int) -> tuple[int, list[bool], list[int]]:
        """Edmonds' search for an augmenting path from the unpaired `root` (breadth first,
        blossoms shrunk to their base): the path's other end (-1 if none), the even places
        reached (those some maximum matching leaves unpaired, when none is found) and the
        parents to follow back."""
        n, mate, alive, met = self.n, self.mate, self.alive, self.met
        parent = [-1] * n
        base = list(range(n))
        even = [False] * n
        even[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            played = met[v]
            for to in range(n):
                if not alive[to] or to == v or to in played or base[v] == base[to]:
                    continue
                if mate[v] == to:
                    continue
                if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                    stem = self._stem(v, to, base, parent)
                    blossom = [False] * n
                    self._mark(v, stem, to, base, parent, blossom)
                    self._mark(to, stem, v, base, parent, blossom)
                    for u in range(n):
                        if blossom[base[u]]:
                            base[u] = stem
                            if not even[u]:
                                even[u] = True
                                queue.append(u)
                elif parent[to] < 0:
                    parent[to] = v
                    if mate[to] < 0:
                        return to, even, parent
                    even[mate[to]] = True
                    queue.append(mate[to])
        return -1, even, parent

    def _stem(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        """The base of the blossom closed by the edge a-b: their lowest common even ancestor."""
        mate = self.mate
        on_path = [False] * self.n
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] < 0:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def _mark(
        self, v: int, stem: int, child: int, base: list[int], parent: list[int], blossom: list[bool]
    ) -> None:
        mate = self.mate
        while base[v] != stem:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def _augment(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        while end >= 0:
            before = parent[end]
            after = mate[before]
            mate[end], mate[before] = before, end
            end = after
