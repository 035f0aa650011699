"""Build hook for the compiled parts (the double-dummy core); metadata is in pyproject.toml.

`engine.dd._core` is plain C11 against the CPython API, built with the compiler already on the
machine by `pip install -e .` (the Makefile's `.venv/.base` step). If it is missing at run time
`engine.dd` falls back to its pure-Python solver and says so once.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.dd._core",
            sources=["engine/dd/_core.c"],
            extra_compile_args=["-O2", "-std=c11"],
        )
    ],
)
