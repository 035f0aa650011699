"""A team tournament's settings, checked once: the game, the rotation, byes and forfeits, the
ranking, the money and the playoff.

The app stores `to_dict()` on the tournament and reads it back with `from_dict`, which checks
every value and names the first it cannot use (so a hand-edited backup or an API call is
refused with the same words as the director's form).

>>> s = TournamentSettings.from_dict({"rotation": "swiss", "rounds": 5})
>>> s.rotation, s.rounds, s.game.value, s.keys[0]
('swiss', 5, 7, 'wins')
>>> TournamentSettings.from_dict(s.to_dict()) == s
True
>>> TournamentSettings.from_dict({"rounds": 0})
Traceback (most recent call last):
...
engine.teams.model.TeamsError: rounds: a whole number from 1 to 60, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.reading import quoted
from engine.teams.bracket import SERIES_LENGTHS
from engine.teams.game import GameSettings
from engine.teams.model import GameKind, TeamsError
from engine.teams.ranking import KEYS

__all__ = [
    "BYE_RULES",
    "PLAYOFF_SIZES",
    "POT_NO_BOSTON",
    "ROTATIONS",
    "TournamentSettings",
    "playoff_sizes_text",
]

#: The rotations, in the words the director's form shows.
ROTATIONS: dict[str, str] = {
    "round_robin": "Round robin: everyone meets a new team each round (a circle schedule)",
    "moving": "Moving team: one team of each table moves up a table each round",
    "ladder": "King of the hill: winners move up a table, losers down",
    "halves": "Winners and losers: winners to the top half of the room, losers to the bottom",
    "swiss": "Swiss: each round pairs teams with equal records who have not met",
}

#: Where the Boston pot goes when nobody made a Boston by its round, in the form's words.
POT_NO_BOSTON: dict[str, str] = {
    "return": "the stakes go back to the teams",
    "carry": "the pot is carried to the next event",
    "leader": "the best-ranked team in the pot takes it",
    "record": "the teams in the pot with the best record share it",
}

#: What a team with a bye scores (the event's bye rule).
BYE_RULES: dict[str, str] = {
    "win": "a win, with the target's points",
    "average": "the average points and hands of the round's winners (a win)",
}

MAX_ROUNDS = 60

MAX_CENTS = 10_000_000

#: The playoffs a director sets up, by the number of teams in them (0: none): the one list the
#: set-up form offers and the API and the command's file take (`tournaments.teams.services.teams`
#: refuses any other). Each is a bracket a room runs in an evening: a final, semi-finals,
#: quarter-finals, or (6 and 12) a first round with byes for the top seeds. The engine itself
#: seeds any number from 2 to 64, so a tournament stored with another size still reads back.
PLAYOFF_SIZES: tuple[int, ...] = (0, 2, 4, 6, 8, 12)


def playoff_sizes_text() -> str:
    """The sizes in words, for a refusal: "0 (none), 2, 4, 6, 8 or 12"."""
    sizes = [str(size) for size in PLAYOFF_SIZES if size]
    return f"0 (none), {', '.join(sizes[:-1])} or {sizes[-1]}"


@dataclass(frozen=True)
class TournamentSettings:
    """Everything the director chooses before the draw.

    `forfeit_points` are (winner's, loser's) points for a forfeited game; None gives the
    winner the game's target and the loser nothing. `fee_cents` is each player's entry fee;
    `house_percent` the club's share of the fees before the prizes; `prizes` the percentages
    of the rest for first, second, ...; `pot_stake_cents` each player's Boston-pot stake (0:
    no pot), decided after round `pot_round` (None: the last round). `playoff` is the number
    of teams in the playoff (0: none); `playoff_third_place` adds a game between the
    semi-finals' losers (4 teams or more); `playoff_best_of` is the games of a playoff match
    (1, or a best-of-three or -five series: the first team to win 2, or 3).
    `backdoor_points` is what a back-door win scores (a game to a target won because the other
    team was driven to minus the target: Columbus Whist scores it 5, not the points the
    winners had); None: the points as played. `pot_no_boston` says where the Boston pot goes
    when nobody made a Boston by `pot_round` (`POT_NO_BOSTON`). With `tie_games` two teams
    level on every ranking key may play their tie off in one game, which then ranks them."""

    game: GameSettings = field(default_factory=GameSettings)
    rotation: str = "swiss"
    rounds: int = 5
    bye: str = "win"
    forfeit_points: tuple[int, int] | None = None
    grace_minutes: int = 10
    keys: tuple[str, ...] = ("wins", "points", "hands", "bostons", "head_to_head")
    fee_cents: int = 0
    house_percent: int = 0
    prizes: tuple[int, ...] = ()
    pot_stake_cents: int = 0
    pot_round: int | None = None
    playoff: int = 0
    playoff_third_place: bool = False
    playoff_best_of: int = 1
    backdoor_points: int | None = None
    pot_no_boston: str = "return"
    tie_games: bool = False

    def __post_init__(self) -> None:
        if self.rotation not in ROTATIONS:
            raise TeamsError(
                f"rotation: one of {', '.join(ROTATIONS)}, not {quoted(self.rotation)}"
            )
        _whole("rounds", self.rounds, 1, MAX_ROUNDS)
        if self.bye not in BYE_RULES:
            raise TeamsError(f"bye: one of {', '.join(BYE_RULES)}, not {quoted(self.bye)}")
        if self.forfeit_points is not None:
            won, lost = self.forfeit_points
            _whole("forfeit_points (the winner's)", won, 0, 999)
            _whole("forfeit_points (the loser's)", lost, 0, 999)
            if lost >= won:
                raise TeamsError(
                    f"forfeit_points: the winner's points ({won}) must be more than the "
                    f"loser's ({lost})"
                )
        if self.game.walkover() is None and self.forfeit_points is None:
            raise TeamsError(
                f"forfeit_points: {self.game.text} has no natural walkover score; state the "
                "points a forfeit (and a bye) gives the winner and the loser, such as [20, 0]"
            )
        _whole("grace_minutes", self.grace_minutes, 0, 240)
        if not self.keys:
            raise TeamsError("keys: name at least one ranking key, such as wins")
        for key in self.keys:
            if key not in KEYS:
                raise TeamsError(f"keys: one of {', '.join(KEYS)}, not {quoted(key)}")
        if len(set(self.keys)) != len(self.keys):
            raise TeamsError("keys: each ranking key once")
        _whole("fee_cents", self.fee_cents, 0, MAX_CENTS)
        _whole("house_percent", self.house_percent, 0, 100)
        for share in self.prizes:
            _whole("prizes", share, 1, 100)
        if self.prizes and sum(self.prizes) != 100:
            raise TeamsError(
                f"prizes: the shares are percentages of the prize money and must add up to "
                f"100, not {sum(self.prizes)}"
            )
        _whole("pot_stake_cents", self.pot_stake_cents, 0, MAX_CENTS)
        if self.pot_round is not None:
            _whole("pot_round", self.pot_round, 1, self.rounds)
        if self.playoff != 0 or isinstance(self.playoff, bool):  # false is no count of teams
            _whole("playoff", self.playoff, 2, 64)
        _flag("playoff_third_place", self.playoff_third_place)
        if self.playoff_third_place and self.playoff < 4:
            raise TeamsError(
                "playoff_third_place: a third-place game is between the semi-finals' losers, "
                f"so the playoff needs 4 teams or more, not {self.playoff}"
            )
        if self.backdoor_points is not None:
            _whole("backdoor_points", self.backdoor_points, 0, 99)
            if self.game.kind is not GameKind.TARGET or self.game.defenders_score:
                raise TeamsError(
                    "backdoor_points: a back-door win is a game to a target won by driving the "
                    "other team to minus the target, which this game never does: leave it out"
                )
        _flag("tie_games", self.tie_games)
        if self.pot_no_boston not in POT_NO_BOSTON:
            raise TeamsError(
                f"pot_no_boston: one of {', '.join(POT_NO_BOSTON)}, "
                f"not {quoted(self.pot_no_boston)}"
            )
        if self.playoff_best_of not in SERIES_LENGTHS or isinstance(self.playoff_best_of, bool):
            shown = ", ".join(str(n) for n in SERIES_LENGTHS)
            raise TeamsError(
                f"playoff_best_of: a playoff match is the best of {shown} games, not "
                f"{quoted(self.playoff_best_of)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.to_dict(),
            "rotation": self.rotation,
            "rounds": self.rounds,
            "bye": self.bye,
            "forfeit_points": None if self.forfeit_points is None else list(self.forfeit_points),
            "grace_minutes": self.grace_minutes,
            "keys": list(self.keys),
            "fee_cents": self.fee_cents,
            "house_percent": self.house_percent,
            "prizes": list(self.prizes),
            "pot_stake_cents": self.pot_stake_cents,
            "pot_round": self.pot_round,
            "playoff": self.playoff,
            "playoff_third_place": self.playoff_third_place,
            "playoff_best_of": self.playoff_best_of,
            "backdoor_points": self.backdoor_points,
            "pot_no_boston": self.pot_no_boston,
            "tie_games": self.tie_games,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSettings:
        if not isinstance(data, Mapping):
            raise TeamsError(f"settings: expected an object, not {quoted(data)}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TeamsError(
                f"settings: unknown {', '.join(unknown)} (known: {', '.join(sorted(known))})"
            )
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key == "game":
                values[key] = GameSettings.from_dict(value or {})
            elif key in ("keys", "prizes"):
                values[key] = tuple(_list(key, value))
            elif key == "forfeit_points":
                if value is not None:
                    pair = _list(key, value)
                    if len(pair) != 2:
                        raise TeamsError(
                            "forfeit_points: two numbers, the winner's and the loser's points"
                        )
                    values[key] = (pair[0], pair[1])
                else:
                    values[key] = None
            else:
                values[key] = value
        return cls(**values)


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TeamsError(f"{name}: a whole number from {low} to {high}, not {quoted(value)}")


def _flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise TeamsError(f"{name}: true or false, not {quoted(value)}")


def _list(name: str, value: object) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise TeamsError(f"{name}: expected a list, not {quoted(value)}")
    return list(value)
