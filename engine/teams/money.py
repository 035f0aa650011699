"""Money at a team event, recorded, never processed: the prize split and the Boston pot.

Tournaments charge an entry fee and pay prizes from it, and many run a Boston pot on the side.
The app only writes down who is owed what, so every amount is a whole number of cents and every
split says where the odd cents go:

- `prize_split`: the fees of all entries, less the house's share (a sum in cents, or a
  percentage rounded down to the cent, so an odd cent stays with the players), split among the
  paid places by whole percentages that add up to 100. Each place gets its percentage rounded
  down; the cents left over go to first place.
- `boston_pot`: each opted-in team pays the stake for both its players. The pot goes to the
  opted-in team with the most Bostons by the stated round (`count_bostons` counts them from
  the results). Teams level on the most share it equally (or, with `split_ties` off, the
  better-ranked takes it all); the cents that do not divide go to the best-ranked of them in
  the `ranking` passed (the standings' order), else to the lowest team number. With no Boston
  at all the pot is returned to the teams (``no_boston="return"``), carried to the next event
  (``"carry"``), or paid to the best-ranked opted-in team (``"leader"``, as some clubs do).

>>> prize_split(entries=10, fee_cents=2000, places=[50, 30, 20], house_percent=10)
[9000, 5400, 3600]
>>> award = boston_pot([1, 2, 3], stake_cents=500, bostons={1: 1, 3: 1, 2: 0})
>>> award.pot_cents, award.shares, award.text
(3000, ((1, 1500), (3, 1500)), 'teams 1 and 3 share the pot with 1 Boston each')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.reading import quoted
from engine.teams.model import GameResult, TeamsError

__all__ = ["NO_BOSTON_RULES", "PotAward", "boston_pot", "count_bostons", "prize_split"]

NO_BOSTON_RULES = ("return", "carry", "leader", "record")


def _cents(name: str, value: object, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TeamsError(f"{name}: a whole number of cents, not {quoted(value)}")
    if value < low:
        raise TeamsError(f"{name}: {low} or more, not {value}")
    return value


def prize_split(
    entries: int,
    fee_cents: int,
    places: Sequence[int],
    *,
    house_cents: int = 0,
    house_percent: int = 0,
) -> list[int]:
    """Each paid place's prize in cents, first place first."""
    _cents("entries", entries)
    _cents("fee_cents", fee_cents)
    _cents("house_cents", house_cents)
    _cents("house_percent", house_percent)
    if house_cents and house_percent:
        raise TeamsError("house: give the house's share in cents or as a percentage, not both")
    if house_percent > 100:
        raise TeamsError(f"house_percent: from 0 to 100, not {house_percent}")
    if isinstance(places, str) or not places:
        raise TeamsError("places: at least one paid place, as percentages of the prize fund")
    for share in places:
        if isinstance(share, bool) or not isinstance(share, int) or not 1 <= share <= 100:
            raise TeamsError(f"places: whole percentages from 1 to 100, not {quoted(share)}")
    if sum(places) != 100:
        shown = " + ".join(str(share) for share in places)
        raise TeamsError(f"places: the percentages add up to 100, not {shown} = {sum(places)}")
    fees = entries * fee_cents
    house = house_cents if house_cents else fees * house_percent // 100
    if house > fees:
        raise TeamsError(
            f"house_cents: the house's {house} cents are more than the {fees} cents of fees"
        )
    fund = fees - house
    prizes = [fund * share // 100 for share in places]
    prizes[0] += fund - sum(prizes)
    return prizes


@dataclass(frozen=True)
class PotAward:
    """The Boston pot's outcome: the pot, the most Bostons any opted-in team made, who is paid
    what (the winners, or every team's stake back when returned), the cents carried to the next
    event, and the ruling in words."""

    pot_cents: int
    most_bostons: int
    shares: tuple[tuple[int, int], ...]
    carried_cents: int = 0
    returned: bool = False
    text: str = ""

    def share(self, team: int) -> int:
        """What `team` is paid, in cents."""
        return dict(self.shares).get(team, 0)


def count_bostons(
    results: Iterable[GameResult], through_round: int | None = None
) -> dict[int, int]:
    """Each team's Bostons in the event's games (playoffs left out) up to and including
    `through_round` (None: every round)."""
    counts: dict[int, int] = {}
    for result in results:
        if result.playoff or (through_round is not None and result.round > through_round):
            continue
        for team in result.teams:
            counts[team] = counts.get(team, 0) + result.team_bostons(team)
    return counts


def boston_pot(
    opted_in: Sequence[int],
    stake_cents: int,
    bostons: Mapping[int, int],
    *,
    split_ties: bool = True,
    ranking: Sequence[int] | None = None,
    no_boston: Literal["return", "carry", "leader", "record"] = "return",
    ranks: Mapping[int, int] | None = None,
) -> PotAward:
    """The pot from the opted-in teams' stakes (each team pays `stake_cents` for each of its
    two players), awarded on `bostons` (team: Bostons by the stated round; teams not opted in
    are ignored). `ranking` is the teams best first, for odd cents and ties not split;
    `ranks` each team's place in the standings (teams level share one), for ``"record"``."""
    _cents("stake_cents", stake_cents)
    teams = list(opted_in)
    for team in teams:
        if isinstance(team, bool) or not isinstance(team, int) or team < 1:
            raise TeamsError(f"opted_in: team numbers from 1, not {quoted(team)}")
    if len(set(teams)) != len(teams):
        raise TeamsError("opted_in: a team is listed twice")
    for team, count in bostons.items():
        _cents(f"bostons of team {team}", count)
    if no_boston not in NO_BOSTON_RULES:
        raise TeamsError(f"no_boston: one of {', '.join(NO_BOSTON_RULES)}, not {quoted(no_boston)}")
    order = _order(teams, ranking)
    pot = len(teams) * 2 * stake_cents
    most = max((bostons.get(team, 0) for team in teams), default=0)
    if not teams or pot == 0:
        return PotAward(pot, most, (), text="nobody paid into the pot")
    if most == 0:
        if no_boston == "carry":
            return PotAward(pot, 0, (), carried_cents=pot, text="no Boston: the pot is carried")
        if no_boston == "record":
            if ranks is None:
                raise TeamsError("no_boston: the pot goes to the best record; pass the ranks")
            missing = sorted(team for team in teams if team not in ranks)
            if missing:
                raise TeamsError(f"ranks: team {missing[0]} opted in but has no rank")
            top = min(ranks[team] for team in teams)
            best = [team for team in order if ranks[team] == top]
            each, odd = divmod(pot, len(best))
            shares = tuple(sorted((t, each + (odd if t == best[0] else 0)) for t in best))
            if len(best) == 1:
                text = _won(best[0], "with no Boston made: the best record")
            else:
                text = f"no Boston: teams {_names(sorted(best))} share the pot with the best record"
                if odd:
                    text += f"; the odd {odd} cent{'s' if odd > 1 else ''} to team {best[0]}"
            return PotAward(pot, 0, shares, text=text)
        if no_boston == "leader":
            if ranking is None:
                raise TeamsError("no_boston: the pot goes to the leader; pass the ranking")
            leader = order[0]
            return PotAward(pot, 0, ((leader, pot),), text=_won(leader, "with no Boston made"))
        back = tuple((team, 2 * stake_cents) for team in sorted(teams))
        return PotAward(pot, 0, back, returned=True, text="no Boston: the stakes are returned")
    best = [team for team in order if bostons.get(team, 0) == most]
    many = f"{most} Boston{'s' if most > 1 else ''}"
    if len(best) == 1 or not split_ties:
        if len(best) > 1 and ranking is None:
            raise TeamsError(
                f"split_ties: teams {_names(sorted(best))} are level on {many}; without "
                "sharing, pass the ranking to decide"
            )
        how = f"with {many}" + (", the best ranked of those level" if len(best) > 1 else "")
        return PotAward(pot, most, ((best[0], pot),), text=_won(best[0], how))
    each, odd = divmod(pot, len(best))
    shares = tuple(sorted((team, each + (odd if team == best[0] else 0)) for team in best))
    text = f"teams {_names(sorted(best))} share the pot with {many} each"
    if odd:
        text += f"; the odd {odd} cent{'s' if odd > 1 else ''} to team {best[0]}"
    return PotAward(pot, most, shares, text=text)


def _order(teams: Sequence[int], ranking: Sequence[int] | None) -> list[int]:
    """The opted-in teams best first: by `ranking`, else by number."""
    if ranking is None:
        return sorted(teams)
    place = {team: index for index, team in enumerate(ranking)}
    missing = sorted(team for team in teams if team not in place)
    if missing:
        raise TeamsError(f"ranking: team {missing[0]} opted in but is not in the ranking")
    return sorted(teams, key=place.__getitem__)


def _won(team: int, how: str) -> str:
    return f"team {team} wins the pot {how}"


def _names(teams: Sequence[int]) -> str:
    words = [str(team) for team in teams]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
