"""The tablet API's base, for every format: a view whose only credential is the table's link,
and the throttle that counts each link's requests.

A club's tablets share the venue's one Wi-Fi address, so requests are counted per table link,
not per address, at the tablets' rate (`TABLET_THROTTLE`, the "table" rate). With clubwhist's
Redis cache the count is a fixed window kept by one atomic script, one round trip (DRF's own
throttle reads a list of times and writes it back: two, and two requests at once may both
pass); with the in-process cache (`make run`) it is DRF's sliding window.

A refusal's status comes from its kind (`tournaments.kernel.api.errors`, one mapping for the whole
API); a format's view may add to the answer (`refusal_body`), such as the table's state with a
conflict, so the tablet shows what is stored without asking again.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.cache import caches
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from clubwhist.cache import RedisCache
from tournaments.kernel.refusals import Refused
from tournaments.kernel.tokens import token_digest

#: A link's requests in the current window, and the window's milliseconds left.
COUNT_HITS = """
local hits = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {hits, left}
"""


def redis_cache() -> RedisCache | None:
    """clubwhist's Redis cache, which runs scripts, or None (the in-process cache)."""
    found = caches["default"]
    return found if isinstance(found, RedisCache) else None


class TableLinkThrottle(SimpleRateThrottle):
    """Requests per table link, at the tablets' rate; a format names its keys (`key_scope`,
    `hits_prefix`) so two formats' links never share a count."""

    scope = "table"
    #: The scope in DRF's cache key (`throttle_<key_scope>_<digest>`).
    key_scope: ClassVar[str] = "table"
    #: The Redis key of the scripted window's count, before the token's digest.
    hits_prefix: ClassVar[str] = "table-hits:"
    retry_after: float | None = None

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        ident = token_digest(view.kwargs.get("token", ""))
        return self.cache_format % {"scope": self.key_scope, "ident": ident}

    def allow_request(self, request: Request, view: Any) -> bool:
        limit, seconds = self.parse_rate(self.rate) if self.rate else (None, None)
        redis = redis_cache()
        if limit is None or seconds is None or redis is None:
            return super().allow_request(request, view)
        key = self.hits_prefix + token_digest(view.kwargs.get("token", ""))
        counted = redis.run_script(COUNT_HITS, [key], [int(seconds * 1000)], None)
        if counted is None or int(counted[0]) <= limit:
            return True  # counted, or Redis away: not counted, as DRF's would not be
        self.retry_after = max(0.0, int(counted[1]) / 1000)
        return False

    def wait(self) -> float | None:
        return self.retry_after if self.retry_after is not None else super().wait()


class TabletApiView(APIView):
    """No login, no session, no CSRF: the table's token (in the URL) is the credential."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes: list[type] = [TableLinkThrottle]
    #: Beyond the schema's general rule (`kernel.api.schema`): a replaced link, or what this table
    #: may not do now (403), something stored or closed in the way (409).
    error_statuses = (403, 409)

    def refusal_body(self, exc: Refused) -> dict[str, Any]:
        """What an answer to `exc` carries besides its message: nothing, unless a format says
        more (the table's state with a conflict, so the tablet need not ask again)."""
        return {}
