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
import re
from pathlib import Path

from toolkit.core.wiring import PROTOCOL

# module of the game's package -> the names it must define; the kernel's: what finish_kernel needs
# (core.wiring.PROTOCOL), then what the runner, the bridge and the search read, then what finish_kernel makes
MODULES = {
    "rules": ("Rules",),
    "layout": ("STATE_SIZE", "MAX_OPTIONS", "RS_SIZE", "ACTION_BOUND", "COLUMNS"),
    "mechanics": ("start", "advance", "nth", "options", "apply", "record"),
    "heuristics": ("evaluate", "determinize"),
    "invariants": ("check_step", "check_end"),
    "kernel": (*PROTOCOL, "to_kernel", "policy_ids", "kind", "ACTION_BOUND", "play_game", "play_many"),
    "reference": ("new_game", "play_game", "record_row", "option_code", "kernel_state"),
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
    """The record's columns every game has (``docs/adding-a-game.md``, step 5): ``winner``, ``win_<seat>``,
    ``score_<seat>``, ``turns``, ``plies``, and what the design metrics read: ``decisions``, ``options``,
    ``lead_changes``, ``decisive_turn``."""
    return ("winner", *(f"win_{s}" for s in range(seats)), *(f"score_{s}" for s in range(seats)), "turns", "plies",
            "decisions", "options", "lead_changes", "decisive_turn")


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
        except Exception as error:  # any error on import: a syntax error, a name missing below it, ...
            found.append(f"{spec.package}.{module} cannot be imported: {type(error).__name__}: {error}")
            continue
        found += [f"{spec.package}.{module} does not define {name}" for name in names if not hasattr(loaded, name)]
    if not any("cannot be imported" in line for line in found):  # these read the modules above
        if tuple(spec.policies[:1]) != ("random",) or not set(REQUIRED_POLICIES) <= set(spec.policies):
            found.append(f"policies.POLICIES is {spec.policies}: it starts with random and has "
                         f"{', '.join(REQUIRED_POLICIES)}")
        seats = max(spec.seats(spec.Rules.preset("standard")), *spec.seat_counts())
        found += [f"kernel.COLUMNS has no {column!r}" for column in common_columns(seats) if column not in spec.columns]
    if spec.first_mover is None:
        found.append("SPEC gives no first_mover (the seat that moved first, from the result columns)")
    root = root if root is not None else checkout()
    if root is not None:
        found += [f"no {path}" for path in (p.format(game=spec.name) for p in FILES) if not (root / path).is_file()]
        found += rule_problems(spec.name, root)
        configs = root / "tests" / "games" / spec.name / f"{spec.name}_configs.py"
        if configs.is_file():
            defined = top_level_names(configs.read_text(encoding="utf-8"))
            found += [f"{configs.relative_to(root)} does not define {name}" for name in CONFIG_NAMES
                      if name not in defined]
    return found


RULE = re.compile(r"\b([A-Z]{1,2}-\d+)(?!\d)")  # a rule of a spec's §4: "P-3", also as "P-3.2" or "(P-3)"
SCENARIOS = "tests/games/{game}/test_scenarios*.py"


def spec_rules(spec_text: str) -> list[str]:
    """The rules of a spec's §4 ("Rules"), in order: each paragraph that starts with its bold number
    (``**P-3 A turn**`` is rule ``P-3``; its numbered items are parts of it).

    >>> spec_rules("## 4. Rules\\n\\n**Q-1 Set-up**\\n1. Scores start at 0.\\n\\n**Q-2 Start.** ...\\n## 5. Decisions")
    ['Q-1', 'Q-2']
    """
    rules_part = re.split(r"^## 4\b.*$", spec_text, maxsplit=1, flags=re.M)[-1]
    rules_part = re.split(r"^## 5\b", rules_part, maxsplit=1, flags=re.M)[0]
    return re.findall(r"^\*\*([A-Z]{1,2}-\d+)\b", rules_part, flags=re.M)


def named_rules(source: str) -> set[str]:
    """The rules the scenario tests of ``source`` name: those in a test function's name, docstring, body or
    decorators (``p_3`` in a name is ``P-3``), and those of the section comment it stands under (a line
    ``# ---- P-3 a turn`` at the left margin: the scenario files are laid out rule by rule).

    >>> source = "# -- Q-1 set-up\\ndef test_a():\\n    pass\\n\\ndef test_q_2_b():\\n    '(Q-4.1)'\\n"
    >>> sorted(named_rules(source))
    ['Q-1', 'Q-2', 'Q-4']
    >>> sorted(named_rules("# -- Q-1 set-up\\ndef helper():\\n    pass\\n"))  # no test stands under it
    []
    """
    lines = source.splitlines()
    section: dict[int, set] = {}  # line -> the rules of the section comment in force there
    current: set = set()
    for number, line in enumerate(lines, 1):
        if line.startswith("#") and RULE.search(line):
            current = set(RULE.findall(line))
        section[number] = current
    named = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            text = "\n".join(lines[first - 1:node.end_lineno])
            words = node.name.replace("_", " ")  # test_p_3_... names P-3
            text += " " + re.sub(r"\b([a-z]{1,2}) (\d+)\b", lambda m: f"{m[1].upper()}-{m[2]}", words)
            named |= set(RULE.findall(text)) | section.get(first, set())
    return named


def rule_problems(game: str, root: Path) -> list[str]:
    """Each rule of ``docs/rules/<game>.md``'s §4 without a scenario test that names it (:func:`named_rules`
    over ``tests/games/<game>/test_scenarios*.py``), one line each."""
    spec = root / "docs" / "rules" / f"{game}.md"
    if not spec.is_file():
        return []  # the missing spec is reported with the files
    rules = spec_rules(spec.read_text(encoding="utf-8"))
    if not rules:
        return [f"docs/rules/{game}.md numbers no rule in its §4 (**{game[0].upper()}-1 ...**)"]
    named = set()
    for path in sorted((root / "tests" / "games" / game).glob("test_scenarios*.py")):
        named |= named_rules(path.read_text(encoding="utf-8"))
    where = SCENARIOS.format(game=game)
    return [f"rule {rule} of docs/rules/{game}.md has no scenario test that names it ({where})"
            for rule in rules if rule not in named]


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
