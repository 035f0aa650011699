"""Checks of a team tournament document's games and bracket against the rounds they belong to.

`backup_parse` checks the tournament, its teams and its rounds; these check each game where its
round seats it (or a bye where the round gives one, or a playoff match where the bracket puts
it), its result as the engine writes one and as the engine works it out again (from the hands,
the final score, the forfeit or the bye), every round before the current one complete, and the
bracket with a game for each match it says was won. Each refusal names the game by its place
in the document and where it was played.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.teams import Bracket, GameResult, Round, TeamsError, TeamTournament, series
from engine.teams.settings import TournamentSettings
from tournaments.kernel.backup.schema import RestoreRefused
from tournaments.teams.models import Tournament, TournamentGame, TournamentTeam
from tournaments.teams.selectors.room import game_tag, playoff_game
from tournaments.teams.selectors.teams import TIE_GAME, tie_game_tag

#: The rotations whose rounds are a schedule fixed by the teams and the seed.
FIXED_ROTATIONS = ("round_robin", "moving")
#: The statuses in which the round being played is over too.
OVER = (Tournament.Status.PLAYOFF, Tournament.Status.FINISHED, Tournament.Status.PUBLISHED)
#: Who entered a game: the home team's tablet, the away team's, or the director ("").
ENTERED_BY = ("", "home", "away")

Played = TournamentGame.Kind.PLAYED
Confirmed = TournamentGame.Status.CONFIRMED


def same_json(a: Any, b: Any) -> bool:
    """The same JSON, types included (true is not 1, 1.0 is not 1)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _differences(stored: dict[str, Any], made: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(stored) | set(made)) if not same_json(stored.get(k), made.get(k))]
    return "; ".join(f"{k} {stored.get(k)!r}, worked out {made.get(k)!r}" for k in keys[:3])


def is_playoff(match: str) -> bool:
    """Whether a game's `match` names a playoff game: its match's number, in plain digits by
    the one rule for numbers (`str.isdigit()` passes "²", which `int()` then refuses), and for
    the next games of a series the game's number after a dot ("5.2")."""
    return playoff_game(match) is not None


def is_tie_game(match: str) -> bool:
    """Whether a game's `match` names a tie played off in one game ("tie-3-5")."""
    return match.startswith(TIE_GAME)


def _where(index: int, game: TournamentGame) -> str:
    found = playoff_game(game.match)
    if is_tie_game(game.match):
        place = f"the tie between teams {game.home} and {game.away} played off"
    elif found is not None:
        place = f"playoff match {found[0]}" + (f", game {found[1]}" if found[1] > 1 else "")
    elif game.match.startswith("bye-"):
        place = f"round {game.round}, a bye for team {game.home}"
    else:
        place = f"round {game.round}, table {game.table}"
    return f"The tournament's game {index} ({place})"


def _check_place(game: TournamentGame, round_: Round, where: str) -> None:
    """A round's game where the round seats it: its table's two teams, or a team's bye."""
    if game.match == "":
        if game.kind == TournamentGame.Kind.BYE:
            raise RestoreRefused(f"{where}: a bye is no table's game (its match is 'bye-<team>').")
        pairing = next((p for p in round_.tables if p.table == game.table), None)
        if pairing is None:
            raise RestoreRefused(
                f"{where}: round {round_.number} has no table {game.table} (its tables are 1 "
                f"to {len(round_.tables)})."
            )
        if (game.home, game.away) != pairing.teams:
            raise RestoreRefused(
                f"{where}: it is between teams {game.home} and {game.away}, but round "
                f"{round_.number} seats team {pairing.home} v team {pairing.away} at that table."
            )
        return
    if not game.match.startswith("bye-"):
        raise RestoreRefused(
            f"{where}: match {game.match!r} is neither a playoff match's number nor a bye "
            "('bye-<team>')."
        )
    if (
        game.kind != TournamentGame.Kind.BYE
        or game.table != 0
        or game.away is not None
        or game.match != f"bye-{game.home}"
    ):
        raise RestoreRefused(
            f"{where}: a bye is of kind 'bye', at table 0, for the team its match names "
            "('bye-<team>'), with no opponent."
        )
    if game.home not in round_.byes:
        byes = ", ".join(str(b) for b in round_.byes) or "none"
        raise RestoreRefused(
            f"{where}: round {round_.number} gives team {game.home} no bye (its byes: {byes})."
        )


