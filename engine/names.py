"""The one rule for names that come in (players, pairs, events, clubs, drives and their players,
team tournaments, leagues, teams, their cities and players): typed on the director's pages,
sent to the API, read from a command's file, an imported file or a restored backup.

A name is shown on pages, printed, and written into XML, PBN and CSV files that other programs
read. A control character in it breaks those files (XML 1.0 forbids most of them outright, a
newline or vertical tab ends a PBN tag's line, NEL and U+2028/U+2029 are line ends to some
readers), so a name with one is refused rather than silently cleaned: the director is told which
field and which character, and fixes it. Refused:

- Unicode category Cc: NUL, tab, newline, vertical tab, carriage return, DEL, NEL (U+0085) ...;
- the line and paragraph separators U+2028 and U+2029;
- the bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069),
  which make a name read differently from what it is (other format characters, such as the
  zero-width joiners some scripts need, are kept);
- surrogates and the noncharacters U+FFFE/U+FFFF, which UTF-8 or XML cannot carry.

A name that is there must be seen: one made only of spaces and characters that draw nothing
(the zero-width space U+200B, the joiners U+200C/U+200D, the word joiner U+2060, the byte
order mark U+FEFF, the soft hyphen U+00AD, combining marks with nothing to sit on, the blank
fillers of Hangul and Braille) prints as an empty line on a curtain card or in the standings,
and the pair or team it names can no longer be told apart or found. It is refused; each of
those characters is still kept inside a name that has a visible character (a letter, digit,
punctuation mark or symbol) as well, where scripts such as Persian need them. A name of
spaces only is trimmed to nothing: blank where a name may be left out, refused where one is
needed (`required`).

Everything else is kept exactly: "/", "&", quotes, apostrophes and accents come back as typed.
Leading and trailing spaces are trimmed; the length, counted after trimming, is at most the
field's own limit (the database column's `max_length`).

>>> clean_name("  Zoë O'Brien & Co ", field="player 1", max_length=120)
"Zoë O'Brien & Co"
>>> name_problem("Ann\\x0bBob", max_length=120)
'the name has a control character (U+000B, a vertical tab); type it again without it'
>>> name_problem(" \\u200b ", max_length=120)[:45]
'a name needs at least one visible character; '
"""

from __future__ import annotations

import unicodedata

from engine import EngineError

__all__ = ["NameRefused", "clean_name", "name_problem"]

_NAMED = {
    0x00: "NUL",
    0x09: "a tab",
    0x0A: "a new line",
    0x0B: "a vertical tab",
    0x0C: "a form feed",
    0x0D: "a carriage return",
    0x7F: "DEL",
    0x85: "a next-line (NEL)",
    0x2028: "a line separator",
    0x2029: "a paragraph separator",
}
_BIDI_CONTROLS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))
#: Letters and symbols by category that draw nothing: the Hangul fillers and the blank
#: Braille pattern, which fonts render as an empty space.
_BLANK_GLYPHS = frozenset({0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0})


class NameRefused(EngineError):
    """A name that breaks the rule; the message names the field and the character."""


def _bad_character(char: str) -> bool:
    code = ord(char)
    category = unicodedata.category(char)
    return (
        category in ("Cc", "Cs", "Zl", "Zp") or code in _BIDI_CONTROLS or code in (0xFFFE, 0xFFFF)
    )


def _visible(char: str) -> bool:
    """Whether `char` draws something of its own: a letter, digit, punctuation mark, symbol,
    spacing mark or private-use glyph. Spaces, format characters (Cf), combining marks that
    sit on another character (Mn, Me), unassigned code points and the blank glyphs do not."""
    category = unicodedata.category(char)
    drawn = category[0] in "LNPS" or category in ("Mc", "Co")
    return drawn and ord(char) not in _BLANK_GLYPHS


def _describe(char: str) -> str:
    code = ord(char)
    what = _NAMED.get(code)
    if what is None:
        what = unicodedata.name(char, "a control character").lower()
    return f"U+{code:04X}, {what}"


def name_problem(value: str, max_length: int) -> str | None:
    """What is wrong with `value` as a name (None when nothing), in words for the director."""
    for char in value:
        if _bad_character(char):
            return f"the name has a control character ({_describe(char)}); type it again without it"
    trimmed = value.strip()
    if len(trimmed) > max_length:
        return f"the name is {len(trimmed)} characters long; at most {max_length} fit"
    if trimmed and not any(_visible(char) for char in trimmed):
        return (
            "a name needs at least one visible character; this one has only spaces and "
            f"invisible characters ({_describe(trimmed[0])})"
        )
    return None


def clean_name(value: object, *, field: str, max_length: int, required: bool = False) -> str:
    """`value` trimmed, or `NameRefused` saying what is wrong with it and in which `field`
    ("NS 3, player 1", "the event's name"); an empty name is refused when `required`."""
    if not isinstance(value, str):
        raise NameRefused(f"{field}: a name is text, not {type(value).__name__}")
    problem = name_problem(value, max_length)
    if problem is not None:
        raise NameRefused(f"{field}: {problem}")
    trimmed = value.strip()
    if required and not trimmed:
        raise NameRefused(f"{field}: give a name")
    return trimmed
