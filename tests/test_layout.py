"""The package's architecture, checked from its imports (an AST walk over ``pybridge/``):
no import cycles (lazy imports inside functions count; ``if TYPE_CHECKING:`` blocks do
not run and do not), no module importing another's underscore names, at most 12 modules
at the package root, and every subpackage documented."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PKG = Path(__file__).resolve().parent.parent / "pybridge"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG.rglob("*.py")}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _imports(name: str, path: Path, modules: dict[str, Path]):
    """(target module, imported name) for every import of a pybridge module."""
    tree = ast.parse(path.read_text())
    skip = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "pybridge":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub, None) if sub in modules else (target, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pybridge":
                    yield alias.name, None


def _graph() -> tuple[nx.DiGraph, list[str]]:
    modules = _modules()
    graph = nx.DiGraph()
    private = []
    for name, path in modules.items():
        graph.add_node(name)
        for target, imported in _imports(name, path, modules):
            # importing a.b.c runs a/__init__.py and a/b/__init__.py first
            parts = target.split(".")
            for k in range(2, len(parts) + 1):
                step = ".".join(parts[:k])
                if step in modules and step != name and not name.startswith(step + "."):
                    graph.add_edge(name, step)
            if imported and imported.startswith("_") and not imported.startswith("__"):
                private.append(f"{name} imports {target}.{imported}")
    return graph, private


def test_no_import_cycles() -> None:
    graph, _ = _graph()
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles}"


def test_no_private_names_across_modules() -> None:
    _, private = _graph()
    assert not private, "\n".join(private)


def test_at_most_twelve_root_modules() -> None:
    root = sorted(p.name for p in PKG.glob("*.py"))
    assert len(root) <= 12, root


def test_subpackages_are_documented() -> None:
    for init in PKG.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc) > 40, f"{init.parent.name}/__init__.py needs a docstring saying what it holds"


def test_the_checker_sees_a_cycle(tmp_path: Path) -> None:
    """The cycle search is not vacuous: two modules importing each other (one lazily) are found."""
    graph = nx.DiGraph([("a", "b"), ("b", "a")])
    assert [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1] == [["a", "b"]]
    src = "def f():\n    from pybridge.api import check\nif TYPE_CHECKING:\n    from pybridge.model import Instance\n"
    path = tmp_path / "mod.py"
    path.write_text(src)
    found = list(_imports("pybridge.mod", path, {"pybridge.api": path, "pybridge.model": path}))
    assert found == [("pybridge.api", "check")]


def test_architecture_picture_matches_the_code() -> None:
    """docs/architecture.dot is regenerated from the imports by scripts/architecture.py."""
    import subprocess
    import sys

    script = PKG.parent / "scripts" / "architecture.py"
    proc = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
