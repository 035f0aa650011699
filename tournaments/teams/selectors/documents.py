"""The team tournament API's documents, each a tree of frozen dataclasses: the tournament as
it stands (what every director's write answers), the public standings, a table's tablet state
and the score sheet a tablet previews.

As for the events' documents (`events.selectors.documents`), the JSON sent is `to_dict()`, key for
key what the tablets and scripts have always read, and the API's OpenAPI serializers are
generated from these classes (`tournaments.teams.api.documents`): the schema describes the very
objects the answers are made from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.teams import GameResult
from engine.teams.game import GameTally, TeamSide
from engine.teams.ranking import StandingRow
from tournaments.kernel.documents import Document
from tournaments.teams.models import Tournament, TournamentGame

# ---- the director's state (`teams.selectors.teams.tournament_state`) -----------------------------


@dataclass(frozen=True)
class TournamentHead(Document):
    id: int
    name: str
    date: str  # ISO 8601
    club: str  # the club's name
    league: int | None  # the league's id, for a league's week
    week: int
    status: str
    round: int  # the round being played; 0 before the draw
    live_public: bool
    moves_on: bool
    settings: dict[str, Any]  # as stored: the engine's `TournamentSettings.to_dict()`


def tournament_head(t: Tournament) -> TournamentHead:
    date = t.date if isinstance(t.date, str) else t.date.isoformat()
    return TournamentHead(
        t.pk, t.name, date, t.club.name, t.league_id, t.week, t.status, t.round,
        t.live_public, t.moves_on, t.settings,
    )  # fmt: skip


@dataclass(frozen=True)
class TeamLine(Document):
    number: int
    name: str
    city: str
    players: tuple[str, str]  # player one, player two ("" when not given)
    present: bool
    paid_cents: int
    in_pot: bool
    withdrawn_after: int | None  # the last round it played, once withdrawn


@dataclass(frozen=True)
class RoundTable(Document):
    table: int
    home: int
    away: int
    status: str | None  # "entered", "confirmed" or "disputed"; None before any entry
    result: GameResult | None  # the game as the standings count it, once it counts
    text: str


@dataclass(frozen=True)
class RoundLine(Document):
    round: int
    tables: tuple[RoundTable, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class TeamStanding(Document):
    rank: int
    tied: bool
    team: int
    name: str
    city: str
    played: int
    won: int
    lost: int
    drawn: int
    points_for: int
    points_against: int
    hands: int
    bostons: int
    byes: int
    forfeits: int
    decided_by: str | None  # the tie-break key that put it below the team above, if one did


def team_standings(rows: list[StandingRow]) -> tuple[TeamStanding, ...]:
    return tuple(
        TeamStanding(
            r.rank, r.tied, r.team.number, r.team.name, r.team.city, r.played, r.won, r.lost,
            r.drawn, r.points_for, r.points_against, r.hands, r.bostons, r.byes, r.forfeits,
            r.decided_by,
        )
        for r in rows
    )  # fmt: skip


@dataclass(frozen=True)
class PlayoffMatch(Document):
    match: int
    home: str  # a team's name, or where it comes from ("winner of match 1")
    away: str
    winner: str  # "" until played


@dataclass(frozen=True)
class PlayoffRound(Document):
    round: str  # the round's name ("Final")
    matches: tuple[PlayoffMatch, ...]


@dataclass(frozen=True)
class TournamentDocument(Document):
    """The tournament as it stands: every director's read and write answers it."""

    tournament: TournamentHead
    teams: tuple[TeamLine, ...]
    round: RoundLine | None  # None before the draw
    tie_break: str
    standings: tuple[TeamStanding, ...]
    playoff: tuple[PlayoffRound, ...]


@dataclass(frozen=True)
class StandingsHead(Document):
    id: int
    name: str
    status: str
    round: int


@dataclass(frozen=True)
class TeamPublicStandings(Document):
    """The standings anyone may read once published (or while live standings are on)."""

    tournament: StandingsHead
    tie_break: str
    standings: tuple[TeamStanding, ...]


