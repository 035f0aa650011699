"""Properties of the moves that must hold for any results, any size, any valid form.

"Avoidable", for the progressive form (docs/games/drives.md): a player keeps their role all
evening and the form fixes both who goes to which table and, at each table, who partners whom
(each staying winner with an arriving loser), so the drive has no free choice to spend on
avoiding a repeat. What it does guarantee, and what is tested here: nobody has the same partner
two hands running, and (tables in a ring, nobody sitting out) two partners cannot meet as
partners again until the distance between them round the ring has grown by a whole lap, at most
two tables a hand, so not within ceil(T/2) hands on T tables: a drive of H hands on 2H tables
or more never repeats a partnership. A shorter wait is possible only when the ring is smaller
than that, which is the sense in which a repeat is unavoidable.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Side
from engine.drives import (
    DUMMY,
    DriveError,
    DriveSettings,
    MoveForm,
    Seating,
    check_ends,
    next_seating,
    partner_drive,
    placed_seating,
    progressive,
    rule_table,
    seating_in_order,
    semi_partner,
)

NAMED = [
    progressive(),
    progressive("up"),
    semi_partner(),
    semi_partner("up"),
    partner_drive(),
    partner_drive("winners", "down"),
    partner_drive("losers"),
    partner_drive("losers", "down"),
]


@st.composite
def rule_tables(draw: Any) -> MoveForm:
    """Any valid house rule: each role's winner and loser on different sides."""
    rows = []
    for role, seats in (("A", ("N", "E")), ("B", ("S", "W"))):
        won_first = draw(st.booleans())
        for outcome, seat in zip(("won", "lost"), seats if won_first else seats[::-1], strict=True):
            rows.append((outcome, role, draw(st.integers(-3, 3)), seat))
    return rule_table(rows)


@st.composite
def drives(draw: Any, forms: Any = None, players: Any = None, ends: Any = None) -> Any:
    form = draw(forms if forms is not None else st.one_of(st.sampled_from(NAMED), rule_tables()))
    count = draw(players if players is not None else st.integers(4, 61))
    end = draw(ends if ends is not None else st.sampled_from(["wrap", "stay"]))
    try:
        check_ends(form, end)
    except DriveError:
        end = "wrap"
    short = draw(st.sampled_from(["sit_out", "dummy"]))
    hands = draw(st.integers(2, 14))
    settings = DriveSettings(players=count, hands=hands, move=form, ends=end, short_table=short)
    # The first seating in a drawn order, as `first_seating` lays it out.
    seating = seating_in_order(settings, draw(st.permutations(range(1, count + 1))))
    seatings = [seating]
    results = []
    for _ in range(hands - 1):
        winners = [draw(st.sampled_from([Side.NS, Side.EW])) for _ in seating.tables]
        seating = next_seating(settings, seating, winners)
        seatings.append(seating)
        results.append(winners)
    return settings, seatings, results


def partners(seating: Seating) -> dict[int, int]:
    found = {}
    for n, e, s, w in seating.tables:
        for a, b in ((n, s), (e, w)):
            found[a], found[b] = b, a
    return found


def roles(seating: Seating) -> dict[int, str]:
    found = {}
    for n, e, s, w in seating.tables:
        found.update({n: "A", e: "A", s: "B", w: "B"})
    for player, role in zip(seating.bench, seating.bench_roles, strict=True):
        found[player] = role.value
    return found


@given(drives())
def test_every_player_sits_exactly_once_every_hand_and_keeps_a_role(case: Any) -> None:
    settings, seatings, _ = case
    role_of = roles(seatings[0])
    for seating in seatings:
        everyone = [p for table in seating.tables for p in table] + list(seating.bench)
        counts = Counter(everyone)
        assert sorted(p for p in counts if p != DUMMY) == list(range(1, settings.players + 1))
        assert all(counts[p] == 1 for p in counts if p != DUMMY)
        assert counts[DUMMY] == (1 if settings.has_dummy else 0)
        assert len(seating.tables) == settings.tables
        assert all(len(table) == 4 for table in seating.tables)
        assert roles(seating) == role_of


@given(drives())
def test_sitting_out_is_shared_out_fairly(case: Any) -> None:
    """Within a role (a partner drive: among pairs) nobody sits out twice while another has
    not sat out once: the counts never differ by more than one. The stored counts are right."""
    settings, seatings, _ = case
    role_of = roles(seatings[0])
    out: Counter[int] = Counter()
    for seating in seatings:
        out.update(p for p in seating.bench if p != DUMMY)
        assert all(seating.rests[p] == out[p] for p in range(1, settings.players + 1))
        groups: dict[str, list[int]] = {}
        for player in range(1, settings.players + 1):
            groups.setdefault("pairs" if settings.pairs else role_of[player], []).append(
                out[player]
            )
        for group in groups.values():
            assert max(group) - min(group) <= 1


