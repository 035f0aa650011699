"""Every reader of a file or a typed result, fed random and nearly-right input: it answers with
a value or with its own error (the message a director reads), never with anything else.

| reader | its error |
| --- | --- |
| `engine.pbn.loads` (board files) | `PBNError` |
| `engine.exports.loads_with_results` (PBN with results) | `ExportError` |
| `engine.exports.loads_usebio` (USEBIO XML) | `ExportError` |
| `engine.movements.loads_asc` / `loads_csv` (movement files) | `MovementFileError` |
| `engine.commands.score.loads_travellers` (traveller CSV) | `ScoringError` |
| `GameRules.parse_entry` (a table result), every game and option set | `EntryError` |

What is read is also checked where a check is cheap: boards written back and read again are
the same boards, an accepted entry scores and reads back to itself.

More examples: `pytest --hypothesis-profile=deep tests/engine/test_fuzz_readers.py`
(`--hypothesis-show-statistics` prints how many ran).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine import pbn
from engine.commands.score import loads_travellers
from engine.dealing import deal_boards
from engine.exports import EventRecord, ExportError, loads_usebio, loads_with_results
from engine.exports.pbn_results import dumps_with_results
from engine.exports.record import score_record
from engine.exports.usebio import dumps_usebio
from engine.games import (
    Entry,
    EntryError,
    GameRules,
    OptionsError,
    find_variant,
    rules_for,
    variant_names,
)
from engine.movements import build, dumps_csv, loads_asc, loads_csv
from engine.movements.model import Movement, MovementFileError
from engine.scoring import ScoringError, TravellerLine
from tests.engine.helpers import ALL_VARIANT_OPTIONS
from tests.engine.test_exports import FOREIGN_USEBIO, simulate
from tests.fuzzing import ACCEPTED, RUN, any_text, broken, entries, examples

T = TypeVar("T")
VARIANTS = variant_names()  # every game the registry knows

# ---- documents to break ---------------------------------------------------------------------

PBN_FILES = [
    pbn.dumps(deal_boards(variant, range(1, 4), seed=7, options=options))
    for variant, options in ALL_VARIANT_OPTIONS
]
PBN_FILES.append(
    "% hand-written, as clubs send them\n"
    '[Event "Club night"]\n[Board "1"]\n[Dealer "N"]\n'
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    "{a comment}\n\n"
    '[Board "2"]\n[Dealer "#"]\n'
    '[Deal "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    '[Auction "E"]\n1S Pass\n'
)

RECORDS = [
    simulate("classic", movement=("mitchell", {"tables": 3})),
    simulate("bidwhist"),
    simulate("candid", method="total", artificial=False),
    simulate("openwhist"),
    simulate("classic", movement=("howell", {"tables": 3, "boards_per_round": 1})),
]
PBN_RESULTS = [dumps_with_results(record) for record in RECORDS]
USEBIO_FILES = [dumps_usebio(record, score_record(record)) for record in RECORDS]
USEBIO_FILES.append(FOREIGN_USEBIO)

MOVEMENTS = [
    build("mitchell", tables=3, boards_per_round=2),
    build("mitchell", tables=4, even="relay"),
    build("howell", tables=3, boards_per_round=1),
    build("mitchell", tables=5, arrow_switch=[5]),
]
MOVEMENT_CSV = [dumps_csv(movement) for movement in MOVEMENTS]


def asc(movement: Movement) -> str:
    """The ASC form of a movement without a relay stand (the test's own writer: the engine
    reads ASC but never writes it)."""
    numbers = sorted({p for m in movement.meetings for p in (m.ns, m.ew) if p})
    rows = [f"{len(numbers)} {movement.tables} {movement.rounds} {movement.sets} 0"]
    for rnd in range(1, movement.rounds + 1):
        cells = []
        for table in range(1, movement.tables + 1):
            m = movement.meeting(rnd, table)
            cells.append("0 0 0" if m is None else f"{m.ns}-{m.ew} {m.set}")
        rows.append("  ".join(cells))
    return "\n".join(rows) + "\n"


MOVEMENT_ASC = [
    asc(movement) for movement in MOVEMENTS if not movement.relay_sets and not movement.one_winner
]
MOVEMENT_ASC.append(
    "6 3 3 3 0\n# NS stay, EW move up, boards down\n"
    "1-4 A  2-5 B  3-6 C\n1-6 B  2-4 C  3-5 A\n1-5 C  2-6 A  3-4 B\n"
)

TRAVELLERS = [
    "board,ns,ew,ns_score\n1,1,1,420\n1,2,2,-50\n2,1,2,A+/A-\n2,2,1,25/2\n3,1,1,NP\n",
    "Board, NS, EW, NS_Score\r\n1,1,2,7\r\n1,3,4,12.5\r\n",
]


def _rule_sets() -> list[tuple[str, GameRules]]:
    """Every game at its defaults, at each listed value of each option and with each yes/no
    option turned over (settings that need another option too are skipped)."""
    found: list[tuple[str, GameRules]] = []
    for name in VARIANTS:
        rules_class = find_variant(name)
        settings_list: list[dict[str, object]] = [{}]
        for spec in rules_class.option_specs:
            values = (True, False) if spec.kind == "bool" else spec.choices
            settings_list += [{spec.key: value} for value in values]
        settings_list += [options for variant, options in ALL_VARIANT_OPTIONS if variant == name]
        for options in settings_list:
            try:
                rules = rules_class(options)
            except OptionsError:
                continue
            # Settings not for a pairs event (three-player Open Whist) still read results.
            found.append((f"{name} {json.dumps(options, sort_keys=True)}", rules))
    return found


RULE_SETS = _rule_sets()


def _boards_for(rules: GameRules) -> list[Any]:
    return deal_boards(rules.name, range(1, 3), seed=3, options=dict(rules.options))


BOARDS = {label: _boards_for(rules) for label, rules in RULE_SETS}


_current = [""]  # the test now running, for `refused` to count what it accepted


def count(name: str) -> None:
    RUN[name] += 1
    _current[0] = name


def refused(read: Callable[[], T], error: type[Exception]) -> T | None:
    """What `read()` returns, or None when it raised `error` with a message a person can
    read: not empty, and not the whole input echoed back."""
    try:
        value = read()
    except error as exc:
        message = str(exc)
    else:
        ACCEPTED[_current[0]] += 1
        return value
    assert message.strip(), f"{error.__name__} without a message"
    assert len(message) < 1000, f"{error.__name__} message of {len(message)} characters"
    return None


# ---- PBN board files ------------------------------------------------------------------------


def _pbn_reads_or_refuses(text: str, variant: str = "classic") -> None:
    boards = refused(lambda: pbn.loads(text, variant=variant), pbn.PBNError)
    if boards is None:
        return
    # What was read is whole: written back and read again, the boards are the same.
    assert pbn.loads(pbn.dumps(boards), variant=variant) == boards


@examples(1.0)
@given(text=any_text, variant=st.sampled_from(VARIANTS))
@example(text='[Board "²"]\n[Deal "N:- - - -"]', variant="classic")
@example(text='[Board "' + "9" * 5000 + '"]\n[Deal "N:- - - -"]', variant="classic")
def test_pbn_reader_on_arbitrary_text(text: str, variant: str) -> None:
    count("pbn arbitrary")
    _pbn_reads_or_refuses(text, variant)


@examples(2.0)
@given(text=broken(PBN_FILES), variant=st.sampled_from(VARIANTS))
def test_pbn_reader_on_broken_board_files(text: str, variant: str) -> None:
    count("pbn broken")
    _pbn_reads_or_refuses(text, variant)


# ---- PBN with results -----------------------------------------------------------------------


def _pbn_results_reads_or_refuses(text: str) -> None:
    record = refused(lambda: loads_with_results(text), ExportError)
    if record is not None:
        assert isinstance(record, EventRecord)
        score_record(record)


@examples(1.0)
@given(text=any_text)
@example(text='[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 1 1e999999\n')
@example(text='[WhistMovement "{\\"kind\\":\\"mitchell\\",\\"params\\":{\\"tables\\":1e400}}"]')
def test_pbn_results_reader_on_arbitrary_text(text: str) -> None:
    count("pbn-results arbitrary")
    _pbn_results_reads_or_refuses(text)


@examples(2.0)
@given(text=broken(PBN_RESULTS))
def test_pbn_results_reader_on_broken_exports(text: str) -> None:
    count("pbn-results broken")
    _pbn_results_reads_or_refuses(text)


# ---- USEBIO ---------------------------------------------------------------------------------


def _usebio_reads_or_refuses(text: str) -> None:
    record = refused(lambda: loads_usebio(text), ExportError)
    assert record is None or isinstance(record, EventRecord)


@examples(1.0)
@given(text=any_text)
def test_usebio_reader_on_arbitrary_text(text: str) -> None:
    count("usebio arbitrary")
    _usebio_reads_or_refuses(text)


@examples(2.0)
@given(text=broken(USEBIO_FILES))
def test_usebio_reader_on_broken_files(text: str) -> None:
    count("usebio broken")
    _usebio_reads_or_refuses(text)


@examples(0.3)
@given(depth=st.integers(1, 200_000), inside=st.sampled_from(["EVENT", "BOARD", "X", "USEBIO"]))
def test_usebio_reader_on_deeply_nested_elements(depth: int, inside: str) -> None:
    count("usebio deep nesting")
    text = (
        '<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">'
        + f"<{inside}>" * depth
        + f"</{inside}>" * depth
        + "</EVENT></USEBIO>"
    )
    _usebio_reads_or_refuses(text)


LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [\n<!ENTITY lol "lol">\n'
    + "\n".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    )
    + "\n]>\n<USEBIO><CLUB><CLUB_NAME>&lol9;</CLUB_NAME></CLUB></USEBIO>"
)
ENTITY_ATTACKS = {
    "billion laughs": LAUGHS,
    "external entity": (
        '<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        "<USEBIO><CLUB><CLUB_NAME>&x;</CLUB_NAME></CLUB></USEBIO>"
    ),
    "parameter entity": (
        '<!DOCTYPE USEBIO [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p;]><USEBIO/>'
    ),
    "quadratic blow-up": (
        f'<!DOCTYPE USEBIO [<!ENTITY a "{"x" * 50_000}">]>'
        f"<USEBIO><CLUB><CLUB_NAME>{'&a;' * 50_000}</CLUB_NAME></CLUB></USEBIO>"
    ),
    "declaration spelled oddly": (
        '<!doctype USEBIO [ <!EnTiTy a "aaaa"> ]><USEBIO><CLUB><CLUB_NAME>&a;</CLUB_NAME>'
        "</CLUB></USEBIO>"
    ),
    "after a byte-order mark and a declaration": (
        '\ufeff<?xml version="1.0" encoding="UTF-16"?>\n'
        '<!DOCTYPE USEBIO\n  [\n  <!ENTITY a "b">\n]>\n<USEBIO/>'
    ),
    "entity in an external DTD reference": (
        '<!DOCTYPE USEBIO SYSTEM "http://127.0.0.1:1/evil.dtd"><USEBIO><CLUB>'
        "<CLUB_NAME>&evil;</CLUB_NAME></CLUB></USEBIO>"
    ),
}


@pytest.mark.parametrize("attack", sorted(ENTITY_ATTACKS))
def test_usebio_reader_refuses_entities_quickly(attack: str) -> None:
    count("usebio entity attacks")
    started = time.perf_counter()
    with pytest.raises(ExportError, match=r"^USEBIO: ") as refused:
        loads_usebio(ENTITY_ATTACKS[attack])
    # Refused before anything is expanded or fetched: a parse takes a millisecond, the attack
    # minutes (or a network timeout); the bound leaves room for any load.
    assert time.perf_counter() - started < 5
    assert "entit" in str(refused.value).lower()


@examples(0.5)
@given(
    keyword=st.sampled_from(["ENTITY", "entity", "Entity"]),
    space=st.sampled_from([" ", "\n", "\t", "  \r\n"]),
    value=st.text(max_size=20).filter(lambda t: '"' not in t),
    uses=st.integers(0, 2000),
)
def test_usebio_reader_refuses_any_entity_declaration(
    keyword: str, space: str, value: str, uses: int
) -> None:
    count("usebio entity declarations")
    text = (
        f'<!DOCTYPE USEBIO [{space}<!{keyword}{space}a{space}"{value}">{space}]>'
        f"<USEBIO><CLUB><CLUB_NAME>{'&a;' * uses}</CLUB_NAME></CLUB></USEBIO>"
    )
    with pytest.raises(ExportError):
        loads_usebio(text)


# ---- movement files -------------------------------------------------------------------------


def _movement_reads_or_refuses(text: str, kind: str, boards_per_round: int) -> None:
    reader = loads_asc if kind == "asc" else loads_csv
    movement = refused(lambda: reader(text, boards_per_round=boards_per_round), MovementFileError)
    if movement is None:
        return
    assert isinstance(movement, Movement)
    assert loads_csv(dumps_csv(movement), boards_per_round=boards_per_round).meetings == (
        movement.meetings
    )


@examples(1.0)
@given(
    text=any_text,
    kind=st.sampled_from(["asc", "csv"]),
    boards_per_round=st.integers(-2, 12),
)
@example(
    text="6 3 3 999999999 0\n1-4 1 2-5 2 3-6 3\n1-6 2 2-4 3 3-5 1\n", kind="asc", boards_per_round=3
)
@example(text="round,table,ns,ew,set\n1,1,1,2,999999999\n", kind="csv", boards_per_round=3)
@example(text="round,table,ns,ew,set\n1,999999999,1,2,1\n", kind="csv", boards_per_round=3)
@example(text="round,table,ns,ew,set\n999999999,1,1,2,1\n", kind="csv", boards_per_round=3)
@example(text="round,table,ns,ew,set\n1,1,1,2,1\n", kind="csv", boards_per_round=10**9)
# An ASC file whose every cell is "0 0 0" (nobody plays): refused, as its CSV would be.
@example(
    text="6 3 3 3 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n",
    kind="asc",
    boards_per_round=1,
)
def test_movement_readers_on_arbitrary_text(text: str, kind: str, boards_per_round: int) -> None:
    count("movement arbitrary")
    _movement_reads_or_refuses(text, kind, boards_per_round)


@examples(2.0)
@given(
    data=st.one_of(
        st.tuples(st.just("asc"), broken(MOVEMENT_ASC)),
        st.tuples(st.just("csv"), broken(MOVEMENT_CSV)),
    ),
    boards_per_round=st.integers(1, 4),
)
def test_movement_readers_on_broken_files(data: tuple[str, str], boards_per_round: int) -> None:
    count("movement broken")
    kind, text = data
    _movement_reads_or_refuses(text, kind, boards_per_round)


# ---- traveller CSV --------------------------------------------------------------------------


def _travellers_read_or_refused(text: str) -> None:
    lines = refused(lambda: loads_travellers(text), ScoringError)
    assert lines is None or all(isinstance(line, TravellerLine) for line in lines)


@examples(1.0)
@given(text=any_text)
@example(text="board,ns,ew,ns_score\n²,1,1,7\n")
@example(text="board,ns,ew,ns_score\n1,1,1,1e999999\n")
def test_travellers_reader_on_arbitrary_text(text: str) -> None:
    count("travellers arbitrary")
    _travellers_read_or_refused(text)


@examples(1.0)
@given(text=broken(TRAVELLERS))
def test_travellers_reader_on_broken_files(text: str) -> None:
    count("travellers broken")
    _travellers_read_or_refused(text)


# ---- result entry ---------------------------------------------------------------------------


def _valid_entries(label: str, rules: GameRules) -> list[dict[str, Any]]:
    import random

    rng = random.Random(1)
    entries = []
    for board in BOARDS[label]:
        for _ in range(3):
            try:
                parsed = rules.parse_entry(board, rules.plausible_entry(board, rng))
            except EntryError:
                continue
            entries.append(rules.entry_to_dict(parsed))
    if rules.has_auction:
        entries.append({"passed_out": True})
    return entries


def _entry_parses_or_refuses(rules: GameRules, board: Any, data: Any) -> None:
    entry = refused(lambda: rules.parse_entry(board, data), EntryError)
    if entry is None:
        return
    assert isinstance(entry, Entry)
    # An accepted entry scores, reads in words and reads back to itself.
    rules.ns_score(board, entry)
    rules.describe(entry)
    assert rules.parse_entry(board, rules.entry_to_dict(entry)) == entry


@pytest.mark.parametrize(("label", "rules"), RULE_SETS, ids=[label for label, _ in RULE_SETS])
def test_result_entry_of_every_game_and_option_set(label: str, rules: GameRules) -> None:
    boards = BOARDS[label]

    @examples(0.25)
    @given(data=entries(_valid_entries(label, rules)), which=st.integers(0, len(boards) - 1))
    def check(data: Any, which: int) -> None:
        count("result entry")
        _entry_parses_or_refuses(rules, boards[which], data)

    check()


def test_a_board_of_another_game_is_refused_as_an_entry_error() -> None:
    count("result entry")
    board = deal_boards("bidwhist", [1], seed=1)[0]
    with pytest.raises(EntryError, match="bidwhist board"):
        rules_for("classic").parse_entry(board, {"ns_tricks": 7})


# ---- what the fuzzing found, pinned with the message each reader now gives --------------------

FOUND = [
    # str.isdigit() accepts "²", int() does not (ValueError escaped every reader).
    (lambda: pbn.loads('[Board "²"]\n[Deal "N:- - - -"]'), pbn.PBNError, "not a board number"),
    # int() refuses more than 4300 digits.
    (
        lambda: pbn.loads('[Board "' + "9" * 5000 + '"]\n[Deal "N:- - - -"]'),
        pbn.PBNError,
        r"Board '9{30,}'\.\.\. is not a board number",
    ),
    (
        lambda: loads_with_results(
            PBN_RESULTS[0].replace('[WhistWinners "2"]', '[WhistWinners "' + "9" * 5000 + '"]')
        ),
        ExportError,
        r"WhistWinners is 1 or 2, not '9+'\.\.\.$",
    ),
    (
        lambda: loads_with_results(PBN_RESULTS[0].replace("'tables':3", "'tables':" + "9" * 5000)),
        ExportError,
        "WhistMovement .* is not JSON",
    ),
    (
        lambda: loads_travellers("board,ns,ew,ns_score\n1,1,1,1e999999999\n"),
        ScoringError,
        "line 2: '1e999999999' is not a score",
    ),
    (lambda: loads_travellers("board,ns,ew,ns_score\n²,1,1,7\n"), ScoringError, "board '²'"),
    (
        lambda: loads_usebio(USEBIO_FILES[-1].replace("<SCORE>-50<", "<SCORE>" + "9" * 5000 + "<")),
        ExportError,
        "SCORE '9+'... is not a whole number",
    ),
    (
        lambda: loads_usebio("<USEBIO>\ud800</USEBIO>"),
        ExportError,
        "characters that are not Unicode",
    ),
    # A huge set number made validation build a table of billions of boards (memory).
    (
        lambda: loads_asc("6 3 3 999999999 0\n1-4 1 2-5 2 3-6 3\n1-6 2 2-4 3 3-5 1\n"),
        MovementFileError,
        "line 1: board groups 999999999 is over the limit of 240",
    ),
    (
        lambda: loads_csv("round,table,ns,ew,set\n1,1,1,2,999999999\n"),
        MovementFileError,
        "line 2: set 999999999 is over the limit of 240",
    ),
    (
        lambda: loads_csv("round,table,ns,ew,set\n1,1,1,2,1\n", boards_per_round=10**9),
        MovementFileError,
        "boards a round must be from 1 to 10",
    ),
    (
        lambda: loads_csv("round,table,ns,ew,set\n" + "1,1,1,2,1\n" * 200_000),
        MovementFileError,
        "over 1024 KB",
    ),
    (
        lambda: rules_for("classic").parse_entry(BOARDS[RULE_SETS[0][0]][0], {"ns_tricks": "²"}),
        EntryError,
        "NS tricks must be a whole number, not '²'",
    ),
    (lambda: rules_for("classic", {"no_trump_every": "²"}), OptionsError, "a whole number"),
]


@pytest.mark.parametrize(("read", "error", "message"), FOUND)
def test_what_the_fuzzing_found_is_refused_in_words(
    read: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        read()


def test_expat_itself_refuses_declarations_the_quick_look_might_miss() -> None:
    """The second guard on its own (the quick look at the text stops every declaration first
    in the tests above, so this checks that expat's would too)."""
    from engine.exports import usebio

    with pytest.raises(ExportError, match="ENTITY declarations"):
        usebio._check_declarations('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')
    with pytest.raises(ExportError, match="internal subsets"):
        usebio._check_declarations("<!DOCTYPE a [ ]><a/>")
    usebio._check_declarations('<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd"><USEBIO/>')
