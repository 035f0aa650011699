"""No import circle between the engine's modules: a module that needs another's work is
never needed back, so each can be read, tested and moved on its own.

Every `import` and `from ... import` of `engine/` is read from the source (AST, at module
level and inside functions alike), and the strongly connected components of the graph of
engine modules must all be single modules. `from package import name` is an edge to the
submodule `package.name` when there is one, else to the package itself (its `__init__`);
a package importing its own submodule is an ordinary edge, so a submodule that imports its
package back closes a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The engine modules `name` imports anywhere in its source."""
    modules = set(known)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(name, path).split(".")
                up = package[: len(package) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    found.add(sub)
                elif base in modules:
                    found.add(base)
    found.discard(name)
    return found


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def engine_graph() -> dict[str, set[str]]:
    modules = engine_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_no_import_circle_in_the_engine() -> None:
    graph = engine_graph()
    assert len(graph) > 50  # the walk really covers the engine
    assert "engine.cards" in graph["engine.boards"]
    assert cycles(graph) == []


def test_the_finder_would_notice_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    # a package and its submodule that imports the package back
    assert cycles({"engine.x": {"engine.x.y"}, "engine.x.y": {"engine.x"}}) == [
        ["engine.x", "engine.x.y"]
    ]


def test_the_reader_sees_imports_inside_functions(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from engine.boards import Board\n"
        "def f():\n    from engine import pbn\n    import engine.cards\n"
        "    from . import reading\n",
        encoding="utf-8",
    )
    known = {"engine", "engine.boards", "engine.pbn", "engine.cards", "engine.reading"}
    found = imports_of("engine.m", source, known)
    assert found == {"engine.boards", "engine.pbn", "engine.cards", "engine.reading"}
