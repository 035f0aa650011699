"""Team rotations (engine/teams/schedule.py and swiss.py), for 6 to 41 teams, odd and even.

Every round seats each team once (`check_round`). Round robin and moving team never have a
rematch; a Swiss (and king of the hill in halves) has one only when no pairing without one
exists, which is checked independently: by brute force on small fields, by the rank of a Tutte
matrix (twice the largest matching, with random values modulo a prime) on large ones. On small
fields a Swiss round is also compared with a complete backtracking search that follows the
documented rule. Same-city games are measured against the exact optimum (an exhaustive search
over every schedule without rematches) on small fields, and against `same_city_floor`, a proven
lower bound, on large ones built so that the bound can be reached.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.teams.model import Round, Team, TeamsError, check_round
from engine.teams.schedule import (
    check_teams,
    moving_team,
    rematches,
    round_robin,
    same_city_floor,
    same_city_games,
)
from engine.teams.swiss import first_round, next_round_by_result, swiss_round

FEW = settings(max_examples=50, deadline=None)


def field(n: int, cities: str = "", seed: int = 0) -> list[Team]:
    """n teams, each of a city drawn from the letters of `cities` (none if empty)."""
    rng = random.Random(seed)
    return [Team(k, city=rng.choice(cities) if cities else "") for k in range(1, n + 1)]


def with_cities(pattern: str) -> list[Team]:
    return [Team(k, city=c) for k, c in enumerate(pattern, start=1)]


def sides(rounds: Sequence[Round]) -> dict[int, list[int]]:
    """Each team's games in order: +1 at home (NS), -1 away."""
    out: dict[int, list[int]] = {}
    for r in rounds:
        for p in r.tables:
            out.setdefault(p.home, []).append(1)
            out.setdefault(p.away, []).append(-1)
    return out


def assert_alternates(rounds: Sequence[Round]) -> None:
    """At every point each team has been home at most one game more than away, or less."""
    for team, seq in sides(rounds).items():
        balance = 0
        for side in seq:
            balance += side
            assert abs(balance) <= 1, (team, seq)


def assert_sound(rounds: Sequence[Round], numbers: Sequence[int], most_byes: int = 1) -> None:
    for number, r in enumerate(rounds, start=1):
        assert r.number == number
        check_round(r, numbers)
    byes = Counter(t for r in rounds for t in r.byes)
    assert all(count <= most_byes for count in byes.values()), byes


# -- independent references ------------------------------------------------------------------


def perfect_matchings(m: int) -> list[list[tuple[int, int]]]:
    def rec(rest: tuple[int, ...]) -> list[list[tuple[int, int]]]:
        if not rest:
            return [[]]
        a = rest[0]
        return [
            [(a, rest[i]), *more]
            for i in range(1, len(rest))
            for more in rec(rest[1:i] + rest[i + 1 :])
        ]

    return rec(tuple(range(m)))


def fewest_same_city_exact(places: Sequence[str], rounds: int) -> int:
    """The fewest same-city games over every choice of `rounds` rounds without a rematch (the
    bye, for an odd count, is one more place of no city): branch and bound over sets of
    edge-disjoint perfect matchings, cheapest first."""
    places = list(places) + [""] * (len(places) % 2)
    m = len(places)
    edge = {pair: i for i, pair in enumerate(itertools.combinations(range(m), 2))}
    options = sorted(
        (
            sum(1 for a, b in pm if places[a] and places[a] == places[b]),
            sum(1 << edge[pair] for pair in pm),
        )
        for pm in perfect_matchings(m)
    )
    best = [10**9]

    def rec(start: int, depth: int, used: int, total: int) -> None:
        if depth == rounds:
            best[0] = min(best[0], total)
            return
        for i in range(start, len(options)):
            cost, mask = options[i]
            if total + cost * (rounds - depth) >= best[0]:
                return
            if not mask & used:
                rec(i + 1, depth + 1, used | mask, total + cost)

    rec(0, 0, 0, 0)
    return best[0]