# ---- a table's tablet (`teams.selectors.room.table_state`) ----------------------------------


@dataclass(frozen=True)
class TableTeam(Document):
    number: int
    name: str
    city: str


@dataclass(frozen=True)
class TableGame(Document):
    status: str  # "entered", "confirmed" or "disputed"
    kind: str  # "played", "forfeit", "bye" or "withdrawn"
    entered_by: str  # the side that entered it: "home", "away", or "" (the director)
    # Home first; None until the game counts:
    points: tuple[int, int] | None
    hands: tuple[int, int] | None
    bostons: tuple[int, int] | None
    winner: int | None  # the winning team's number; None drawn, or not counted yet


def table_game(game: TournamentGame) -> TableGame:
    result = GameResult.from_dict(game.result) if game.result else None
    return TableGame(
        game.status,
        game.kind,
        game.entered_by,
        result.points if result else None,
        result.hands if result else None,
        result.bostons if result else None,
        result.winner if result else None,
    )


@dataclass(frozen=True)
class TableStanding(Document):
    """One line of the standings a team's phone shows between rounds."""

    rank: str  # "3", or "3=" when tied
    name: str
    won: int
    lost: int
    drawn: int
    points: int  # points scored


@dataclass(frozen=True)
class TeamMove(Document):
    """Where a team of this table's last round plays now: its table and opponents (None: a
    bye, or no game this round)."""

    team: str
    table: int | None
    opponent: str | None


@dataclass(frozen=True)
class TeamTableState(Document):
    """What a team table's tablet shows (static/js reads it; the page embeds it).

    `standings` are those through round `standings_round`, the last round every table has
    finished (0 and none before): a phone never shows a result of a round its own table is
    still playing. `moves` says where the teams that sat here last round play in this round,
    once it is drawn. In the playoff, `match` names the match at this table and its series
    ("Final: game 2 of up to 3, Aces lead 1-0"); `home`, `away` and `game` are its current
    game's."""

    tournament: str  # the tournament's name
    status: str
    round: int
    rounds: int
    table: int
    version: int
    game_kind: str  # how a game ends: "target", "best_of" or "hands"
    game_value: int
    home: TableTeam | None  # None before the draw, or when the table has no game
    away: TableTeam | None
    game: TableGame | None  # None until a team enters the game
    tables: int
    done: int  # tables of the round whose game counts
    server_time: str  # ISO 8601, the server's time of the answer
    sitting_out: bool | None = None  # sent (true) only when the table has no game this round
    standings_round: int = 0
    standings: tuple[TableStanding, ...] = ()
    moves: tuple[TeamMove, ...] = ()
    match: str | None = None  # sent only in the playoff
    sets_lose: int = 0  # a team set this many times loses the game (0: sets never end one)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.sitting_out is None:
            del out["sitting_out"]
        if self.match is None:
            del out["match"]
        return out


# ---- the score sheet a tablet previews (`teams.selectors.room.game_preview`) ----------------


@dataclass(frozen=True)
class PreviewLine(Document):
    number: int
    text: str
    points: tuple[int, int]  # each team's points in the hand, home first
    totals: tuple[int, int]  # after it
    won_by: TeamSide | None  # None: passed out
    boston: TeamSide | None  # the side that made a Boston in it


@dataclass(frozen=True)
class GamePreview(Document):
    lines: tuple[PreviewLine, ...]
    over: bool
    winner: TeamSide | None  # once over (None: drawn, or not over)
    points: tuple[int, int]
    hands: tuple[int, int]
    bostons: tuple[int, int]
    ended: str  # how it ended, in words ("" while it goes on)


def game_preview_document(tally: GameTally) -> GamePreview:
    return GamePreview(
        tuple(
            PreviewLine(line.number, line.text, line.points, line.totals, line.won_by, line.boston)
            for line in tally.lines
        ),
        tally.over,
        tally.winner,
        tally.points,
        tally.hands,
        tally.bostons,
        tally.ended,
    )
