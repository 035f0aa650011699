"""The four games, one module each, found by name.

>>> find_variant("bidwhist").title
'Bid Whist'
>>> variant_names()
('classic', 'bidwhist', 'candid', 'openwhist')
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from engine import EngineError
from engine.boards import VARIANTS
from engine.games.base import (
    Entry,
    EntryError,
    GameRules,
    IllegalBidError,
    IllegalPlayError,
    OptionsError,
    OptionSpec,
    Play,
    PlayContext,
    Score,
    Trick,
)
from engine.reading import quoted

__all__ = [
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
    "rules_for",
    "variant_names",
]


class UnknownVariantError(EngineError):
    """A game name the engine does not know."""


_ALIASES = {
    "whist": "classic",
    "classicwhist": "classic",
    "bid": "bidwhist",
    "candidwhist": "candid",
    "open": "openwhist",
}


def variant_names() -> tuple[str, ...]:
    return VARIANTS


def find_variant(name: str) -> type[GameRules]:
    """The rules class of the game `name` ('classic', 'bidwhist', 'candid', 'openwhist')."""
    key = str(name).strip().lower().replace(" ", "").replace("-", "").replace("_", "")
    key = _ALIASES.get(key, key)
    if key not in VARIANTS:
        raise UnknownVariantError(f"unknown game {quoted(name)} (known: {', '.join(VARIANTS)})")
    module = importlib.import_module(f"engine.games.{key}")
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, GameRules) and value.name == key:
            return value
    raise UnknownVariantError(f"engine.games.{key} defines no rules class")  # pragma: no cover


def rules_for(name: str, options: Mapping[str, object] | None = None) -> GameRules:
    """The rules of game `name` with these options (validated)."""
    return find_variant(name)(options)
