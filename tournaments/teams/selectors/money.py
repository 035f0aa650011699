"""A team tournament's money as the director's page shows it: what came in at the door, the
prize fund and each paid place's prize, and the Boston pot. Money is recorded, not processed:
these are the figures to pay out by hand.

Every amount is worked out by the engine (`engine.teams.money`) from the fees the settings
state and the standings: the prize fund is the entry fees of every player (the fee times two
players a team), less the club's share; places tied in the standings share their prizes
equally (odd cents to the first listed). The pot is decided on the Bostons made up to the
stated round (`pot_round`, else the last), as it stands now until that round is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.teams import PotAward, StandingRow, boston_pot, count_bostons, prize_split
from tournaments.teams.models import Tournament, TournamentTeam
from tournaments.teams.selectors.teams import counted_results, settings_of


@dataclass(frozen=True)
class Prize:
    place: str
    team: str
    cents: int


@dataclass(frozen=True)
class MoneyView:
    """The figures; `prizes` and `pot` are empty/None when the settings name none."""

    expected_cents: int
    paid_cents: int
    fund_cents: int
    prizes: tuple[Prize, ...]
    pot: PotAward | None
    pot_teams: int
    pot_final: bool
    pot_text: str = ""
    #: The teams in the pot, by name (ticked at the door; fixed once the draw is made).
    pot_names: tuple[str, ...] = ()


def money_view(tournament: Tournament, rows: list[StandingRow]) -> MoneyView:
    settings = settings_of(tournament)
    teams = list(TournamentTeam.objects.filter(tournament=tournament).order_by("number"))
    players = 2 * len(teams)
    prizes: list[Prize] = []
    fund = 0
    if settings.prizes and settings.fee_cents:
        amounts = prize_split(
            players, settings.fee_cents, settings.prizes, house_percent=settings.house_percent
        )
        fund = sum(amounts)
        prizes = _by_place(rows, amounts)
    pot: PotAward | None = None
    opted = [t.number for t in teams if t.in_pot]
    last = settings.pot_round or settings.rounds
    if settings.pot_stake_cents and opted:
        bostons = count_bostons(counted_results(tournament), through_round=last)
        pot = boston_pot(
            opted,
            settings.pot_stake_cents,
            bostons,
            ranking=_ranking(rows, teams),
            no_boston=_no_boston(settings.pot_no_boston),
            ranks=_ranks(rows, teams),
        )
    names = {t.number: t.name for t in teams}
    return MoneyView(
        expected_cents=players * settings.fee_cents,
        paid_cents=sum(t.paid_cents for t in teams),
        fund_cents=fund,
        prizes=tuple(prizes),
        pot=pot,
        pot_teams=len(opted),
        pot_final=tournament.round > last
        or tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.RUNNING),
        pot_text="" if pot is None else _pot_text(pot, names),
        pot_names=tuple(names[number] for number in opted),
    )


def _ranking(rows: list[StandingRow], teams: list[TournamentTeam]) -> list[int]:
    """Every team best first: the standings' order, then any team they do not rank yet (at
    the door, before the draw, nobody is ranked; the pot already counts the teams in it), by
    number."""
    ranked = [row.team.number for row in rows]
    return ranked + [t.number for t in teams if t.number not in set(ranked)]


def _no_boston(rule: str) -> Literal["return", "carry", "leader", "record"]:
    """The settings' rule (checked there) as the engine's words."""
    if rule == "carry":
        return "carry"
    if rule == "leader":
        return "leader"
    if rule == "record":
        return "record"
    return "return"


def _ranks(rows: list[StandingRow], teams: list[TournamentTeam]) -> dict[int, int]:
    """Each team's place (teams level share one); a team not ranked yet comes after all."""
    ranks = {row.team.number: row.rank for row in rows}
    last = len(teams) + 1
    return {t.number: ranks.get(t.number, last) for t in teams}


def _pot_text(pot: PotAward, names: dict[int, str]) -> str:
    """Who takes the pot, by name: the engine's own text names teams by number."""
    if pot.returned:
        return "No Boston yet: the stakes go back to the teams."
    if not pot.shares:
        return "No Boston yet: the pot is carried to the next event."
    if pot.most_bostons == 0:
        winners = ", ".join(
            f"{names.get(team, team)} {cents_text(cents)}" for team, cents in pot.shares
        )
        return f"No Boston yet: to the best record: {winners}."
    boston = f"{pot.most_bostons} Boston{'s' if pot.most_bostons != 1 else ''}"
    if len(pot.shares) == 1:
        team, cents = pot.shares[0]
        return f"{names.get(team, team)} takes it ({cents_text(cents)}) with {boston}."
    shares = ", ".join(f"{names.get(team, team)} {cents_text(cents)}" for team, cents in pot.shares)
    return f"Shared, {boston} each: {shares}."


def cents_text(cents: int) -> str:
    """An amount as the pages and the paper print it: 12.50."""
    return f"{cents // 100}.{cents % 100:02d}"


def _by_place(rows: list[StandingRow], amounts: list[int]) -> list[Prize]:
    """Each paid place's prize to the team in it; teams sharing a rank share the prizes of
    the places they cover."""
    out: list[Prize] = []
    index = 0
    while index < len(rows) and index < len(amounts):
        group = [r for r in rows[index:] if r.rank == rows[index].rank]
        covered = sum(amounts[index : index + len(group)])
        share, odd = divmod(covered, len(group))
        label = f"{index + 1}=" if len(group) > 1 else str(index + 1)
        for k, row in enumerate(group):
            out.append(Prize(label, row.team.name, share + (odd if k == 0 else 0)))
        index += len(group)
    return out