@given(drives(forms=st.sampled_from([semi_partner(), semi_partner("up")])))
def test_semi_partner_winners_stay_together(case: Any) -> None:
    """The winners of every table are partners at the same table next hand, unless one of
    them goes to the bench (only when every player of their role who is changing partner
    anyway has sat out more often)."""
    settings, seatings, results = case
    losers_keep = settings.move.params == (("losers", "up"),) or settings.tables <= 2
    for before, after, winners in zip(seatings[:-1], seatings[1:], results, strict=True):
        won = {
            p
            for (n, e, s, w), side in zip(before.tables, winners, strict=True)
            for p in ((n, s) if side is Side.NS else (e, w))
        }
        for t, ((n, e, s, w), side) in enumerate(zip(before.tables, winners, strict=True)):
            a, b = (n, s) if side is Side.NS else (e, w)
            if a in after.bench or b in after.bench:
                # A winner sat out: nobody of their role who was losing their partner anyway,
                # and had sat out as seldom, stayed at the tables instead.
                for gone in {a, b} & set(after.bench):
                    role = after.role(gone)
                    for p in range(1, settings.players + 1):
                        if p in after.bench or p in before.bench or after.role(p) is not role:
                            continue
                        if before.rests[p] <= before.rests[gone]:
                            assert p in won or losers_keep, (gone, p)
                continue
            player = b if a == DUMMY else a
            assert partners(after)[player] == (a if player == b else b)
            place = after.place(player)
            assert place is not None and place.table == t + 1


@given(drives(forms=st.sampled_from([progressive(), progressive("up")])))
def test_progressive_never_keeps_a_partner_two_hands_running(case: Any) -> None:
    _, seatings, _ = case
    for before, after in itertools.pairwise(seatings):
        was, now = partners(before), partners(after)
        for player, partner in now.items():
            if DUMMY not in (player, partner) and player in was:
                assert was[player] != partner


@given(
    drives(
        forms=st.just(progressive()),
        players=st.integers(4, 100).filter(lambda n: n % 4 in (0, 3)),
        ends=st.just("wrap"),
    )
)
def test_progressive_repeats_a_partnership_only_after_half_a_lap(case: Any) -> None:
    settings, seatings, _ = case
    if any(seating.bench for seating in seatings):
        return  # three left over and sitting out: the bench breaks the ring argument
    gap = max(2, math.ceil(settings.tables / 2))
    last: dict[frozenset[int], int] = {}
    for seating in seatings:
        for player, partner in partners(seating).items():
            if DUMMY in (player, partner):
                continue
            pair = frozenset((player, partner))
            if pair in last and last[pair] != seating.hand:
                assert seating.hand - last[pair] >= gap, (pair, last[pair], seating.hand)
            last[pair] = seating.hand


@given(drives(forms=st.sampled_from([f for f in NAMED if f.keeps_partners])))
def test_partner_drive_partnerships_never_change(case: Any) -> None:
    _, seatings, _ = case
    first = partners(seatings[0])
    bench = seatings[0].bench
    first.update({bench[i]: bench[i + 1] for i in range(0, len(bench), 2)})
    first.update({bench[i + 1]: bench[i] for i in range(0, len(bench), 2)})
    for seating in seatings[1:]:
        now = partners(seating)
        b = seating.bench
        now.update({b[i]: b[i + 1] for i in range(0, len(b), 2)})
        now.update({b[i + 1]: b[i] for i in range(0, len(b), 2)})
        assert now == first


def test_a_small_ring_does_repeat_partnerships() -> None:
    """Two tables, four players of each role: every hand-1 partnership is back at hand 4 when
    both tables are won North-South twice and then North-South and East-West (worked by hand:
    hand 2 (1,6,8,3) (5,2,4,7); hand 3 (1,2,7,8) (5,6,3,4); hand 4 (1,5,3,7) (6,2,8,4))."""
    settings = DriveSettings(players=8, hands=4, move=progressive())
    seating = placed_seating(settings, [(1, 2, 3, 4), (5, 6, 7, 8)])
    hands = [seating]
    for winners in ([Side.NS, Side.NS], [Side.NS, Side.NS], [Side.NS, Side.EW]):
        hands.append(next_seating(settings, hands[-1], winners))
    assert hands[3].tables == ((1, 5, 3, 7), (6, 2, 8, 4))
    assert partners(hands[3]) == partners(hands[0])
