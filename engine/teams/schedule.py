"""The rotations fixed before play: a round robin and a moving team, and what checks a schedule.

An organiser who knows the teams in advance can print the whole night's tables before the first
game: a round robin (everyone meets everyone, or as many rounds of it as the night allows) or a
moving team (one team of each table stays, the other moves on). Both are built over places
(positions of the circle, or tables and movers), and teams are put into places; the teams of
one city are spread over the places so that they meet each other as little as the rotation
allows. The result-driven pairings (king of the hill, Swiss) are in `engine.teams.swiss`.

- `round_robin`: Berger tables (the circle method). A full round robin of n teams has n - 1
  rounds (n even) or n rounds (n odd, one bye a round, every team's bye in a different round);
  same-city games cannot be avoided in it. With fewer rounds the teams are placed, and if that
  is not enough the rounds re-paired, to play as few same-city games as the search can find.
  Every team's home and away games alternate, two by two at worst.
- `moving_team`: a Mitchell movement; home teams stay, away teams move up one table a round.
- `same_city_games`, `same_city_floor`: the same-city games of a schedule, and the fewest any
  schedule without rematches can have (a proven lower bound).
- `rematches`: every game between teams that have met before.

Everything is deterministic: the search for fewer same-city games is a fixed number of steps of
simulated annealing driven by `random.Random(seed)`, never by the clock.

>>> teams = [Team(n) for n in range(1, 6)]
>>> rounds = round_robin(teams)
>>> len(rounds), rounds[0].byes, [p.teams for p in rounds[0].tables]
(5, (1,), [(2, 5), (4, 3)])
>>> rematches(rounds)
[]
>>> [p.teams for p in moving_team([Team(n) for n in range(1, 7)], rounds=2)[1].tables]
[(1, 6), (2, 4), (3, 5)]
>>> cities = [Team(n, city="Akron" if n <= 4 else "Dayton") for n in range(1, 9)]
>>> same_city_floor(cities, 3), same_city_games(round_robin(cities, rounds=3), cities)
(0, 0)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from engine.teams.model import Pairing, Round, Team, TeamsError, check_round

__all__ = [
    "check_teams",
    "moving_team",
    "rematches",
    "round_robin",
    "same_city_floor",
    "same_city_games",
]

#: The same-city search's budget: steps times rounds (a step costs about one pass over a team's
#: opponents), so a schedule of many rounds takes fewer, dearer steps.
SEARCH_WORK = 600_000

#: The place of the bye in a schedule of an odd number of teams (team numbers start at 1).
_BYE = 0


def check_teams(teams: Sequence[Team]) -> list[int]:
    """The teams' numbers, after checking there are two or more, each numbered once from 1."""
    if len(teams) < 2:
        raise TeamsError(
            f"a schedule needs at least 2 teams, not {len(teams)}: enter the teams first"
        )
    numbers: list[int] = []
    seen: set[int] = set()
    for team in teams:
        number = team.number
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise TeamsError(f"teams are numbered from 1: {number!r} is not a team number")
        if number in seen:
            raise TeamsError(
                f"team number {number} is given to two teams: each team needs its own number"
            )
        seen.add(number)
        numbers.append(number)
    return numbers


def same_city_games(rounds: Iterable[Round], teams: Sequence[Team]) -> int:
    """How many games in `rounds` are between two teams of the same city (unknown: none)."""
    place = {team.number: team.place for team in teams}
    return sum(
        1
        for round_ in rounds
        for p in round_.tables
        if place.get(p.home, "") and place.get(p.home) == place.get(p.away)
    )


