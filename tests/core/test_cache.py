"""The compiled-code cache is keyed by every source compiled code can depend on (``core.cache``): an edit
to a helper in another module than the cached function's own runs as new code in the next process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolkit.core import cache

REPO = Path(__file__).resolve().parents[2]

# a cached function in a file of its own that inlines a helper of toolkit.core.rng (below): Numba alone
# checks only this file, which the test never edits
CALLER = """
import numpy as np
from toolkit.core import rng
from toolkit.core.jit import njit


@njit
def draw(seed):
    state = np.empty(2, np.uint64)
    rng.seed_streams(state, seed, 0)
    return rng.below(state, 1, 1000)
"""

# argv[1], if given, pins Numba's cache directory after toolkit chose its own: Numba's keying alone
SCRIPT = """
import sys
import numba
from toolkit.core.jit import CACHE_DIR
if len(sys.argv) > 1:
    numba.config.CACHE_DIR = sys.argv[1]
import caller
print(caller.draw(7), caller.draw.stats.cache_hits.get(caller.draw.signatures[0], 0), CACHE_DIR)
"""


def _scratch(tmp_path: Path) -> Path:
    """A copy of the package beside the caller module and the script."""
    shutil.copytree(REPO / "toolkit", tmp_path / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "caller.py").write_text(CALLER)
    (tmp_path / "run.py").write_text(SCRIPT)
    return tmp_path


def _run(scratch: Path, *argv) -> tuple[int, int, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR")}
    env.update(PYTHONPATH=str(scratch), TOOLKIT_CACHE_DIR=str(scratch / "cache"))
    done = subprocess.run([sys.executable, "run.py", *argv], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=300, check=True)
    value, hits, directory = done.stdout.split()
    return int(value), int(hits), directory


def _edit_below(scratch: Path) -> None:
    """``rng.below`` returns 1000 more than before (a change no real draw could make)."""
    path = scratch / "toolkit" / "core" / "rng.py"
    text = path.read_text()
    old = "    return np.int64(((next_u64(state, k) >> _U32) * np.uint64(n)) >> _U32)\n"
    assert old in text, "rng.below changed: update this test's edit"
    path.write_text(text.replace(old, old.replace("return np.int64(", "return 1000 + np.int64(")))


def test_an_edited_helper_in_another_module_runs_as_new_code(tmp_path):
    scratch = _scratch(tmp_path)
    value, hits, first_dir = _run(scratch)
    assert 0 <= value < 1000 and hits == 0  # compiled
    assert _run(scratch) == (value, 1, first_dir)  # the next process loads it: the cache works
    _edit_below(scratch)
    edited, hits, edited_dir = _run(scratch)
    assert edited == value + 1000 and hits == 0 and edited_dir != first_dir


def test_control_numbas_own_key_runs_the_old_code(tmp_path):
    """Negative control: with the directory pinned (Numba's keying alone), the same edit is not seen, so
    the test above can tell."""
    scratch = _scratch(tmp_path)
    pinned = str(tmp_path / "pinned")
    value, _, _ = _run(scratch, pinned)
    _edit_below(scratch)
    stale, hits, _ = _run(scratch, pinned)
    assert stale == value and hits == 1


def test_the_digest_covers_the_compiled_folders_only(tmp_path):
    scratch = _scratch(tmp_path)
    package = scratch / "toolkit"
    before = cache.source_digest(package)
    (package / "cli.py").write_text((package / "cli.py").read_text() + "\n# a comment\n")
    assert cache.source_digest(package) == before  # outside core/ and games/: no recompile
    helper = package / "games" / "valhalla" / "policies.py"
    helper.write_text(helper.read_text() + "\n# a comment\n")
    assert cache.source_digest(package) != before


def drawing_imports(package) -> list[str]:
    """The modules under ``core/`` and ``games/`` other than a game's words and drawings
    (``cache.NOT_COMPILED``) that import one of those: compiled code could then depend on them."""
    import ast

    found = []
    for folder in cache.COMPILED:
        for path in sorted((package / folder).rglob("*.py")):
            if path.name in cache.NOT_COMPILED:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [f"{node.module or ''}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom)
                         else [])
                if any(n.split(".")[-1] in ("view", "viz") or ".view." in n or ".viz." in n for n in names):
                    found.append(str(path.relative_to(package)))
    return found


def test_a_games_words_and_drawings_are_outside_the_digest(tmp_path):
    """Issue 38: ``view.py`` and ``viz.py`` compile nothing and nothing compiled imports them, so an edit
    there keeps the compiled kernels (it cost every process a minute of recompiling).  Negative control: a
    kernel module that imported one would be found by the check."""
    assert drawing_imports(cache.PACKAGE) == []
    scratch = _scratch(tmp_path)
    package = scratch / "toolkit"
    before = cache.source_digest(package)
    for name in cache.NOT_COMPILED:
        drawing = package / "games" / "valhalla" / name
        drawing.write_text(drawing.read_text() + "\n# a comment\n")
    assert cache.source_digest(package) == before
    kernel = package / "games" / "valhalla" / "kernel.py"
    kernel.write_text(kernel.read_text() + "\nfrom toolkit.games.valhalla import viz  # noqa\n")
    assert drawing_imports(package) == ["games/valhalla/kernel.py"]


def test_prune_removes_old_unused_digests_and_keeps_the_newest(tmp_path):
    now = time.time()
    ages = {"a": 100, "b": 30, "c": 20, "d": 16, "e": 1, "f": 0}  # days since last use
    for name, days in ages.items():
        folder = tmp_path / f"{cache.PREFIX}{name}"
        folder.mkdir()
        os.utime(folder, (now - days * 86_400, now - days * 86_400))
    (tmp_path / "unrelated").mkdir()
    keep = tmp_path / f"{cache.PREFIX}a"  # the one in use, however old
    removed = cache.prune(tmp_path, keep, now)
    # the three newest others (f, e, d) stay whatever their age; of the rest, those over KEEP_DAYS go
    assert sorted(p.name[len(cache.PREFIX):] for p in removed) == ["b", "c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"{cache.PREFIX}{n}" for n in "adef"] + ["unrelated"])


def test_the_root_comes_from_the_environment_or_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLKIT_CACHE_DIR", str(tmp_path / "a"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "b"))
    assert cache.cache_root() == tmp_path / "a"
    monkeypatch.delenv("TOOLKIT_CACHE_DIR")
    assert cache.cache_root() == tmp_path / "b"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    root = cache.cache_root()
    assert root == tmp_path / "xdg" / "toolkit" or sys.platform != "linux"
    assert "site-packages" not in str(root)
