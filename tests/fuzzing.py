"""Strategies shared by the fuzz tests: arbitrary text, and valid documents broken on purpose.

A reader that survives random text can still fall over on a file that is nearly right, which
is what a club really sends (a hand-edited PBN, a USEBIO cut short by a failed download). So
besides `st.text()` the tests take a valid document and break it a few times over: drop,
duplicate or swap a line or a token, replace a number with a huge, negative or non-ASCII one,
change one character, insert markup characters or random unicode, cut the file short.

How many examples run is set by the Hypothesis profile (registered in tests/conftest.py):
`ci` by default, `deep` for a long hunt (`pytest --hypothesis-profile=deep tests/...`). Each
test asks for a share of the profile's `max_examples` with `examples(share)`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Examples run per test in this session, by test name: the closing report sums them.
RUN: Counter[str] = Counter()
#: Of those, how many were accepted (the rest were refused), so a report shows that both
#: outcomes were reached and the fuzzing did not only ever hit the first check.
ACCEPTED: Counter[str] = Counter()

NUMBERS = (
    "0",
    "-1",
    "-0",
    "00",
    "007",
    "+3",
    "1.5",
    "1e3",
    "1/0",
    "NaN",
    "inf",
    "0x1F",
    "1_000",
    "4294967296",
    "9223372036854775808",
    "9" * 30,
    "9" * 5000,  # more digits than int() reads from text by default
    "²",  # str.isdigit() says yes, int() says no
    "٣",  # Arabic-Indic three: both say yes
    "１",  # full-width one
    "Ⅻ",
    "",
)
MARKS = (
    '"',
    "\\",
    "[",
    "]",
    "{",
    "}",
    ";",
    "%",
    "#",
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;",
    "&#0;",
    "&#x110000;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "\x00",
    "\x0b",
    "\ufeff",
    "\u202e",
    "\u2028",
    "é",
    "ß",
    "🂡",
    "\r",
    "\n",
    "\n\n",
    "\t",
    "-",
    ":",
    ",",
    "/",
    ".",
    " ",
    "*",
    "=",
)
CARD_CHARS = "AKQJT98765432SHDCNEW10-."

_TOKEN = re.compile(r"\w+|[^\w\s]")
_NUMBER = re.compile(r"\d+")


def examples(share: float, *, at_least: int = 10) -> settings:
    """Settings for one fuzz test: `share` of the loaded profile's max_examples, no deadline
    (a shared CI machine is slow now and then; speed is not what these tests check)."""
    base = settings()
    return settings(
        max_examples=max(at_least, int(base.max_examples * share)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


Mutation = Callable[[st.DrawFn, str], str]


def _pick(draw: st.DrawFn, items: Sequence[Any]) -> Any:
    return items[draw(st.integers(0, len(items) - 1))]


def _line_op(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(("drop", "duplicate", "swap", "move")))
    if how == "drop":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    else:
        j = draw(st.integers(0, len(lines) - 1))
        if how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(j, lines.pop(i))
    return "".join(lines)


def _token_op(draw: st.DrawFn, text: str) -> str:
    spans = _spans(_TOKEN, text)
    if not spans:
        return text
    start, end = _pick(draw, spans)
    if draw(st.booleans()):
        return text[:start] + text[end:]  # drop
    return text[:end] + text[start:end] + text[end:]  # duplicate


def _number_op(draw: st.DrawFn, text: str) -> str:
    spans = _spans(_NUMBER, text)
    if not spans:
        return text
    start, end = _pick(draw, spans)
    new = draw(st.one_of(st.sampled_from(NUMBERS), st.integers(-(10**12), 10**12).map(str)))
    return text[:start] + new + text[end:]


def _char_op(draw: st.DrawFn, text: str) -> str:
    if not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    new = draw(st.one_of(st.sampled_from(CARD_CHARS), st.sampled_from(MARKS), st.characters()))
    return text[:i] + new + text[i + 1 :]


def _insert_op(draw: st.DrawFn, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    new = draw(st.one_of(st.sampled_from(MARKS), st.text(max_size=8)))
    return text[:i] + new + text[i:]


def _cut_op(draw: st.DrawFn, text: str) -> str:
    return text[: draw(st.integers(0, len(text)))]


MUTATIONS: tuple[Mutation, ...] = (
    _line_op,
    _token_op,
    _number_op,
    _number_op,
    _char_op,
    _insert_op,
    _cut_op,
)


@st.composite
def broken(draw: st.DrawFn, documents: Sequence[str], *, most: int = 4) -> str:
    """One of `documents` after one to `most` random mutations."""
    text: str = _pick(draw, documents)
    for _ in range(draw(st.integers(1, most))):
        mutation: Mutation = _pick(draw, MUTATIONS)
        text = mutation(draw, text)
    return text


#: Arbitrary text with the markup characters the formats care about well represented.
any_text = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(st.sampled_from(MARKS), st.sampled_from(NUMBERS), st.text(max_size=4)))
    .map("".join)
    .filter(lambda t: len(t) < 20_000),
)


# ---- table results --------------------------------------------------------------------------

NASTY_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    14,
    18,
    10**30,
    -(10**30),
    1.5,
    7.0,
    math.nan,
    math.inf,
    "",
    " 7 ",
    "7",
    "-3",
    "²",
    "٣",
    "１",
    "9" * 5000,
    "NT",
    "nt",
    "x",
    "N",
    "uptown",
    [],
    [7],
    {},
    {"N": 6},
]
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=10),
        st.sampled_from(NASTY_VALUES),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def entries(draw: st.DrawFn, valid: Sequence[Mapping[str, Any]]) -> Any:
    """Anything JSON can hold, or one of the game's own `valid` entries with fields changed,
    dropped, added or nested wrongly (so the checks past the first one are reached)."""
    if not valid or draw(st.integers(0, 3)) == 0:
        return draw(json_values)
    entry: dict[str, Any] = dict(_pick(draw, valid))
    for _ in range(draw(st.integers(0, 3))):  # sometimes none: the valid path is fuzzed too
        keys = sorted(entry)
        how = draw(st.sampled_from(("change", "drop", "add", "nest")))
        if how == "change" and keys:
            entry[draw(st.sampled_from(keys))] = draw(
                st.one_of(st.sampled_from(NASTY_VALUES), json_values)
            )
        elif how == "drop" and keys:
            del entry[draw(st.sampled_from(keys))]
        elif how == "add":
            key = draw(st.sampled_from(["ew_tricks", "tricks", "passed_out", "bid", "zz", ""]))
            entry[key] = draw(st.sampled_from(NASTY_VALUES))
        elif keys:
            key = draw(st.sampled_from(keys))
            entry[key] = {"N": entry[key]} if draw(st.booleans()) else [entry[key]]
    return entry
