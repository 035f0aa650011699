"""A team tournament's tablets: one team enters its table's game, the other confirms it or says
it is wrong; matching separate entries count at once.

A tablet's write locks only its table's game, never the tournament: a room of tablets writes
side by side (`_fresh`). Two devices inserting one game at once meet the one-game-per-table
constraint, and the second reads the first's. The round's last confirmation counts the round
again after its commit, under the tournament's lock, and draws the next round where the
director asked for that (`_draw_after_commit`), so two last confirmations at once draw it once.
The rules of the entry itself are `team_games.checked_game`'s (docs/directors/teams.md).
Once the tournament has finished (or is published) every write here, and the preview that
leads to one, is refused before anything else (`table_gate`): the director puts it right.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubwhist.queries import Prepared
from engine.teams import GameResult, Pairing
from tournaments.kernel.commits import after_commit
from tournaments.kernel.refusals import Kind
from tournaments.kernel.table_gate import table_writes_open
from tournaments.teams.models import Tournament, TournamentGame
from tournaments.teams.selectors.documents import GamePreview
from tournaments.teams.selectors.room import game_preview
from tournaments.teams.selectors.table_reads import team_names_cities, tournament_now
from tournaments.teams.selectors.teams import round_of
from tournaments.teams.services.games import (
    after_confirm,
    checked_game,
    pairing_of,
    running,
    team_names,
)
from tournaments.teams.services.playoff import (
    PlayoffPlace,
    after_playoff_game,
    playoff_result,
    playoff_table_place,
)
from tournaments.teams.services.teams import TeamsRefused, audit, round_complete

#: The sides of a table: the home team sits North-South.
SIDES = ("home", "away")


class TeamsDiffer(TeamsRefused):
    """The other team entered different figures: nothing changed; the table checks its sheet."""

    kind = Kind.CONFLICT


@dataclass(frozen=True)
class _Place:
    """The game a table plays now: its row's round, table (a playoff match's number) and
    `match` tag, its two teams, the playoff match's place (None in the rounds), and its name
    in the audit."""

    round: int
    pairing: Pairing
    tag: str
    playoff: PlayoffPlace | None
    where: str

    @property
    def row_table(self) -> int:
        return self.pairing.table


def _place(tournament: Tournament, table: int, doing: str) -> _Place:
    """The rounds' game at `table`, or in the playoff the match to play there now."""
    if tournament.status == Tournament.Status.PLAYOFF:
        found = playoff_table_place(tournament, table)
        where = f"match {found.match.id} game {found.series.next_game}"
        return _Place(found.round, found.pairing, found.tag, found, where)
    running(tournament, doing)
    pairing = pairing_of(tournament, tournament.round, table)
    where = f"round {tournament.round} table {table}"
    return _Place(tournament.round, pairing, "", None, where)


#: A rounds' game (`match` blank) read locked, as every entry and confirmation reads it: built
#: into SQL once per connection (`tournaments.teams.selectors.table_reads` says why).
_ROUND_GAME_LOCKED = Prepared(
    lambda tournament, round_, table: (
        TournamentGame.objects.select_for_update()
        .filter(tournament_id=tournament, round=round_, table=table, match="")
        .order_by("pk")[:1]
    )
)


def _row(tournament: Tournament, place: _Place) -> TournamentGame | None:
    """The place's game row, locked."""
    if not place.tag:
        found = _ROUND_GAME_LOCKED(tournament.pk, place.round, place.row_table)
        return found[0] if found else None
    return (
        TournamentGame.objects.select_for_update()
        .filter(tournament=tournament, round=place.round, table=place.row_table, match=place.tag)
        .first()
    )


def _side(side: str) -> str:
    if side not in SIDES:
        raise TeamsRefused("Say which team you are: home (North-South) or away (East-West).")
    return side