def fewest_same_city_moving(places: Sequence[str], rounds: int) -> int:
    """The fewest same-city games of a moving team over every choice of who stays, who moves
    and their order (the bye table last, for an odd count)."""
    n = len(places)
    tables = (n + 1) // 2
    slots = [s for s in range(2 * tables) if not (n % 2 and s == tables - 1)]
    edges = [(t, tables + (t - r) % tables) for r in range(rounds) for t in range(tables)]
    best = 10**9
    for arrangement in set(itertools.permutations(places)):
        at = dict(zip(slots, arrangement, strict=True))
        best = min(best, sum(1 for a, b in edges if at.get(a) and at.get(a) == at.get(b)))
    return best


def fewest_rematches(n: int, met: Sequence[set[int]]) -> int:
    """Brute force (bit masks): the fewest rematches of any pairing of places 0..n-1, with
    one bye anywhere for an odd n."""

    @functools.cache
    def rec(mask: int) -> int:
        if not mask:
            return 0
        p = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << p)
        return min((q in met[p]) + rec(rest & ~(1 << q)) for q in range(n) if rest >> q & 1)

    full = (1 << n) - 1
    if n % 2 == 0:
        return rec(full)
    return min(rec(full & ~(1 << v)) for v in range(n))


def largest_matching(n: int, met: Sequence[set[int]]) -> int:
    """Lovász: half the rank of the Tutte matrix of the graph of places that have not met,
    with random values modulo a prime (wrong with probability under n / 2**61)."""
    prime = (1 << 61) - 1
    rng = random.Random(n)
    rows = [[0] * n for _ in range(n)]
    for a, b in itertools.combinations(range(n), 2):
        if b not in met[a]:
            x = rng.randrange(1, prime)
            rows[a][b], rows[b][a] = x, prime - x
    rank = 0
    for col in range(n):
        pivot = next((r for r in range(rank, n) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inverse = pow(rows[rank][col], prime - 2, prime)
        for r in range(n):
            if r != rank and rows[r][col]:
                f = rows[r][col] * inverse % prime
                rows[r] = [(x - f * y) % prime for x, y in zip(rows[r], rows[rank], strict=True)]
        rank += 1
    return rank // 2


def met_sets(order: Sequence[int], history: set[frozenset[int]]) -> list[set[int]]:
    index = {t: i for i, t in enumerate(order)}
    met: list[set[int]] = [set() for _ in order]
    for pair in history:
        a, b = tuple(pair)
        if a in index and b in index:
            met[index[a]].add(index[b])
            met[index[b]].add(index[a])
    return met


def assert_fewest_rematches(r: Round, order: Sequence[int], history: set[frozenset[int]]) -> None:
    """The round has a rematch only if every pairing has one: as few as any pairing."""
    met = met_sets(order, history)
    again = sum(1 for p in r.tables if frozenset(p.teams) in history)
    if len(order) <= 12:
        assert again == fewest_rematches(len(order), met)
    else:
        assert again == len(order) // 2 - largest_matching(len(order), met)


def assert_bye_fair(r: Round, teams: Sequence[int], history, byes: Counter[int]) -> None:
    """The bye went to a team with the fewest byes, unless no such team's bye leaves a round
    without a rematch (a second bye rather than a rematch)."""
    if not r.byes:
        return
    fewest = min(byes[t] for t in teams)
    if byes[r.byes[0]] == fewest:
        return
    for v in (t for t in teams if byes[t] == fewest):
        rest = [t for t in teams if t != v]
        assert largest_matching(len(rest), met_sets(rest, history)) < len(rest) // 2


def backtracking_round(
    order: Sequence[int],
    scores: dict[int, float],
    cities: dict[int, str],
    history: set[frozenset[int]],
    byes: Counter[int],
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """The documented Swiss rule by brute force: the bye to the lowest placed team of fewest
    byes among those leaving the fewest rematches; then each team from the top takes the first
    partner, in the documented order of preference (unmet before met), that a complete search
    can still finish with the fewest rematches; the higher placed sits NS."""
    n = len(order)
    met = met_sets(order, history)

    @functools.cache
    def rec(mask: int) -> int:
        if not mask:
            return 0
        p = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << p)
        return min((q in met[p]) + rec(rest & ~(1 << q)) for q in range(n) if rest >> q & 1)

    mask = (1 << n) - 1
    bye: tuple[int, ...] = ()
    if n % 2:
        cost = {v: rec(mask & ~(1 << v)) for v in range(n)}
        low = min(cost.values())
        v = max((v for v in range(n) if cost[v] == low), key=lambda v: (-byes[order[v]], v))
        mask &= ~(1 << v)
        bye = (order[v],)
    budget = rec(mask)
    pairs = []
    while mask:
        p = (mask & -mask).bit_length() - 1
        mask &= ~(1 << p)
        city = cities.get(order[p], "")

        def key(q: int, p: int = p, city: str = city) -> tuple[float, bool, int]:
            same = bool(city) and cities.get(order[q], "") == city
            return (scores[order[p]] - scores[order[q]], same, q)

        below = sorted((q for q in range(n) if mask >> q & 1), key=key)
        for q in [q for q in below if q not in met[p]] + [q for q in below if q in met[p]]:
            again = q in met[p]
            if again + rec(mask & ~(1 << q)) <= budget:
                budget -= again
                mask &= ~(1 << q)
                pairs.append((order[p], order[q]))
                break
    return pairs, bye


# -- round robin -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 42))
def test_full_round_robin_meets_everyone_once_and_alternates(n: int) -> None:
    rounds = round_robin(field(n, "AB"))
    assert len(rounds) == n - 1 + n % 2
    assert_sound(rounds, range(1, n + 1))
    games = Counter(frozenset(p.teams) for r in rounds for p in r.tables)
    assert len(games) == n * (n - 1) // 2 and set(games.values()) == {1}
    if n % 2:
        assert [r.byes for r in rounds] == [(k,) for k in range(1, n + 1)]
    assert_alternates(rounds)


@settings(max_examples=30, deadline=None)  # each may search its whole budget
@given(
    n=st.integers(6, 41),
    share=st.floats(0.02, 0.97),
    cities=st.integers(1, 6),
    seed=st.integers(0, 99),
)
def test_fewer_rounds_keep_every_promise(n: int, share: float, cities: int, seed: int) -> None:
    most = n - 1 + n % 2
    rounds = max(1, min(most - 1, round(share * most)))
    teams = field(n, "ABCDEF"[:cities], seed)
    schedule = round_robin(teams, rounds, seed=seed)
    assert len(schedule) == rounds
    assert_sound(schedule, range(1, n + 1))
    assert rematches(schedule) == []
    assert_alternates(schedule)
    assert same_city_games(schedule, teams) >= same_city_floor(teams, rounds)
    assert round_robin(teams, rounds, seed=seed) == schedule


SMALL = [
    (n, rounds, "".join(random.Random(k).choice("ABCD"[: 1 + k % 4]) for _ in range(n)))
    for k, (n, rounds) in enumerate(itertools.product(range(6, 11), (2, 3)))
] + [(6, 3, "AAABBB"), (8, 3, "AAAABBCC"), (7, 3, "AAAABBB"), (10, 3, "AAAAAAABBC")]


@pytest.mark.parametrize(("n", "rounds", "pattern"), SMALL)
def test_round_robin_same_city_games_are_the_exact_optimum(n: int, rounds: int, pattern: str):
    teams = with_cities(pattern)
    best = fewest_same_city_exact(pattern, rounds)
    assert same_city_floor(teams, rounds) <= best
    assert same_city_games(round_robin(teams, rounds, seed=1), teams) == best


LARGE = [
    (41, 8, "X" * 30 + "abcdefghijk"),  # one city of 30: 9 games a round forced
    (41, 8, "X" * 21 + "Y" * 20),  # two halves: none, only if each round is X against Y
    (40, 8, "ABCDE" * 8),
    (33, 10, "A" * 17 + "B" * 16),
    (20, 5, "X" * 12 + "abcdefgh"),
    (15, 6, "X" * 9 + "abcdef"),
    (26, 12, "AAABBBCCCDDDEEEFFFGGGHHHJJ"),
]


@pytest.mark.parametrize(("n", "rounds", "pattern"), LARGE)
def test_large_fields_reach_the_floor(n: int, rounds: int, pattern: str) -> None:
    shuffled = list(pattern)
    random.Random(n).shuffle(shuffled)
    teams = with_cities("".join(shuffled))
    floor = same_city_floor(teams, rounds)
    schedule = round_robin(teams, rounds, seed=2)
    assert same_city_games(schedule, teams) == floor
    assert rematches(schedule) == []
    assert_alternates(schedule)
    if rounds <= (n + 1) // 2:
        assert same_city_games(moving_team(teams, rounds, seed=2), teams) == floor


def test_same_city_floor_is_exact_in_a_full_round_robin() -> None:
    teams = with_cities("AAAABBBCCD" + "E")
    full = round_robin(teams)
    assert same_city_games(full, teams) == same_city_floor(teams, len(full)) == 6 + 3 + 1
    assert same_city_floor(with_cities("AAAAAAAB"), 1) == 3  # 7 of one city at 8 places
    assert same_city_floor(with_cities("AAAA" + "BCDE"), 6) == 4  # each A meets 2 other As


# -- moving team -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 42))
def test_moving_team_home_teams_stay_and_movers_go_up_a_table(n: int) -> None:
    tables = (n + 1) // 2
    rounds = moving_team(field(n), tables)
    assert_sound(rounds, range(1, n + 1))
    assert rematches(rounds) == []
    first = {p.table: p for p in rounds[0].tables}
    for k, r in enumerate(rounds):
        assert len(r.tables) == n // 2
        for p in r.tables:
            assert p.home == first[p.table].home
            start = (p.table - 1 - k) % tables + 1  # the table the mover started at
            mover = first[start].away if start in first else rounds[0].byes[0]
            assert p.away == mover
    if n % 2:  # the bye table is the last: each mover sits out once
        movers = [p.away for p in rounds[0].tables] + list(rounds[0].byes)
        assert sorted(t for r in rounds for t in r.byes) == sorted(movers)
    with pytest.raises(TeamsError, match=f"plays {tables} rounds before teams meet again"):
        moving_team(field(n), tables + 1)


MOVING = [
    (n, rounds, "".join(random.Random(k).choice("ABC"[: 1 + k % 3]) for _ in range(n)))
    for k, (n, rounds) in enumerate(itertools.product((6, 7, 8), (2, 3)))
] + [(8, 4, "AAAABBBB"), (9, 3, "AAAAABBBC"), (8, 2, "AAAAAABB")]


@pytest.mark.parametrize(("n", "rounds", "pattern"), MOVING)
def test_moving_team_same_city_games_are_the_best_the_movement_allows(n, rounds, pattern):
    teams = with_cities(pattern)
    got = same_city_games(moving_team(teams, rounds, seed=3), teams)
    assert got == fewest_same_city_moving(pattern, rounds)


# -- first round and king of the hill ----------------------------------------------------------


@FEW
@given(n=st.integers(2, 41), cities=st.integers(1, 5), seed=st.integers(0, 999))
def test_first_round_keeps_cities_apart_as_far_as_possible(n: int, cities: int, seed: int):
    teams = field(n, "ABCDE"[:cities], seed)
    draw = first_round(teams, seed=seed)
    assert_sound([draw], range(1, n + 1))
    assert same_city_games([draw], teams) == same_city_floor(teams, 1)
    assert first_round(teams, seed=seed) == draw


def test_first_round_draws_differ_by_seed() -> None:
    teams = field(12)
    assert len({first_round(teams, seed=s).tables for s in range(5)}) == 5


def test_ladder_winners_move_up_and_losers_down() -> None:
    r = Round(3, tuple(_tables([(1, 2), (3, 4), (5, 6), (7, 8)])))
    # winners 1, 4, 5, 8; losers 2, 3, 6, 7; table 3 drawn: its home team 5 counts as winner
    nxt = next_round_by_result(r, {1: 1, 2: 4, 3: None, 4: 8})
    assert nxt.number == 4
    assert [p.teams for p in nxt.tables] == [(1, 4), (5, 2), (8, 3), (6, 7)]


def test_ladder_bye_goes_to_the_lowest_without_one_and_comes_back_at_the_bottom() -> None:
    r = Round(2, tuple(_tables([(1, 2), (3, 4)])), byes=(5,))
    nxt = next_round_by_result(r, {1: 1, 2: 3})
    assert [p.teams for p in nxt.tables] == [(1, 3), (2, 5)] and nxt.byes == (4,)
    nxt = next_round_by_result(r, {1: 1, 2: 3}, byes_had=[4])
    assert [p.teams for p in nxt.tables] == [(1, 3), (4, 5)] and nxt.byes == (2,)


def test_halves_pairs_winners_with_winners_avoiding_rematches() -> None:
    r = Round(2, tuple(_tables([(1, 2), (3, 4), (5, 6), (7, 8)])))
    nxt = next_round_by_result(r, {1: 1, 2: 3, 3: 5, 4: 7}, form="halves")
    assert [p.teams for p in nxt.tables] == [(1, 3), (5, 7), (2, 4), (6, 8)]
    played = {frozenset({1, 3}), frozenset({2, 4})}
    nxt = next_round_by_result(r, {1: 1, 2: 3, 3: 5, 4: 7}, form="halves", history=played)
    assert [p.teams for p in nxt.tables] == [(1, 5), (3, 7), (2, 6), (4, 8)]


@FEW
@given(n=st.integers(6, 41), form=st.sampled_from(["ladder", "halves"]), seed=st.integers(0, 999))
def test_king_of_the_hill_seats_everyone_and_shares_byes(n: int, form, seed: int) -> None:
    rng = random.Random(seed)
    rounds = [first_round(field(n), seed=seed)]
    history = {frozenset(p.teams) for p in rounds[0].tables}
    for _ in range(min(n, 9)):
        prev = rounds[-1]
        winners = {p.table: rng.choice([p.home, p.away, None]) for p in prev.tables}
        byes = [t for r in rounds[:-1] for t in r.byes]
        nxt = next_round_by_result(prev, winners, form=form, history=history, byes_had=byes)
        assert nxt.number == prev.number + 1
        if form == "halves":
            assert_fewest_rematches(nxt, range(1, n + 1), history)
            assert_bye_fair(nxt, range(1, n + 1), history, Counter(byes + list(prev.byes)))
        rounds.append(nxt)
        history |= {frozenset(p.teams) for p in nxt.tables}
    assert_sound(rounds, range(1, n + 1), most_byes=len(rounds))
    counts = Counter(t for r in rounds for t in r.byes)
    if n % 2 and form == "ladder":  # the fewest byes always: counts differ by one at most
        assert max(counts.values()) - min(counts.get(t, 0) for t in range(1, n + 1)) <= 1


# -- Swiss -----------------------------------------------------------------------------------


def play_swiss(n: int, rounds: int, seed: int, cities: dict[int, str] | None = None):
    """A Swiss of n teams with random results: each round with what it was made from."""
    rng = random.Random(seed)
    wins: Counter[int] = Counter()
    history: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in range(1, rounds + 1):
        standings = sorted(range(1, n + 1), key=lambda t: (-wins[t], rng.random()))
        scores = {t: float(wins[t]) for t in standings}
        before = (standings, scores, set(history), Counter(byes))
        r = swiss_round(number, standings, history, byes, cities=cities, scores=scores)
        yield r, before
        for p in r.tables:
            wins[rng.choice(p.teams)] += 1
            history.add(frozenset(p.teams))
        wins.update(r.byes)
        byes += r.byes


@FEW
@given(n=st.integers(6, 41), seed=st.integers(0, 999))
def test_swiss_has_no_rematch_while_one_can_be_avoided(n: int, seed: int) -> None:
    rounds = n + 1 if n <= 12 else 8  # small fields play past a full round robin
    played = []
    for r, (standings, _, history, byes) in play_swiss(n, rounds, seed):
        check_round(r, range(1, n + 1))
        assert_fewest_rematches(r, standings, history)
        assert_bye_fair(r, standings, history, byes)
        played.append(r)
    byes = Counter(t for r in played for t in r.byes)
    if n % 2 and rounds <= n:
        assert set(byes.values()) == {1}
    if rounds <= n // 2:
        assert rematches(played) == []


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 11), seed=st.integers(0, 999), cities=st.integers(0, 3))
def test_swiss_round_is_what_a_complete_backtracking_search_finds(n: int, seed: int, cities):
    city = {t: "ABC"[t % cities] for t in range(1, n + 1)} if cities else {}
    for r, (standings, scores, history, byes) in play_swiss(n, n + 2, seed, city):
        if not any(a in standings and b in standings for a, b in history):
            continue  # round 1: top half against bottom half
        order = sorted(standings, key=lambda t: -scores[t])
        pairs, bye = backtracking_round(order, scores, city, history, byes)
        assert ([p.teams for p in r.tables], r.byes) == (pairs, bye)


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(2, 11),
    density=st.floats(0, 1),
    seed=st.integers(0, 999),
)
def test_swiss_on_any_history_matches_the_backtracking_search(n, density, seed) -> None:
    """Histories no real event would give (dense, lopsided) and byes already had."""
    rng = random.Random(seed)
    standings = rng.sample(range(1, n + 1), n)
    history = {
        frozenset(pair)
        for pair in itertools.combinations(range(1, n + 1), 2)
        if rng.random() < density
    } | {frozenset({standings[0], standings[-1]})}
    scores = {t: float(rng.randint(0, 3)) for t in standings}
    byes = Counter(rng.sample(standings, rng.randint(0, n)))
    cities = {t: rng.choice("AB") for t in standings}
    r = swiss_round(5, standings, history, list(byes.elements()), cities=cities, scores=scores)
    order = sorted(standings, key=lambda t: -scores[t])
    assert ([p.teams for p in r.tables], r.byes) == backtracking_round(
        order, scores, cities, history, byes
    )


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    r = swiss_round(1, list(range(1, 11)), set(), [])
    assert [p.teams for p in r.tables] == [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]
    cities = {1: "Akron", 6: "akron ", 2: "Dayton"}
    r = swiss_round(1, list(range(1, 11)), set(), [], cities=cities)
    assert [p.teams for p in r.tables] == [(1, 7), (2, 6), (3, 8), (4, 9), (5, 10)]
    r = swiss_round(1, list(range(1, 8)), set(), [7])
    assert [p.teams for p in r.tables] == [(1, 4), (2, 5), (3, 7)] and r.byes == (6,)


