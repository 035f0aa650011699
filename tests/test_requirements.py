"""requirements/*.txt (exact pins) must satisfy pyproject.toml (the supported ranges)."""

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            name, _, version = line.partition("==")
            found[canonicalize_name(name)] = version
    return found


@pytest.mark.parametrize(("pinfile", "extra"), [("base.txt", None), ("dev.txt", "dev")])
def test_pins_match_pyproject(pinfile: str, extra: str | None) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    if extra:
        wanted += project["optional-dependencies"][extra]
    pinned = pins(ROOT / "requirements" / pinfile)
    for spec in map(Requirement, wanted):
        name = canonicalize_name(spec.name)
        assert name in pinned, f"{spec.name} is in pyproject.toml but not pinned in {pinfile}"
        assert spec.specifier.contains(pinned[name]), f"{name}=={pinned[name]} breaks {spec}"
