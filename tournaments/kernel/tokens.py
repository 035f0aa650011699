"""The table links' tokens, for every format: how one is made and how a cache names it.

A link's token is its table's only credential (no login on a tablet), so it is unguessable:
192 bits from `secrets`. A cache key is the token's digest, never the token: a URL may carry
any character, a cache key may not (memcached refuses spaces and control characters), and a
key read off Redis does not give a working link away.
"""

from __future__ import annotations

import hashlib
import secrets

#: Bytes of randomness in a link's token (32 characters of URL-safe base64).
TOKEN_BYTES = 24


def new_link_token() -> str:
    """A new table link's token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """A token as the caches name it (whatever the URL held, even a lone surrogate)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]
