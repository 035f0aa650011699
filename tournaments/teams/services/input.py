"""What a director gives a team tournament, checked before anything is written: its settings,
its teams (names under the one rule for names, no two alike), and how many.

Kept apart from `tournaments.teams.services.teams` (the director's actions) so that module holds
the actions alone; the API, the set-up pages and the backup's reader refuse the same things
with the same words through these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.teams import TeamsError
from engine.teams.model import MAX_TEAMS
from engine.teams.settings import PLAYOFF_SIZES, TournamentSettings, playoff_sizes_text
from tournaments.kernel.member_links import NameLinker, member_id_of
from tournaments.kernel.models import Member
from tournaments.kernel.names import RuleRefused, name_checked
from tournaments.kernel.refusals import Refused
from tournaments.teams.models import TournamentTeam

#: The fewest teams a tournament can draw: two make one table.
FEWEST_TEAMS = 2
#: The refusal past the engine's MAX_TEAMS, for the service, the API and the set-up page.
TOO_MANY_TEAMS = (
    f"The list has more than {MAX_TEAMS} teams; a tournament takes at most {MAX_TEAMS} "
    f"({MAX_TEAMS // 2} tables). Split the field into two tournaments. Nothing was changed."
)

TEAM_FIELDS = ("name", "city", "player_one", "player_two")
#: The explicit member choices a team's data may carry beside its players' names (the API's;
#: left out, each name links to the member whose name it is).
MEMBER_FIELDS = ("member_one", "member_two")


class TeamsRefused(Refused):
    """A director's request the tournament cannot take; the message says why and what to do."""


def checked_settings(data: Mapping[str, Any]) -> TournamentSettings:
    """The director's settings for a new tournament or a draft's change, checked by the
    engine, and a playoff of one of the sizes the set-up form offers (`PLAYOFF_SIZES`): the
    API and a command's file take exactly what the form does. Stored settings are read back
    by the engine alone, so a tournament saved with another size still opens."""
    try:
        checked = TournamentSettings.from_dict(data)
    except TeamsError as exc:
        raise TeamsRefused(str(exc)) from None
    if checked.playoff not in PLAYOFF_SIZES:
        raise TeamsRefused(
            f"playoff: the number of teams in the playoff is {playoff_sizes_text()}, "
            f"not {checked.playoff}."
        )
    return checked


def name_or_refusal(
    value: object, what: str, *, model: Any, column: str, required: bool = False
) -> str:
    """`value` under the one rule for names (`name_checked`, as events and drives: no control
    or bidirectional characters, at least one visible character, the column's length), or a
    TeamsRefused naming `what` ("team 3's city"). Left out (None) is blank."""
    if not isinstance(value, str | None):
        raise TeamsRefused(
            f"{what[:1].upper()}{what[1:]}: a name is text, not {type(value).__name__}."
        )
    try:
        return name_checked(value or "", model=model, column=column, what=what, required=required)
    except RuleRefused as exc:
        raise TeamsRefused(str(exc)) from None


def team_fields(data: Mapping[str, Any], number: int) -> dict[str, str]:
    if not isinstance(data, Mapping):
        raise TeamsRefused(
            f"Team {number}: give its name (and, if known, its city and two players)."
        )
    unknown = sorted(set(data) - {*TEAM_FIELDS, *MEMBER_FIELDS, "paid_cents", "in_pot", "present"})
    if unknown:
        raise TeamsRefused(
            f"Team {number}: unknown {', '.join(unknown)} (known: {', '.join(TEAM_FIELDS)})."
        )
    what = {
        "name": f"team {number}'s name",
        "city": f"team {number}'s city",
        "player_one": f"team {number}'s first player",
        "player_two": f"team {number}'s second player",
    }
    return {
        field: name_or_refusal(
            data.get(field), what[field], model=TournamentTeam, column=field,
            required=field == "name",
        )
        for field in TEAM_FIELDS
    }  # fmt: skip


def teams_distinct(names: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for name in names:
        first = seen.setdefault(name.casefold(), name)
        if first is not name:
            raise TeamsRefused(
                f"Two teams are called {first}: add a word (a city, a number) so the "
                "standings tell them apart."
            )


def team_links(
    linker: NameLinker,
    fields: Mapping[str, str],
    data: Mapping[str, Any],
    number: int,
    before: TournamentTeam | None = None,
) -> dict[str, Member | None]:
    """The members a team's two players are (`kernel.member_links`): the member the caller
    chose (`member_one`/`member_two` in `data`: an id, None for a visitor), else the one whose
    name the player has; a name left as `before` had it keeps its link."""
    links: dict[str, Member | None] = {}
    for link, name_field in TournamentTeam.MEMBER_NAMES.items():
        which = "first" if link == "member_one" else "second"
        links[link] = linker.link(
            fields[name_field],
            chosen=member_id_of(data, link),
            what=f"team {number}'s {which} player",
            before=None if before is None else (getattr(before, name_field), getattr(before, link)),
        )
    return links
