"""The games, one module each, listed here once and found by name or by any of their aliases.

A game is its rules class (`GameRules` subclass, in `engine/games/<game>.py`), which declares
its board shape and its aliases; `register` enters a class (and its shape, for the boards),
`unregister` takes it out again (a game registered for a while, as in the tests).

>>> find_variant("bidwhist").title
'Bid Whist'
>>> find_variant("Classic Whist").name
'classic'
>>> variant_names()
('classic', 'bidwhist', 'candid', 'openwhist')
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import EngineError
from engine.games.base import GameRules
from engine.games.bidwhist import BidWhistRules
from engine.games.candid import CandidRules
from engine.games.classic import ClassicRules
from engine.games.entry import Entry, EntryError, Score
from engine.games.openwhist import OpenWhistRules
from engine.games.options import OptionsError, OptionSpec
from engine.games.play import IllegalBidError, IllegalPlayError, Play, PlayContext, Trick
from engine.reading import quoted
from engine.shapes import forget_shape, register_shape

__all__ = [
    "GAMES",
    "Entry",
    "EntryError",
    "GameRules",
    "IllegalBidError",
    "IllegalPlayError",
    "OptionSpec",
    "OptionsError",
    "Play",
    "PlayContext",
    "Score",
    "Trick",
    "UnknownVariantError",
    "find_variant",
    "register",
    "rules_for",
    "unregister",
    "variant_names",
]

#: The games clubwhist plays, in the order they are offered.
GAMES: tuple[type[GameRules], ...] = (ClassicRules, BidWhistRules, CandidRules, OpenWhistRules)


class UnknownVariantError(EngineError):
    """A game name the engine does not know."""


_BY_NAME: dict[str, type[GameRules]] = {}
_ALIASES: dict[str, str] = {}


def _key(name: object) -> str:
    return str(name).strip().lower().replace(" ", "").replace("-", "").replace("_", "")


def register(rules: type[GameRules]) -> None:
    """Make game `rules.name` known, by its name and its aliases, with its board shape."""
    if not rules.name or rules.name != rules.shape.game:
        raise UnknownVariantError(f"{rules.__name__} declares no board shape of its own")
    taken = {*_BY_NAME, *_ALIASES}
    for name in (rules.name, *map(_key, rules.aliases)):
        if name in taken and _BY_NAME.get(name) is not rules:
            raise UnknownVariantError(f"the game name {quoted(name)} is taken")
    register_shape(rules.shape)
    _BY_NAME[rules.name] = rules
    _ALIASES.update(dict.fromkeys(map(_key, rules.aliases), rules.name))


def unregister(rules: type[GameRules]) -> None:
    """Undo `register`."""
    if _BY_NAME.get(rules.name) is not rules:
        return
    del _BY_NAME[rules.name]
    for alias in [alias for alias, name in _ALIASES.items() if name == rules.name]:
        del _ALIASES[alias]
    forget_shape(rules.name)


for _rules in GAMES:
    register(_rules)


def variant_names() -> tuple[str, ...]:
    """The names of the games the engine knows, in the order they are offered."""
    return tuple(_BY_NAME)


def find_variant(name: str) -> type[GameRules]:
    """The rules class of the game `name` ('classic', 'bidwhist', 'candid', 'openwhist')."""
    key = _key(name)
    key = _ALIASES.get(key, key)
    found = _BY_NAME.get(key)
    if found is None:
        raise UnknownVariantError(
            f"unknown game {quoted(name)} (known: {', '.join(variant_names())})"
        )
    return found


def rules_for(name: str, options: Mapping[str, object] | None = None) -> GameRules:
    """The rules of game `name` with these options (validated)."""
    return find_variant(name)(options)
