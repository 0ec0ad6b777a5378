"""Imports run downward (issue 37, point 4): ``toolkit.core`` below ``toolkit.games``, both below
``toolkit.analysis``, below ``toolkit.viz``, below the command line, the report and the notebooks.

Every ``import`` statement of the package is read (the source's syntax tree: imports inside functions
count, examples in docstrings do not) and each from a layer to a higher one is listed: there must be
none (:data:`KNOWN` would list one kept on purpose, by place).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit"
# lowest first; a module not named here (toolkit/__init__.py, the openspiel bridge, the jit helpers) is
# left out of the check
LAYERS = ["core", "games", "analysis", "viz", "top"]  # a game's viz.py is in the viz layer
TOP = {"cli", "report", "app"}
KNOWN: set = set()  # none left (core's name lookups read toolkit.core.registry, filled from above)


def layer_of(module: str) -> str | None:
    """The layer of ``toolkit.<part>...``, or None for a module outside the layers."""
    parts = module.split(".")
    if parts[0] != "toolkit" or len(parts) < 2:
        return None
    if parts[1] == "games" and parts[-1] == "viz":  # a game's own drawings: its presentation, over viz's helpers
        return "viz"
    if parts[1] in LAYERS[:-1]:
        return parts[1]
    return "top" if parts[1] in TOP else None


def imported(path: Path) -> list[str]:
    """Every module ``path`` imports (absolute, as written)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def upward(package: Path = PACKAGE) -> set[tuple[str, str]]:
    """(file, module) for each import from a layer to a higher one."""
    out = set()
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        own = layer_of("toolkit." + ".".join(relative.with_suffix("").parts))
        if own is None:
            continue
        for module in imported(path):
            target = layer_of(module)
            if target is not None and LAYERS.index(target) > LAYERS.index(own):
                out.add((relative.as_posix(), ".".join(module.split(".")[:2])))
    return out


def test_imports_run_downward():
    assert upward() == KNOWN


def test_the_check_sees_an_upward_import(tmp_path):
    """The control: a copy of core/params.py importing the rules panel, as it did, is reported."""
    core = tmp_path / "core"
    core.mkdir()
    (core / "params.py").write_text((PACKAGE / "core" / "params.py").read_text()
                                    + "\n\ndef _panel():\n    from toolkit.viz.controls import CheckboxGrid\n")
    assert upward(tmp_path) == {("core/params.py", "toolkit.viz")}
