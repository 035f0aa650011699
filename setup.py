"""Build hook for the compiled parts (the double-dummy core); metadata is in pyproject.toml."""

from setuptools import setup

setup()