def _check_tie_game(game: TournamentGame, engine: TeamTournament, where: str) -> None:
    """A tie played off: allowed by the settings, between two teams, written as its teams'
    tag, after the last round, counting at once."""
    if not engine.settings.tie_games:
        raise RestoreRefused(f"{where}: the tournament's settings do not play ties off.")
    if game.away is None or game.match != tie_game_tag((game.home, game.away)):
        raise RestoreRefused(f"{where}: a tie's game is between two teams, written 'tie-<a>-<b>'.")
    if (game.round, game.table) != (engine.settings.rounds, 1) or game.status != Confirmed:
        raise RestoreRefused(
            f"{where}: a tie's game is played after the last round (round "
            f"{engine.settings.rounds}, table 1) and counts at once."
        )


def _result(game: TournamentGame, where: str) -> GameResult | None:
    if game.result is None:
        if game.status == Confirmed or game.kind != Played:
            raise RestoreRefused(f"{where}: it counts, yet it has no result.")
        return None
    try:
        if not isinstance(game.result, dict):
            raise TeamsError(f"a result is an object, not {game.result!r}")
        result = GameResult.from_dict(game.result)
    except TeamsError as exc:
        raise RestoreRefused(f"{where}: its result is refused: {exc}") from None
    if not same_json(result.to_dict(), game.result):
        raise RestoreRefused(
            f"{where}: its result {game.result!r} is not as the engine writes one "
            f"({result.to_dict()!r})."
        )
    if (result.round, result.table) != (game.round, game.table):
        raise RestoreRefused(
            f"{where}: its result is round {result.round}, table {result.table}'s."
        )
    for team in (result.home, result.away, result.winner):
        if team is not None and team not in (game.home, game.away):
            game_of = (
                f"team {game.home}'s bye"
                if game.away is None
                else f"between team {game.home} and team {game.away}"
            )
            raise RestoreRefused(
                f"{where}: its result names team {team}, who is not in that game: it is {game_of}."
            )
    if (result.home, result.away) != (game.home, game.away):
        raise RestoreRefused(
            f"{where}: its result has team {result.home} at home and team {result.away} "
            f"away; the game, team {game.home} at home and team {game.away} away."
        )
    return result


def _recomputed(
    engine: TeamTournament, game: TournamentGame, result: GameResult, week: int, where: str
) -> tuple[GameResult, str]:
    """The result as the engine works it out from the game's own figures, and what they are."""
    try:
        if game.kind == Played:
            if game.away is None:
                raise TeamsError("a game that is played has two teams")
            hands = game.hands or None
            score = game.score or None
            made = engine.played(
                game.round, game.table, game.home, game.away, hands=hands, score=score, week=week
            )
            if is_playoff(game.match) or is_tie_game(game.match):
                made = replace(made, playoff=True)
            return made, "hands" if hands else "final score"
        if game.kind == TournamentGame.Kind.BYE:
            return engine.bye(game.round, game.home, week=week), "bye"
        if result.winner is None or game.away is None:
            raise TeamsError(f"a {game.kind} game has a winner and a loser")
        loser = game.away if result.winner == game.home else game.home
        withdrawn = game.kind == TournamentGame.Kind.WITHDRAWN
        made = engine.forfeit(
            game.round,
            game.table,
            result.winner,
            loser,
            home=game.home,
            withdrawn=withdrawn,
            week=week,
        )
        return made, "withdrawal" if withdrawn else "forfeit"
    except (TeamsError, TypeError, KeyError, AttributeError) as exc:
        raise RestoreRefused(f"{where}: the engine refuses it: {exc}") from None


