"""Sub-commands of `python -m engine`, one module each (see engine/cli.py)."""
