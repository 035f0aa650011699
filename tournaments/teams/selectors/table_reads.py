"""The few reads every team tablet request makes, built into SQL once per connection.

Why: a table's entry, confirmation or state asks for the tournament's row, its game, the
round's games counted and its two teams' names; each is a query of a row or two, and Django
spent about as long building each one's SQL as the database spent answering it (some 5 ms of
a 20 ms entry, measured in one process). Under a room of tablets that building is CPU the
other tablets wait for. `clubwhist.queries.Prepared` builds each once per connection and
answers exactly as the QuerySet it comes from; these functions answer as the ORM calls they
replace (`.first()` by id, `.count()`, `values_list`).

Only the rounds' games (`match` blank) are read here; a playoff match's game, tagged, is read
by the ORM as before. Nothing here locks or writes: a write's locked read of its game is the
service's (`services.tablets._row`).
"""

from __future__ import annotations

from collections.abc import Iterable

from clubwhist.queries import Prepared
from tournaments.teams.models import Tournament, TournamentGame, TournamentTeam

_TOURNAMENT = Prepared(lambda pk: Tournament.objects.filter(pk=pk).order_by())

_GAME = Prepared(
    lambda tournament, round_, table: TournamentGame.objects.filter(
        tournament_id=tournament, round=round_, table=table, match=""
    ).order_by("pk")[:1]
)
_CONFIRMED = Prepared(
    lambda tournament, round_: (
        TournamentGame.objects.filter(
            tournament_id=tournament,
            round=round_,
            match="",
            status=TournamentGame.Status.CONFIRMED,
            table__gte=1,
        )
        .order_by()
        .values_list("pk", flat=True)
    )
)
_NAMES = Prepared(
    lambda tournament, *numbers: (
        TournamentTeam.objects.filter(tournament_id=tournament, number__in=numbers)
        .order_by()
        .values_list("number", "name", "city")
    )
)


def tournament_now(pk: int) -> Tournament:
    """The tournament's row as it is now (`Tournament.objects.get(pk=pk)`)."""
    found = _TOURNAMENT(pk)
    if not found:
        raise Tournament.DoesNotExist(f"No team tournament {pk}.")
    return found[0]


def round_game(tournament: Tournament, round_: int, table: int) -> TournamentGame | None:
    """The rounds' game at `table` in `round_` (one row at most: a table plays one game a
    round). A write reads it locked instead (`services.tablets`)."""
    found = _GAME(tournament.pk, round_, table)
    return found[0] if found else None


def games_confirmed(tournament: Tournament, round_: int) -> int:
    """How many of the round's tables have a game that counts."""
    return len(_CONFIRMED(tournament.pk, round_))


def team_names_cities(tournament: Tournament, numbers: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Each of the teams `numbers`' (name, city); a number with no team is left out."""
    wanted = sorted({int(n) for n in numbers})
    if not wanted:
        return {}
    return {n: (name, city) for n, name, city in _NAMES(tournament.pk, *wanted)}
