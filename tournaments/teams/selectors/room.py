"""A team tournament's tables as the tablets and the room see them: each table's link, the
state its tablet shows, and the playoff bracket as the pages draw it.

A tablet stays on its table all evening while the teams move, so its link is the table's. Its
state names the two teams of this round, where the game stands (nobody has entered it, one
team has and the other must confirm, it counts, it is disputed), how many tables are done, and
once the next round is drawn, where the teams of this table go. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from engine.reading import whole_number
from engine.teams import GameResult, Round, TeamsError
from engine.teams.bracket import SERIES_LENGTHS, Bracket, Match, Series, Slot, series
from tournaments.kernel.links import LinkReplaced, LinkUnknown
from tournaments.teams.models import Tournament, TournamentGame, TournamentTableAccess
from tournaments.teams.selectors.documents import (
    GamePreview,
    PlayoffMatch,
    PlayoffRound,
    RoundLine,
    RoundTable,
    StandingsHead,
    TableStanding,
    TableTeam,
    TeamLine,
    TeamMove,
    TeamPublicStandings,
    TeamTableState,
    TournamentDocument,
    game_preview_document,
    table_game,
    team_standings,
    tournament_head,
)
from tournaments.teams.selectors.table_reads import (
    games_confirmed,
    round_game,
    team_names_cities,
)
from tournaments.teams.selectors.teams import (
    TournamentState,
    counted_results,
    engine_for,
    round_of,
    settings_of,
)


class TeamLinkUnknown(LinkUnknown):
    """No such table link."""


class TeamLinkReplaced(LinkReplaced):
    """The link was replaced: the director gave the table a new one."""


@dataclass(frozen=True)
class TeamLink:
    table: int
    url: str


def team_links(tournament: Tournament, base_url: str) -> list[TeamLink]:
    rows = TournamentTableAccess.objects.filter(
        tournament=tournament, revoked_at__isnull=True
    ).order_by("table")
    return [TeamLink(row.table, f"{base_url}/tt/{row.token}/") for row in rows]


def team_link(token: str) -> tuple[Tournament, int]:
    row = TournamentTableAccess.objects.select_related("tournament").filter(token=token).first()
    if row is None:
        raise TeamLinkUnknown("This table link is not known: scan the table's code again.")
    if row.revoked_at is not None:
        raise TeamLinkReplaced(
            "This table link was replaced by the director: scan the table's new code."
        )
    return row.tournament, row.table


def _team(names: dict[int, tuple[str, str]], number: int | None) -> TableTeam | None:
    if number is None:
        return None
    name, city = names.get(number, (f"Team {number}", ""))
    return TableTeam(number, name, city)


def table_state(tournament: Tournament, table: int) -> dict[str, Any]:
    """What the table's tablet shows now (JSON, as the page embeds it and the API sends)."""
    return table_document(tournament, table).to_dict()


def table_document(tournament: Tournament, table: int) -> TeamTableState:
    """What the table's tablet shows now, as its typed document."""
    return _table_document(tournament, table, _OneTable(tournament))


def room_states(tournament: Tournament, tables: Iterable[int]) -> dict[int, dict[str, Any]]:
    """`table_state` of each of `tables` at once. A draw wakes the streams of every table of a
    room together: read one table at a time that was some five queries and two readings of
    the round's pairings a table (a 100-table room: hundreds of queries in the same second,
    while the tablets' requests waited); read for the room it is four in all. The same
    documents as `table_state` gives (a test compares them table by table)."""
    room = _WholeRoom(tournament)
    return {table: _table_document(tournament, table, room).to_dict() for table in tables}


