"""The engine must stay usable without Django, DRF or Celery."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
import engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")
         if not m.name.endswith("__main__")]
for name in names:
    importlib.import_module(name)
forbidden = sorted(m for m in sys.modules
                   if m.split(".")[0] in {"django", "rest_framework", "celery"})
print(json.dumps({"modules": names, "forbidden": forbidden}))
"""


def test_engine_imports_no_web_framework() -> None:
    # A fresh interpreter, so nothing the test session imported can hide a leak.
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    report = json.loads(out.stdout)
    assert "engine.cli" in report["modules"]
    assert report["forbidden"] == [], f"engine imported {report['forbidden']}"


def test_the_probe_would_notice_a_leak() -> None:
    leaky = PROBE.replace("import engine\n", "import engine, django\n")
    out = subprocess.run(
        [sys.executable, "-c", leaky], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "django" in json.loads(out.stdout)["forbidden"]
