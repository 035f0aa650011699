"""`python -m engine ...`: the engine's command line (docs/reference/command-line.md)."""

from engine.cli import main

raise SystemExit(main())