class _RoomSource:
    """What a table's state reads of its round: the round drawn and the one before, the
    round's games and the teams' names. `_OneTable` reads what one table needs; `_WholeRoom`
    reads everything once for every table."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._rounds: dict[int, Round | None] = {}

    def round(self, number: int) -> Round | None:
        if number not in self._rounds:
            self._rounds[number] = round_of(self.tournament, number)
        return self._rounds[number]

    def done(self, number: int) -> int:
        raise NotImplementedError

    def game(self, number: int, table: int) -> TournamentGame | None:
        raise NotImplementedError

    def names(self, numbers: Iterable[int]) -> dict[int, tuple[str, str]]:
        raise NotImplementedError


class _OneTable(_RoomSource):
    """One table's reads: the games counted, not loaded; its own game; the names it shows."""

    def done(self, number: int) -> int:
        # Counted, not loaded: a poll of a 100-table room needs this table's game alone.
        return games_confirmed(self.tournament, number)

    def game(self, number: int, table: int) -> TournamentGame | None:
        if table < 1:
            return None  # the rounds' games are at tables 1 and up
        return round_game(self.tournament, number, table)

    def names(self, numbers: Iterable[int]) -> dict[int, tuple[str, str]]:
        return team_names_cities(self.tournament, numbers)


class _WholeRoom(_RoomSource):
    """Every table's reads at once: the round's games and every team's name, each one query."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__(tournament)
        self._rows: dict[int, list[TournamentGame]] = {}
        self._by_table: dict[int, dict[int, TournamentGame]] = {}
        self._names: dict[int, tuple[str, str]] | None = None

    def _round_rows(self, number: int) -> list[TournamentGame]:
        if number not in self._rows:
            self._rows[number] = list(
                TournamentGame.objects.filter(
                    tournament=self.tournament, round=number, match="", table__gte=1
                ).order_by("table", "pk")
            )
        return self._rows[number]

    def done(self, number: int) -> int:
        confirmed = TournamentGame.Status.CONFIRMED
        return sum(1 for row in self._round_rows(number) if row.status == confirmed)

    def game(self, number: int, table: int) -> TournamentGame | None:
        if number not in self._by_table:
            first: dict[int, TournamentGame] = {}
            for row in self._round_rows(number):
                first.setdefault(row.table, row)  # the first by id, as `.first()` finds it
            self._by_table[number] = first
        return self._by_table[number].get(table)

    def names(self, numbers: Iterable[int]) -> dict[int, tuple[str, str]]:
        if self._names is None:
            self._names = {
                n: (name, city)
                for n, name, city in self.tournament.teams.values_list("number", "name", "city")
            }
        wanted = set(numbers)
        return {n: found for n, found in self._names.items() if n in wanted}


def _table_document(tournament: Tournament, table: int, room: _RoomSource) -> TeamTableState:
    settings = settings_of(tournament)
    state = TeamTableState(
        tournament=tournament.name,
        status=tournament.status,
        round=tournament.round,
        rounds=settings.rounds,
        table=table,
        version=tournament.version,
        game_kind=settings.game.kind.value,
        game_value=settings.game.value,
        sets_lose=settings.game.sets_lose,
        home=None,
        away=None,
        game=None,
        tables=0,
        done=0,
        server_time=timezone.now().isoformat(timespec="seconds"),
    )
    drawn = room.round(tournament.round) if tournament.round else None
    if drawn is None:
        return state
    tables = len(drawn.tables)
    done = room.done(drawn.number)
    through = drawn.number if done >= tables else drawn.number - 1
    state = replace(
        state,
        tables=tables,
        done=done,
        standings_round=through,
        standings=phone_standings(tournament, through),
        moves=_moves(room, drawn, table),
    )
    if tournament.status == Tournament.Status.PLAYOFF:
        return _playoff_table(tournament, table, state)
    pairing = next((p for p in drawn.tables if p.table == table), None)
    if pairing is None:
        return replace(state, sitting_out=True)
    names = room.names(pairing.teams)
    game = room.game(drawn.number, table)
    return replace(
        state,
        home=_team(names, pairing.home),
        away=_team(names, pairing.away),
        game=None if game is None else table_game(game),
    )


def _moves(room: _RoomSource, drawn: Round, table: int) -> tuple[TeamMove, ...]:
    """Where the teams that sat at `table` in the round before `drawn` play in it."""
    if drawn.number < 2:
        return ()
    before = room.round(drawn.number - 1)
    last = next((p for p in before.tables if p.table == table), None) if before else None
    if last is None:
        return ()
    now = {team: p for p in drawn.tables for team in p.teams}
    names = room.names({*last.teams, *(t for p in now.values() for t in p.teams)})
    moves = []
    for team in last.teams:
        pairing = now.get(team)
        opponent = (
            None if pairing is None else (pairing.away if pairing.home == team else pairing.home)
        )
        moves.append(
            TeamMove(
                names.get(team, (f"Team {team}", ""))[0],
                None if pairing is None else pairing.table,
                None if opponent is None else names.get(opponent, (f"Team {opponent}", ""))[0],
            )
        )
    return tuple(moves)


#: The phones' standings by (tournament, version, round): every table of a room shows the
#: same ones, worked out once per process.
_PHONE_STANDINGS: dict[tuple[int, int, int], tuple[TableStanding, ...]] = {}


def phone_standings(tournament: Tournament, through: int) -> tuple[TableStanding, ...]:
    """The standings through round `through` (the last round every table has finished), as a
    team's phone shows them between rounds; none before the first round is over. Only the
    rounds' games count (never a playoff game), so no table's result shows before its round
    is over everywhere."""
    if through < 1:
        return ()
    key = (tournament.pk, tournament.version, through)
    found = _PHONE_STANDINGS.get(key)
    if found is None:
        results = [r for r in counted_results(tournament) if r.round <= through]
        rows = engine_for(tournament).standings(results)
        found = tuple(
            TableStanding(
                f"{row.rank}=" if row.tied else str(row.rank),
                row.team.name,
                row.won,
                row.lost,
                row.drawn,
                row.points_for,
            )
            for row in rows
        )
        if len(_PHONE_STANDINGS) > 64:
            _PHONE_STANDINGS.clear()
        _PHONE_STANDINGS[key] = found
    return found


def game_tag(match_id: int, nth: int) -> str:
    """A playoff game row's `match`: the match's number for its first game ("5"), with the
    game's number in its series after a dot for the next ones ("5.2", "5.3")."""
    return str(match_id) if nth == 1 else f"{match_id}.{nth}"