@transaction.atomic
def tablet_enter(
    *,
    tournament: Tournament,
    table: int,
    side: str,
    hands: Sequence[Mapping[str, Any]] | None = None,
    score: Mapping[str, Any] | None = None,
    replace: bool = False,
) -> tuple[TournamentGame, bool]:
    """One team enters the game at its table (with True when it is stored now, False when it
    counted at once or was already stored as sent). The other team then confirms; if it enters
    the game on its own instead and the two agree, the game counts at once; if they differ,
    the second entry is refused with the first's figures (nothing changes).

    `replace` is the tablet's "change what we sent": the entry waiting for confirmation is
    replaced by this one, whichever team is now named as entering it (a team that tapped the
    other's name by mistake puts it right), and the other team confirms the new figures. It
    never agrees with the old entry on its own: matching figures sent by the team that did not
    enter them would otherwise count as confirmed by one team alone."""
    tournament = _fresh(tournament)
    table_writes_open(tournament)
    place = _place(tournament, table, "entering a game")
    side = _side(side)
    if place.playoff is not None:
        result = playoff_result(tournament, place.playoff, hands=hands, score=score)
    else:
        result = checked_game(tournament, place.pairing, place.round, hands=hands, score=score)
    try:
        with transaction.atomic():
            return _table_entry(tournament, place, side, result, hands, score, replace)
    except IntegrityError:
        # The other team's device stored this table's game at the same moment: read it and
        # answer as if it had come first (agree, differ, or already stored).
        return _table_entry(tournament, place, side, result, hands, score, replace)


def _table_entry(
    tournament: Tournament,
    place: _Place,
    side: str,
    result: GameResult,
    hands: Sequence[Mapping[str, Any]] | None,
    score: Mapping[str, Any] | None,
    replace: bool = False,
) -> tuple[TournamentGame, bool]:
    """The entry against what the table has stored, under the game row's own lock."""
    pairing = place.pairing
    game = _row(tournament, place)
    if (
        game is not None
        and game.status == TournamentGame.Status.ENTERED
        and game.entered_by == side
        and _same(game.result, result)
        and list(hands or []) == game.hands
        and dict(score or {}) == game.score
    ):
        return game, False  # sent again (a retry after a lost answer): stored as sent
    if game is not None and game.status != TournamentGame.Status.ENTERED:
        state = "confirmed" if game.status == TournamentGame.Status.CONFIRMED else "disputed"
        raise TeamsRefused(f"This table's game is {state} already: ask the director to change it.")
    changed = game is not None and replace
    before = None
    if game is not None and changed:
        old = game.result if isinstance(game.result, Mapping) else {}
        before = {"by": game.entered_by, "points": old.get("points")}
    if game is not None and game.entered_by != side and not replace:
        if _same(game.result, result):
            game.status = TournamentGame.Status.CONFIRMED
            game.confirmed_at = timezone.now()
            game.save(update_fields=["status", "confirmed_at"])
            audit(tournament, None, "game-agreed", place.where, bump=False)
            _counted(tournament, place)
            return game, False
        teams = _names(tournament, pairing)
        other = teams[getattr(pairing, game.entered_by)]
        raise TeamsDiffer(
            f"{other} entered {_score(game.result, pairing, teams)}; yours says "
            f"{_score(result.to_dict(), pairing, teams)}. Check the score sheet together: "
            "confirm theirs, or call the director."
        )
    game = game or TournamentGame(
        tournament=tournament,
        round=place.round,
        table=place.row_table,
        match=place.tag,
        home=pairing.home,
        away=pairing.away,
    )
    game.kind = TournamentGame.Kind.PLAYED
    game.hands = list(hands or [])
    game.score = dict(score or {})
    game.result = result.to_dict()
    game.status = TournamentGame.Status.ENTERED
    game.entered_by = side
    game.source = "tablet"
    game.entered_at = timezone.now()
    game.save()
    audit(
        tournament,
        None,
        "game-changed" if changed else "game-entered",
        place.where,
        before=before,
        after={"by": side, "points": list(result.points)},
        bump=False,
    )
    return game, True


def _same(stored: Any, result: GameResult) -> bool:
    mine = result.to_dict()
    keys = ("winner", "points", "hands", "bostons")
    return isinstance(stored, Mapping) and all(stored.get(k) == mine[k] for k in keys)


def _names(tournament: Tournament, pairing: Pairing) -> dict[int, str]:
    """The table's two teams' names (the only ones a tablet's message needs)."""
    return {n: name for n, (name, _) in team_names_cities(tournament, pairing.teams).items()}


def _score(result: Any, pairing: Pairing, teams: dict[int, str]) -> str:
    points = result.get("points", [0, 0]) if isinstance(result, Mapping) else [0, 0]
    return f"{teams[pairing.home]} {points[0]}, {teams[pairing.away]} {points[1]}"


