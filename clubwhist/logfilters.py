"""Log filters: what the logs leave out on purpose."""

from __future__ import annotations

import logging


class TurnedAwayReaders(logging.Filter):
    """Django logs every 5xx answer as an error. A live-results reader turned away at a cap
    (a 503 from `/results/<id>/stream`, settings LIVE_STREAMS_*) is the server protecting the
    tablets as designed, and its page polls instead: a busy evening would otherwise print an
    error line per reader on the director's terminal. /health counts them instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        path = str(getattr(request, "path", ""))
        return not (getattr(record, "status_code", None) == 503 and path.endswith("/stream"))