def test_swiss_pairs_within_score_groups_and_floats_the_odd_team_down() -> None:
    scores = {1: 2.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0, 6: 1.0, 7: 0.0, 8: 0.0}
    history = {frozenset({1, 5}), frozenset({2, 6}), frozenset({3, 7}), frozenset({4, 8})}
    r = swiss_round(2, [3, 1, 2, 6, 5, 4, 8, 7], history, [], scores=scores)
    assert [p.teams for p in r.tables] == [(3, 1), (2, 5), (6, 4), (8, 7)]


def test_swiss_home_goes_to_the_team_that_sat_away_more() -> None:
    history = {frozenset({1, 3}), frozenset({2, 4})}
    homes = {1: 1, 2: 0, 3: 0, 4: 1}  # 1 and 4 were home; 2 and 3 away
    r = swiss_round(2, [1, 2, 3, 4], history, [], homes=homes)
    assert [p.teams for p in r.tables] == [(2, 1), (3, 4)]


def test_swiss_avoids_a_rematch_the_nearest_first_greedy_would_make() -> None:
    # 1 v 2 leaves 3 and 4, who have met: the complete search pairs 1 v 3 and 2 v 4.
    r = swiss_round(3, [1, 2, 3, 4], {frozenset({3, 4}), frozenset({1, 4})}, [])
    assert [p.teams for p in r.tables] == [(1, 3), (2, 4)]