def check_games(
    tournament: Tournament,
    engine: TeamTournament,
    drawn: dict[int, Round],
    games: list[TournamentGame],
    withdrawn: dict[int, int],
) -> list[GameResult]:
    """Every game checked (`_check_place`, `_result`, `_recomputed`); every round before the
    current one (all of them once the rounds are over) with a counting game at each table and
    a bye for each team its round gives one (a team withdrawn before that round may have none:
    `withdrawn` maps each withdrawn team to the round it withdrew after). Returns the results
    the standings count."""
    seen: dict[tuple[int, int, str], int] = {}
    done: dict[int, set[int]] = {}
    byes: dict[int, set[int]] = {}
    counted: list[tuple[tuple[int, int, str], GameResult]] = []
    for index, row in enumerate(games, start=1):
        where = _where(index, row)
        key = (row.round, row.table, row.match)
        if key in seen:
            raise RestoreRefused(
                f"{where} is in the document twice (games {seen[key]} and {index})."
            )
        seen[key] = index
        if row.entered_by not in ENTERED_BY:
            raise RestoreRefused(
                f"{where}: entered_by is 'home', 'away' or '' (the director's), not "
                f"{row.entered_by!r}."
            )
        if row.kind != Played and row.status != Confirmed:
            raise RestoreRefused(
                f"{where}: a {row.kind} counts at once, yet its status is {row.status}."
            )
        if is_tie_game(row.match):
            _check_tie_game(row, engine, where)
        elif not is_playoff(row.match):
            round_ = drawn.get(row.round)
            if round_ is None:
                raise RestoreRefused(
                    f"{where}: round {row.round} has not been drawn (the rounds so far are 1 "
                    f"to {tournament.round})."
                )
            _check_place(row, round_, where)
        result = _result(row, where)
        if result is None:
            continue
        if result.week != tournament.week:
            raise RestoreRefused(
                f"{where}: its result is week {result.week}'s, the tournament is week "
                f"{tournament.week}."
            )
        made, source = _recomputed(engine, row, result, tournament.week, where)
        if made != result:
            raise RestoreRefused(
                f"{where}: its result is not what its {source} make: "
                f"{_differences(result.to_dict(), made.to_dict())}."
            )
        if row.status == Confirmed and not is_playoff(row.match) and not is_tie_game(row.match):
            counted.append((key, result))
            if row.match == "":
                done.setdefault(row.round, set()).add(row.table)
            else:
                byes.setdefault(row.round, set()).add(row.home)
    for number, round_ in sorted(drawn.items()):
        if number < tournament.round or tournament.status in OVER:
            missing = [p.table for p in round_.tables if p.table not in done.get(number, set())]
            if missing:
                raise RestoreRefused(
                    f"The tournament is {tournament.status} at round {tournament.round}, yet "
                    f"round {number}'s table {missing[0]} has no game that counts: a round is "
                    "over (the next one drawn, the tournament finished) when every table's "
                    "game counts."
                )
        gone = {team for team, after in withdrawn.items() if after < number}
        lacking = sorted(set(round_.byes) - byes.get(number, set()) - gone)
        if lacking:
            raise RestoreRefused(
                f"Round {number} gives team {lacking[0]} a bye, but the document has no bye "
                "game for it."
            )
    return [result for _, result in sorted(counted, key=lambda item: item[0])]


