"""Live readers and tablets: 1,000 members follow an evening's live results while its 100
tablets play it, against the real services (issue "Trust, second pass": tablet p95 under
50 ms, 0 errors, 0 lost, every stream streaming or turned away with a 503 and polling).

It is `benchmarks.tablets_load` with readers: the same database of its own, gunicorn with 2
ASGI workers as production runs it, a real Celery worker, Redis; the readers run in a process
of their own (`benchmarks.harness.readers`), 25 from each of 40 loopback addresses, under
the default caps (1,000 streams a process, 50 an address). It prints the readers' tally, then
the tablets' latencies by kind with the p95 against its target.
`python -m benchmarks.live_readers --readers 500` follows with fewer.
"""

from __future__ import annotations

import argparse
import sys

from benchmarks import tablets_load

READERS = 1000
TABLETS = 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--readers", type=int, default=READERS, help=f"default {READERS}")
    parser.add_argument("--tables", type=int, default=TABLETS, help=f"default {TABLETS}")
    args = parser.parse_args(argv)
    return tablets_load.main(["--tables", str(args.tables), "--readers", str(args.readers)])


if __name__ == "__main__":
    sys.exit(main())
