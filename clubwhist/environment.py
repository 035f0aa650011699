"""Readers of the environment for clubwhist/settings.py, each failing loudly on a value it
cannot read (a typo in a deployment stops the process at start-up, never runs it with a silent
default), and the generated secret key a laptop keeps in var/."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable; anything but the usual spellings is an error, not False."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}") from None


def redis_database_moved(url: str, by: int) -> str:
    """`url` with its Redis database number moved on by `by` (0 when it names none): the
    cache's database beside the broker's, and each test worker's pair of them."""
    parts = urlsplit(url)
    number = parts.path.strip("/") or "0"
    if not number.isdigit():
        raise ImproperlyConfigured(f"REDIS_URL must name a database number; got {url!r}")
    return urlunsplit(parts._replace(path=f"/{int(number) + by}"))


def key_kept_in(folder: Path) -> str:
    """The secret key kept in `folder`, made the first time. It is written whole under another
    name and then linked into place, which fails if the file is there: processes starting
    together with no key yet (the laptop's server and its job runner, test workers) all read
    the one key, never a half-written file, so none refuses another's signed cookies."""
    key_file = folder / "secret_key"
    if not key_file.exists():
        folder.mkdir(parents=True, exist_ok=True)
        draft = folder / f"secret_key.{secrets.token_hex(8)}"
        draft.write_text(secrets.token_urlsafe(50))
        draft.chmod(0o600)
        with contextlib.suppress(FileExistsError):
            os.link(draft, key_file)
        draft.unlink()
    return key_file.read_text().strip()
