"""The `>>>` examples in the engine's docstrings are run, so they cannot go stale."""

import doctest
import importlib

import pytest

MODULES = [
    "engine.cards",
    "engine.boards",
    "engine.dealing",
    "engine.pbn",
    "engine.diagrams",
    "engine.games",
    "engine.scoring.document",
    "engine.scoring.model",
    "engine.publishing",
    "engine.charts",
    "engine.reading",
    "engine.names",
    "engine.shapes",
    "engine.season.handicaps",
    "engine.season.competitions",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
