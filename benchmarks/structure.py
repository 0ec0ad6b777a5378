"""How the package is put together, measured (issue 15's structural targets).

Prints, for the modules of ``toolkit/``:

- **import cycles**: the strongly connected groups of the import graph, counting every
  ``import``/``from ... import`` inside ``toolkit`` wherever it stands (a function-level import
  is still a dependency; only the implicit import of a package's ``__init__`` by its submodules
  is not an edge);
- **generic modules that import a game**: modules outside ``toolkit/games/`` that import
  ``toolkit.games.<game>`` (the registry, ``toolkit.games``, is allowed);
- **generic files that list the games**: the modules of ``toolkit/`` outside ``toolkit/games/``,
  the benchmarks other than a game's own (``benchmarks/<game>.py``), the overview notebook and the
  notebook tests, holding a literal list, tuple, set or dict with two or more game names, or
  importing two or more games: each should iterate over the registry (``toolkit.GAMES``) instead.

The duplicate pairs are counted by the library tool: ``duplicates --repo toolkit``.

    .venv/bin/python benchmarks/structure.py [--list]
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("valhalla", "herrlof", "halali", "attila", "walhalla")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def toolkit_modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file of every module of the package ``toolkit`` under ``root``."""
    return {module_name(p, root): p for p in sorted((root / "toolkit").rglob("*.py"))}


def import_cycles(root: Path = ROOT) -> list[list[str]]:
    """The import cycles of the package under ``root`` (``tests/test_layers.py`` wants none)."""
    modules = toolkit_modules(root)
    return cycles({name: imports(path, name, modules) for name, path in modules.items()})


def imports(path: Path, name: str, modules) -> set[str]:
    """The toolkit modules ``path`` imports (``from pkg import sub`` names the submodule)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                base = ".".join(up[:len(up) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return sorted(out)


def game_literals(path: Path) -> bool:
    """Does the file hold a literal collection with two or more game names?"""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        else:
            continue
        names = {i.value for i in items if isinstance(i, ast.Constant) and i.value in GAMES}
        if len(names) >= 2:
            return True
    return False


def imported_games(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            parts = t.split(".")
            if parts[:2] == ["toolkit", "games"] and len(parts) > 2 and parts[2] in GAMES:
                names.add(parts[2])
    return names


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name the modules and files counted")
    args = parser.parse_args(argv)
    modules = toolkit_modules()
    found = import_cycles()
    print(f"modules in toolkit/: {len(modules)}, lines: {sum(len(p.read_text().splitlines()) for p in modules.values())}")
    print(f"import cycles (groups of modules importing each other): {len(found)}")
    if args.list:
        for group in found:
            print("   ", " <-> ".join(group))
    generic = sorted(n for n, p in modules.items()
                     if not n.startswith("toolkit.games.") and n != "toolkit.games" and imported_games(p))
    print(f"generic modules importing a specific game: {len(generic)}")
    if args.list:
        for n in generic:
            print("   ", n, sorted(imported_games(modules[n])))
    candidates = [p for p in modules.values() if "games" not in p.relative_to(ROOT / "toolkit").parts[:1]]
    candidates += [p for p in sorted((ROOT / "benchmarks").glob("*.py")) if p.stem not in GAMES + ("structure",)]
    candidates += [ROOT / "notebooks" / "overview.py", ROOT / "tests" / "test_notebooks.py",
                   ROOT / "tests" / "browser" / "test_notebooks_lab.py"]
    listing = sorted(str(p.relative_to(ROOT)) for p in candidates
                     if p.exists() and (game_literals(p) or len(imported_games(p)) >= 2))
    print(f"generic files listing the games: {len(listing)}")
    if args.list:
        for f in listing:
            print("   ", f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
