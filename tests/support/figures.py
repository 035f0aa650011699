"""Figures the load and fault tests measure (results sent, lost, duplicated; seconds until the
standings converged), printed together at the end of the run by `tests/conftest.py`."""

from __future__ import annotations

FIGURES: list[str] = []


def record(line: str) -> None:
    FIGURES.append(line)
