"""`python -m engine ...`: the engine's command line (see README, "Command-line tools")."""

from engine.cli import main

raise SystemExit(main())
