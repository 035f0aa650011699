"""The clubwhist domain in pure Python: cards, boards, the games' rules, movements, scoring,
the double-dummy solver and the print layouts.

Nothing here imports Django, Django REST framework or Celery (tests/engine/test_purity.py
proves it), so the engine can be used from scripts, the command line and other programs.
"""

__version__ = "0.1.0"


class EngineError(ValueError):
    """Base of every error the engine raises for bad input; the message is for people."""
