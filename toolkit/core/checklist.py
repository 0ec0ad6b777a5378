"""Everything a game supplies, in one list, and the check of a game against it (``toolkit check GAME``).

``docs/adding-a-game.md`` walks through the same list with the tutorial game's files; ``tests/test_docs.py``
checks that its module table names exactly :data:`MODULES`.  :func:`problems` reports every missing piece by
name, so a contributor who skipped a step of the guide reads which one, instead of a traceback from deep in
a run.

Module names are looked up in the game's package (``toolkit.games.<game>`` or its ``GameSpec.package``);
files in a checkout of the repository (``root``), when there is one: a wheel has no tests or docs.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from toolkit.core.wiring import PROTOCOL

# module of the game's package -> the names it must define; the kernel's: what finish_kernel needs
# (core.wiring.PROTOCOL), then what the runner, the bridge and the search read, then what finish_kernel makes
MODULES = {
    "rules": ("Rules",),
    "kernel": (*PROTOCOL, "to_kernel", "policy_ids", "kind", "ACTION_BOUND", "play_game", "play_many"),
    "reference": ("new_game", "play_game", "record_row", "option_code"),
    "policies": ("POLICIES", "make_policy"),
    "odds": ("summary",),
    "view": ("DECISIONS", "describe", "position"),
    "viz": ("draw",),
}
REQUIRED_POLICIES = ("random", "greedy", "lookahead")  # random first: the spec's §5 player
# the files of a game in a checkout, ``{game}`` its name
FILES = ("docs/rules/{game}.md", "tests/games/{game}/{game}_configs.py", "tests/games/{game}/notebook_panel.json",
         "notebooks/{game}.py")
CONFIG_NAMES = ("CONFIGS", "EQUALITY", "MCTS_SCAN")  # what tests/games/<game>/<game>_configs.py defines


def common_columns(seats: int) -> tuple:
    """The record's columns every game has: ``winner``, ``win_<seat>``, ``score_<seat>``, ``turns``, ``plies``."""
    return ("winner", *(f"win_{s}" for s in range(seats)), *(f"score_{s}" for s in range(seats)), "turns", "plies")


def problems(spec, root: Path | None = None) -> list[str]:
    """What game ``spec`` (a :class:`~toolkit.core.game.GameSpec`) lacks, one line each; empty when nothing.

    Examples
    --------
    >>> import toolkit
    >>> problems(toolkit.GAMES["pig"])
    []
    """
    found = []
    for module, names in MODULES.items():
        try:
            loaded = importlib.import_module(f"{spec.package}.{module}")
        except ImportError as error:
            found.append(f"{spec.package}.{module} cannot be imported: {error}")
            continue
        found += [f"{spec.package}.{module} does not define {name}" for name in names if not hasattr(loaded, name)]
    if tuple(spec.policies[:1]) != ("random",) or not set(REQUIRED_POLICIES) <= set(spec.policies):
        found.append(f"policies.POLICIES is {spec.policies}: it starts with random and has {', '.join(REQUIRED_POLICIES)}")
    seats = max(spec.seats(spec.Rules.preset("standard")), *spec.seat_counts())
    found += [f"kernel.COLUMNS has no {column!r}" for column in common_columns(seats) if column not in spec.columns]
    if spec.first_mover is None:
        found.append("SPEC gives no first_mover (the seat that moved first, from the result columns)")
    root = root if root is not None else checkout()
    if root is not None:
        found += [f"no {path}" for path in (p.format(game=spec.name) for p in FILES) if not (root / path).is_file()]
        configs = root / "tests" / "games" / spec.name / f"{spec.name}_configs.py"
        if configs.is_file():
            defined = top_level_names(configs.read_text(encoding="utf-8"))
            found += [f"{configs.relative_to(root)} does not define {name}" for name in CONFIG_NAMES
                      if name not in defined]
    return found


def top_level_names(source: str) -> set[str]:
    r"""The names a module's source binds at its top level (assignments, annotated ones, imports, functions),
    read without running it (the test configs import the game's rules).

    >>> sorted(top_level_names("A = 1\nB: int = 2\nfrom x import C\ndef d(): E = 3"))
    ['A', 'B', 'C', 'd']
    """
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def checkout() -> Path | None:
    """The repository this package runs from, if it is a checkout (docs and tests beside it), else None."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "docs" / "adding-a-game.md").is_file() and (root / "tests").is_dir() else None
