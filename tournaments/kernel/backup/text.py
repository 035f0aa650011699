"""Documents as JSON text and as files: writing them compact, reading them back or saying why not.

A backup is read by people who need it to work at a bad moment, so text that is not JSON, a
file cut short and a damaged gzip file are each refused by name; a file is written whole or
not at all, so an interrupted backup never leaves half a file under the backup's name.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tournaments.kernel.backup.schema import RestoreRefused


def dumps(document: Mapping[str, Any]) -> str:
    """The document as text: compact (a 30-table evening is about half a megabyte), with
    names as typed rather than as \\u escapes."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Any:
    """The JSON of a document, or a refusal saying where the text stops being JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if _cut_short(text):
            raise RestoreRefused(
                "The file ends in the middle of the JSON (objects or text still open at its "
                "end): it was cut short. Use a complete copy of the backup."
            ) from None
        raise RestoreRefused(
            f"The file is not valid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg}): it is not a clubwhist backup, or it was edited or damaged."
        ) from None
    except RecursionError:
        raise RestoreRefused("The file's JSON is nested far too deeply to be a backup.") from None
    except ValueError:  # not JSONDecodeError: a number too long for Python to read (4300 digits)
        raise RestoreRefused(
            "The file holds a number thousands of digits long: no backup has one, so it is not "
            "a clubwhist backup, or it was edited or damaged."
        ) from None


def _cut_short(text: str) -> bool:
    """Whether JSON text ends with an object, a list or a string still open: the mark of a
    copy that stopped part-way, as opposed to text that is wrong where it stands."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return in_string or depth > 0


def looks_like_json(text: str) -> bool:
    return text.removeprefix("\ufeff").lstrip().startswith("{")


def read_file(path: Any) -> Any:
    """A backup or event document from a file, gzip-compressed or not (told by its first
    bytes, whatever its name)."""
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError) as exc:
            raise RestoreRefused(
                f"{path} is a damaged or cut-short gzip file ({exc}): use a complete copy."
            ) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RestoreRefused(f"{path} is not UTF-8 text: it is not a clubwhist backup.") from None
    return loads(text)


def write_file(path: Any, document: Mapping[str, Any]) -> int:
    """Write a document whole or not at all (beside the target, then renamed over it), gzip
    compressed when the name ends in .gz; returns the bytes written."""
    target = Path(path)
    data = dumps(document).encode()
    if target.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    try:
        with os.fdopen(handle, "wb") as fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(data)