def _counted(tournament: Tournament, place: _Place) -> None:
    """A game has just counted: in the playoff its match's series moves on (and the winner in
    the bracket); in the rounds the next round may be drawn."""
    if place.playoff is not None:
        after_playoff_game(tournament, place.playoff.match.id)
    else:
        _draw_after_commit(tournament)


def _waiting(tournament: Tournament, place: _Place, side: str, other_does: str) -> TournamentGame:
    """The table's game waiting for the other team's word, or why there is none to give."""
    side = _side(side)
    game = _row(tournament, place)
    if game is None or game.status != TournamentGame.Status.ENTERED:
        raise TeamsRefused("There is no game waiting for confirmation at this table.")
    if game.entered_by == side:
        raise TeamsRefused(f"The other team {other_does}: hand them the tablet.")
    return game


@transaction.atomic
def tablet_confirm(*, tournament: Tournament, table: int, side: str) -> TournamentGame:
    """The other team agrees: the game counts."""
    tournament = _fresh(tournament)
    table_writes_open(tournament)
    place = _place(tournament, table, "confirming a game")
    game = _waiting(tournament, place, side, "confirms what you entered")
    game.status = TournamentGame.Status.CONFIRMED
    game.confirmed_at = timezone.now()
    game.save(update_fields=["status", "confirmed_at"])
    audit(tournament, None, "game-confirm", place.where, bump=False)
    _counted(tournament, place)
    return game


@transaction.atomic
def tablet_dispute(
    *, tournament: Tournament, table: int, side: str, note: str = ""
) -> TournamentGame:
    """The other team does not agree: the director is called; the game does not count."""
    tournament = _fresh(tournament)
    table_writes_open(tournament)
    place = _place(tournament, table, "disputing a game")
    game = _waiting(tournament, place, side, "says whether it agrees")
    game.status = TournamentGame.Status.DISPUTED
    game.note = " ".join(note.split())[:200]
    game.save(update_fields=["status", "note"])
    audit(tournament, None, "game-dispute", place.where, reason=note, bump=False)
    return game


def tablet_preview(*, tournament: Tournament, hands: Any, table: int | None = None) -> GamePreview:
    """The score sheet of the hands a table has typed so far (nothing is stored); refused once
    the tournament is over, as the entry it leads to would be. With the `table`, how the game
    ended names its two teams."""
    tournament = _fresh(tournament)
    table_writes_open(tournament)
    names: tuple[str, str] = ("home", "away")
    if table is not None and tournament.status == Tournament.Status.PLAYOFF:
        with contextlib.suppress(TeamsRefused):  # no match there: the sheet says home, away
            names = team_names(tournament, *_place(tournament, table, "").pairing.teams)
    elif table is not None and tournament.round:
        drawn = round_of(tournament, tournament.round)
        pairing = next((p for p in drawn.tables if p.table == table), None) if drawn else None
        if pairing is not None:
            names = team_names(tournament, pairing.home, pairing.away)
    return game_preview(tournament, hands, names)


def _fresh(tournament: Tournament) -> Tournament:
    """The row again, unlocked. A tablet's write locks only its table's game (and briefly the
    tournament's version): a room of tablets writes side by side instead of one at a time,
    which the director's actions, holding the tournament's lock, still never interleave with
    (they wait for each other row by row)."""
    return tournament_now(tournament.pk)


def _draw_after_commit(tournament: Tournament) -> None:
    """A tablet's confirmation may be the round's last: once it has committed, count the
    round again under the tournament's lock (two last confirmations at once each see the
    other's only then) and draw the next round where the director asked for that."""
    if not tournament.moves_on:
        return
    after_commit(_draw_if_done, tournament)


def _draw_if_done(confirmed: Tournament) -> None:
    """The round counted first without the lock, and only a count that finds every table done
    goes on to take it: of confirmations committed side by side, the last to commit sees every
    other's, so the round's last one is never missed, while the others (all but one a round)
    no longer queue behind each other for the tournament's row."""
    done, tables = round_complete(confirmed)
    if done < tables:
        return
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=confirmed.pk)
        if tournament.round == confirmed.round and tournament.status == Tournament.Status.RUNNING:
            after_confirm(tournament)
