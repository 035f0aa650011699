"""Each game's entry fields (what forms, tablets, travellers and the API schema are built from)
agree with its `parse_entry`: every entry the fields allow is accepted and comes back the same,
and every constraint the fields state is one the engine enforces, in its own words."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.dealing import deal_boards
from engine.games import EntryError, GameRules, find_variant, rules_for, variant_names
from engine.games.entry import EntryField, entry_from_values, field_applies, values_from_entry

# Every field set a game can have: options that change what is entered are listed here.
SETTINGS = [
    ("classic", {}),
    ("bidwhist", {}),
    ("bidwhist", {"all_pass": "dealer_must_bid"}),
    ("candid", {}),
    ("openwhist", {}),
    ("openwhist", {"players": 2}),
    ("openwhist", {"players": 3}),
]
IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for game, o in SETTINGS]


def _rules_and_board(game: str, options: dict[str, Any]) -> tuple[GameRules, Any]:
    rules = rules_for(game, options)
    return rules, deal_boards(game, [1], seed=5, options=rules.options)[0]


def _nest(flat: dict[str, object]) -> dict[str, object]:
    entry: dict[str, object] = {}
    for key, value in flat.items():
        *outer, last = key.split(".")
        target = entry
        for part in outer:
            target = target.setdefault(part, {})  # type: ignore[assignment]
        target[last] = value
    return entry


def valid_entries(rules: GameRules) -> Iterator[dict[str, object]]:
    """Every combination the fields allow: flags on alone, or off with every value of every
    field that then applies (whose conditions hold, field by field, in order)."""
    fields = rules.entry_fields()

    def extend(i: int, chosen: dict[str, object]) -> Iterator[dict[str, object]]:
        if i == len(fields):
            yield chosen
            return
        field = fields[i]
        if not field_applies(field, chosen):
            yield from extend(i + 1, chosen)
            return
        for value in field.values():
            if field.kind == "flag" and value is False:
                yield from extend(i + 1, chosen)
            else:
                yield from extend(i + 1, {**chosen, field.key: value})

    for flat in extend(0, {}):
        yield _nest(flat)


def _three_player_total_ok(entry: dict[str, object]) -> bool:
    tricks = entry.get("tricks")
    return not isinstance(tricks, dict) or sum(tricks.values()) == 17


@pytest.mark.parametrize(("game", "options"), SETTINGS, ids=IDS)
def test_every_entry_the_fields_allow_is_accepted_and_round_trips(game, options) -> None:
    rules, board = _rules_and_board(game, options)
    count = 0
    for entry in valid_entries(rules):
        if not _three_player_total_ok(entry):
            # the one rule no single field states: the three players' tricks add up to 17
            with pytest.raises(EntryError, match="add up to 17"):
                rules.parse_entry(board, entry)
            continue
        parsed = rules.parse_entry(board, entry)
        assert rules.entry_to_dict(parsed) == entry
        # and the same entry survives a form: flat text values and back
        assert (
            entry_from_values(rules.entry_fields(), values_from_entry(rules.entry_fields(), entry))
            == entry
        )
        assert rules.describe(parsed) and rules.describe_short(parsed)
        count += 1
    assert count >= 14  # at least a whole range of tricks


def _played_example(rules: GameRules) -> dict[str, object]:
    """A valid entry that is not all passed, to break one field of at a time."""
    for entry in valid_entries(rules):
        if not entry.get("passed_out") and _three_player_total_ok(entry):
            return entry
    raise AssertionError("no played entry")  # pragma: no cover


def _set(entry: dict[str, object], key: str, value: object) -> dict[str, object]:
    flat = _flatten(entry)
    flat[key] = value
    return _nest(flat)


def _flatten(entry: dict[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in entry.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _constraints(rules: GameRules) -> Iterator[tuple[str, EntryField, object]]:
    for field in rules.entry_fields():
        if field.kind == "int":
            assert field.minimum is not None and field.maximum is not None
            yield ("below", field, field.minimum - 1)
            yield ("above", field, field.maximum + 1)
        elif field.kind == "choice":
            yield ("not a choice", field, "Q")


@pytest.mark.parametrize(("game", "options"), SETTINGS, ids=IDS)
def test_every_stated_constraint_is_enforced_with_the_engines_message(game, options) -> None:
    rules, board = _rules_and_board(game, options)
    example = _played_example(rules)
    checked = 0
    for what, field, bad in _constraints(rules):
        if not field_applies(field, _flatten(example)):
            continue
        with pytest.raises(EntryError) as refused:
            rules.parse_entry(board, _set(example, field.key, bad))
        message = str(refused.value)
        assert str(bad) in message or "add up to" in message, (what, field.key, message)
        checked += 1
    # a field the game asks for every played board cannot be left out
    for field in rules.entry_fields():
        always = field.kind != "flag" and all(False in v for _, v in field.only_when)
        if always:
            flat = _flatten(example)
            flat.pop(field.key)
            with pytest.raises(EntryError):
                rules.parse_entry(board, _nest(flat))
            checked += 1
    assert checked >= 2


@pytest.mark.parametrize(
    "game",
    [name for name in variant_names() if any(f.only_when for f in rules_for(name).entry_fields())],
)
def test_a_field_given_where_it_does_not_apply_is_refused(game) -> None:
    rules, board = _rules_and_board(game, {})
    example = _played_example(rules)
    for field in rules.entry_fields():
        if field.kind == "flag" or field_applies(field, _flatten(example)):
            continue
        # e.g. a ranking on an uptown bid, or a trump suit on a no-trump one
        with pytest.raises(EntryError):
            rules.parse_entry(board, {**example, field.key: field.values()[0]})
    with pytest.raises(EntryError):
        rules.parse_entry(board, {**example, "passed_out": True})


def test_a_form_drops_fields_that_do_not_apply_and_keeps_bad_text_for_the_engine() -> None:
    rules = find_variant("bidwhist")()
    fields = rules.entry_fields()
    typed = {
        "declarer": "n",
        "bid": "4",
        "kind": "notrump",
        "trumps": "S",  # left selected before the kind changed: not sent
        "ranking": "downtown",
        "books": "ten",
    }
    assert entry_from_values(fields, typed) == {
        "declarer": "N",
        "bid": 4,
        "kind": "notrump",
        "ranking": "downtown",
        "books": "ten",
    }
    assert entry_from_values(fields, {"passed_out": "on", "bid": "4"}) == {"passed_out": True}
    assert entry_from_values(fields, {}) is None


def test_each_game_describes_a_result_in_short_and_in_words() -> None:
    cases = [
        ("classic", {}, {"ns_tricks": 8}, "8-5", "NS 8, EW 5 tricks"),
        ("candid", {}, {"declarer": "N", "bid": 8, "strain": "H", "tricks": 10}, "8♥ N 10", None),
        (
            "bidwhist",
            {},
            {"declarer": "E", "bid": 4, "kind": "downtown", "trumps": "S", "books": 11},
            "4↓♠ E 11",
            "4 downtown ♠ by E, 11 books",
        ),
        ("openwhist", {"players": 3}, {"tricks": {"N": 7, "E": 5, "S": 5}}, "7-5-5", None),
    ]
    for game, options, entry, short, words in cases:
        rules, board = _rules_and_board(game, options)
        parsed = rules.parse_entry(board, entry)
        assert rules.describe_short(parsed) == short
        if words:
            assert rules.describe(parsed) == words


@pytest.mark.parametrize(("game", "options"), SETTINGS, ids=IDS)
def test_a_plausible_entry_is_always_a_valid_one(game, options) -> None:
    rules = rules_for(game, options)
    rng = random.Random(3)
    boards = deal_boards(game, range(1, 9), seed=2, options=rules.options)
    accepted = 0
    for board, _ in itertools.product(boards, range(5)):
        try:
            rules.parse_entry(board, rules.plausible_entry(board, rng))
        except EntryError:
            continue  # a rare impossible draw; the simulator draws again
        accepted += 1
    assert accepted >= 0.9 * len(boards) * 5


def test_an_unlikely_result_is_flagged_against_double_dummy_and_the_other_tables() -> None:
    rules, board = _rules_and_board("classic", {})
    entry = rules.parse_entry(board, {"ns_tricks": 10})
    analysis = {"tricks": {"ns": 7, "ew": 6, "trumps": "H", "leader": "E"}}
    assert rules.unlikely(board, entry, analysis=analysis) == (
        "NS took 10 tricks, but double dummy gives NS 7 in this contract"
    )
    near = rules.parse_entry(board, {"ns_tricks": 9})
    assert rules.unlikely(board, near, analysis=analysis) is None
    others = [rules.parse_entry(board, {"ns_tricks": n}) for n in (6, 7, 7)]
    far = rules.parse_entry(board, {"ns_tricks": 1})
    assert (
        rules.unlikely(board, far, others=others)
        == "NS took 1 trick; at the other tables NS took 6 to 7"
    )
    assert rules.unlikely(board, near, others=others) is None  # 9 is 2 above 7: plausible
    assert rules.unlikely(board, far, others=others[:2]) is None  # too few to compare


def test_auction_games_compare_the_contract_played_with_its_double_dummy_tricks() -> None:
    rules, board = _rules_and_board("candid", {})
    entry = rules.parse_entry(board, {"declarer": "E", "bid": 8, "strain": "H", "tricks": 12})
    table = {"table": {"E": {"H": 8}}}
    # East's side took 12, double dummy 8: NS 1 against 5
    assert "NS took 1 trick, but double dummy gives NS 5" in (
        rules.unlikely(board, entry, analysis=table) or ""
    )
    passed = rules.parse_entry(board, {"passed_out": True})
    assert rules.unlikely(board, passed, analysis=table) is None
    bid, bboard = _rules_and_board("bidwhist", {})
    played = bid.parse_entry(
        bboard, {"declarer": "S", "bid": 4, "kind": "notrump", "ranking": "uptown", "books": 10}
    )
    assert bid.ns_tricks(bboard, played) == 9  # books include the kitty book
    assert bid.dd_ns_tricks(bboard, played, {"table": {"S": {"notrump uptown": 7}}}) == 6