def check_bracket(
    tournament: Tournament,
    settings: TournamentSettings,
    teams: list[TournamentTeam],
    games: list[TournamentGame],
) -> None:
    """The bracket as the engine reads one, seeded with the playoff's number of teams still
    in the tournament, with a game for each match it says was won (between that match's
    teams, won by its winner) and none for any other."""
    playoff = [(i, g) for i, g in enumerate(games, start=1) if is_playoff(g.match)]
    if not tournament.bracket:
        if tournament.status == Tournament.Status.PLAYOFF:
            raise RestoreRefused("The tournament is in its playoff, yet it has no bracket.")
        if playoff:
            where = _where(*playoff[0])
            raise RestoreRefused(f"{where} is a playoff game, but the tournament has no bracket.")
        return
    if tournament.status not in OVER:
        raise RestoreRefused(
            f"The tournament has a bracket, yet it is {tournament.status}: the bracket is "
            "seeded when the last round is over."
        )
    if not settings.playoff or tournament.round != settings.rounds:
        raise RestoreRefused(
            f"The tournament has a bracket, but its settings have no playoff, or it stopped at "
            f"round {tournament.round} of {settings.rounds}: the bracket is seeded after the "
            "last round of a tournament with a playoff."
        )
    try:
        if not isinstance(tournament.bracket, dict):
            raise TeamsError(f"a bracket is an object, not {tournament.bracket!r}")
        bracket = Bracket.from_dict(tournament.bracket)
        if not same_json(bracket.to_dict(), tournament.bracket):
            raise TeamsError(f"{tournament.bracket!r} is not a bracket as the engine stores one")
    except (TeamsError, TypeError) as exc:
        raise RestoreRefused(f"The tournament's bracket is refused: {exc}") from None
    playing = {t.number for t in teams if t.withdrawn_after is None}
    strangers = [seed for seed in bracket.seeds if seed not in playing]
    if len(bracket.seeds) != settings.playoff or strangers:
        raise RestoreRefused(
            f"The tournament's bracket seeds teams {list(bracket.seeds)}: its playoff takes "
            f"{settings.playoff} teams of the tournament that did not withdraw."
        )
    found: dict[int, int] = {}
    rows: dict[int, dict[int, tuple[int, TournamentGame]]] = {}
    for index, row in playoff:
        where = _where(index, row)
        number, nth = playoff_game(row.match) or (0, 0)
        try:
            match = bracket.match(number)
        except TeamsError:
            raise RestoreRefused(f"{where}: the bracket has no match {number}.") from None
        tag = game_tag(match.id, nth)
        if row.match != tag:
            raise RestoreRefused(f"{where}: game {nth} of match {match.id} is written {tag!r}.")
        if nth > settings.playoff_best_of:
            raise RestoreRefused(
                f"{where}: a playoff match is {settings.playoff_best_of} game(s) at most."
            )
        if nth in rows.get(match.id, {}):
            raise RestoreRefused(
                f"{where}: game {nth} of match {match.id} has another row "
                f"(row {rows[match.id][nth][0]})."
            )
        rows.setdefault(match.id, {})[nth] = (index, row)
        found[match.id] = index
        if (row.round, row.table) != (settings.rounds + match.round, match.id):
            raise RestoreRefused(
                f"{where}: match {match.id} is played as round "
                f"{settings.rounds + match.round}, table {match.id}."
            )
        if match.teams != (row.home, row.away):
            raise RestoreRefused(
                f"{where}: the bracket's match {match.id} is {match.pairing}; the document "
                f"has team {row.home} v team {row.away}."
            )
    for match_id, games_of in rows.items():
        match = bracket.match(match_id)
        numbers = sorted(games_of)
        if numbers != list(range(1, len(numbers) + 1)):
            raise RestoreRefused(
                f"Match {match_id}'s games are numbered {numbers}: they run from 1 without gaps."
            )
        ordered = [games_of[n] for n in numbers]
        waiting = [(i, r) for i, r in ordered if r.status != Confirmed]
        if waiting and (waiting[0][1] is not ordered[-1][1] or match.winner is not None):
            raise RestoreRefused(
                f"{_where(*waiting[0])}: only the last game of a match not yet won may wait for "
                "the other team's word (or the director's); the others count."
            )
        winners = [
            r.result.get("winner") if isinstance(r.result, dict) else None
            for _, r in ordered
            if r.status == Confirmed
        ]
        try:
            now = series(match, winners, settings.playoff_best_of)
        except TeamsError as exc:
            raise RestoreRefused(f"The tournament's playoff games: {exc}.") from None
        if now.winner != match.winner:
            raise RestoreRefused(
                f"The tournament's bracket says match {match_id} was won by "
                f"{'nobody yet' if match.winner is None else f'team {match.winner}'}, but its "
                f"games give {'nobody yet' if now.winner is None else f'team {now.winner}'}."
            )
    for match in bracket.matches:
        if match.winner is not None and match.id not in found:
            raise RestoreRefused(
                f"The tournament's bracket says match {match.id} was won by team "
                f"{match.winner}, but the document has no game for it."
            )


def check_standings(engine: TeamTournament, counted: list[GameResult]) -> None:
    """The standings worked out from the games that count, as the pages work them out."""
    try:
        engine.standings(counted)
    except (TeamsError, TypeError, KeyError, AttributeError, ZeroDivisionError) as exc:
        raise RestoreRefused(
            f"The tournament's standings cannot be worked out from its games: {exc}"
        ) from None
