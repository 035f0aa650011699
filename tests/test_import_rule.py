"""The app's import rule, checked on the real import graph (docs/development/architecture.md).

The kernel <- the formats (events, drives, teams: independent of each other) <- the files
(exports, imports, backups) <- the URL maps, tasks and commands. Inside each format: models <-
bridge (engine adapters) <- access (decides, never writes) <- selectors (read only) <- services
(every write) <- views and API. Tasks are sent by name from
`tournaments/kernel/jobs.py`, so no service imports `tournaments.tasks`; the engine never imports
Django. `.importlinter` states the layers and forbids circles (`make lint` runs it); this file runs
it too and checks what import-linter cannot: that access and the selectors never write to the
database, that no module imports inside a function to dodge a circle, and that the app's
modules say what they are for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest
from importlinter import configuration
from importlinter.application import use_cases

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("engine", "tournaments", "clubwhist", include_external_packages=True)


def test_the_import_linter_contracts_are_kept() -> None:
    # The use case, not `importlinter.cli`: the command line reconfigures logging for the whole
    # process (dictConfig), which would silence the loggers later tests read with caplog.
    configuration.configure()
    assert use_cases.lint_imports(
        config_filename=str(ROOT / ".importlinter"), cache_dir=None, no_logo=True
    )


FORMATS = ("events", "drives", "teams")


def _upward_pairs() -> list[tuple[str, str]]:
    """Each pair (importer, imported) that no chain of imports may join: inside each format,
    a lower layer never reaches a higher one; no format reaches another, the files, the URL
    maps or the tasks; the kernel reaches no format; the engine reaches no framework."""
    pairs = []
    for f in FORMATS:
        fmt = f"tournaments.{f}"
        pairs += [
            (f"{fmt}.selectors", f"{fmt}.services"),
            (f"{fmt}.access", f"{fmt}.services"),
            (f"{fmt}.access", f"{fmt}.selectors"),
            (f"{fmt}.models", f"{fmt}.selectors"),
            (f"{fmt}.services", f"{fmt}.views"),
            (f"{fmt}", "tournaments.files"),
            (f"{fmt}", "tournaments.tasks"),
            (f"{fmt}", "tournaments.urls"),
            ("tournaments.kernel", fmt),
        ]
        pairs += [(fmt, f"tournaments.{other}") for other in FORMATS if other != f]
    pairs += [
        ("tournaments.events.bridge", "tournaments.events.selectors"),
        ("tournaments.events.models", "tournaments.events.bridge"),
        ("tournaments.kernel", "tournaments.files"),
        ("engine", "django"),
        ("engine", "rest_framework"),
        ("engine", "celery"),
        ("engine", "tournaments"),
    ]
    return pairs


@pytest.mark.parametrize(("importer", "imported"), _upward_pairs())
def test_no_chain_of_imports_goes_upwards(
    graph: grimp.ImportGraph, importer: str, imported: str
) -> None:
    chain = graph.find_shortest_chain(importer=importer, imported=imported, as_packages=True)
    assert chain is None, f"{importer} reaches {imported}: {' -> '.join(chain or ())}"


def test_the_graph_sees_the_imports_that_are_allowed(graph: grimp.ImportGraph) -> None:
    # The negative checks above mean something only if the graph holds the real edges.
    assert graph.chain_exists(
        "tournaments.events.services", "tournaments.events.selectors", as_packages=True
    )
    assert graph.chain_exists("tournaments.tasks", "tournaments.events.services", as_packages=True)
    assert graph.chain_exists(
        "tournaments.events.selectors", "tournaments.events.access", as_packages=True
    )
    assert graph.chain_exists("tournaments.events.bridge", "engine", as_packages=True)
    assert graph.chain_exists("tournaments.events.models", "django", as_packages=True)
    assert graph.chain_exists("tournaments.drives.models", "tournaments.kernel", as_packages=True)
    assert graph.chain_exists("tournaments.teams.views", "tournaments.kernel", as_packages=True)
    assert graph.chain_exists("tournaments.files", "tournaments.drives", as_packages=True)
    # The backup: each format's part builds on the kernel's framework; the files list the parts.
    for f in FORMATS:
        assert graph.chain_exists(
            f"tournaments.{f}.services.backup", "tournaments.kernel.backup", as_packages=True
        )
        assert graph.chain_exists("tournaments.files.backup", f"tournaments.{f}.services.backup")
    assert graph.chain_exists("tournaments.urls", "tournaments.teams", as_packages=True)


# ORM calls that write. `update` counts only on a query (`X.objects...update()`, a chain of
# calls), so a dict's `update` is not taken for one.
WRITES = {"save", "delete", "create", "get_or_create", "update_or_create"}
WRITES |= {"bulk_create", "bulk_update", "select_for_update"}


def orm_writes(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, receiver = node.func.attr, node.func.value
        on_a_query = isinstance(receiver, ast.Call) or (
            isinstance(receiver, ast.Attribute) and receiver.attr == "objects"
        )
        if name in WRITES or (name == "update" and on_a_query):
            found.append(f"{path.relative_to(root)}:{node.lineno} .{name}()")
    return found


def test_access_and_the_selectors_never_write_to_the_database() -> None:
    app = ROOT / "tournaments"
    readers = [app / "kernel" / "access.py", app / "events" / "bridge.py"]
    for f in FORMATS:
        readers += [app / f / "access.py", *sorted((app / f / "selectors").glob("*.py"))]
    assert [hit for path in readers for hit in orm_writes(path)] == []


def test_the_write_check_would_notice_a_write(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "Club.objects.create(name='x')\n"
        "Event.objects.filter(pk=1).update(status='x')\n"
        "club.save()\n"
        "totals.update(more)\n"  # a dict: not a write
    )
    hits = [hit.split(" ")[1] for hit in orm_writes(sample, tmp_path)]
    assert hits == [".create()", ".update()", ".save()"]


# Imports inside a function, each with its reason. Anything else is an import that dodges a
# circle, which the layers make unnecessary.
LAZY_IMPORTS_ALLOWED = {
    # Django's documented place to wire signals and load task modules: the models are loaded.
    ("tournaments/apps.py", "tournaments"),
    # Optional: only with REDIS_URL (live results across processes).
    ("tournaments/kernel/live.py", "redis"),
    # Optional: only the club-laptop mode reads the network interfaces.
    ("clubwhist/lan.py", "psutil"),
}


def lazy_imports(path: Path) -> Iterator[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield str(path.relative_to(ROOT)), node.module, node.lineno
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield str(path.relative_to(ROOT)), alias.name, node.lineno


def app_modules() -> list[Path]:
    return [
        path
        for folder in ("tournaments", "clubwhist")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_no_import_inside_a_function_in_the_app() -> None:
    found = [
        f"{where}:{line} imports {module}"
        for path in app_modules()
        for where, module, line in lazy_imports(path)
        if not any(
            where == allowed_in and (module == allowed or module.startswith(allowed + "."))
            for allowed_in, allowed in LAZY_IMPORTS_ALLOWED
        )
    ]
    assert found == []


def test_every_app_module_says_what_it_is_for() -> None:
    """A docstring whose first line says what the module is for. (Size is the packages' to
    keep in check: a module holds one idea of one format or of the kernel, whatever its length.)"""
    silent = []
    for path in app_modules():
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text))
        if text.strip() and not (doc and doc.strip().splitlines()[0].strip()):
            silent.append(str(path.relative_to(ROOT)))
    assert silent == []