def match_rows(tournament: Tournament, match_id: int) -> list[TournamentGame]:
    """A match's game rows in play order (the first game, then "N.2", "N.3")."""
    tags = {game_tag(match_id, n): n for n in range(1, max(SERIES_LENGTHS) + 1)}
    rows = TournamentGame.objects.filter(tournament=tournament, table=match_id, match__in=tags)
    return sorted(rows, key=lambda r: tags[r.match])


def playoff_game(match: str) -> tuple[int, int] | None:
    """A playoff game's (match, its number in the series) from its `match` (`game_tag`'s
    words read back); None for any other."""
    number, dot, nth = match.partition(".")
    found = whole_number(number)
    if found is None:
        return None
    if not dot:
        return (found, 1)
    later = whole_number(nth)
    return None if later is None or later < 2 else (found, later)


def match_series(tournament: Tournament, match: Match) -> Series:
    """The match's series so far, from its games that count (a TeamsError when the stored
    games cannot be a series: the director corrects them)."""
    length = settings_of(tournament).playoff_best_of
    rows = match_rows(tournament, match.id)
    counted = [r for r in rows if r.status == TournamentGame.Status.CONFIRMED]
    winners = [r.result.get("winner") if isinstance(r.result, dict) else None for r in counted]
    return series(match, winners, length)


def match_label(bracket: Bracket, match: Match, now: Series, names: tuple[str, str]) -> str:
    """The match in words: "Final: game 2 of up to 3: Aces lead 1-0"."""
    if match.third_place:
        name = "Third-place game"
    else:
        name = f"{bracket.rounds[match.round - 1].name}, match {match.id}"
    return name if now.length == 1 else f"{name}: {now.text(*names)}"


def _playoff_table(tournament: Tournament, table: int, state: TeamTableState) -> TeamTableState:
    """The playoff match to play at `table` now and its current game; none: no teams."""
    bracket = Bracket.from_dict(tournament.bracket) if tournament.bracket else None
    match = bracket.match_at(table) if bracket else None
    if bracket is None or match is None or match.teams is None:
        return replace(state, match="")
    home, away = match.teams
    names = team_names_cities(tournament, match.teams)
    try:
        now = match_series(tournament, match)
    except TeamsError:
        return replace(state, match=f"Match {match.id}: the director is putting it right")
    game = TournamentGame.objects.filter(
        tournament=tournament, table=match.id, match=game_tag(match.id, now.next_game)
    ).first()
    words = (names.get(home, ("", ""))[0], names.get(away, ("", ""))[0])
    return replace(
        state,
        home=_team(names, home),
        away=_team(names, away),
        game=None if game is None else table_game(game),
        match=match_label(bracket, match, now, words),
    )