# -- refusals and helpers --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: round_robin([Team(1)]), "a schedule needs at least 2 teams, not 1"),
        (lambda: moving_team([], 1), "a schedule needs at least 2 teams, not 0"),
        (lambda: first_round([Team(1), Team(1)]), "team number 1 is given to two teams"),
        (lambda: check_teams([Team(0), Team(1)]), "teams are numbered from 1"),
        (lambda: round_robin(field(6), 6), "a round robin of 6 teams has 5 rounds"),
        (lambda: round_robin(field(7), 8), "ask for 7 rounds or fewer, not 8"),
        (lambda: round_robin(field(6), 0), "the number of rounds is 1 or more, not 0"),
        (lambda: moving_team(field(9), 6), r"9 teams \(5 tables, one of them the bye\)"),
        (lambda: same_city_floor(field(4), 4), "ask for 3 rounds or fewer"),
        (lambda: swiss_round(1, [1], set(), []), "a round needs at least 2 teams, not 1"),
        (lambda: swiss_round(1, [1, 2, 1], set(), []), "team 1 is placed twice"),
        (lambda: swiss_round(0, [1, 2], set(), []), "rounds are numbered from 1"),
        (lambda: swiss_round(1, [1, 2], set(), [], scores={1: 1}), "no score for team 2"),
        (lambda: swiss_round(2, [1, 2], {frozenset({1})}, []), "is not a pair of teams"),
    ],
)
def test_refusals_say_what_is_wrong(call, message: str) -> None:
    with pytest.raises(TeamsError, match=message):
        call()


