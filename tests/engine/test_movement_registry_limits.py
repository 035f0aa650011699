"""`engine.movements.build` checks its settings before building anything."""

from __future__ import annotations

import pytest

from engine.movements import MovementError, build, check_params, registry
from engine.movements.registry import MAX_HOWELL_TABLES, MAX_TABLES


def test_the_largest_allowed_movements_build_and_one_more_is_refused_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert build("mitchell", tables=MAX_TABLES, rounds=9, boards_per_round=3).tables == MAX_TABLES
    assert build("howell", tables=MAX_HOWELL_TABLES, rounds=5).tables == MAX_HOWELL_TABLES
    built: list[str] = []
    monkeypatch.setattr(
        registry,
        "KINDS",
        {name: (lambda name=name, **_: built.append(name)) for name in registry.KINDS},
    )
    with pytest.raises(MovementError, match=f"tables must be from 1 to {MAX_TABLES}"):
        build("mitchell", tables=5000)
    with pytest.raises(MovementError, match=f"tables must be from 1 to {MAX_HOWELL_TABLES}"):
        build("howell", tables=MAX_HOWELL_TABLES + 1)
    assert built == []  # at once: refused before anything was built


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"tables": 3.5}, "whole number"),
        ({"tables": "3"}, "whole number"),
        ({"tables": 3, "phantom": "yes"}, "true or false"),
        ({"tables": 3, "even": "twice"}, "even must be one of skip, relay"),
        ({"tables": 3, "phantom_seat": "N"}, "phantom_seat must be one of NS, EW"),
        ({"tables": 3, "arrow_switch": 3}, "list of round numbers"),
        ({"tables": 3, "arrow_switch": [0]}, "0 is not a round number"),
        ({"tables": 3, "nested": {"x": [1]}}, "no setting 'nested'"),
    ],
)
def test_settings_of_the_wrong_kind_are_named(params: dict[str, object], message: str) -> None:
    with pytest.raises(MovementError, match=message):
        check_params("mitchell", params)


def test_plain_settings_pass() -> None:
    check_params("mitchell", {"tables": 7, "rounds": None, "arrow_switch": [5, 6], "phantom": True})
    with pytest.raises(MovementError, match="unknown movement 'spiral'"):
        check_params("spiral", {"tables": 3})
