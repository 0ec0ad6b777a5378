"""Every docstring example in the package runs and shows what it says.

The modules are found by their text (any ``>>>`` line), so a new example is run without being listed
here; a module that holds examples but none is run, or one that fails, fails its test.
"""

from __future__ import annotations

import doctest
import importlib
import types
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit"


def modules_with_examples() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def run_examples(module) -> doctest.TestResults:
    return doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)


def test_the_package_has_examples():
    assert len(MODULES) >= 30, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    import matplotlib

    matplotlib.use("Agg")
    result = run_examples(importlib.import_module(name))
    assert result.attempted > 0, f"{name} has '>>> ' lines but no example ran"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (run pytest " \
                               f"--doctest-modules {name.replace('.', '/')}.py to see them)"


def test_negative_control_a_wrong_example_fails():
    module = types.ModuleType("wrong_example")
    module.__doc__ = ">>> 1 + 1\n3\n"
    assert run_examples(module) == doctest.TestResults(failed=1, attempted=1)
