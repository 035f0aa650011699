"""The `>>>` examples in the team modules' docstrings are run, so they cannot go stale."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine.teams

MODULES = ["engine.teams"] + [
    f"engine.teams.{info.name}" for info in pkgutil.iter_modules(engine.teams.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
