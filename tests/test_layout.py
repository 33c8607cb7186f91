"""The package's layout rules that import-linter does not check (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import calasolve

SRC = Path(calasolve.__file__).resolve().parent


def test_every_module_exports_only_what_it_defines() -> None:
    """One import path per public name: a module's ``__all__`` lists its own definitions, never a
    name it imports (only ``calasolve/__init__.py``, the public API, re-exports)."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        defined: set[str] = set()
        exported: list[str] = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        defined.add(target.id)
                        if target.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                            exported = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                defined.add(node.target.id)
        offenders += [f"{path.relative_to(SRC)}: {name}" for name in exported if name not in defined]
    assert offenders == []


def test_the_types_layer_holds_data_only() -> None:
    """The types import nothing of the package above the game rules (the contract in pyproject.toml
    says the same to import-linter); each module of it is named for what it holds."""
    for path in sorted((SRC / "types").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1 or (node.module or "").startswith("game"), (path.name, node.module)


def import_cycles(package: str = "calasolve") -> list[tuple[str, str]]:
    """Every import ``a -> b`` of the package's modules that ``b`` leads back from, function-level
    imports counted (grimp, as import-linter builds its graph)."""
    import grimp

    graph = grimp.build_graph(package)
    return sorted((a, b) for a in graph.modules for b in graph.find_modules_directly_imported_by(a)
                  if graph.chain_exists(importer=b, imported=a))


def test_no_import_cycle_even_through_a_local_import() -> None:
    assert import_cycles() == []


def test_the_cycle_check_sees_a_local_import(tmp_path: Path, monkeypatch: Any) -> None:
    pkg = tmp_path / "circle"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import a  # dodges the cycle at import time\n    return a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("circle") == [("circle.a", "circle.b"), ("circle.b", "circle.a")]