def same_city_floor(teams: Sequence[Team], rounds: int) -> int:
    """The fewest same-city games that any `rounds` rounds without a rematch (and, for an odd
    number of teams, without a second bye) can have: a proven lower bound, exact in a full round
    robin (where every pair meets); a schedule may be unable to reach it.

    With m places (the teams, and the bye for an odd number), a city of c teams plays at least
    c - m/2 games among itself every round (only m - c places hold anyone else), and each of its
    teams meets at most m - c others, so at least rounds - (m - c) teams of its own city. The
    bound is the larger of the two, summed over the cities."""
    numbers = check_teams(teams)
    size = len(numbers) + len(numbers) % 2
    _check_rounds(rounds, size - 1, f"{len(numbers)} teams meet each other in {size - 1} rounds")
    total = 0
    for count in Counter(team.place for team in teams if team.place).values():
        each_round = rounds * max(0, count - size // 2)
        each_team = -(-count * max(0, rounds - (size - count)) // 2)
        total += max(each_round, each_team)
    return total


def rematches(rounds: Iterable[Round]) -> list[tuple[int, int, int]]:
    """Every game between two teams that have met before in `rounds`: (round, lower team,
    higher team), in the order played."""
    met: set[frozenset[int]] = set()
    found = []
    for round_ in rounds:
        for p in round_.tables:
            pair = frozenset(p.teams)
            if pair in met:
                found.append((round_.number, min(p.teams), max(p.teams)))
            met.add(pair)
    return found


def round_robin(teams: Sequence[Team], rounds: int | None = None, seed: int = 0) -> list[Round]:
    """A round robin by Berger tables, or its first `rounds` rounds with few same-city games.

    The places are a circle of n - 1 (n even) around one fixed place, team k of the entry order
    at place k. Each round the fixed place meets the place the round has come to, and the places
    either side of that one meet in pairs outward; the next round turns the circle one place on.
    For an odd number of teams the fixed place is the bye, so team k has its bye in round k.
    Home (NS) and away (EW) follow Berger's alternation, so that at every point of the night each
    team has been home at most one game more than away, or away one more than home (never three
    times running on one side; over the whole round robin the counts differ by one at most).

    With fewer rounds than the full round robin, and some city with two teams or more, a search
    of `SEARCH_WORK` / `rounds` steps (seeded) first moves teams between the places (the bye
    keeps the fixed place); if that leaves more same-city games than `same_city_floor`, it also
    re-pairs tables within rounds, always with teams that meet nowhere else, and keeps the new
    rounds if they have fewer same-city games, put back to Berger's pairs wherever that costs
    none. Re-paired rounds then give NS so that each team's games, two at a time in the order
    played (1st and 2nd, 3rd and 4th, ...), are one home and one away: the same promise as
    Berger's. The search stops as soon as it reaches `same_city_floor`."""
    numbers = check_teams(teams)
    size = len(numbers) + len(numbers) % 2
    full = size - 1
    played = full if rounds is None else rounds
    _check_rounds(
        played,
        full,
        f"a round robin of {len(numbers)} teams has {full} rounds; more would be rematches "
        f"(a Swiss can go on longer)",
    )
    items = numbers + [_BYE] * (size - len(numbers))
    codes = _codes(teams, items)
    plan = [_berger(size, r) for r in range(played)]
    if played < full and _has_pairs_of_a_city(codes):
        bye = size > len(numbers)
        plan = _fewer_same_city(plan, codes, same_city_floor(teams, played), seed, bye)
    return [
        _round(number, [(items[h], items[a]) for h, a in pairs], numbers)
        for number, pairs in enumerate(plan, start=1)
    ]


def _fewer_same_city(
    plan: list[list[tuple[int, int]]], codes: list[int], floor: int, seed: int, odd: bool
) -> list[list[tuple[int, int]]]:
    """Berger rounds over places, as (home, away) teams (indices into `codes`) with few
    same-city games: first the teams are moved between places (the bye, if any, keeps the
    fixed place, so that Berger's alternation holds between byes); if that leaves more than
    `floor`, the rounds are re-paired, then put back to Berger's pairs wherever that costs
    nothing, and NS and EW are given again (`_alternate`)."""
    size = len(codes)
    partners = [_partners(size, pairs) for pairs in plan]
    bye = size - 1 if odd else -1  # the bye's item, and its place
    search = _Search(partners, codes, frozenset({bye}) if bye >= 0 else frozenset())
    if search.cost <= floor:
        return plan
    rng = random.Random(seed)
    steps = max(2_000, SEARCH_WORK // len(plan))
    search.run(rng, steps, floor, rewire=False)
    placed = search.best_places
    if search.best_cost > floor:
        rewired = _Search(search.best_partners, search.best_codes)
        rewired.run(rng, steps, floor, rewire=True)
        if rewired.best_cost < search.best_cost:
            rewired.restore(partners)
            placed = [placed[p] for p in rewired.best_places]
            berger = {(r, placed[h], placed[a]) for r, pairs in enumerate(plan) for h, a in pairs}
            rounds = [[(placed[p], placed[q]) for p, q in row] for row in rewired.best_pairs()]
            return _alternate(rounds, berger, bye)
    return [[(placed[h], placed[a]) for h, a in pairs] for pairs in plan]


def moving_team(teams: Sequence[Team], rounds: int, seed: int = 0) -> list[Round]:
    """A moving-team rotation (a Mitchell movement) of `rounds` rounds.

    Half the teams are home teams: each sits North-South at its own table all night. The other
    half move: after each round every moving team goes up one table, from the last table to table
    1, so the home team at table t meets in round r the mover that started at table t - r + 1.
    With m/2 tables (m the number of teams, rounded up to even) the movement plays m/2 rounds
    before anyone meets again. For an odd number of teams the last table is a bye table: the
    moving teams pass through it, so each sits out once at most and the others keep their table
    numbers.

    Who stays and who moves, and in what order they start, come from the entry order (the first
    half stay at tables 1, 2, ...), changed by the search only as far as it lowers the number of
    same-city games."""
    numbers = check_teams(teams)
    size = len(numbers) + len(numbers) % 2
    tables = size // 2
    _check_rounds(
        rounds,
        tables,
        f"a moving team of {len(numbers)} teams ({tables} tables"
        + (", one of them the bye" if size > len(numbers) else "")
        + f") plays {tables} rounds before teams meet again; a round robin or a Swiss goes on",
    )
    bye = size > len(numbers)
    plan = [[(t, tables + (t - r) % tables) for t in range(tables)] for r in range(rounds)]
    partners = [_partners(size, pairs) for pairs in plan]
    fixed = frozenset({tables - 1}) if bye else frozenset()
    items = _stay_then_move(numbers, tables - bye, bye)
    search = _Search(partners, _codes(teams, items), fixed)
    floor = same_city_floor(teams, rounds)
    if search.cost > floor:
        # Whole cities on one side never meet: fill the home side with whole cities first.
        place = {team.number: team.place for team in teams}
        by_city = _by_city(numbers, place, tables - bye)
        grouped = _stay_then_move(by_city, tables - bye, bye)
        start = _Search(partners, _codes(teams, grouped), fixed)
        if start.cost < search.cost:
            items, search = grouped, start
        search.run(random.Random(seed), max(2_000, SEARCH_WORK // rounds), floor, False)
        items = [items[p] for p in search.best_places]
    return [
        _round(number, [(items[h], items[a]) for h, a in pairs], numbers)
        for number, pairs in enumerate(plan, start=1)
    ]


def _stay_then_move(numbers: Sequence[int], stay: int, bye: bool) -> list[int]:
    """The places of a moving team: the home teams, the bye table, then the movers."""
    return [*numbers[:stay], *([_BYE] if bye else []), *numbers[stay:]]


def _by_city(numbers: Sequence[int], place: dict[int, str], stay: int) -> list[int]:
    """The teams reordered so that the first `stay` (the home teams) are as many whole cities
    as fit (the most teams a subset of the cities' sizes makes, up to `stay`), the rest after."""
    groups: dict[tuple[str, int], list[int]] = {}
    for number in numbers:
        groups.setdefault((place[number], 0) if place[number] else ("", number), []).append(number)
    cities = sorted(groups.values(), key=len, reverse=True)
    last_city = [-1] * (stay + 1)  # the city that first made each total reachable
    reach = [True] + [False] * stay
    for index, city in enumerate(cities):
        for total in range(stay, len(city) - 1, -1):
            if not reach[total] and reach[total - len(city)]:
                reach[total], last_city[total] = True, index
    total = max(t for t in range(stay + 1) if reach[t])
    home: set[int] = set()
    while total:
        home.add(last_city[total])
        total -= len(cities[last_city[total]])
    first = [n for i, city in enumerate(cities) if i in home for n in city]
    rest = [n for i, city in enumerate(cities) if i not in home for n in city]
    return first + rest


def _check_rounds(rounds: int, most: int, why: str) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise TeamsError(f"the number of rounds is 1 or more, not {rounds!r}")
    if rounds > most:
        raise TeamsError(f"{why}: ask for {most} rounds or fewer, not {rounds}")


def _codes(teams: Sequence[Team], items: Sequence[int]) -> list[int]:
    """Each item's city as a number; a team of no city, and the bye, get one of their own."""
    place = {team.number: team.place for team in teams}
    known: dict[str, int] = {}
    codes: list[int] = []
    for item in items:
        name = place.get(item, "")
        codes.append(known.setdefault(name, len(known)) if name else -1 - len(codes))
    return codes


def _has_pairs_of_a_city(codes: Sequence[int]) -> bool:
    return len(set(codes)) < len(codes)


def _berger(size: int, r: int) -> list[tuple[int, int]]:
    """Round r (from 0) of the circle over places 0..size-1, place size-1 fixed, as (home,
    away): the fixed place is home in odd rounds, and the k-th pair out from the round's place
    has its clockwise place home when k is odd (Berger's alternation)."""
    circle = size - 1
    pairs = [(size - 1, r) if r % 2 else (r, size - 1)]
    for k in range(1, size // 2):
        up, down = (r + k) % circle, (r - k) % circle
        pairs.append((up, down) if k % 2 else (down, up))
    return pairs


def _partners(size: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    row = [0] * size
    for p, q in pairs:
        row[p], row[q] = q, p
    return row


def _alternate(
    plan: Sequence[Sequence[tuple[int, int]]], berger: set[tuple[int, int, int]], bye: int
) -> list[list[tuple[int, int]]]:
    """NS and EW for re-paired rounds, so that each team's games taken two at a time in the
    order played (the 1st and 2nd, the 3rd and 4th, ...) are one at home and one away: no team
    is ever two home games ahead of its away games, or behind. Each game is in one such couple
    of each of its teams, so the couples link the games into chains and rings in which one
    game's home team fixes the next's; a ring always closes (the two teams of a game sit on
    opposite sides), so the rule holds for every team. Each chain or ring then takes the one of
    its two ways that keeps more of Berger's home teams (`berger`: (round, home, away))."""
    games = [(r, p, q) for r, row in enumerate(plan) for p, q in row]
    order: dict[int, list[int]] = {}  # each team's games (indices into games), in order
    for g, (_, p, q) in enumerate(games):
        if bye not in (p, q):
            order.setdefault(p, []).append(g)
            order.setdefault(q, []).append(g)
    # first[g] says whether the game's first team is home; links[g]: (h, flip) with
    # first[h] == first[g] ^ flip.
    links: list[list[tuple[int, bool]]] = [[] for _ in games]
    for team, own in order.items():
        for g, h in zip(own[::2], own[1::2], strict=False):
            flip = (games[g][1] == team) == (games[h][1] == team)
            links[g].append((h, flip))
            links[h].append((g, flip))
    first: list[bool | None] = [None] * len(games)
    for g in range(len(games)):
        if first[g] is not None:
            continue
        first[g] = True
        chain, agree = [g], 0
        for h in chain:
            r, p, q = games[h] if first[h] else (games[h][0], games[h][2], games[h][1])
            agree += ((r, p, q) in berger) - ((r, q, p) in berger)
            for k, flip in links[h]:
                if first[k] is None:
                    first[k] = bool(first[h]) ^ flip
                    chain.append(k)
        if agree < 0:
            for h in chain:
                first[h] = not first[h]
    out: list[list[tuple[int, int]]] = [[] for _ in plan]
    for (r, p, q), home_first in zip(games, first, strict=True):
        out[r].append((p, q) if home_first else (q, p))
    return out


def _round(number: int, pairs: Sequence[tuple[int, int]], teams: Sequence[int]) -> Round:
    """The round's tables in order, the bye's game left out as the bye."""
    tables: list[Pairing] = []
    byes = []
    for home, away in pairs:
        if _BYE in (home, away):
            byes.append(away if home == _BYE else home)
        else:
            tables.append(Pairing(len(tables) + 1, home, away))
    round_ = Round(number, tuple(tables), tuple(byes))
    check_round(round_, teams)
    return round_


class _Search:
    """Simulated annealing over a schedule of places: `partners[r][p]` is the place that place p
    meets in round r, and `codes[p]` the city of the team at p. A step either swaps the teams of
    two places, or (with `rewire`) re-pairs two tables of one round when the new pairs have not
    met in another round; most steps start from a same-city game (`bad` holds r * size + p for
    each place p in one in round r). It keeps the best schedule seen."""

    def __init__(
        self,
        partners: Sequence[Sequence[int]],
        codes: Sequence[int],
        fixed: frozenset[int] = frozenset(),
    ) -> None:
        self.partners = [list(row) for row in partners]
        self.codes = list(codes)
        self.size = len(codes)
        self.places = list(range(self.size))  # which item (first order) is at each place
        self.movable = [p for p in range(self.size) if p not in fixed]
        self.may_move = set(self.movable)
        self.bad = {
            r * self.size + p
            for r, row in enumerate(self.partners)
            for p, q in enumerate(row)
            if codes[p] == codes[q]
        }
        self.cost = len(self.bad) // 2
        self._keep()

    def _keep(self) -> None:
        self.best_cost = self.cost
        self.best_places = self.places[:]
        self.best_codes = self.codes[:]
        self.best_partners = [row[:] for row in self.partners]

    def best_pairs(self) -> list[list[tuple[int, int]]]:
        return [[(p, q) for p, q in enumerate(row) if p < q] for row in self.best_partners]

    def restore(self, target: Sequence[Sequence[int]]) -> None:
        """From the best schedule, re-pair towards `target` (Berger's partners): places p and
        q that meet in round r there, but not here, meet if their partners a and b can meet
        instead (a new pair) without adding a same-city game; until no such move is left."""
        size, codes, cost = self.size, self.best_codes, self.best_cost
        rounds = self.best_partners
        used = {p * size + q for row in rounds for p, q in enumerate(row) if p < q}
        moved = True
        while moved:
            moved = False
            for r, row in enumerate(rounds):
                for p, q in enumerate(target[r]):
                    a, b = row[p], row[q]
                    if p > q or a == q:
                        continue
                    met = (min(p, q) * size + max(p, q), min(a, b) * size + max(a, b))
                    delta = (
                        (codes[p] == codes[q])
                        + (codes[a] == codes[b])
                        - (codes[p] == codes[a])
                        - (codes[q] == codes[b])
                    )
                    if met[0] in used or met[1] in used or delta > 0:
                        continue
                    used.difference_update(
                        (min(p, a) * size + max(p, a), min(q, b) * size + max(q, b))
                    )
                    used.update(met)
                    row[p], row[q], row[a], row[b] = q, p, b, a
                    cost += delta
                    moved = True
        self.best_cost = cost

    def run(self, rng: random.Random, steps: int, floor: int, rewire: bool) -> None:
        size = self.size
        used = {p * size + q for row in self.partners for p, q in enumerate(row) if p < q}
        for step in range(steps):
            if self.cost <= floor:
                return
            heat = 0.8 * (0.02 / 0.8) ** (step / steps)
            r, p = divmod(rng.choice(tuple(self.bad)), size)
            if rewire and rng.random() < 0.5:
                self._rewire(rng, heat, used, r, p)
            else:
                self._swap(rng, heat, p)
            if self.cost < self.best_cost:
                self._keep()

    def _mark(self, r: int, p: int, q: int) -> None:
        """Note whether the game of places p and q in round r is a same-city game."""
        key_p, key_q = r * self.size + p, r * self.size + q
        if self.codes[p] == self.codes[q]:
            self.bad.update((key_p, key_q))
        else:
            self.bad.difference_update((key_p, key_q))

    def _swap(self, rng: random.Random, heat: float, x: int) -> None:
        y = rng.choice(self.movable)
        codes = self.codes
        cx, cy = codes[x], codes[y]
        if cx == cy or x not in self.may_move:
            return
        delta = 0
        for row in self.partners:
            u, v = row[x], row[y]
            if u != y:
                delta += (codes[u] == cy) - (codes[u] == cx)
            if v != x:
                delta += (codes[v] == cx) - (codes[v] == cy)
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            codes[x], codes[y] = cy, cx
            self.places[x], self.places[y] = self.places[y], self.places[x]
            self.cost += delta
            for r, row in enumerate(self.partners):
                self._mark(r, x, row[x])
                self._mark(r, y, row[y])

    def _rewire(self, rng: random.Random, heat: float, used: set[int], r: int, a: int) -> None:
        size = self.size
        row = self.partners[r]
        c = rng.randrange(size)
        b, d = row[a], row[c]
        if c in (a, b):
            return
        if rng.random() < 0.5:
            c, d = d, c
        new = (min(a, c) * size + max(a, c), min(b, d) * size + max(b, d))
        if new[0] in used or new[1] in used:
            return
        codes = self.codes
        delta = (
            (codes[a] == codes[c])
            + (codes[b] == codes[d])
            - (codes[a] == codes[b])
            - (codes[c] == codes[d])
        )
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            used.difference_update((min(a, b) * size + max(a, b), min(c, d) * size + max(c, d)))
            used.update(new)
            row[a], row[c], row[b], row[d] = c, a, d, b
            self.cost += delta
            self._mark(r, a, c)
            self._mark(r, b, d)