@dataclass(frozen=True)
class MatchView:
    """One playoff match as the pages draw it: team names, or where a team will come from."""

    id: int
    home: str
    away: str
    winner: str
    ready: bool
    third_place: bool
    table: int = 0  # the table it is played at
    series: str = ""  # a series of more than one game, as it stands ("" for one game)


def champion_of(tournament: Tournament) -> str:
    """The playoff's winner by name, "" until there is one (or without a playoff)."""
    if not tournament.bracket:
        return ""
    champion = Bracket.from_dict(tournament.bracket).champion
    if champion is None:
        return ""
    return str(tournament.teams.filter(number=champion).values_list("name", flat=True).first())


def playoff_view(tournament: Tournament) -> list[tuple[str, list[MatchView]]]:
    """The bracket by round: [(round name, its matches)]; [] before the playoff."""
    if not tournament.bracket:
        return []
    bracket = Bracket.from_dict(tournament.bracket)
    names = dict(tournament.teams.values_list("number", "name"))

    def place(team: int | None, slot: Slot) -> str:
        if team is not None:
            return str(names.get(team, f"Team {team}"))
        return f"{'loser' if slot.loser else 'winner'} of match {slot.source}"

    length = settings_of(tournament).playoff_best_of

    def series_text(match: Match) -> str:
        if length == 1 or match.teams is None:
            return ""
        try:
            now = match_series(tournament, match)
        except TeamsError as exc:
            return str(exc)
        home, away = match.teams
        return now.text(str(names.get(home, home)), str(names.get(away, away)))

    return [
        (
            bracket_round.name,
            [
                MatchView(
                    m.id,
                    place(m.home_team, m.home),
                    place(m.away_team, m.away),
                    str(names.get(m.winner, "")) if m.winner is not None else "",
                    m.ready,
                    m.third_place,
                    bracket.table_of(m.id),
                    series_text(m),
                )
                for m in bracket_round.matches
            ],
        )
        for bracket_round in bracket.rounds
    ]


def game_preview(
    tournament: Tournament, hands: Any, names: tuple[str, str] = ("home", "away")
) -> GamePreview:
    """The score sheet of hands entered so far, as the tablet shows it before the game is
    sent: each hand in words with its points and the running totals, and whether (and how)
    the game is over. Raises TeamsError (the tablet shows its text) for a hand the rules
    refuse; nothing is stored. `names` word how the game ended with the table's teams."""
    return game_preview_document(engine_for(tournament).tally(hands, names))


def tournament_document(state: TournamentState) -> TournamentDocument:
    """The tournament as it stands: teams, this round's tables and games, the standings."""
    t = state.tournament
    return TournamentDocument(
        tournament=tournament_head(t),
        teams=tuple(
            TeamLine(
                team.number,
                team.name,
                team.city,
                (team.player_one, team.player_two),
                team.present,
                team.paid_cents,
                team.in_pot,
                team.withdrawn_after,
            )
            for team in state.teams
        ),
        round=None
        if not state.tables
        else RoundLine(
            t.round,
            tuple(
                RoundTable(
                    table.number,
                    table.home.number,
                    table.away.number,
                    table.game.status if table.game else None,
                    GameResult.from_dict(table.game.result)
                    if table.game and table.game.result
                    else None,
                    table.text,
                )
                for table in state.tables
            ),
            tuple(team.number for team in state.byes),
        ),
        tie_break=state.tie_break,
        standings=team_standings(state.standings),
        playoff=tuple(
            PlayoffRound(name, tuple(PlayoffMatch(m.id, m.home, m.away, m.winner) for m in matches))
            for name, matches in playoff_view(t)
        ),
    )


def public_standings(tournament: Tournament, state: TournamentState) -> TeamPublicStandings:
    """The standings as anyone may read them (the caller decides who may)."""
    return TeamPublicStandings(
        StandingsHead(tournament.pk, tournament.name, tournament.status, tournament.round),
        state.tie_break,
        team_standings(state.standings),
    )
