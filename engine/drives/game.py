"""The game a drive is played with: a hand's score for each side comes from the game's rules.

A drive asks nothing of a game but what its rules class already answers for one hand: read a
table's result (`parse_entry`), give each side its points (`side_points`), say how many tricks
North-South took (`ns_tricks`), and total a player's session rule (`session_tally`, Candid
Whist's bag penalty, counted per player over the hands they played). So any game whose rules
score each side of one hand of four players can be played at a drive; the checks below ask the
rules, never the game's name (docs/games/drives.md says which games pass and why).

The rules' methods take a board, but a drive has none: each table shuffles and deals its own
cards. The rules look at the board only for its game and hand size (and the cards for honours,
which a drive therefore refuses), so a stand-in board dealt once stands for every hand.

>>> game = DriveGame("classic", {}, "tricks")
>>> score = game.score({"ns_tricks": 8})
>>> score.ns, score.ew, score.winners
(8, 5, Side.NS)
>>> game.points_for_tricks(7), DriveGame("classic", {}, None).points_for_tricks(7)
(7, 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import EngineError
from engine.boards import Board
from engine.cards import Side
from engine.drives.model import DriveError
from engine.games import Entry, GameRules, find_variant
from engine.games.entry import Score
from engine.reading import quoted

__all__ = ["REPLACED_OPTIONS", "DriveGame", "TableScore"]

#: Game options a drive sets itself: the trump schedule is the drive's, the same at every
#: table, and so is the scoring (`DriveSettings.scoring`).
REPLACED_OPTIONS = ("trumps", "rotation", "no_trump_every", "fixed_trumps", "scoring")


@dataclass(frozen=True)
class TableScore:
    """One table's hand: each side's points and tricks, as the game's rules score them.

    `ns_tricks` is None where the result names no tricks (a hand passed out in an auction game).
    A tie on points goes to the side with more tricks, and failing that to North-South, so the
    moves always have a winner (only an auction game passed out can tie).
    """

    ns: Score
    ew: Score
    ns_tricks: int | None
    tricks: int
    entry: Entry | None = None

    @property
    def ew_tricks(self) -> int | None:
        return None if self.ns_tricks is None else self.tricks - self.ns_tricks

    @property
    def winners(self) -> Side:
        if self.ns != self.ew:
            return Side.NS if self.ns > self.ew else Side.EW
        ew = self.ew_tricks
        if self.ns_tricks is not None and ew is not None and ew > self.ns_tricks:
            return Side.EW
        return Side.NS

    def points(self, side: Side) -> Score:
        return self.ns if side is Side.NS else self.ew

    def side_tricks(self, side: Side) -> int | None:
        return self.ns_tricks if side is Side.NS else self.ew_tricks


class DriveGame:
    """A game's rules set up for a drive: the drive's scoring, no options the drive replaces,
    four players each holding a hand, and no score that needs the dealt cards."""

    def __init__(self, game: str, options: Mapping[str, object], scoring: str | None) -> None:
        try:
            rules_class = find_variant(game)
        except EngineError as exc:
            raise DriveError(f"game: {exc}") from None
        if not isinstance(options, Mapping):
            raise DriveError(f"game_options: expected an object, not {quoted(options)}")
        specs = {spec.key for spec in rules_class.option_specs}
        title = rules_class.title
        for key in options:
            if key in REPLACED_OPTIONS:
                instead = "scoring" if key == "scoring" else "trumps and no_trump_every"
                raise DriveError(
                    f"game_options: a drive sets {key} itself (the drive's {instead} settings)"
                )
        chosen = dict(options)
        if scoring is not None:
            spec = next((spec for spec in rules_class.option_specs if spec.key == "scoring"), None)
            if spec is None:
                raise DriveError(
                    f"scoring: {title} scores by its own rules and has no scoring choice; "
                    "leave scoring unset"
                )
            try:
                chosen["scoring"] = spec.coerce(scoring)
            except EngineError as exc:
                raise DriveError(f"scoring: {exc}") from None
        try:
            rules = rules_class(chosen)
        except EngineError as exc:
            raise DriveError(f"game_options: {exc}") from None
        why_not = rules.not_for_pairs()
        if why_not:
            raise DriveError(f"game: {why_not}")
        if "players" in specs and rules.option("players") != 4:
            raise DriveError(
                f"game_options: a drive seats four players a table, each holding a hand; "
                f"{title} with players={rules.option('players')} does not"
            )
        if "honours" in specs and rules.option("honours"):
            raise DriveError(
                "game_options: honours are scored from the dealt cards, and a drive's hands "
                "are dealt at the table, unrecorded: switch honours off"
            )
        self.rules: GameRules = rules
        self.title = title
        self.tricks = rules.hand_size
        self.board: Board = rules.deal_board(1, random.Random(0))
        #: The result is NS's tricks alone, so a fixed number of tricks can be scored.
        self.takes_tricks = [field.key for field in rules.entry_fields()] == ["ns_tricks"]

    def __repr__(self) -> str:
        return f"DriveGame({self.rules!r})"

    @property
    def has_auction(self) -> bool:
        """Trumps come from an auction at each table, so the drive's schedule is not used."""
        return self.rules.has_auction

    def score(self, result: Mapping[str, object] | Entry | TableScore) -> TableScore:
        """A table's hand from its result as the game takes it (`{"ns_tricks": 8}`); an
        EngineError names what is wrong."""
        if isinstance(result, TableScore):
            return result
        rules, board = self.rules, self.board
        entry = result if isinstance(result, Entry) else rules.parse_entry(board, result)
        points = rules.side_points(board, entry)
        return TableScore(
            points[Side.NS], points[Side.EW], rules.ns_tricks(board, entry), self.tricks, entry
        )

    def points_for_tricks(self, tricks: int) -> Score:
        """What a side taking `tricks` tricks scores: a sitting-out player's fixed score."""
        if not self.takes_tricks:
            raise DriveError(
                f"sit_out_score: {self.title} scores a bid, not tricks, so a fixed number of "
                "tricks means nothing: choose average"
            )
        if (
            isinstance(tricks, bool)
            or not isinstance(tricks, int)
            or not (0 <= tricks <= self.tricks)
        ):
            raise DriveError(
                f"sit_out_tricks: from 0 to {self.tricks} tricks, not {quoted(tricks)}"
            )
        return self.score({"ns_tricks": tricks}).ns

    def adjustment(self, played: Sequence[tuple[Entry, Side]]) -> int:
        """A player's session adjustment from the hands they played (entry, their side), in
        play order: Candid Whist's bag penalty; 0 for games without a session rule."""
        tally = self.rules.session_tally(played)
        return 0 if tally is None else tally.adjustment
