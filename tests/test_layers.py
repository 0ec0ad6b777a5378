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
LAYERS = ["core", "games", "analysis", "viz", "top"]  # a game's viz.py too is in the games layer
TOP = {"cli", "report", "app"}
KNOWN: set = set()  # none left (core's name lookups read toolkit.core.registry, filled from above)


def layer_of(module: str) -> str | None:
    """The layer of ``toolkit.<part>...``, or None for a module outside the layers."""
    parts = module.split(".")
    if parts[0] != "toolkit":
        return None
    if len(parts) == 1:  # the package's top (``import toolkit``): what the user imports, above everything
        return "top"
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
        if relative.parts == ("__init__.py",):
            continue  # the package's top itself
        own = layer_of("toolkit." + ".".join(relative.with_suffix("").parts))
        if own is None:
            continue
        for module in imported(path):
            target = layer_of(module)
            if target is not None and LAYERS.index(target) > LAYERS.index(own):
                out.add((relative.as_posix(), ".".join(module.split(".")[:2]) or module))
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


def test_the_check_sees_a_game_drawing_from_the_plots_and_core_importing_the_top(tmp_path):
    """Controls: a game's drawings taking a helper from ``toolkit.viz.plots`` (the layer above the games), and
    core importing the package's top (``import toolkit``, as ``core/warm.py`` did), are both reported."""
    game, core = tmp_path / "games" / "pig", tmp_path / "core"
    game.mkdir(parents=True)
    core.mkdir()
    (game / "viz.py").write_text("from toolkit.viz.plots import _axes\n")
    (core / "warm.py").write_text("def compile_copy():\n    import toolkit\n")
    assert upward(tmp_path) == {("games/pig/viz.py", "toolkit.viz"), ("core/warm.py", "toolkit")}


def _structure():
    import importlib.util

    path = PACKAGE.parent / "benchmarks" / "structure.py"
    spec = importlib.util.spec_from_file_location("structure", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_module_imports_itself_round_a_circle():
    """0 import circles in ``toolkit/`` (issue 53): every import counts, wherever it stands (a function's
    import too), but a package's ``__init__`` imported by its own submodules (``benchmarks/structure.py``)."""
    assert _structure().import_cycles() == []


def test_the_circle_check_sees_a_circle(tmp_path):
    """The control: a game folder whose kernel imports its heuristics at its end, and the heuristics the
    kernel's layout back, as every game folder did."""
    game = tmp_path / "toolkit" / "games" / "dice"
    game.mkdir(parents=True)
    for package in (tmp_path / "toolkit", tmp_path / "toolkit" / "games", game):
        (package / "__init__.py").write_text("")
    (game / "kernel.py").write_text("STATE_SIZE = 3\nfrom toolkit.games.dice.heuristics import choose  # noqa: E402\n")
    (game / "heuristics.py").write_text("from toolkit.games.dice.kernel import STATE_SIZE\n")
    (game / "layout.py").write_text("STATE_SIZE = 3\n")
    assert _structure().import_cycles(tmp_path) == [["toolkit.games.dice.heuristics", "toolkit.games.dice.kernel"]]
    (game / "heuristics.py").write_text("from toolkit.games.dice.layout import STATE_SIZE\n")
    assert _structure().import_cycles(tmp_path) == []
