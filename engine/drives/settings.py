"""A drive's settings: checked once, each refusal naming the setting and what to do instead.

Defaults and the reasons for them are in docs/games/drives.md: 24 hands with the break after
12, classic whist scored in odd tricks (seed 003's tournament rule), trumps hearts, diamonds,
spades, clubs in turn, neutral role labels A and B, the progressive form (partners change every
hand, which is what most clubs mean by a progressive drive), tables in a ring, players left
over sitting out and scoring seven tricks, count-back for ties, one prize each.

>>> settings = DriveSettings(players=13)
>>> settings.tables, settings.bench_size, settings.break_after, settings.trump(5)
(3, 1, 12, Suit.HEARTS)
>>> DriveSettings(players=11, short_table="dummy").has_dummy
True
>>> from engine.drives.moves import semi_partner
>>> DriveSettings(players=9, move=semi_partner(), ends="stay")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.drives.model.DriveError: ends: a semi-partner drive needs its tables in a ring (ends=wrap)...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from engine.boards import trump_rotation
from engine.cards import Suit
from engine.drives.game import DriveGame
from engine.drives.model import DriveError, Prize, Role
from engine.drives.moves import MoveForm, check_ends, progressive
from engine.reading import quoted

__all__ = ["MAX_HANDS", "MAX_PLAYERS", "DriveSettings", "default_prizes", "parse_trumps"]

#: The largest drive on record had over 1,000 players; twice that is a typing slip. The one
#: limit on a drive's size (so on its tables: a quarter of it); the app checks a players list
#: against it before reading any name. Far above a club's 40 to 200: the drives benchmark
#: plays 1,000 players, and charity drives reach that.
MAX_PLAYERS = 2000
MAX_HANDS = 60
MAX_PRIZES = 200

SHORT_TABLES = ("sit_out", "dummy")
SIT_OUT_SCORES = ("fixed", "average")
TIE_RULES = ("countback", "shared")
#: What a late arrival scores for each hand played before they came (docs/games/drives.md).
LATE_SCORES = ("nothing", "lowest", "average")


def parse_trumps(text: str) -> tuple[Suit | None, ...]:
    """A trump schedule written as suit letters, N for a no-trump hand: 'HDSC', 'HDSCN'."""
    order: list[Suit | None] = []
    letters = {suit.letter: suit for suit in Suit}
    for char in str(text).replace(",", "").replace(" ", "").upper():
        if char == "N":
            order.append(None)
        elif char in letters:
            order.append(letters[char])
        else:
            raise DriveError(
                f"trumps: write the schedule as suit letters C, D, H, S (N for no-trumps), "
                f"not {quoted(text)}"
            )
    if not order:
        raise DriveError("trumps: the schedule needs at least one suit")
    return tuple(order)


def default_prizes(break_after: int) -> tuple[Prize, ...]:
    """First, second and third highest, the best first half when there is a break, booby."""
    half = (Prize("first_half"),) if break_after else ()
    return (Prize("highest"), Prize("highest"), Prize("highest"), *half, Prize("booby"))


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DriveError(f"{name}: a whole number, not {quoted(value)}")
    if not low <= value <= high:
        raise DriveError(f"{name}: from {low} to {high}, not {value}")
    return value


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise DriveError(f"{name}: one of {', '.join(allowed)}, not {quoted(value)}")
    return str(value)


@dataclass(frozen=True)
class DriveSettings:
    """Everything a director decides before the first hand (docs/games/drives.md)."""

    players: int
    hands: int = 24
    #: The break comes after this hand; None: halfway (hands // 2); 0: no break.
    half_time: int | None = None
    game: str = "classic"
    game_options: Mapping[str, object] = field(default_factory=dict)
    #: The game's scoring option ('odd_tricks' or 'tricks' for classic whist); None: its default.
    scoring: str | None = None
    trumps: str = "HDSC"
    no_trump_every: int = 0
    roles: tuple[str, str] = ("A", "B")
    move: MoveForm = field(default_factory=progressive)
    ends: str = "wrap"
    short_table: str = "sit_out"
    sit_out_score: str = "fixed"
    sit_out_tricks: int = 7
    prizes: tuple[Prize, ...] | None = None
    one_prize_each: bool = True
    tie_rule: str = "countback"
    #: Late arrivals: (player, the first hand they play), players numbered after those who
    #: started. Leavers: (player, the last hand they played; 0 if they left before hand 1).
    #: Both are written while the drive runs (the director's "arrives" and "leaves").
    arrivals: tuple[tuple[int, int], ...] = ()
    departures: tuple[tuple[int, int], ...] = ()
    #: A late arrival's points for each hand before they came: nothing, the lowest score of
    #: that hand, or the average of those who played it.
    late_score: str = "nothing"
    #: Whether a player who left early stays in the prizes (their card closed as it stood).
    leavers_in_prizes: bool = False
    _game: DriveGame = field(init=False, repr=False, compare=False)
    _order: tuple[Suit | None, ...] = field(init=False, repr=False, compare=False)
    _joined: Mapping[int, int] = field(init=False, repr=False, compare=False)
    _left: Mapping[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _whole("players", self.players, 4, MAX_PLAYERS)
        _whole("hands", self.hands, 1, MAX_HANDS)
        if self.half_time is None:
            object.__setattr__(self, "half_time", self.hands // 2)
        elif (
            isinstance(self.half_time, bool)
            or not isinstance(self.half_time, int)
            or not (0 <= self.half_time < self.hands)
        ):
            raise DriveError(
                f"half_time: the break comes after a hand from 1 to {self.hands - 1} "
                f"(0 for no break), not {quoted(self.half_time)}"
            )
        object.__setattr__(self, "game_options", MappingProxyType(dict(self.game_options)))
        game = DriveGame(self.game, self.game_options, self.scoring)
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_order", parse_trumps(self.trumps))
        _whole("no_trump_every", self.no_trump_every, 0, MAX_HANDS)
        if self.no_trump_every == 1:
            raise DriveError("no_trump_every: 0 (never) or at least 2 (every second hand)")
        if game.has_auction and (self.trumps.upper() != "HDSC" or self.no_trump_every):
            raise DriveError(
                f"trumps: {game.title} chooses trumps in each table's auction; a drive of it "
                "has no trump schedule: leave trumps and no_trump_every unset"
            )
        roles = tuple(str(label).strip() for label in self.roles)
        if len(roles) != 2 or not all(roles) or roles[0].lower() == roles[1].lower():
            raise DriveError(
                f"roles: two different labels, such as A and B or Lady and Gent, not "
                f"{quoted(self.roles)}"
            )
        object.__setattr__(self, "roles", roles)
        if not isinstance(self.move, MoveForm):
            raise DriveError(f"move: a move form (engine.drives.moves), not {quoted(self.move)}")
        check_ends(self.move, self.ends)
        _choice("short_table", self.short_table, SHORT_TABLES)
        _choice("sit_out_score", self.sit_out_score, SIT_OUT_SCORES)
        if self.sit_out_score == "fixed":
            game.points_for_tricks(self.sit_out_tricks)
        prizes = default_prizes(self.break_after) if self.prizes is None else tuple(self.prizes)
        if len(prizes) > MAX_PRIZES:
            raise DriveError(f"prizes: at most {MAX_PRIZES}, not {len(prizes)}")
        for number, prize in enumerate(prizes, start=1):
            if not isinstance(prize, Prize):
                raise DriveError(f"prizes: prize {number} is not a Prize: {quoted(prize)}")
            if prize.kind in ("first_half", "second_half") and not self.break_after:
                raise DriveError(
                    f"prizes: prize {number} ({prize.kind}) needs a break: set half_time"
                )
        object.__setattr__(self, "prizes", prizes)
        if not isinstance(self.one_prize_each, bool):
            raise DriveError(f"one_prize_each: true or false, not {quoted(self.one_prize_each)}")
        _choice("tie_rule", self.tie_rule, TIE_RULES)
        self._check_comings_and_goings()

    def _check_comings_and_goings(self) -> None:
        """Arrivals and leavers: each player at most once in each list, the hands within the
        drive, nobody leaving before they came, and at least four players at every hand."""
        _choice("late_score", self.late_score, LATE_SCORES)
        if not isinstance(self.leavers_in_prizes, bool):
            raise DriveError(
                f"leavers_in_prizes: true or false, not {quoted(self.leavers_in_prizes)}"
            )
        # Hand 1 too: a player who comes after the start, before anyone has played hand 1.
        joined = _events("arrivals", self.arrivals, self.players, 1, self.hands)
        left = _events("departures", self.departures, self.players, 0, self.hands - 1)
        object.__setattr__(self, "arrivals", tuple(sorted(joined.items())))
        object.__setattr__(self, "departures", tuple(sorted(left.items())))
        object.__setattr__(self, "_joined", MappingProxyType(joined))
        object.__setattr__(self, "_left", MappingProxyType(left))
        if not joined and not left:
            return
        if self.pairs:
            raise DriveError(
                "arrivals and departures: a partner drive keeps its pairs all evening; a pair "
                "that comes late joins the next drive, and a pair's seat left empty is played "
                "by the director's substitute under the leaver's number"
            )
        starters = self.players - len(joined)
        if sorted(joined) != list(range(starters + 1, self.players + 1)):
            raise DriveError(
                "arrivals: late arrivals are numbered after the players who started "
                f"({starters + 1} to {self.players}), in the order they came"
            )
        for player, last in left.items():
            if player in joined and last < joined[player]:
                raise DriveError(
                    f"departures: player {player} came at hand {self.joined(player)} and "
                    f"cannot have left after hand {last}"
                )
        for hand in range(1, self.hands + 1):
            if self.count_at(hand) < 4:
                raise DriveError(
                    f"arrivals and departures: hand {hand} would have {self.count_at(hand)} "
                    "players; a table needs four: finish the drive instead"
                )

    # ---- what the settings imply ----------------------------------------------------------

    @property
    def game_rules(self) -> DriveGame:
        return self._game

    @property
    def break_after(self) -> int:
        """The last hand before the break (0: no break)."""
        assert self.half_time is not None
        return self.half_time

    @property
    def pairs(self) -> bool:
        """Partners never change (a partner drive): the unit that moves and sits out is a pair."""
        return self.move.keeps_partners

    @property
    def has_dummy(self) -> bool:
        """A dummy hand makes up a table: a partner drive with an odd player (who partners the
        dummy, the only way they can play), or three players left over with short_table=dummy.
        For the first hand's players (`dummy_at` for another hand's)."""
        return self.dummy_at(1)

    @property
    def tables(self) -> int:
        """The first hand's tables (`tables_at` for another hand's)."""
        return self.tables_at(1)

    @property
    def bench_size(self) -> int:
        """Places on the bench each hand: players sitting out (a partner drive: a pair, or the
        odd player and the dummy). For the first hand (`bench_at` for another)."""
        return self.bench_at(1)

    def _dummy_for(self, count: int) -> bool:
        if self.pairs:
            return count % 2 == 1
        return count % 4 == 3 and self.short_table == "dummy"

    def dummy_at(self, hand: int) -> bool:
        return self._dummy_for(self.count_at(hand))

    def tables_at(self, hand: int) -> int:
        """The tables of `hand`: as many as its players fill (late arrivals can add one, and
        leavers close one)."""
        count = self.count_at(hand)
        if self.pairs:
            return (count + 1) // 2 // 2
        return (count + (1 if self._dummy_for(count) else 0)) // 4

    def bench_at(self, hand: int) -> int:
        count = self.count_at(hand)
        if self.pairs:
            return (count + 1) // 2 % 2 * 2
        return count - 4 * self.tables_at(hand) + (1 if self._dummy_for(count) else 0)

    # ---- who is there for each hand --------------------------------------------------------

    def joined(self, player: int) -> int:
        """The first hand `player` plays (1 unless they came late)."""
        return self._joined.get(player, 1)

    def left(self, player: int) -> int | None:
        """The last hand `player` played before going home; None: they stay to the end."""
        return self._left.get(player)

    def is_there(self, player: int, hand: int) -> bool:
        last = self._left.get(player)
        return self._joined.get(player, 1) <= hand and (last is None or hand <= last)

    def present(self, hand: int) -> tuple[int, ...]:
        """The players at the drive for `hand` (at a table or sitting out), in number order."""
        if not self._joined and not self._left:
            return tuple(range(1, self.players + 1))
        return tuple(p for p in range(1, self.players + 1) if self.is_there(p, hand))

    def count_at(self, hand: int) -> int:
        if not self._joined and not self._left:
            return self.players
        late = sum(1 for first in self._joined.values() if first > hand)
        gone = sum(1 for last in self._left.values() if last < hand)
        return self.players - late - gone

    @property
    def whole_evening(self) -> bool:
        """Everyone played every hand: nobody came late or left early."""
        return not self._joined and not self._left

    def trump(self, hand: int) -> Suit | None:
        """The trump suit of hand `hand` at every table (None: no-trumps)."""
        return trump_rotation(hand, self._order, self.no_trump_every or None)

    def role_label(self, role: Role) -> str:
        return self.roles[0] if role is Role.A else self.roles[1]

    # ---- as plain data, for storing and for the API ---------------------------------------

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {}
        for item in fields(self):
            if item.name.startswith("_"):
                continue
            value = getattr(self, item.name)
            if item.name == "move":
                value = self.move.to_dict()
            elif item.name == "prizes":
                value = [prize.to_dict() for prize in self.prizes or ()]
            elif item.name == "roles":
                value = list(self.roles)
            elif item.name in ("arrivals", "departures"):
                if not value:
                    continue  # a drive without them stores what it always did
                value = [list(pair) for pair in value]
            elif item.name == "game_options":
                value = dict(self.game_options)
            data[item.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DriveSettings:
        if not isinstance(data, Mapping):
            raise DriveError(f"drive settings are an object, not {quoted(data)}")
        known = {item.name for item in fields(cls) if not item.name.startswith("_")}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DriveError(f"a drive has no setting {quoted(unknown[0])}")
        values: dict[str, Any] = dict(data)
        if "move" in values:
            values["move"] = MoveForm.from_dict(_mapping("move", values["move"]))
        if values.get("prizes") is not None:
            values["prizes"] = tuple(
                Prize.from_dict(_mapping("prizes", item))
                for item in _list("prizes", values["prizes"])
            )
        if "roles" in values:
            values["roles"] = tuple(_list("roles", values["roles"]))
        for name in ("arrivals", "departures"):
            if name in values:
                values[name] = tuple(tuple(_list(name, pair)) for pair in _list(name, values[name]))
        if "players" not in values:
            raise DriveError("players: say how many players there are")
        return cls(**values)


def _events(name: str, value: object, players: int, low: int, high: int) -> dict[int, int]:
    """(player, hand) pairs as {player: hand}, each checked."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise DriveError(f"{name}: a list of (player, hand) pairs, not {quoted(value)}")
    out: dict[int, int] = {}
    for pair in value:
        if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise DriveError(f"{name}: each is a (player, hand) pair, not {quoted(pair)}")
        player = _whole(f"{name}: the player", pair[0], 1, players)
        hand = _whole(f"{name}: player {player}'s hand", pair[1], low, high)
        if player in out:
            raise DriveError(f"{name}: player {player} is listed twice")
        out[player] = hand
    return out


def _mapping(name: str, value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise DriveError(f"{name}: expected an object, not {quoted(value)}")
    return value


def _list(name: str, value: object) -> Sequence[Any]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise DriveError(f"{name}: expected a list, not {quoted(value)}")
    return value
