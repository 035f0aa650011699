"""The prize list: each prize in the director's order, its winner, and how any tie was broken.

Each prize goes to the best player of its category (`Prize.kind`, optionally one role) who is
still eligible: nobody wins the same category twice (so the second "highest" on the list is the
runner-up), and with `one_prize_each` nobody wins two prizes at all; the text names anyone
passed over for that reason. A tie is broken by the drive's `tie_rule`:

- ``countback``: compare the tied players' figure over the category's last hand, then its last
  two, three ... hands (the second half's last hands for a second-half prize); the first count
  that separates them decides. Players who scored the same on every hand stay tied and share.
- ``shared``: the tied players share the prize.

A raffle is drawn with a seeded generator among the players still without a prize; a raffle
for everyone gives each of them a prize, in the drawn order (the order they choose in).

Players who did not play the whole evening (docs/games/drives.md, "Late arrivals and
leavers"): one who went home early is out of every prize, the raffle included, unless the
director keeps leavers in (`leavers_in_prizes`); nobody who came late or left early takes the
booby prize, which is for the lowest score over the whole evening.

>>> from fractions import Fraction
>>> show(12), show(Fraction(9, 2))
('12', '4.50')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.drives.model import DUMMY, PRIZE_KINDS, Prize, Role
from engine.drives.settings import DriveSettings
from engine.drives.totals import PlayerTotal
from engine.games.entry import Score
from engine.scoring.model import format_points

__all__ = ["Award", "award_prizes", "show"]


@dataclass(frozen=True)
class Award:
    """One prize awarded: its place on the list (from 1), its title, its winners (more than one
    when shared; a raffle for everyone lists them in the drawn order), and the explanation."""

    number: int
    prize: Prize
    title: str
    winners: tuple[int, ...]
    text: str


def show(value: Score) -> str:
    """A score as people read it: whole numbers as they are, fractions to two places."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return format_points(value)


def award_prizes(
    settings: DriveSettings,
    lines: Sequence[PlayerTotal],
    *,
    seed: int | None = None,
    names: Mapping[int, str] | None = None,
) -> tuple[Award, ...]:
    """Award `settings.prizes` in order from the final lines (`standings`); `seed` makes the
    raffle repeatable (the app stores it), `names` names players in the texts.

    In a partner drive a pair is one entrant (its two players score alike): the prize goes to
    both. A prize for one role, and a raffle, go to a player."""
    labels = names or {}
    members: dict[int, tuple[int, ...]] = {}
    for line in lines:
        partner = line.partner if settings.pairs else None
        pair = (line.player,) if partner in (None, DUMMY) else tuple(sorted((line.player, partner)))
        members[line.player] = pair
    pairs = [line for line in lines if members[line.player][0] == line.player]

    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    prizes_of: dict[int, list[str]] = {}
    won_in: dict[tuple[str, Role | None], set[int]] = {}
    places: dict[tuple[str, Role | None], int] = {}
    order: dict[tuple[str, Role | None], int] = {}
    awards = []
    for number, prize in enumerate(settings.prizes or (), start=1):
        key = (prize.kind, prize.role)
        taken = won_in.setdefault(key, set())
        place = places.get(key, 0) + 1
        # The title counts the prizes of its kind ("2nd highest total"), not the places their
        # winners took: two tied for the first prize make the next one the 2nd prize still.
        order[key] = order.get(key, 0) + 1
        title = _title(settings, prize, order[key] if prize.kind != "raffle" else 0)
        if prize.kind == "raffle":
            pool = sorted(
                line.player
                for line in lines
                if line.player not in prizes_of and _eligible(settings, prize, line)
            )
            rng.shuffle(pool)
            winners = pool if prize.everyone else pool[:1]
            text = (
                f"drawn by lot among the {len(pool)} players without a prize"
                if pool
                else "nobody is left without a prize"
            )
        else:
            alone = prize.role is not None or not settings.pairs
            group = {line.player: (line.player,) for line in lines} if alone else members
            ranked = _Ranking(
                settings, prize, group, taken, prizes_of, lambda p: labels.get(p, f"player {p}")
            )
            entrants, text = ranked.award(lines if alone else pairs)
            places[key] = place - 1 + len(entrants)
            winners = [player for entrant in entrants for player in group[entrant]]
        for player in winners:
            prizes_of.setdefault(player, []).append(title)
            taken.add(player)
        awards.append(Award(number, prize, title, tuple(winners), text))
    return tuple(awards)


def _eligible(settings: DriveSettings, prize: Prize, line: PlayerTotal) -> bool:
    """Whether the player may win this prize at all: see the module's docstring."""
    if line.left is not None and not settings.leavers_in_prizes:
        return False
    return prize.kind != "booby" or line.whole_evening


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd, 101st."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{'th' if number % 100 in (11, 12, 13) else suffix}"


def _title(settings: DriveSettings, prize: Prize, nth: int) -> str:
    """The prize's name: its kind ("Highest total"), the nth of that kind and role after the
    first ("2nd highest total"), and its role ("Lowest total, Gent"); a club's own label as
    it is."""
    if prize.label:
        return prize.label
    words = PRIZE_KINDS[prize.kind]
    words = f"{ordinal(nth)} {words}" if nth > 1 else words[0].upper() + words[1:]
    if prize.role is not None:
        words += f", {settings.role_label(prize.role)}"
    return words


