"""`python -m engine version`: print the engine version (a smoke test for the dispatcher)."""

import argparse

from engine import __version__

NAME = "version"
HELP = "print the engine version"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options."""


def run(args: argparse.Namespace) -> int:
    print(__version__)
    return 0
