"""The drivers' two copies (``core.driver``): a plain loop without the tree search compiled in, and one
that can search, picked by the line-up."""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core.driver import Searching

GAMES = list(toolkit.GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_the_plain_loop_has_no_search_and_the_other_has_the_games(name):
    """The plain copy's ``decide`` is compiled without the search (its scope has none: a search seat
    reaching it would be a typing error, not a silent miss), the searching copy's with the game's."""
    kernel = toolkit.GAMES[name].kernel
    plain, searching = kernel.play_game.decide, kernel.play_game.searching.decide
    assert plain.py_func.__globals__["search"] is None and not plain.py_func.__globals__["SEARCH"]
    assert searching.py_func.__globals__["search"] is kernel.mcts and searching.py_func.__globals__["SEARCH"]
    assert isinstance(kernel.play_many, Searching)
    assert kernel.play_many.plain.py_func.__globals__["play_game"] is kernel.play_game
    assert kernel.play_many.searching.py_func.__globals__["play_game"] is kernel.play_game.searching


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args)
        return len(self.calls)


@pytest.mark.parametrize("codes, copy", [([0, 1], "plain"), ([0, 0, 3], "plain"), ([-200, 1], "searching"),
                                         ([2, 0, -(5 + (3 << 20))], "searching")])
def test_searching_picks_the_copy_by_the_line_up(codes, copy):
    plain, searching = Recorder(), Recorder()
    loop = Searching(plain, searching)
    assert loop("params", np.array(codes, np.int64), 7, "out") == 1
    called = {"plain": plain, "searching": searching}[copy]
    other = searching if copy == "plain" else plain
    assert len(called.calls) == 1 and not other.calls
    assert called.calls[0][0] == "params" and called.calls[0][2:] == (7, "out")


def test_a_templates_copies_are_named_by_its_source_so_an_edit_compiles_them_again(tmp_path):
    """Numba checks a cache entry against the kernel's file only, and a cached caller holds its callees'
    code; the copy's qualified name, which names its cache files, carries a digest of the template's module
    and of the names of the copies it calls, so editing ``core/mcts.py`` gives the searches, and the loops
    that call them, new cache files instead of the old code."""
    import sys

    from toolkit.core import driver
    from toolkit.core.jit import njit

    kernel = toolkit.GAMES["valhalla"].kernel
    assert kernel.mcts.py_func.__qualname__.startswith("mcts_")
    assert kernel.mcts.py_func.__code__.co_filename == kernel.__file__  # filed beside the kernel
    here = sys._getframe(0)
    (tmp_path / "outer.py").write_text("def outer(x):\n    return loop(x)\n")  # never edited

    def copies(text):
        driver._source_digest.cache_clear()
        namespace: dict = {}
        for path in (tmp_path / "loop.py", tmp_path / "outer.py"):
            if path.name == "loop.py":
                path.write_text(text)
            exec(compile(path.read_text(), str(path), "exec"), namespace)
        inner = driver.from_template(namespace["loop"], "loop", {}, here)
        return inner, driver.from_template(namespace["outer"], "outer", {"loop": njit(inner)}, here)

    before, outer_before = copies("def loop(x):\n    return x + 1\n")
    after, outer_after = copies("def loop(x):\n    return x + 2\n")  # the template edited
    assert before.__name__ == after.__name__ == "loop"
    assert before.__qualname__ != after.__qualname__
    # and the copy that calls it, whose own template did not change
    assert outer_before.__qualname__ != outer_after.__qualname__
    again, outer_again = copies("def loop(x):\n    return x + 2\n")  # negative control: the same text names the same
    assert (again.__qualname__, outer_again.__qualname__) == (after.__qualname__, outer_after.__qualname__)