def _measure(prize: Prize) -> Callable[[PlayerTotal], Score]:
    return {
        "highest": lambda line: line.total,
        "first_half": lambda line: line.first_half,
        "second_half": lambda line: line.second_half,
        "ten_plus": lambda line: line.ten_plus,
        "booby": lambda line: -line.total,
    }[prize.kind]


@dataclass
class _Ranking:
    """One prize ranked over the entrants (players, or a partner drive's pairs, each keyed by
    its lowest player number)."""

    settings: DriveSettings
    prize: Prize
    members: Mapping[int, tuple[int, ...]]
    taken: set[int]
    prizes_of: Mapping[int, list[str]]
    player_name: Callable[[int], str]

    def name(self, entrant: int) -> str:
        return " and ".join(self.player_name(player) for player in self.members[entrant])

    def names(self, entrants: Sequence[int]) -> str:
        words = [self.name(entrant) for entrant in entrants]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    def award(self, lines: Sequence[PlayerTotal]) -> tuple[list[int], str]:
        prize, settings = self.prize, self.settings
        measure = _measure(prize)
        sign = -1 if prize.kind == "booby" else 1
        field = [
            line
            for line in lines
            if prize.role in (None, line.role)
            and _eligible(settings, prize, line)
            and not self.taken.intersection(self.members[line.player])
        ]
        holding = {
            line.player: next(
                self.prizes_of[p][0] for p in self.members[line.player] if p in self.prizes_of
            )
            for line in field
            if any(p in self.prizes_of for p in self.members[line.player])
        }
        eligible = [
            line for line in field if not (settings.one_prize_each and line.player in holding)
        ]
        if not eligible:
            return [], "nobody eligible is left for this prize"
        best = max(measure(line) for line in eligible)
        tied = sorted((line for line in eligible if measure(line) == best), key=lambda x: x.player)
        notes = []
        passed = [line for line in field if line.player in holding and measure(line) > best]
        if passed and settings.one_prize_each:
            who = ", ".join(
                f"{self.name(line.player)} ({show(sign * measure(line))}, "
                f"won {holding[line.player]})"
                for line in sorted(passed, key=lambda x: -measure(x))
            )
            notes.append(f"passed over, one prize each: {who}")
        figure = show(sign * best)
        if len(tied) == 1:
            return [tied[0].player], "; ".join(
                [f"{self.name(tied[0].player)} with {figure}", *notes]
            )
        everyone = [line.player for line in tied]
        if settings.tie_rule == "shared":
            text = f"shared by {self.names(everyone)}, tied on {figure}"
            return everyone, "; ".join([text, *notes])
        ahead, how = _countback(settings, prize, tied, self.name)
        if len(ahead) > 1:
            text = f"shared by {self.names(ahead)}, tied on {figure}; {how}"
            return ahead, "; ".join([text, *notes])
        others = self.names([player for player in everyone if player != ahead[0]])
        text = f"{self.name(ahead[0])} with {figure}, tied with {others}; {how}"
        return ahead, "; ".join([text, *notes])


def _countback(
    settings: DriveSettings, prize: Prize, tied: list[PlayerTotal], name: Callable[[int], str]
) -> tuple[list[int], str]:
    """The players the count-back leaves ahead (one, unless they scored the same on every
    hand of the category) and how it went."""
    played = len(tied[0].hand_points)  # provisional prizes: fewer than all the hands so far
    if not played:  # totals typed from the score cards: no hand is known
        return (
            [line.player for line in tied],
            "count-back needs each hand's score, and only the score cards' totals were entered",
        )
    first, last = 1, played
    if prize.kind == "first_half":
        last = min(settings.break_after, played)
    elif prize.kind == "second_half":
        first = settings.break_after + 1
    sign = -1 if prize.kind == "booby" else 1
    what = "hands with 10+ tricks" if prize.kind == "ten_plus" else "points"
    better = "fewer" if sign < 0 else "more"
    half = {"first_half": " of the first half", "second_half": " of the second half"}

    def per_hand(line: PlayerTotal, hand: int) -> Score:
        if prize.kind == "ten_plus":
            return int(line.big_hands[hand - 1])
        return line.hand_points[hand - 1]

    alive = list(tied)
    steps = []
    for k in range(1, last - first + 2):
        span = range(last - k + 1, last + 1)
        sums = {line.player: sum((per_hand(line, h) for h in span), start=0) for line in alive}
        top = max(sign * value for value in sums.values())
        ahead = [line for line in alive if sign * sums[line.player] == top]
        if len(ahead) < len(alive):
            over = ("the last hand" if k == 1 else f"the last {k} hands") + half.get(prize.kind, "")
            figures = ", ".join(f"{name(p)} {show(v)}" for p, v in sums.items())
            steps.append(f"{better} {what} over {over} ({figures})")
            alive = ahead
            if len(alive) == 1:
                break
    if len(alive) == 1:
        return [alive[0].player], "count-back: " + "; then ".join(steps)
    reason = "count-back cannot part them: they scored the same on every hand"
    if steps:
        reason = "count-back: " + "; then ".join(steps) + "; " + reason
    return [line.player for line in alive], reason