@pytest.mark.parametrize(
    ("winners", "form", "message"),
    [
        ({1: 1}, "ladder", "table 2: no result; give the winning team"),
        ({1: 1, 2: 9}, "ladder", r"team 9 did not play there \(teams 3 and 4 did\)"),
        ({1: 1, 2: 3, 3: 5}, "ladder", "there is no table 3"),
        ({1: 1, 2: 3}, "pyramid", "'ladder' or 'halves', not 'pyramid'"),
    ],
)
def test_result_driven_refusals(winners, form, message) -> None:
    r = Round(1, tuple(_tables([(1, 2), (3, 4)])))
    with pytest.raises(TeamsError, match=message):
        next_round_by_result(r, winners, form=form)


def test_rematches_lists_each_repeated_game() -> None:
    rounds = [
        Round(1, tuple(_tables([(1, 2), (3, 4)]))),
        Round(2, tuple(_tables([(2, 1), (3, 4)]))),
        Round(3, tuple(_tables([(1, 3), (2, 4)]))),
    ]
    assert rematches(rounds) == [(2, 1, 2), (2, 3, 4)]


def test_schedules_are_repeatable_and_the_seed_matters() -> None:
    teams = field(21, "ABC", seed=4)
    assert moving_team(teams, 6, seed=5) == moving_team(teams, 6, seed=5)
    assert round_robin(teams, 6, seed=5) == round_robin(teams, 6, seed=5)
    assert round_robin(field(10), 3) == round_robin(field(10)[:], 3, seed=9)  # no city: Berger


def _tables(pairs: Sequence[tuple[int, int]]):
    from engine.teams.model import Pairing

    return [Pairing(t, home, away) for t, (home, away) in enumerate(pairs, start=1)]
